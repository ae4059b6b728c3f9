"""The desk on the tournament server, driven as a person would, against a real PostgreSQL.

Issue 13: "``referee-desk URL`` for the desk … the organizer's view refreshes live
(LISTEN/NOTIFY) when any desk's event lands." The organizer's address opens the
Tournament tab on the server's tournament; a desk's push repaints it with no click; a
slow or unreachable server never freezes the window; the password stays out of the
preferences.
"""

from __future__ import annotations

import os
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import desk_window
import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from sealing import lock_for_the_server

from referee_desk.store import TournamentFile
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.sync import sync_file
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_window import MainWindow
from referee_desk.ui.settings import DeskSettings

TABLES = ("1号桌", "2号桌", "3号桌")  # the hall fixture's desks
PAIRS = [(f"甲{n}", f"乙{n}", f"俱乐部{n % 3}", None) for n in range(1, 9)]


@pytest.fixture
def languages(qapp: QApplication) -> Iterator[LanguageManager]:
    manager = LanguageManager()
    manager.apply("en")
    yield manager
    manager.apply("en")


@pytest.fixture
def bare_window(qtbot: Any, tmp_path: Path, languages: LanguageManager) -> Iterator[MainWindow]:
    """The desk's window as ``referee-desk URL`` shows it: no file open yet."""
    yield from desk_window.bare_window(qtbot, tmp_path, languages)


@pytest.fixture
def server_cup(hall: Any) -> str:
    """A drawn group tournament (two groups of four) on the server; the organizer's URL."""
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    info = TournamentInfo(
        name="桂林杯", start_date="2026-11-28", tables=TABLES, referees=("王磊", "李娜")
    )
    with Tournament.create(hall.organizer_url, info, settings) as t:
        t.add_pairs(PAIRS)
        t.draw(7)
    return hall.organizer_url


def _open_organizer(qtbot: Any, window: MainWindow, url: str) -> Any:
    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    owner = open_organizer_on_server(window, url)
    qtbot.waitUntil(lambda: owner.t is not None and owner.live is not None, timeout=20000)
    assert owner.live.listener.wait_ready(20)
    return owner


def _wins(window: MainWindow) -> dict[str, int]:
    """Pair -> wins, as the standings tables on the screen show them."""
    shown: dict[str, int] = {}
    for model in window.organizer.display.standings_models.values():
        for row in range(model.rowCount()):
            pair = model.index(row, 1).data()
            shown[pair] = int(model.index(row, 3).data())
    return shown


def _first_ready(url: str) -> tuple[str, dict[str, Any], str]:
    """(match id, drawn opening, table) of the first group match."""
    with Tournament.open(url) as t:
        match = next(m for m in t.draw_table.matches() if m.group is not None)
        return match.match_id, t.opening_payload(match.match_id), match.table


def test_the_organizers_address_opens_the_servers_tournament(qtbot, bare_window, server_cup):
    window = bare_window
    owner = _open_organizer(qtbot, window, server_cup)
    view = window.organizer
    assert window.organizer_tabs.currentWidget() is view
    assert view.t is not None and view.t.on_server
    assert view.ui.titleLabel.text() == "桂林杯"
    with Tournament.open(server_cup) as t:
        state = t.state()
        expected_groups = sorted(s.group for s in state.standings)
        expected_rows = {s.group: [r.pair_id for r in s.rows] for s in state.standings}
        match_count = len(t.draw_table.matches())
    assert sorted(view.display.standings_models) == expected_groups
    for group, ids in expected_rows.items():
        assert view.display.standings_models[group]._ids == ids
    assert view.matches_model.rowCount() == match_count
    assert view.scene.items()  # the bracket is drawn
    # The password is never shown: not in the title, the info line or the status line.
    secret = server_cup.split(":")[2].split("@")[0]
    for text in (window.windowTitle(), view.ui.infoLabel.text(), owner.label.toolTip()):
        assert secret not in text
    assert "***" in window.windowTitle()
    qtbot.waitUntil(lambda: owner.label.text() == "Live", timeout=5000)
    # Only a file makes a new tournament: the button says why it is off.
    assert not view.ui.newButton.isEnabled()
    assert "server" in view.ui.newButton.toolTip()


