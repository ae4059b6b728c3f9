"""The level ladder and level arithmetic (RULES.md sections 2 and 7).

Levels run ``3 4 … 10 J Q K A`` (2.1: both sides start at 3; 2 is never a level);
the presets of RULES 12 run ``2 … A`` (12.1 levels=2..A, see ``ladder_of``).
Levels only go up. The top of the ladder is A, and how a side gets past it is the
``must_play_a`` parameter (RULES.md 7, Guilin 1.5):

- ``must_play_a=true`` (default): no gain takes a side past A; a gain that would,
  stops at A. A side at A passes A (打过A, which wins the match) only by winning a
  hand at A as declarers, i.e. keeping the deal with the defenders below the stage.
  Any other gain of a side at A (taking the deal as defenders, a penalty's levels)
  leaves it at A, to play A as declarers.
- ``must_play_a=false`` (desk decision; the Guilin text always plays A): A need not
  be played. Any gain that would take a side beyond A passes A, however it was
  earned: a side at K gaining 2, a side at A gaining 1 as declarers or as
  defenders. A gain of 0 never passes A.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.rules.cards import LEVELS, Rank, parse_level
from referee_desk.rules.errors import RulesError
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset

#: The ladder, low to high: ``3 4 … 10 J Q K A``.
LADDER: tuple[Rank, ...] = LEVELS

#: The first level of every side (2.1).
FIRST_LEVEL: Rank = LADDER[0]

#: The last level on the ladder.
TOP_LEVEL: Rank = LADDER[-1]

_INDEX = {level: i for i, level in enumerate(LADDER)}

#: The presets' ladder (12.1 levels=2..A): ``2 3 … K A``.
LADDER_FROM_TWO: tuple[Rank, ...] = (Rank.TWO, *LADDER)


def ladder_of(ruleset: Ruleset = GUILIN_2009) -> tuple[Rank, ...]:
    """The ruleset's ladder, low to high (12.1: ``3..A`` or ``2..A``)."""
    return LADDER_FROM_TWO if ruleset.first_level == "2" else LADDER


def first_level(ruleset: Ruleset = GUILIN_2009) -> Rank:
    """Where both sides start (2.1; 12.1 levels)."""
    return ladder_of(ruleset)[0]


def parse_ruleset_level(text: Rank | str, ruleset: Ruleset = GUILIN_2009) -> Rank:
    """A level on the ruleset's ladder (2 only where the ladder starts at 2)."""
    return parse_level(text, lowest=first_level(ruleset))


class LevelError(RulesError):
    """A level gain that the rules cannot apply (e.g. a negative number of levels)."""


@dataclass(frozen=True, slots=True)
class LevelGain:
    """A side's level after a gain; ``passed_a`` means it passed A and won the match."""

    level: Rank
    passed_a: bool
    fell_back: bool = False
    """12.7: won at A as declarers without a dig, back to ``a_fallback``."""


def level_index(level: Rank | str, ruleset: Ruleset = GUILIN_2009) -> int:
    """0 for the first level (3, or 2 in the presets), up to A."""
    return ladder_of(ruleset).index(parse_ruleset_level(level, ruleset))


def level_label(level: Rank) -> str:
    """Notation of a level (``"10"``, ``"A"``)."""
    return level.label


def add_levels(
    level: Rank | str,
    n: int,
    ruleset: Ruleset = GUILIN_2009,
    *,
    kept_deal_at_a: bool = False,
) -> tuple[Rank, bool]:
    """The level after going up ``n`` levels, and whether that passed A.

    ``kept_deal_at_a`` says the gain comes from winning a hand at this level as
    declarers with the defenders below the stage: the only way past A when
    ``must_play_a`` holds (see the module docstring).
    """
    gain = gain_levels(level, n, ruleset, kept_deal_at_a=kept_deal_at_a)
    return gain.level, gain.passed_a


def gain_levels(
    level: Rank | str,
    n: int,
    ruleset: Ruleset = GUILIN_2009,
    *,
    kept_deal_at_a: bool = False,
    dug_at_a: bool = False,
) -> LevelGain:
    """:func:`add_levels` as a :class:`LevelGain` value.

    12.7 [P a_needs_dig]: a side at A that wins a hand at A as declarers passes A only
    if it has dug the kitty since it reached A (``dug_at_a``); otherwise it falls back
    to ``a_fallback`` (``fell_back``).
    """
    ladder = ladder_of(ruleset)
    start = parse_ruleset_level(level, ruleset)
    if isinstance(n, bool) or not isinstance(n, int):
        raise LevelError(f"levels to gain must be a whole number, not {n!r}")
    if n < 0:
        raise LevelError(f"levels never go down (7.1, 7.2): cannot gain {n} levels")
    index = ladder.index(start)
    top = len(ladder) - 1
    if ruleset.must_play_a:
        passed = start == TOP_LEVEL and n > 0 and kept_deal_at_a
        if passed and ruleset.a_needs_dig and not dug_at_a:
            return LevelGain(parse_ruleset_level(ruleset.a_fallback, ruleset), False, True)
        return LevelGain(ladder[min(index + n, top)], passed)
    return LevelGain(ladder[min(index + n, top)], index + n > top)


def compare_levels(a: Rank, b: Rank) -> int:
    """-1, 0 or 1 as level ``a`` is below, equal to or above ``b`` (1.5: A > K > … > 3)."""
    return (a > b) - (a < b)
