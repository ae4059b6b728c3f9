"""Single elimination for 2 to 256 pairs: byes, seed positions, advancing, forfeits,
disputes holding a branch, third place (issue 6)."""

from __future__ import annotations

import pytest

from referee_desk.tournament.elimination import THIRD_PLACE_ID, build_elimination, ko_match_id
from referee_desk.tournament.model import Decision, Settings, Slot
from referee_desk.tournament.state import Status, resolve

from .helpers import win

SETTINGS = Settings()


def entries(n: int) -> list[Slot]:
    return [Slot("pair", i) for i in range(1, n + 1)]


def play_all(matches, upset=lambda m, a, b: False, how=lambda m: Decision.PASSED_A):
    """Play round by round: the better seed (lower id) wins unless ``upset``."""
    outcomes: dict = {}
    while True:
        state = resolve(matches, {}, outcomes, SETTINGS)
        ready = [s for s in state.matches if s.status is Status.READY]
        if not ready:
            return state, outcomes
        for s in ready:
            a, b = s.pair_a, s.pair_b
            w = min(a, b) if not upset(s.match, a, b) else max(a, b)
            outcomes[s.match.match_id] = win(s.match.match_id, a, b, w, how(s.match))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 100, 128, 129, 255, 256])
def test_bracket_for_n_pairs(n: int) -> None:
    matches = build_elimination(entries(n))
    size = 1 << (n - 1).bit_length()
    assert len(matches) == size - 1
    first = [m for m in matches if m.round == 1]
    byes = [m for m in first if "bye" in (m.slot_a.kind, m.slot_b.kind)]
    assert len(byes) == size - n
    # Byes go to the top seeds: the pairs facing a bye are exactly seeds 1..(size - n).
    assert sorted(m.slot_a.pair_id for m in byes) == list(range(1, size - n + 1))
    state, _ = play_all(matches)
    assert state.finished
    # Better seed always wins: places 1 and 2 are seeds 1 and 2; they met only in the final.
    final = state.matches[-1]
    assert {final.pair_a, final.pair_b} == {1, 2}
    assert state.places[0].pair_id == 1 and state.places[0].place == 1
    assert state.places[1].pair_id == 2
    assert len(state.places) == n
    if n >= 4:
        semis = [s for s in state.matches if s.match.round == final.match.round - 1]
        assert {s.pair_a for s in semis} | {s.pair_b for s in semis} == {1, 2, 3, 4}
        assert sorted(p.place for p in state.places)[:4] == [1, 2, 3, 3]


def test_bye_advances_without_a_match_to_play() -> None:
    matches = build_elimination(entries(3))
    state = resolve(matches, {}, {}, SETTINGS)
    m1 = state.match(ko_match_id(1, 1))
    assert m1.status is Status.BYE and m1.winner == 1 and m1.decided_by is Decision.BYE
    assert state.match(ko_match_id(1, 2)).status is Status.READY
    final = state.match(ko_match_id(2, 1))
    assert final.status is Status.WAITING and final.pair_a == 1


def test_forfeit_advances_and_is_marked() -> None:
    """8.10: 弃权的一方……非弃权的一方得以晋升至下一轮比赛."""
    matches = build_elimination(entries(4))
    o = {ko_match_id(1, 1): win(ko_match_id(1, 1), 1, 4, 4, Decision.FORFEIT)}
    state = resolve(matches, {}, o, SETTINGS)
    m = state.match(ko_match_id(1, 1))
    assert m.winner == 4 and m.decided_by is Decision.FORFEIT and m.decided_by.is_marked
    assert state.match(ko_match_id(2, 1)).pair_a == 4


def test_disqualification_and_committee_are_marked() -> None:
    assert Decision.DISQUALIFICATION.is_marked and Decision.DISQUALIFICATION.article == "8.8"
    assert Decision.COMMITTEE.is_marked and Decision.COMMITTEE.article == "8.11"
    assert not Decision.PASSED_A.is_marked and not Decision.TIME_OUT_LEVEL.is_marked


def test_pending_dispute_holds_the_branch() -> None:
    matches = build_elimination(entries(4))
    mid = ko_match_id(1, 2)
    o = {
        ko_match_id(1, 1): win(ko_match_id(1, 1), 1, 4, 1),
        mid: win(mid, 2, 3, 3, pending=True),
    }
    state = resolve(matches, {}, o, SETTINGS)
    assert state.match(mid).status is Status.HELD and state.match(mid).winner is None
    final = state.match(ko_match_id(2, 1))
    assert final.status is Status.WAITING and final.pair_a == 1 and final.pair_b is None
    o[mid] = win(mid, 2, 3, 3)  # the committee decided: the branch moves on
    state = resolve(matches, {}, o, SETTINGS)
    assert state.match(ko_match_id(2, 1)).status is Status.READY
    assert state.match(ko_match_id(2, 1)).pair_b == 3


def test_third_place_match() -> None:
    matches = build_elimination(entries(8), third_place=True)
    assert matches[-1].match_id == THIRD_PLACE_ID
    state, _ = play_all(matches, upset=lambda m, a, b: m.match_id == ko_match_id(2, 2))
    # Semis: 1 beat 4, 3 upset 2 -> final 1 v 3, third place 4 v 2 (2 wins as better seed).
    tp = state.match(THIRD_PLACE_ID)
    assert {tp.pair_a, tp.pair_b} == {2, 4}
    assert [(p.place, p.pair_id) for p in state.places[:4]] == [(1, 1), (2, 3), (3, 2), (4, 4)]
    assert [p.place for p in state.places[4:]] == [5, 5, 5, 5]


def test_two_pairs_get_no_third_place_match() -> None:
    matches = build_elimination(entries(2), third_place=True)
    assert [m.match_id for m in matches] == [ko_match_id(1, 1)]


def test_outcome_naming_other_pairs_is_a_problem_not_a_result() -> None:
    matches = build_elimination(entries(4))
    o = {ko_match_id(1, 1): win(ko_match_id(1, 1), 2, 3, 2)}
    state = resolve(matches, {}, o, SETTINGS)
    assert state.match(ko_match_id(1, 1)).status is Status.READY
    assert any("names pairs 2 and 3" in p for p in state.problems)


def test_round_labels_count_from_the_final() -> None:
    from referee_desk.tournament.elimination import round_label

    assert round_label(8, 8).startswith("决赛")
    assert round_label(7, 8).startswith("半决赛")
    assert round_label(1, 8) == "第1轮 Round 1"