def test_the_servers_tournament_in_chinese(qtbot, bare_window, server_cup, languages):
    window = bare_window
    owner = _open_organizer(qtbot, window, server_cup)
    languages.apply("zh_CN")
    view = window.organizer
    qtbot.waitUntil(lambda: owner.label.text() == "实时", timeout=5000)
    assert view.ui.infoLabel.text().startswith("在服务器 postgresql://")
    assert "服务器上的赛事" in view.ui.newButton.toolTip()
    assert window.windowTitle().startswith("裁判台 — ")
    assert window.organizer_tabs.tabText(1) == "赛事"
    assert "各桌记录时成绩随即刷新" in owner.label.toolTip()


def test_a_desks_push_repaints_the_standings_without_a_click(
    qtbot, bare_window, server_cup, hall, tmp_path
):
    window = bare_window
    owner = _open_organizer(qtbot, window, server_cup)
    match_id, opening, table = _first_ready(server_cup)
    before = _wins(window)
    assert sum(before.values()) == 0
    repaints = owner.live.repaints
    # A table's desk records the whole match in its own file and pushes it.
    record = tmp_path / "played.jsonl"
    write_jsonl(simulate_match(match_id, opening, winner="EW"), record)
    desk = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk) as tf:
        tf.import_jsonl([record])
        lock_for_the_server(tf, hall.organizer_url, match_id)  # it counts once locked
    desk_url = hall.desk_urls[[d.table_label for d in hall.report.desks].index(table)]
    sync_file(str(desk), desk_url)
    qtbot.waitUntil(lambda: sum(_wins(window).values()) == 1, timeout=20000)
    with Tournament.open(server_cup) as t:
        state = t.state().match(match_id)
        winner = t.pair_map()[state.winner]
    assert state.status == "decided"
    from referee_desk.ui.organizer.texts import pair_text

    assert _wins(window)[pair_text(winner)] == 1
    assert owner.live.repaints > repaints
    assert owner.live.heard > 0  # heard from the server, not asked for


def test_a_burst_of_events_is_folded_into_few_repaints(qtbot, bare_window, server_cup, tmp_path):
    """Every match of both groups lands at once: the view catches up, in few repaints."""
    window = bare_window
    owner = _open_organizer(qtbot, window, server_cup)
    qtbot.waitUntil(lambda: owner.live.repaints >= 1, timeout=20000)  # the connect's reload
    paths = []
    with Tournament.open(server_cup) as t:
        ids = [m.match_id for m in t.draw_table.matches() if m.group is not None and m.round == 1]
        for k, match_id in enumerate(ids):
            path = tmp_path / f"{k}.jsonl"
            write_jsonl(simulate_match(match_id, t.opening_payload(match_id), "NS"), path)
            paths.append(path)
    start_repaints, start_heard = owner.live.repaints, owner.live.heard
    importer = Tournament.open(server_cup)
    for path in paths:  # one transaction (and one NOTIFY per event) per record
        importer.file.import_jsonl([path])
    importer.close()
    qtbot.waitUntil(lambda: sum(_wins(window).values()) == len(ids), timeout=20000)
    qtbot.waitUntil(lambda: owner.live.heard - start_heard >= 4 * len(ids), timeout=20000)
    heard = owner.live.heard - start_heard
    assert owner.live.repaints - start_repaints < heard / 4


def test_an_import_from_the_organizer_view_lands_on_the_server(
    qtbot, bare_window, server_cup, tmp_path
):
    window = bare_window
    _open_organizer(qtbot, window, server_cup)
    match_id, opening, _table = _first_ready(server_cup)
    record = tmp_path / "usb.jsonl"
    played = simulate_match(match_id, opening, winner="NS")
    write_jsonl(played, record)
    result = window.organizer.records_import.import_records([record])
    assert result is not None and result.added == {match_id: len(played)}
    with Tournament.open(server_cup) as t:
        assert t.state().match(match_id).status == "decided"
    assert sum(_wins(window).values()) == 1


def test_exports_from_the_server_tournament(qtbot, bare_window, server_cup, tmp_path):
    from openpyxl import load_workbook
    from pypdf import PdfReader

    window = bare_window
    _open_organizer(qtbot, window, server_cup)
    view = window.organizer
    match_id, opening, _table = _first_ready(server_cup)
    record = tmp_path / "played.jsonl"
    write_jsonl(simulate_match(match_id, opening, winner="NS"), record)
    view.records_import.import_records([record])
    if view.message_box is not None:
        view.message_box.close()
    written: list[str] = []
    view.export_finished.connect(lambda _kind, path: written.append(path))
    bracket = tmp_path / "bracket.xlsx"
    report = tmp_path / "match.pdf"
    assert view.exports.export_document("bracket", bracket) is not None
    assert view.exports.export_document("match", report, match_id) is not None
    qtbot.waitUntil(lambda: len(written) == 2, timeout=30000)
    assert "桂林杯" in str(load_workbook(bracket).active["A1"].value)
    text = "".join(page.extract_text() for page in PdfReader(report).pages)
    assert match_id in text


