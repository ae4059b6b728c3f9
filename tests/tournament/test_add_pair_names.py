"""Issue 9 item 6: names are validated at entry, also when a pair is added directly
(``Tournament.add_pair`` / ``add_pairs``, as the desk's pair dialog and the CLI do), not
only when a pair list is imported: no control characters, at most ``MAX_NAME_CHARS``."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.tournament.errors import PairError
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.pairs_io import MAX_NAME_CHARS
from referee_desk.tournament.repository import Tournament

INFO = TournamentInfo("桂林杯", "2026-11-28", "2026-11-29", "桂林", "校工会", tables=("1号桌",))


@pytest.fixture
def tournament(tmp_path: Path):
    t = Tournament.create(tmp_path / "t.sqlite", INFO)
    yield t
    t.close()


@pytest.mark.parametrize(
    ("p1", "p2", "club", "named"),
    [
        ("张\x1b[2J三", "李四", "", "player 1"),  # a terminal escape (control character)
        ("张三", "李\u202e四", "", "player 2"),  # a right-to-left override (format character)
        ("张三", "李四", "俱乐部\n第二行", "club"),  # a line break inside a name
        ("张" * (MAX_NAME_CHARS + 1), "李四", "", "player 1"),  # over-long
    ],
    ids=["escape", "rtl-override", "line-break", "too-long"],
)
def test_add_pair_refuses_hostile_names(tournament, p1: str, p2: str, club: str, named: str):
    with pytest.raises(PairError, match=named):
        tournament.add_pair(p1, p2, club)
    assert tournament.pairs.all() == []  # nothing half-written


def test_add_pairs_refuses_the_whole_batch_on_one_bad_name(tournament) -> None:
    with pytest.raises(PairError, match="pair 2, player 2"):
        tournament.add_pairs([("张三", "李四", "", None), ("王五", "赵\x00六", "", None)])
    assert tournament.pairs.all() == []


def test_good_names_are_stored_stripped(tournament) -> None:
    pair = tournament.add_pair("  张三 ", "李四", " 桂林俱乐部 ", 1)
    longest = tournament.add_pair("王" * MAX_NAME_CHARS, "𠮷五", "")
    assert (pair.player1, pair.club) == ("张三", "桂林俱乐部")
    assert [p.player1 for p in tournament.pairs.all()] == ["张三", "王" * MAX_NAME_CHARS]
    assert longest.player2 == "𠮷五"
