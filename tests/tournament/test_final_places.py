"""Final places as ranges (issue 11 item 7): losers of a knockout round share the places
that round decides (17–32 in a 32-line bracket, fewer with byes); an eliminated pair's
place is final as soon as it is out; group pairs that did not advance follow."""

from __future__ import annotations

from pathlib import Path

from referee_desk.tournament.final_places import PlaceRange, final_places
from tests.exports.big import big_tournament, decide


def places(folder: Path, n: int, rounds: int | None = None, **kw) -> list[PlaceRange]:
    t = big_tournament(folder, n, **kw)
    state = t.state(decide(t, rounds))
    result = list(final_places(state, t.settings))
    t.close()
    return result


def test_a_finished_32_pair_knockout(tmp_path: Path) -> None:
    got = places(tmp_path, 32)
    labels = [p.label for p in got]
    assert labels[:4] == ["第1名", "第2名", "第3名", "第4名"]  # third-place match played
    assert labels.count("第5–8名") == 4 and labels.count("第9–16名") == 8
    assert labels.count("第17–32名") == 16 and len(got) == 32
    assert len({p.pair_id for p in got}) == 32


def test_byes_shorten_the_shared_range(tmp_path: Path) -> None:
    """12 pairs in a 16-line bracket: 4 first-round matches, their losers share 9–12."""
    got = places(tmp_path, 12)
    assert [p.label for p in got].count("第9–12名") == 4 and len(got) == 12


def test_an_unfinished_event_lists_the_eliminated_with_final_places(tmp_path: Path) -> None:
    got = places(tmp_path, 32, rounds=2)
    assert sorted({p.label for p in got}) == ["第17–32名", "第9–16名"]
    assert len(got) == 24


def test_group_pairs_that_did_not_advance_follow_the_knockout(tmp_path: Path) -> None:
    """12 groups of 4, 2 advance (24 in the knockout): 3rd-placed share 25–36, 4th 37–48."""
    got = places(tmp_path, 48, groups=12)
    labels = [p.label for p in got]
    assert labels.count("第25–36名") == 12 and labels.count("第37–48名") == 12
    assert len(got) == 48
    assert all("组第3名" in p.note for p in got if p.label == "第25–36名")