class _SilentServer:
    """A TCP port that accepts connections and never answers: a server that hangs."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.knocked = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)
            self.knocked.set()

    def close(self) -> None:
        """Hang up every connection: the waiting connect fails at once."""
        for conn in self.accepted:
            conn.close()
        self.sock.close()


@pytest.fixture
def silent_server() -> Iterator[_SilentServer]:
    server = _SilentServer()
    yield server
    server.close()


def _events_flow(qtbot: Any) -> bool:
    """Whether the interface thread's event loop runs timers now."""
    fired: list[bool] = []
    QTimer.singleShot(0, lambda: fired.append(True))
    qtbot.waitUntil(lambda: bool(fired), timeout=3000)
    return bool(fired)


def test_a_desk_on_a_hanging_server_records_at_once(qtbot, bare_window, silent_server):
    from referee_desk.ui.server_desk import open_desk_on_server

    window = bare_window
    url = f"postgresql://cup_t01:pw@127.0.0.1:{silent_server.port}/cup"
    assert open_desk_on_server(window, url)
    assert window.tf is not None and not window.tf.read_only  # the journal is open now
    start = window.server.desk_start
    assert silent_server.knocked.wait(10)  # the worker is inside the connect attempt …
    assert _events_flow(qtbot)  # … and the window still runs its event loop
    assert window.isVisible() and not start.finished and start.call.running
    assert "Connecting to" in window.statusBar().currentMessage()
    assert "pw" not in window.windowTitle()
    silent_server.close()  # the server hangs up: the attempt ends, the desk says why
    qtbot.waitUntil(lambda: start.finished, timeout=20000)
    assert "The drawn matches could not be fetched" in window.last_message
    assert window.desk_sync.pusher is not None  # it keeps trying in the background


def test_the_organizer_on_a_hanging_server_keeps_the_window_alive(
    qtbot, bare_window, silent_server, languages
):
    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    window = bare_window
    url = f"postgresql://cup_organizer:pw@127.0.0.1:{silent_server.port}/cup"
    owner = open_organizer_on_server(window, url)
    assert silent_server.knocked.wait(10)
    assert _events_flow(qtbot)
    assert owner.opening is not None and not owner.opening.finished
    assert window.organizer.ui.titleLabel.text() == "Connecting to the server…"
    assert window.organizer.ui.infoLabel.text() == url.replace(":pw@", ":***@")
    assert owner.label.text() == "Connecting…"
    silent_server.close()
    qtbot.waitUntil(lambda: owner.opening.finished, timeout=20000)
    assert "cannot be opened" in window.last_message
    assert "Traceback" not in window.last_message
    assert owner.label.text() == "Server not reached"
    assert window.organizer.ui.titleLabel.text() == "The server's tournament cannot be opened"
    languages.apply("zh_CN")  # the placeholder follows the language
    assert window.organizer.ui.titleLabel.text() == "无法打开服务器上的赛事"
    assert owner.label.text() == "连不上服务器"
    languages.apply("en")
    window.message_box.close()
    # F5 tries again (the server is still away: the same reason, nothing else).
    before = owner.opening
    window.organizer.action_refresh.trigger()
    assert owner.opening is not before
    qtbot.waitUntil(lambda: owner.opening.finished, timeout=20000)
    assert "cannot be opened" in window.last_message


def test_the_organizer_on_a_closed_port_gets_a_translated_reason(qtbot, bare_window, languages):
    from pg_cluster import free_port

    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    languages.apply("zh_CN")
    window = bare_window
    url = f"postgresql://cup_organizer:secret@127.0.0.1:{free_port()}/cup"
    owner = open_organizer_on_server(window, url)
    qtbot.waitUntil(lambda: owner.opening.finished, timeout=20000)
    assert "连不上服务器" in window.last_message
    assert "secret" not in window.last_message
    assert owner.label.text() == "连不上服务器"


