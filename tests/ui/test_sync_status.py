"""The desk's sync label and background pusher, against a real private PostgreSQL server.

Issue 13: "A desk appends to its own SQLite file first (nothing waits for the network),
then pushes new events in the background … The desk shows its sync state (synced / N
events waiting / conflict)."
"""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import MATCH_PAYLOAD, REFEREE, ok, trigger

_CLUSTER_PATH = Path(__file__).resolve().parents[1] / "server" / "pg_cluster.py"


def _pg_cluster_module() -> Any:
    """tests/server/pg_cluster.py (the server tests' private cluster), loaded by path."""
    if "pg_cluster" in sys.modules:
        return sys.modules["pg_cluster"]
    spec = importlib.util.spec_from_file_location("pg_cluster", _CLUSTER_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pg_cluster"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    pg = _pg_cluster_module()
    bin_dir = pg.find_bin_dir()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the server tests: {pg.missing_reason()}")
        pytest.skip(pg.missing_reason())
    running = pg.start_cluster(bin_dir)
    try:
        yield running
    finally:
        running.stop("immediate")
        running.remove()


@pytest.fixture
def desk_urls(cluster: Any) -> list[str]:
    """A fresh tournament database with two tables, claims open (the organizer published a
    file's draw, ``server publish``), so desks record their own ids; the desks' addresses."""
    import psycopg

    from referee_desk.store.postgres.init import init_server
    from referee_desk.store.postgres.server import TournamentServer

    name = f"cup{uuid.uuid4().hex[:8]}"
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    admin = cluster.url(name)
    report = init_server(admin, ["1号桌", "2号桌"])
    with TournamentServer.open(report.organizer.url(admin)) as organizer:
        organizer.set_claims(True)
    return [d.url(admin) for d in report.desks]


def _set_server(qtbot: Any, window: Any, url: str) -> None:
    """Type the server address into the settings dialog, as the referee would."""
    dialog = trigger(window, "actionSettings")
    combo = dialog.ui.languageCombo
    combo.setCurrentIndex(combo.findData(window.languages.current))  # keep the language
    dialog.ui.serverUrlEdit.clear()
    qtbot.keyClicks(dialog.ui.serverUrlEdit, url)
    ok(dialog)
    QApplication.processEvents()


def _entry(window: Any, text: str = "桌号已核对") -> None:
    """One entry through the desk: a note typed into the note dialog."""
    dialog = trigger(window, "actionNote")
    dialog.ui.reasonCombo.setEditText(text)
    ok(dialog)
    QApplication.processEvents()


def _label(window: Any) -> str:
    return window.desk_sync.label.text()


def test_desk_pushes_in_the_background_and_shows_synced(qtbot, desk, desk_urls, languages):
    from referee_desk.store.postgres.server import TournamentServer

    assert not window_label_visible(desk)  # no server set: no label
    _set_server(qtbot, desk, desk_urls[0])
    assert desk.settings.server_url == desk_urls[0]
    assert desk.desk_sync.pusher is not None
    for _ in range(6):  # six notes: six appended events
        _entry(desk)
    assert desk.tf is not None and desk.session is not None
    match_id = desk.session.match_id
    count = desk.tf.head(match_id)[0]
    assert count == 7
    assert desk.desk_sync.pusher.wait_until(lambda s: s.status == "synced", timeout=20)
    qtbot.waitUntil(lambda: _label(desk) == "Synced", timeout=20000)
    assert desk.desk_sync.label.isVisible()
    assert "***" in desk.desk_sync.label.toolTip()  # the password is never shown
    with TournamentServer.open(desk_urls[0]) as server:
        assert server.events(match_id) == desk.tf.events(match_id)
    languages.apply("zh_CN")
    assert _label(desk) == "已同步"
    languages.apply("en")
    # One more entry: waiting, then synced again, without the desk asking.
    _entry(desk)
    assert desk.desk_sync.pusher.wait_until(lambda s: s.status == "synced", timeout=20)
    with TournamentServer.open(desk_urls[0]) as server:
        assert server.head(match_id)[0] == count + 1


def window_label_visible(window: Any) -> bool:
    return window.desk_sync.label.isVisible()


def test_server_down_the_desk_records_and_counts_what_waits(qtbot, desk, languages):
    pg = _pg_cluster_module()
    url = f"postgresql://nobody:pw@127.0.0.1:{pg.free_port()}/cup"  # nothing listens there
    _set_server(qtbot, desk, url)
    for _ in range(4):
        _entry(desk)
    assert desk.tf is not None and desk.session is not None
    total = desk.tf.head(desk.session.match_id)[0]
    assert total == 5  # every entry recorded although the server is unreachable
    qtbot.waitUntil(
        lambda: _label(desk) == f"{total} events waiting (server not reached)", timeout=20000
    )
    assert "cannot reach the server" in desk.desk_sync.label.toolTip()
    languages.apply("zh_CN")
    assert _label(desk) == f"{total} 条待上传（连不上服务器）"
    languages.apply("en")


def test_a_fork_shows_conflict_and_is_never_merged(qtbot, desk, desk_urls, tmp_path):
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import sync_file
    from referee_desk.ui.record import start_match

    assert desk.session is not None
    match_id = desk.session.match_id
    other = tmp_path / "other.sqlite"
    with TournamentFile.open(other) as tf:
        payload = dict(MATCH_PAYLOAD, round="9")  # a different opening of the same match
        start_match(tf, payload, REFEREE, match_id=match_id)
    assert sync_file(other, desk_urls[0]).total_pushed == 1
    _set_server(qtbot, desk, desk_urls[0])
    qtbot.waitUntil(lambda: _label(desk).startswith("Conflict"), timeout=20000)
    assert _label(desk) == f"Conflict: match {match_id}, event 1"
    with TournamentServer.open(desk_urls[0]) as server:
        assert len(server.events(match_id)) == 1  # the server kept its own record
        assert server.events(match_id) != desk.tf.events(match_id)


def test_settings_refuse_an_address_that_is_not_a_server(qtbot, desk) -> None:
    dialog = trigger(desk, "actionSettings")
    qtbot.keyClicks(dialog.ui.serverUrlEdit, "cup.sqlite")
    ok(dialog)
    assert desk.active_dialog is dialog  # still open, the address named as wrong
    assert "Not a server address" in dialog.ui.serverUrlError.text()
    assert desk.settings.server_url == ""
    assert desk.desk_sync.pusher is None
    dialog.reject()


def test_closing_the_file_stops_the_pusher(qtbot, desk, desk_urls) -> None:
    _set_server(qtbot, desk, desk_urls[1])
    pusher = desk.desk_sync.pusher
    assert pusher is not None
    qtbot.waitUntil(lambda: _label(desk) == "Synced", timeout=20000)
    desk.files.close_tournament()
    assert desk.desk_sync.pusher is None
    pusher._thread.join(timeout=20)  # a push under way may outlast the desk's 3 s wait
    assert not pusher._thread.is_alive()
    assert not window_label_visible(desk)


def test_the_server_address_is_kept_in_the_settings(tmp_path) -> None:
    from referee_desk.ui.settings import DeskSettings

    first = DeskSettings(tmp_path / "desk.ini")
    assert first.server_url == ""  # by default a desk does not sync
    first.server_url = "  postgresql://cup_t01:pw@10.0.0.2:5432/cup  "
    first.sync()
    assert (
        DeskSettings(tmp_path / "desk.ini").server_url
        == "postgresql://cup_t01:pw@10.0.0.2:5432/cup"
    )
    assert "pw" not in (tmp_path / "desk.ini").read_text(encoding="utf-8")


def test_desk_opened_on_a_server_address_pulls_its_drawn_match(qtbot, window, cluster, tmp_path):
    """``referee-desk URL``: a journal file per desk, the drawn opening pulled, then synced."""
    import psycopg

    from referee_desk.store.postgres.init import init_server
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.ui.dialogs.open_match import OpenMatchDialog
    from referee_desk.ui.server_desk import open_desk_on_server

    name = f"cup{uuid.uuid4().hex[:8]}"
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    admin = cluster.url(name)
    report = init_server(admin, ["1号桌", "2号桌"])
    desk_url = report.desks[0].url(admin)
    with TournamentServer.open(report.organizer.url(admin)) as organizer:
        organizer.assign("R1-T1", "1号桌", dict(MATCH_PAYLOAD))
        organizer.assign("R1-T2", "2号桌", dict(MATCH_PAYLOAD, table="4"))  # not this desk's
    assert open_desk_on_server(window, desk_url)
    assert window.tf is not None
    qtbot.waitUntil(lambda: window.server.desk_start.finished, timeout=20000)
    journal = window.tf.path
    assert journal.name.endswith(f"-{name}-{report.desks[0].role}.sqlite")
    assert Path(os.environ["REFEREE_DESK_CONFIG_DIR"]) in journal.parents
    assert window.tf.match_ids() == ["R1-T1"]  # only this desk's drawn match
    (opened,) = window.tf.events("R1-T1")
    assert opened.type == "match_opened" and opened.payload["pairs"] == MATCH_PAYLOAD["pairs"]
    assert isinstance(window.active_dialog, OpenMatchDialog)  # the referee picks the match
    window.active_dialog.reject()
    pusher = window.desk_sync.pusher
    assert pusher.wait_until(lambda s: s.status == "synced" and bool(s.server), timeout=20)
    qtbot.waitUntil(lambda: _label(window) == "Synced", timeout=20000)
    with TournamentServer.open(desk_url) as server:
        assert server.events("R1-T1") == window.tf.events("R1-T1")
    window.files.close_tournament()
    # Opened again: the same journal, nothing pulled twice.
    assert open_desk_on_server(window, desk_url)
    assert window.tf is not None and window.tf.path == journal
    qtbot.waitUntil(lambda: window.server.desk_start.finished, timeout=20000)
    assert len(window.tf.events("R1-T1")) == 1
    window.active_dialog.reject()


def test_desk_on_an_unreachable_server_still_records(qtbot, window) -> None:
    from referee_desk.ui.server_desk import open_desk_on_server

    url = f"postgresql://cup_t01:pw@127.0.0.1:{_pg_cluster_module().free_port()}/cup"
    before = set(vars(window))
    assert open_desk_on_server(window, url)
    assert window.tf is not None and not window.tf.read_only
    # Issue 17 item 1: the window's ``server`` owns the start; nothing is attached from outside.
    assert window.server.desk_start is not None and window.server.organizer is None
    assert set(vars(window)) - before == set()
    qtbot.waitUntil(lambda: window.server.desk_start.finished, timeout=20000)
    assert "The drawn matches could not be fetched" in window.last_message
    assert "cannot reach the server" in window.last_message
    assert window.desk_sync.pusher is not None


def test_the_sample_tournament_is_never_pushed(qtbot, window, tmp_path) -> None:
    from referee_desk.ui.sample import build_sample_tournament

    window.settings.server_url = "postgresql://cup_t01:pw@127.0.0.1:5432/cup"
    (tmp_path / "sample").mkdir()
    sample = build_sample_tournament(tmp_path / "sample")
    assert window.files.open_tournament(sample)
    assert window.desk_sync.pusher is None  # a practice run claims nothing on the server
    assert not window_label_visible(window)
    assert window.files.open_tournament(tmp_path / "real.sqlite")
    assert window.desk_sync.pusher is not None
