"""The organizer view's table board (issue 21, item 2) against a real PostgreSQL, driven by
pytest-qt: tables heard by their desks' heartbeats, offline tables, two laptops on one
address, open conflicts and settled ones apart, in Chinese and English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import desk_window
import pytest
from PySide6.QtWidgets import QApplication

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.pusher import BackgroundPusher
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import sync_file
from referee_desk.store.synthetic import draft, record
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_window import MainWindow

TABLES = ("1号桌", "2号桌", "3号桌")
PAIRS = [(f"甲{n}", f"乙{n}", f"俱乐部{n % 3}", None) for n in range(1, 9)]


@pytest.fixture
def languages(qapp: QApplication) -> Iterator[LanguageManager]:
    manager = LanguageManager()
    manager.apply("zh_CN")
    yield manager
    manager.apply("en")


@pytest.fixture
def window(qtbot: Any, tmp_path: Path, languages: LanguageManager) -> Iterator[MainWindow]:
    yield from desk_window.bare_window(qtbot, tmp_path, languages)


@pytest.fixture
def server_cup(hall: Any) -> str:
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    info = TournamentInfo(name="桂林杯", start_date="2026-11-28", tables=TABLES, referees=("王磊",))
    with Tournament.create(hall.organizer_url, info, settings) as t:
        t.add_pairs(PAIRS)
        t.draw(7)
    return hall.organizer_url


def _cells(board) -> dict[str, list[str]]:
    model = board.model
    return {
        model.cell(r, 0): [model.cell(r, c) for c in range(model.columnCount())]
        for r in range(model.rowCount())
    }


def test_the_organizer_view_shows_the_table_board(
    qtbot, window, server_cup, hall, desk_file, tmp_path, monkeypatch, languages
):
    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    with TournamentServer.open(hall.organizer_url) as server:
        server.set_claims(True)  # desks' own ids, beside the draw
    # 1号桌: two laptops (two config folders, two desk keys) on its one address.
    for laptop in ("a", "b"):
        monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / laptop))
        path = desk_file(f"laptop-{laptop}", {f"OWN-{laptop}": 3})
        with BackgroundPusher(path, hall.desk_urls[0], interval=0.2) as pusher:
            assert pusher.wait_until(lambda s, p=pusher: p.heartbeats > 0, timeout=30)
    # 2号桌 forks its own match: an open conflict.
    first = desk_file("t2", {"OWN-T2": 4})
    fork = tmp_path / "t2-fork.sqlite"
    fork.write_bytes(first.read_bytes())
    with TournamentFile.open(first) as tf:
        record(tf, "OWN-T2", 1)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("OWN-T2", 4, text="分叉"))
    sync_file(str(first), hall.desk_urls[1])
    sync_file(str(fork), hall.desk_urls[1])

    owner = open_organizer_on_server(window, server_cup)
    qtbot.waitUntil(lambda: owner.t is not None and owner.board.board is not None, timeout=20000)
    sections = window.organizer.ui.sections
    index = sections.indexOf(owner.board)
    assert index >= 0 and sections.tabText(index) == "桌况"
    sections.setCurrentIndex(index)
    board = owner.board
    cells = _cells(board)
    assert "2 台电脑共用本桌地址" in cells["1号桌"][4]
    assert len(cells["1号桌"][1].split()) == 2  # two desk keys
    assert cells["1号桌"][2].endswith("秒前")
    # 3号桌 has a published drawn match to play and never sent a heartbeat: offline.
    assert cells["3号桌"][2] == "从未联系" and cells["3号桌"][4].startswith("离线")
    assert cells["2号桌"][5] == "1 个未决"
    assert board.open_list.count() == 1 and board.settled_list.count() == 0
    assert "分叉：比赛 OWN-T2，第 5 条" in board.open_list.item(0).text()
    assert "1 个冲突未决" in board.summary.text()
    window.grab().save(str(tmp_path / "board.png"))

    # The organizer settles the fork: it moves to the settled list, on the next read.
    with TournamentServer.open(hall.organizer_url) as server:
        server.settle_fork("OWN-T2", "server", "2号桌")
    board.refresh()
    assert board.open_list.count() == 0 and board.settled_list.count() == 1
    assert _cells(board)["2号桌"][5] == "1 个已裁定"

    languages.apply("en")
    qtbot.waitUntil(lambda: sections.tabText(sections.indexOf(board)) == "Tables", timeout=5000)
    assert "2 laptops on one address" in _cells(board)["1号桌"][4]
    assert "0 open conflicts, 1 settled" in board.summary.text()
    owner.close()
    assert sections.indexOf(board) < 0  # the board leaves with the server's tournament


@pytest.fixture
def own_cluster(pg_cluster):
    """A cluster of its own (this test stops it)."""
    from pg_cluster import find_bin_dir, start_cluster

    cluster = start_cluster(find_bin_dir())
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        cluster.remove()


def test_a_stopped_server_is_worded_on_the_board_and_the_status_line(
    qtbot, window, own_cluster, languages
):
    import psycopg

    from referee_desk.store.postgres.init import init_server
    from referee_desk.ui.organizer.on_server import open_organizer_on_server

    with psycopg.connect(own_cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE cup")
    admin = own_cluster.url("cup")
    organizer_url = init_server(admin, list(TABLES)).organizer.url(admin)
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    info = TournamentInfo(name="桂林杯", start_date="2026-11-28", tables=TABLES)
    with Tournament.create(organizer_url, info, settings) as t:
        t.add_pairs(PAIRS)
        t.draw(7)
    owner = open_organizer_on_server(window, organizer_url)
    qtbot.waitUntil(lambda: owner.board.board is not None and owner.live is not None, timeout=20000)
    own_cluster.stop("fast")
    qtbot.waitUntil(lambda: not owner.live.connected, timeout=30000)
    owner.board.refresh()
    owner.label.paint()
    for text in (owner.board.summary.text(), owner.label.toolTip()):
        assert "服务器" in text, text
        assert "consuming input failed" not in text and "FATAL" not in text, text
        assert "server closed the connection" not in text, text
    assert owner.board.model.rowCount() == 3  # what was read stays shown
    owner.close()