def test_a_tables_address_with_its_own_name_opens_as_a_desk(qtbot, bare_window, hall):
    """The address is asked first; a table's role answers as a desk: its journal opens."""
    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    window = bare_window
    owner = open_organizer_on_server(window, hall.desk_urls[0])
    qtbot.waitUntil(lambda: window.tf is not None, timeout=20000)
    assert owner.t is None
    assert window.tf.path.name.endswith(f"-{hall.desk_roles[0]}.sqlite")
    qtbot.waitUntil(lambda: window.server.desk_start.finished, timeout=20000)


def test_the_password_lives_in_a_user_only_file(tmp_path, monkeypatch) -> None:
    config = tmp_path / "config"
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(config))
    ini = tmp_path / "desk.ini"
    url = "postgresql://cup_t01:s3cr%2Fet@10.0.0.2:5432/cup"
    DeskSettings(ini).server_url = url
    assert "s3cr" not in ini.read_text(encoding="utf-8")
    assert "postgresql://cup_t01@10.0.0.2:5432/cup" in ini.read_text(encoding="utf-8")
    secret = config / "server-passwords.json"
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    assert "s3cr%2Fet" in secret.read_text(encoding="utf-8")
    again = DeskSettings(ini)
    assert again.server_url == url
    assert again.server_address == "postgresql://cup_t01@10.0.0.2:5432/cup"
    # Written again without its password (the settings dialog shows it so): kept.
    again.server_url = "postgresql://cup_t01@10.0.0.2:5432/cup"
    assert DeskSettings(ini).server_url == url
    again.server_url = ""  # no server any more: the password is forgotten too
    assert DeskSettings(ini).server_url == ""
    again.server_url = "postgresql://cup_t01@10.0.0.2:5432/cup"
    assert DeskSettings(ini).server_url == "postgresql://cup_t01@10.0.0.2:5432/cup"
    assert "s3cr" not in secret.read_text(encoding="utf-8")


def test_an_old_setting_with_its_password_is_migrated(tmp_path, monkeypatch) -> None:
    from PySide6.QtCore import QSettings

    config = tmp_path / "config"
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(config))
    ini = tmp_path / "old.ini"
    old = QSettings(str(ini), QSettings.Format.IniFormat)
    old.setValue("sync/server_url", "postgresql://cup_t02:hunter2@hall:5432/cup")
    old.sync()
    assert "hunter2" in ini.read_text(encoding="utf-8")  # as an older desk left it
    assert DeskSettings(ini).server_url == "postgresql://cup_t02:hunter2@hall:5432/cup"
    assert "hunter2" not in ini.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(config / "server-passwords.json").st_mode) == 0o600
    assert DeskSettings(ini).server_url == "postgresql://cup_t02:hunter2@hall:5432/cup"


def test_a_desk_opened_on_its_address_keeps_no_password_in_the_settings(
    qtbot, bare_window, hall, tmp_path
):
    from referee_desk.ui.server_desk import open_desk_on_server

    window = bare_window
    secret = hall.desk_urls[0].split(":")[2].split("@")[0]
    assert open_desk_on_server(window, hall.desk_urls[0])
    qtbot.waitUntil(lambda: window.server.desk_start.finished, timeout=20000)
    window.settings.sync()
    assert secret not in (tmp_path / "desk.ini").read_text(encoding="utf-8")
    assert window.settings.server_url == hall.desk_urls[0]
    assert secret not in window.windowTitle()
    pusher = window.desk_sync.pusher
    assert pusher is not None and pusher.url == hall.desk_urls[0]


def test_the_settings_dialog_shows_the_address_without_its_password(qtbot, bare_window):
    from tests.ui.conftest import ok, trigger

    window = bare_window
    window.settings.server_url = "postgresql://cup_t01:pw9@10.0.0.2:5432/cup"
    dialog = trigger(window, "actionSettings")
    combo = dialog.ui.languageCombo
    combo.setCurrentIndex(combo.findData(window.languages.current))
    assert dialog.ui.serverUrlEdit.text() == "postgresql://cup_t01@10.0.0.2:5432/cup"
    ok(dialog)
    assert window.settings.server_url == "postgresql://cup_t01:pw9@10.0.0.2:5432/cup"


