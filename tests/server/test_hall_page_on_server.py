"""The hall page on the organizer's server address, against a real PostgreSQL (issue 21).

A desk's push shows on the page by itself (LISTEN/NOTIFY → server-sent events), and the
page stays up, saying since when it is not live, while PostgreSQL restarts.
"""

from __future__ import annotations

import time
import warnings
from typing import Any

import httpx
import pytest

from referee_desk.store import TournamentFile
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.sync import sync_file
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from tests.hall.conftest import Served

warnings.filterwarnings("ignore", category=DeprecationWarning)
TABLES = ("1号桌", "2号桌", "3号桌")  # the hall fixture's desks
PAIRS = [(f"甲{n}", f"乙{n}", f"俱乐部{n % 3}", None) for n in range(1, 9)]


@pytest.fixture
def server_cup(hall: Any) -> str:
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    info = TournamentInfo(
        name="桂林杯", start_date="2026-11-28", tables=TABLES, referees=("王磊", "李娜")
    )
    with Tournament.create(hall.organizer_url, info, settings) as t:
        t.add_pairs(PAIRS)
        t.draw(7)
    return hall.organizer_url


def _push_first_match(hall: Any, url: str, folder) -> str:
    """A table's desk records its first group match and pushes it; the match id."""
    with Tournament.open(url) as t:
        match = next(m for m in t.matches() if m.group is not None)
        opening = t.opening_payload(match.match_id)
    record = folder / "played.jsonl"
    write_jsonl(simulate_match(match.match_id, opening, winner="EW"), record)
    desk = folder / "desk.sqlite"
    with TournamentFile.open(desk) as tf:
        tf.import_jsonl([record])
    desk_url = hall.desk_urls[[d.table_label for d in hall.report.desks].index(match.table)]
    sync_file(str(desk), desk_url)
    return match.match_id


def _wait(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert condition()


def _row(html: str, match_id: str) -> str:
    start = html.index(f'id="m-{match_id}"')
    return html[start - 10 : html.index("</tr>", start)]


def test_a_desks_push_shows_on_the_page_by_itself(hall, server_cup, tmp_path):
    with Served(server_cup) as served:
        assert served.board._listener is not None and served.board._listener.wait_ready(20)
        _wait(lambda: served.board.status.live)
        version = served.board.status.version
        pushed = time.monotonic()
        match_id = _push_first_match(hall, server_cup, tmp_path)
        assert served.board.wait_version(version, 20)
        took = 1000 * (time.monotonic() - pushed)
        print(f"\nhall page on a server: push -> new view in {took:.0f} ms")
        html = httpx.get(served.url + "/matches").text
        assert 'class="match decided"' in _row(html, match_id)
        assert "实时" in html
        # the password is never in a page
        secret = server_cup.split(":")[2].split("@")[0]
        assert secret not in html


def test_the_page_stays_up_while_postgresql_restarts(hall, server_cup, pg_cluster, tmp_path):
    with Served(server_cup) as served:
        board = served.board
        assert board._listener is not None and board._listener.wait_ready(20)
        _wait(lambda: board.status.live)
        pg_cluster.stop("fast")
        try:
            deadline = time.monotonic() + 20
            while board.status.live and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not board.status.live, "the board did not notice the server went away"
            page = httpx.get(served.url + "/")
            assert page.status_code == 200
            assert "起未实时" in page.text  # the last standings, marked not live
            assert "小组 A" in page.text
        finally:
            pg_cluster.start()
        deadline = time.monotonic() + 30
        while not board.status.live and time.monotonic() < deadline:
            time.sleep(0.1)
        assert board.status.live, "the board did not come back after the restart"
        version = board.status.version
        match_id = _push_first_match(hall, server_cup, tmp_path)
        assert board.wait_version(version, 20)
        assert 'class="match decided"' in _row(httpx.get(served.url + "/matches").text, match_id)
