"""Group standings and tie-breaks (issue 6: match wins, then the level difference at the end
of the match, then head-to-head, then a recorded drawing of lots; the order is a setting)."""

from __future__ import annotations

import pytest

from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.groups import build_group_matches, knockout_entries, round_robin_rounds
from referee_desk.tournament.model import DEFAULT_TIE_BREAKS, TieBreak, parse_tie_breaks
from referee_desk.tournament.standings import compute_standings

from .helpers import make_pairs, win

PAIRS = make_pairs(4)
MATCHES = build_group_matches("A", PAIRS)
IDS = [1, 2, 3, 4]


def results(spec: dict[tuple[int, int], tuple[int, int, int]]) -> dict:
    """spec: (a, b) -> (winner, winner's level index, loser's level index)."""
    out = {}
    for m in MATCHES:
        a, b = m.slot_a.pair_id, m.slot_b.pair_id
        key = (a, b) if (a, b) in spec else (b, a)
        if key in spec:
            w, lw, ll = spec[key]
            out[m.match_id] = win(m.match_id, a, b, w, level_w=lw, level_l=ll)
    return out


def test_round_robin_everyone_meets_once_and_never_twice_a_round() -> None:
    for n in range(2, 10):
        rounds = round_robin_rounds(list(range(1, n + 1)))
        games = [frozenset(g) for r in rounds for g in r]
        assert len(games) == n * (n - 1) // 2 == len(set(games))
        for r in rounds:
            seen = [p for g in r for p in g]
            assert len(seen) == len(set(seen))


def test_wins_first() -> None:
    o = results(
        {
            (1, 2): (1, 12, 3), (1, 3): (1, 12, 3), (1, 4): (1, 12, 3),
            (2, 3): (2, 12, 3), (2, 4): (2, 12, 3), (3, 4): (3, 12, 3),
        }
    )  # fmt: skip
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    assert [r.pair_id for r in s.rows] == [1, 2, 3, 4]
    assert [r.wins for r in s.rows] == [3, 2, 1, 0]
    assert s.final and s.pair_at(2) == 2


def test_level_difference_breaks_equal_wins() -> None:
    # 1, 2, 3 each win two (cycle 1>2>3>1; all beat 4). 3's level margins are largest.
    o = results(
        {
            (1, 2): (1, 5, 4), (2, 3): (2, 5, 4), (3, 1): (3, 12, 0),
            (1, 4): (1, 5, 4), (2, 4): (2, 6, 4), (3, 4): (3, 12, 0),
        }
    )  # fmt: skip
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    assert [r.pair_id for r in s.rows] == [3, 2, 1, 4]
    assert [r.level_diff for r in s.rows] == [12 + 12 - 1, 1 + 2 - 1, 1 + 1 - 12, -1 - 2 - 12]


def test_head_to_head_breaks_equal_wins_and_level_difference() -> None:
    # 1 and 2 both win two with the same level difference; 2 beat 1.
    o = results(
        {
            (1, 2): (2, 5, 4), (1, 3): (1, 6, 4), (1, 4): (1, 5, 4),
            (2, 3): (3, 5, 4), (2, 4): (2, 6, 4), (3, 4): (4, 5, 4),
        }
    )  # fmt: skip
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    top = [r for r in s.rows if r.wins == 2]
    assert {r.pair_id for r in top} == {1, 2}
    assert top[0].level_diff == top[1].level_diff
    assert [r.pair_id for r in s.rows[:2]] == [2, 1]


def test_circular_tie_needs_lots_then_the_recorded_lots_decide() -> None:
    # Cycle 1>2>3>1 with equal margins; all beat 4 by the same margin.
    spec = {
        (1, 2): (1, 5, 4), (2, 3): (2, 5, 4), (3, 1): (3, 5, 4),
        (1, 4): (1, 5, 4), (2, 4): (2, 5, 4), (3, 4): (3, 5, 4),
    }  # fmt: skip
    o = results(spec)
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    assert s.needs_lots == ((1, 2, 3),)
    assert not s.final and s.pair_at(1) is None
    assert all(r.tied for r in s.rows[:3]) and s.rows[0].rank == s.rows[2].rank == 1
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS, lots={1: 3, 2: 1, 3: 2})
    assert s.final and [r.pair_id for r in s.rows] == [2, 3, 1, 4]
    assert [r.rank for r in s.rows] == [1, 2, 3, 4]


def test_order_is_a_setting_head_to_head_before_level_difference() -> None:
    o = results(
        {
            (1, 2): (2, 5, 4), (1, 3): (1, 12, 0), (1, 4): (1, 5, 4),
            (2, 3): (3, 5, 4), (2, 4): (2, 5, 4), (3, 4): (4, 5, 4),
        }
    )  # fmt: skip
    default = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    assert [r.pair_id for r in default.rows[:2]] == [1, 2]  # 1 has the larger level difference
    h2h_first = parse_tie_breaks("wins,head_to_head,level_diff")
    s = compute_standings("A", IDS, MATCHES, o, h2h_first)
    assert [r.pair_id for r in s.rows[:2]] == [2, 1]  # 2 beat 1


def test_incomplete_group_is_not_final() -> None:
    o = results({(1, 2): (1, 5, 4)})
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    assert not s.complete and s.pair_at(1) is None


def test_pending_dispute_does_not_count() -> None:
    m = MATCHES[0]
    a, b = m.slot_a.pair_id, m.slot_b.pair_id
    o = {m.match_id: win(m.match_id, a, b, a, pending=True)}
    s = compute_standings("A", IDS, MATCHES, o, DEFAULT_TIE_BREAKS)
    assert all(r.wins == 0 and r.played == 0 for r in s.rows)


def test_tie_break_order_parsing() -> None:
    assert parse_tie_breaks("wins,level_diff") == (
        TieBreak.WINS,
        TieBreak.LEVEL_DIFF,
        TieBreak.LOTS,
    )
    with pytest.raises(TournamentError, match="last"):
        parse_tie_breaks("lots,wins")
    with pytest.raises(TournamentError, match="known"):
        parse_tie_breaks("points")


@pytest.mark.parametrize("groups", [2, 3, 4, 8])
def test_group_winner_never_meets_own_runner_up_first(groups: int) -> None:
    from referee_desk.tournament.elimination import build_elimination

    names = [chr(ord("A") + i) for i in range(groups)]
    ko = build_elimination(knockout_entries(names, 2))
    for m in (m for m in ko if m.round == 1):
        if m.slot_a.kind == m.slot_b.kind == "group":
            assert m.slot_a.ref != m.slot_b.ref