@pytest.mark.slow
def test_the_view_follows_the_server_through_a_restart(qtbot, bare_window, pg_cluster, tmp_path):
    """The server stops while the organizer watches: the view keeps what it showed, says
    the server is not reached, and once the server is back reconnects on its own and
    shows what the desks recorded meanwhile."""
    import psycopg
    from pg_cluster import find_bin_dir, start_cluster

    from referee_desk.store.postgres.init import init_server

    cluster = start_cluster(find_bin_dir())
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE cup")
        report = init_server(cluster.url("cup"), list(TABLES))
        url = report.organizer.url(cluster.url("cup"))
        settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
        with Tournament.create(
            url, TournamentInfo(name="桂林杯", tables=TABLES, referees=("王磊",)), settings
        ) as t:
            t.add_pairs(PAIRS)
            t.draw(7)
        window = bare_window
        owner = _open_organizer(qtbot, window, url)
        cluster.stop("fast")
        window.organizer.action_refresh.trigger()  # F5 while the server is away
        qtbot.waitUntil(lambda: owner.label.text() == "Server not reached", timeout=20000)
        assert window.organizer.ui.titleLabel.text() == "桂林杯"  # still shows what it read
        cluster.start()
        match_id, opening, _table = _first_ready(url)
        record = tmp_path / "meanwhile.jsonl"
        write_jsonl(simulate_match(match_id, opening, winner="NS"), record)
        with Tournament.open(url) as other:
            other.file.import_jsonl([record])
        qtbot.waitUntil(lambda: sum(_wins(window).values()) == 1, timeout=30000)
        qtbot.waitUntil(lambda: owner.label.text() == "Live", timeout=10000)
    finally:
        window.close()
        cluster.stop("immediate")
        cluster.remove()


def test_the_match_tab_on_the_organizers_address_says_where_matches_are_recorded(
    qtbot, bare_window, server_cup, languages
):
    from tests.ui.conftest import trigger

    window = bare_window
    _open_organizer(qtbot, window, server_cup)
    assert trigger(window, "actionOpenMatch") is None  # no match chooser: no file here
    assert "recorded at the tables' desks" in window.last_message
    assert window.organizer_tabs.currentWidget() is window.organizer_tabs.match_view
    window.message_box.close()
    languages.apply("zh_CN")
    trigger(window, "actionOpenMatch")
    assert "各桌" in window.last_message


def test_referee_desk_url_tells_the_organizers_address_from_a_tables(
    qtbot, bare_window, server_cup, hall, tmp_path, languages
):
    """``referee-desk URL``: a table's address opens its journal at once (no waiting for
    the server); any other address is asked, and the organizer's shows the tournament."""
    from referee_desk.ui.app import open_desk
    from referee_desk.ui.main_window import MainWindow
    from referee_desk.ui.server_desk import names_a_table

    assert names_a_table(hall.desk_urls[0]) and not names_a_table(server_cup)
    open_desk(bare_window, server_cup)
    owner = bare_window.server.organizer
    qtbot.waitUntil(lambda: owner.t is not None, timeout=20000)
    assert bare_window.tf is None and bare_window.organizer.t is owner.t
    desk = MainWindow(DeskSettings(tmp_path / "desk2.ini"), languages)
    qtbot.addWidget(desk)
    desk.show()
    open_desk(desk, hall.desk_urls[1])
    assert desk.tf is not None  # the journal, before any answer from the server
    assert desk.server.organizer is None  # a table's desk shows no server tournament
    qtbot.waitUntil(lambda: desk.server.desk_start.finished, timeout=20000)
    if desk.active_dialog is not None:
        desk.active_dialog.reject()
    desk.close()


def test_a_server_without_a_tournament_says_how_to_make_one(qtbot, bare_window, hall, capsys):
    from referee_desk.cli.main import main
    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    window = bare_window
    owner = open_organizer_on_server(window, hall.organizer_url)
    qtbot.waitUntil(lambda: owner.opening.finished, timeout=20000)
    assert owner.t is None and owner.no_tournament
    assert "holds no tournament yet" in window.last_message
    assert "referee-desk tournament create" in window.last_message
    assert owner.label.text() == "No tournament on the server"
    window.message_box.close()
    # The organizer creates it from the command line, then presses F5.
    assert main(["tournament", "create", hall.organizer_url, "--name", "桂林杯"]) == 0
    capsys.readouterr()
    window.organizer.action_refresh.trigger()
    qtbot.waitUntil(lambda: owner.t is not None, timeout=20000)
    assert window.organizer.ui.titleLabel.text() == "桂林杯"
    assert owner.live is not None
