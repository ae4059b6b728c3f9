"""The hall page's content: standings, matches, find your table, escaping (issue 21)."""

from __future__ import annotations

import warnings

import pytest

from referee_desk.hall.board import Board
from referee_desk.tournament.repository import Tournament

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from referee_desk.hall.app import create_app


@pytest.fixture
def client(cup):
    board = Board(str(cup))
    with TestClient(create_app(board)) as c:
        assert board.wait_version(0, 20)
        yield c


def _seat_of(cup, name: str) -> tuple[str, str, str]:
    """The table, seat letter and opponents the draw gives ``name`` (from the tournament)."""
    with Tournament.open(cup, read_only=True) as t:
        pairs = t.pair_map()
        for s in t.state().matches:
            if s.status.value != "ready":
                continue
            for pid, other, seats in ((s.pair_a, s.pair_b, "NE"), (s.pair_b, s.pair_a, "SW")):
                pair = pairs[pid]
                if name in (pair.player1, pair.player2):
                    seat = (
                        "NS"[0 if name == pair.player1 else 1]
                        if seats == "NE"
                        else ("EW"[0 if name == pair.player1 else 1])
                    )
                    return s.match.table, seat, pairs[other].name
    raise AssertionError(name)


def test_find_your_table_by_pinyin_initials(client, cup):
    table, seat, opponents = _seat_of(cup, "张三")
    html = client.get("/find", params={"q": "zs"}).text
    assert "张三" in html
    assert f"桌号 {table}" in html
    assert f"座位 {dict(N='北', S='南', E='东', W='西')[seat]}" in html
    assert opponents.replace("<", "&lt;").replace(">", "&gt;") in html


def test_find_your_table_by_name_in_english(client, cup):
    table, seat, _ = _seat_of(cup, "李四")
    html = client.get("/find", params={"q": "李四", "lang": "en"}).text
    assert f"Table {table}" in html
    assert f"Seat {dict(N='North', S='South', E='East', W='West')[seat]}" in html
    assert "找座位" not in html and "下一场" not in html


def test_an_unknown_name_says_so(client):
    assert "没有找到这个名字。" in client.get("/find", params={"q": "xyzq"}).text


@pytest.mark.parametrize("path", ["/", "/matches", "/find?q=zm", "/bracket", "/projector"])
def test_every_name_is_shown_as_text(client, path):
    """A pair named ``<script>alert(1)</script>`` shows as text, never as markup."""
    html = client.get(path).text
    assert "<script>alert(1)" not in html
    assert "<b>象山" not in html
    if path in ("/", "/matches", "/find?q=zm"):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_standings_and_progress(client):
    html = client.get("/").text
    assert "小组 A" in html and "小组 B" in html
    assert "本轮 4 张桌子中 0 张已结束" in html
    assert "实时" in html
    en = client.get("/?lang=en").text
    assert "0 of 4 tables finished this round" in en


def test_matches_list_tables_and_status(client, cup):
    with Tournament.open(cup, read_only=True) as t:
        ready = [s for s in t.state().matches if s.status.value == "ready"]
    html = client.get("/matches").text
    assert ready and html.count('class="match ready"') == len(ready)
    for table in ("1号桌", "2号桌", "3号桌", "4号桌"):
        assert table in html


def test_a_fragment_is_only_the_content(client):
    html = client.get("/matches", params={"fragment": "1"}).text
    assert "<html" not in html and "EventSource" not in html
    assert 'class="matches"' in html
