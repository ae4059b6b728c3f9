"""Level ladder and level arithmetic (RULES.md 2, 7; Guilin 1.5, 2.1)."""

from __future__ import annotations

import pytest

from referee_desk.rules.cards import Rank
from referee_desk.rules.errors import RulesError
from referee_desk.rules.levels import (
    FIRST_LEVEL,
    LADDER,
    TOP_LEVEL,
    LevelError,
    add_levels,
    compare_levels,
    gain_levels,
    level_index,
)
from referee_desk.rules.ruleset import GUILIN_2009, get_ruleset

FREE_A = get_ruleset(overrides={"must_play_a": False})


def test_ladder_runs_3_to_a_without_2() -> None:
    """2.1: both sides start at 3; 3.1: 2 is a fixed trump, never a level."""
    labels = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert [r.label for r in LADDER] == labels
    assert FIRST_LEVEL is Rank.THREE
    assert TOP_LEVEL is Rank.ACE
    assert Rank.TWO not in LADDER
    assert level_index("3") == 0
    assert level_index("A") == 11
    assert level_index(Rank.TEN) == 7


@pytest.mark.parametrize(
    ("level", "n", "expected"),
    [
        ("3", 0, "3"),
        ("3", 1, "4"),
        ("7", 2, "9"),
        ("9", 1, "10"),
        ("10", 3, "K"),
        ("J", 2, "K"),
        ("Q", 2, "A"),
    ],
)
def test_gains_below_a_move_up_the_ladder(level: str, n: int, expected: str) -> None:
    new_level, passed = add_levels(level, n, GUILIN_2009)
    assert new_level.label == expected
    assert passed is False


@pytest.mark.parametrize(
    ("level", "n"),
    [("K", 2), ("K", 6), ("Q", 3), ("10", 10), ("3", 40)],
)
def test_no_gain_takes_a_side_past_a(level: str, n: int) -> None:
    """RULES.md 7: "no gain takes a side past A" (must_play_a=true)."""
    assert add_levels(level, n, GUILIN_2009) == (Rank.ACE, False)
    # Not even when the gain comes from a kept deal: the side is not at A yet.
    assert add_levels(level, n, GUILIN_2009, kept_deal_at_a=True) == (Rank.ACE, False)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_a_is_passed_only_by_winning_a_hand_at_a_as_declarers(n: int) -> None:
    """1.5 / RULES.md 7: "a side at A must win a hand at A as declarers (defenders below
    160) to pass A (打过A), which wins the match"."""
    assert add_levels("A", n, GUILIN_2009, kept_deal_at_a=True) == (Rank.ACE, True)
    # Gaining at A any other way (taking the deal as defenders, a penalty) stays at A.
    assert add_levels("A", n, GUILIN_2009) == (Rank.ACE, False)


def test_a_side_at_a_gaining_nothing_does_not_pass() -> None:
    assert add_levels("A", 0, GUILIN_2009, kept_deal_at_a=True) == (Rank.ACE, False)


@pytest.mark.parametrize(
    ("level", "n", "expected", "passed"),
    [
        ("Q", 2, "A", False),
        ("K", 1, "A", False),
        ("K", 2, "A", True),
        ("A", 1, "A", True),
        ("A", 0, "A", False),
        ("5", 4, "9", False),
    ],
)
def test_without_must_play_a_any_gain_beyond_a_passes(
    level: str, n: int, expected: str, passed: bool
) -> None:
    """must_play_a=false (desk decision): A need not be played; going beyond A passes it."""
    gain = gain_levels(level, n, FREE_A)
    assert (gain.level.label, gain.passed_a) == (expected, passed)
    # However the gain was earned.
    assert gain_levels(level, n, FREE_A, kept_deal_at_a=True) == gain


@pytest.mark.parametrize("n", [-1, -5])
def test_levels_never_go_down(n: int) -> None:
    """7.1, 7.2 only ever raise a side; a negative gain is an input error."""
    with pytest.raises(LevelError, match="never go down"):
        add_levels("7", n, GUILIN_2009)


@pytest.mark.parametrize("n", [1.0, "2", True, None])
def test_gain_must_be_a_whole_number(n: object) -> None:
    with pytest.raises(LevelError, match="whole number"):
        add_levels("7", n, GUILIN_2009)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", ["2", "1", "B", "LJ", ""])
def test_bad_levels_are_refused_by_name(level: str) -> None:
    with pytest.raises(RulesError, match="level"):
        add_levels(level, 1, GUILIN_2009)


def test_compare_levels_orders_a_above_k_above_3() -> None:
    """1.5: at time-out the higher level wins, "A、K、Q … 3"."""
    assert compare_levels(Rank.ACE, Rank.KING) == 1
    assert compare_levels(Rank.THREE, Rank.KING) == -1
    assert compare_levels(Rank.TEN, Rank.TEN) == 0
