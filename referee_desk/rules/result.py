"""The result of a hand (RULES.md section 7, Guilin chapter 7) and what follows it.

Pure functions from the figures a referee enters to the defenders' final score, who
holds the deal, the levels gained and the next dealer. Every step is returned as a
:class:`Consequence` naming its article, so a printed result can show its working.
The match layer calls :func:`hand_result` at the end of a hand, and
:func:`result_from_final_score` / :func:`result_from_levels_up` for the revoke
penalties (8.3 B / 8.3 A).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.rules.cards import Rank
from referee_desk.rules.digs import kitty_dig, kitty_multiplier_of, last_trick_dig
from referee_desk.rules.hand_values import (
    Consequence,
    HandResult,
    HandResultError,
    Role,
    parse_role,
    whole_number,
)
from referee_desk.rules.levels import gain_levels, parse_ruleset_level
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.seats import Seat


def stage_offset(defenders_final: int, ruleset: Ruleset = GUILIN_2009) -> int:
    """b = floor((D − stage) / step) (7.1, 7.2): ≥ 0 defenders take the deal, < 0 not.

    12.6 [P table_floor_at_zero]: D ≤ 0 counts as 0 for the table.
    """
    final = whole_number(defenders_final, "defenders' final score")
    if ruleset.table_floor_at_zero:
        final = max(final, 0)
    return (final - ruleset.stage) // ruleset.step


def hand_result(
    *,
    defenders_points: int,
    last_trick_points: int,
    last_trick_cards: int,
    last_trick_winner: Role | str,
    declarer_level: Rank | str,
    defender_level: Rank | str,
    ruleset: Ruleset = GUILIN_2009,
    kitty_points: int | None = None,
    kitty_multiplier: int | None = None,
    dug_at_a: bool = False,
) -> HandResult:
    """The result of a hand played to the end (7.1-7.3, 1.5; 12.5-12.7).

    ``defenders_points`` are the points the defenders hold before the last trick
    (after any wrong-play adjustments, 8.2); the last trick is then dug (7.3, or the
    kitty of 12.5 with ``kitty_points`` × ``kitty_multiplier``) and the final score D
    settles the deal and the levels. ``dug_at_a``: the declarers have dug the kitty
    since they reached A (12.7 a_needs_dig).
    """
    if ruleset.last_trick == "kitty":
        if kitty_points is None or kitty_multiplier is None:
            raise HandResultError(
                "this ruleset digs the kitty (12.5): the kitty's points and the last "
                "lead's shape are needed"
            )
        cards = whole_number(last_trick_cards, "last-trick cards per player")
        if not 1 <= cards <= ruleset.hand_size:
            raise HandResultError(
                f"last-trick cards per player must be 1 to {ruleset.hand_size}, not {cards}"
            )
        final, dig = kitty_dig(
            defenders_points,
            last_trick_points,
            last_trick_winner,
            kitty_points,
            kitty_multiplier,
            ruleset,
        )
    else:
        if kitty_points is not None:
            raise HandResultError(f"ruleset {ruleset.name} has no kitty (1.4 不垫底牌)")
        final, dig = last_trick_dig(
            defenders_points, last_trick_points, last_trick_cards, last_trick_winner, ruleset
        )
    return result_from_final_score(
        final, declarer_level, defender_level, ruleset, prior=(dig,), dug_at_a=dug_at_a
    )


def result_from_final_score(
    defenders_final: int,
    declarer_level: Rank | str,
    defender_level: Rank | str,
    ruleset: Ruleset = GUILIN_2009,
    *,
    prior: tuple[Consequence, ...] = (),
    dug_at_a: bool = False,
) -> HandResult:
    """The result from the defenders' final score D (7.1, 7.2; also 8.3 B).

    b = floor((D − stage) / step). b ≥ 0: the defenders take the deal (上台) and go
    up b levels, no cap (7.1). b < 0: the declarers keep the deal (连庄) and go up
    −b levels (7.2, negative scores by the same rule). The cap at A and passing A
    follow :mod:`referee_desk.rules.levels`. ``prior`` are consequences the caller
    already applied (the last-trick dig, a penalty), kept first. 12.6: D ≤ 0 may
    count as 0 (``table_floor_at_zero``), a shutout adds ``shutout_bonus`` levels for
    the declarers and ``max_gain`` caps any gain.
    """
    final = whole_number(defenders_final, "defenders' final score")
    declarers = parse_ruleset_level(declarer_level, ruleset)
    defenders = parse_ruleset_level(defender_level, ruleset)
    b = stage_offset(final, ruleset)
    steps = list(prior)
    table = max(final, 0) if ruleset.table_floor_at_zero else final
    if table != final:
        steps.append(Consequence.make("12.6", "table_floor", final=final))
    if b >= 0:
        gain = b
        steps.append(Consequence.make("7.1", "stage_take", final=table, stage=ruleset.stage, b=b))
        role = Role.DEFENDERS
    else:
        gain = -b
        steps.append(Consequence.make("7.2", "stage_keep", final=table, gain=gain))
        role = Role.DECLARERS
        if ruleset.shutout_bonus and table <= 0:
            gain += ruleset.shutout_bonus
            steps.append(Consequence.make("12.6", "shutout_bonus", bonus=ruleset.shutout_bonus))
    if ruleset.max_gain is not None and gain > ruleset.max_gain:
        steps.append(
            Consequence.make("12.6", "max_gain", role=str(role), gain=gain, cap=ruleset.max_gain)
        )
        gain = ruleset.max_gain
    return _apply_gain(
        role, gain, declarers, defenders, ruleset, final, b, tuple(steps), dug_at_a=dug_at_a
    )


def result_from_levels_up(
    side: Role | str,
    levels: int,
    declarer_level: Rank | str,
    defender_level: Rank | str,
    ruleset: Ruleset = GUILIN_2009,
    *,
    article: str = "8.3 A",
    prior: tuple[Consequence, ...] = (),
) -> HandResult:
    """A result where a side goes up ``levels`` and holds the deal (8.3 A: two levels).

    Defenders who gain this way also take the deal; declarers keep it. The cap at A
    applies. With ``must_play_a`` such a gain never passes A: passing A takes a hand
    won at A as declarers with the defenders below the stage (1.5), which this is
    not (8.3 B, which sets D, can pass A). Without ``must_play_a``, any gain past A
    passes it. ``article`` names the rule that ordered the gain.
    """
    role = parse_role(side)
    gain = whole_number(levels, "levels to gain")
    declarers = parse_ruleset_level(declarer_level, ruleset)
    defenders = parse_ruleset_level(defender_level, ruleset)
    key = "levels_up_keep" if role is Role.DECLARERS else "levels_up_take"
    if gain < 0:
        raise HandResultError(f"levels never go down: cannot gain {gain} levels")
    step = Consequence.make(article, key, role=str(role), gain=gain)
    return _apply_gain(role, gain, declarers, defenders, ruleset, None, None, (*prior, step))


def _apply_gain(
    role: Role,
    gain: int,
    declarers: Rank,
    defenders: Rank,
    ruleset: Ruleset,
    final: int | None,
    b: int | None,
    consequences: tuple[Consequence, ...],
    *,
    dug_at_a: bool = False,
) -> HandResult:
    before = declarers if role is Role.DECLARERS else defenders
    kept_at_a = role is Role.DECLARERS and final is not None
    after = gain_levels(before, gain, ruleset, kept_deal_at_a=kept_at_a, dug_at_a=dug_at_a)
    steps = list(consequences)
    if after.fell_back:
        steps.append(
            Consequence.make("12.7", "a_fallback", role=str(role), after=after.level.label)
        )
    elif after.passed_a:
        steps.append(Consequence.make("1.5", "pass_a", role=str(role)))
    elif gain and int(before) + gain > int(after.level):
        steps.append(
            Consequence.make(
                "1.5",
                "cap_at_a",
                role=str(role),
                before=before.label,
                gain=gain,
                after=after.level.label,
            )
        )
    if after.level != before:
        steps.append(
            Consequence.make(
                "7", "level_change", role=str(role), before=before.label, after=after.level.label
            )
        )
    new_declarers = after.level if role is Role.DECLARERS else declarers
    new_defenders = after.level if role is Role.DEFENDERS else defenders
    return HandResult(
        defenders_final=final,
        b=b,
        deal=role,
        levels_up=gain,
        levels_moved=max(int(after.level) - int(before), 0),
        declarer_level_before=declarers,
        defender_level_before=defenders,
        declarer_level=new_declarers,
        defender_level=new_defenders,
        passed_a=after.passed_a,
        consequences=tuple(steps),
    )


def next_dealer(dealer: Seat, deal: Role | str, ruleset: Ruleset = GUILIN_2009) -> Seat:
    """Who deals the next hand (RULES.md 7, rotation=partner_or_next; cf. 8.5).

    Declarers keep the deal → the dealer's partner; defenders take it → the player
    after the dealer in play order (counter-clockwise), a defender.
    """
    if ruleset.rotation != "partner_or_next":  # pragma: no cover - one mode exists
        raise HandResultError(f"unknown rotation {ruleset.rotation!r}")
    if parse_role(deal, "deal") is Role.DECLARERS:
        return dealer.partner
    return dealer.next_in_play


@dataclass(frozen=True, slots=True)
class ShuffleCut:
    """Who shuffles and who cuts for the next hand (2.3)."""

    shuffler: Seat
    cutter: Seat


def shuffle_and_cut(dealer: Seat, deal: Role | str, ruleset: Ruleset = GUILIN_2009) -> ShuffleCut:
    """2.3: 由赢家洗牌，输家过牌 (the winners shuffle, the losers cut).

    The text names sides, not seats; the desk decides: the next dealer (always on the
    winning side, see :func:`next_dealer`) shuffles, and the loser who plays just
    before the next dealer in play order cuts.
    """
    upcoming = next_dealer(dealer, deal, ruleset)
    cutter = next(seat for seat in Seat if seat.next_in_play is upcoming)
    return ShuffleCut(shuffler=upcoming, cutter=cutter)


__all__ = [
    "Consequence",
    "HandResult",
    "HandResultError",
    "Role",
    "ShuffleCut",
    "hand_result",
    "kitty_dig",
    "kitty_multiplier_of",
    "last_trick_dig",
    "next_dealer",
    "parse_role",
    "result_from_final_score",
    "result_from_levels_up",
    "shuffle_and_cut",
    "stage_offset",
]
