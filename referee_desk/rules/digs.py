"""The last trick's dig: 反抠 (7.3) and, in the presets, the kitty dig (12.5).

What the last trick does to the defenders' score, with the article that says so; the
kitty multiplier from the last lead's shape (12.5). ``result.hand_result`` applies them.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee_desk.rules.hand_values import (
    Consequence,
    HandResultError,
    Role,
    parse_role,
    whole_number,
)
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset

#: Cards in one deck, and the most points one card carries (7: 10 and K).
_CARDS_PER_DECK = 54
_MAX_CARD_POINTS = 10
_POINTS_PER_DECK = 100
_PLAYERS = 4


def kitty_multiplier_of(shapes: Iterable[tuple[int, int]], ruleset: Ruleset) -> int:
    """The kitty multiplier m of the last lead (12.5) from its units' shapes.

    ``shapes`` are (identical cards per rank, ranks) of the lead's unit, or of each
    component of a throw. ``by_shape`` (001): single ×2; pair, triple, bomb ×4; a
    tractor or bulldozer of k ranks ×2^k. ``power_of_cards`` (002): ×2^c with c the
    card count of the largest unit. For a throw the greatest multiplier counts.
    """
    items = list(shapes)
    if not items:
        raise HandResultError("the last lead's shape is missing (12.5)")
    for each, length in items:
        if isinstance(each, bool) or isinstance(length, bool):
            raise HandResultError(f"bad last-lead shape {each}×{length}")
        if not (1 <= each <= ruleset.decks and 1 <= length <= 13) or (each == 1 and length > 1):
            raise HandResultError(
                f"bad last-lead shape: {length} rank(s) of {each} identical card(s) "
                f"cannot be one unit with {ruleset.decks} decks"
            )
    if ruleset.kitty_multiplier == "power_of_cards":
        return 1 << max(each * length for each, length in items)  # 2**c, as an int
    if ruleset.kitty_multiplier == "by_shape":
        return max(2**length if length > 1 else (2 if each == 1 else 4) for each, length in items)
    raise HandResultError("this ruleset has no kitty multiplier (last_trick is not kitty)")


def kitty_dig(
    defenders_points: int,
    last_trick_points: int,
    last_trick_winner: Role | str,
    kitty_points: int,
    multiplier: int,
    ruleset: Ruleset,
) -> tuple[int, Consequence]:
    """The defenders' final score after the last trick with a kitty (12.5).

    Defenders win it: the trick's points as any trick's, plus the kitty's points × m.
    Declarers win it: nothing changes (no 反抠).
    """
    points = whole_number(defenders_points, "defenders' points before the last trick")
    trick_points = whole_number(last_trick_points, "last-trick points")
    kitty = whole_number(kitty_points, "kitty points")
    m = whole_number(multiplier, "kitty multiplier")
    winner = parse_role(last_trick_winner, "last-trick winner")
    most = min(ruleset.kitty * _MAX_CARD_POINTS, _POINTS_PER_DECK * ruleset.decks)
    if kitty < 0 or kitty % 5 or kitty > most:
        raise HandResultError(
            f"kitty points must be a multiple of 5 from 0 to {most} "
            f"({ruleset.kitty} cards), not {kitty}"
        )
    if m < 2 or m & (m - 1):
        raise HandResultError(f"the kitty multiplier must be 2, 4, 8, …, not {m}")
    if trick_points < 0 or trick_points % 5:
        raise HandResultError(
            f"last-trick points must be a multiple of 5 and not negative, not {trick_points}"
        )
    if winner is Role.DECLARERS:
        step = Consequence.make("12.5", "kitty_declarers", kitty=kitty, before=points, final=points)
        return points, step
    dig = kitty * m
    final = points + trick_points + dig
    step = Consequence.make(
        "12.5",
        "kitty_defenders",
        points=trick_points,
        kitty=kitty,
        m=m,
        dig=dig,
        before=points,
        final=final,
    )
    return final, step


def last_trick_dig(
    defenders_points: int,
    last_trick_points: int,
    last_trick_cards: int,
    last_trick_winner: Role | str,
    ruleset: Ruleset = GUILIN_2009,
) -> tuple[int, Consequence]:
    """The defenders' final score after the last trick (7.3 反抠) and its working.

    The last trick's winner scores L × c (L: points in the trick, c: cards each
    player played). Defenders: added to their points before the last trick (with
    ``last_trick=bonus`` the ordinary capture of L is added as well). Declarers:
    subtracted from the defenders' points, which may go negative.
    """
    points = whole_number(defenders_points, "defenders' points before the last trick")
    cards = whole_number(last_trick_cards, "last-trick cards per player")
    trick_points = whole_number(last_trick_points, "last-trick points")
    winner = parse_role(last_trick_winner, "last-trick winner")
    per_player_max = _CARDS_PER_DECK * ruleset.decks // _PLAYERS
    if not 1 <= cards <= per_player_max:
        raise HandResultError(
            f"last-trick cards per player must be 1 to {per_player_max}, not {cards}"
        )
    if trick_points < 0 or trick_points % 5:
        raise HandResultError(
            f"last-trick points must be a multiple of 5 and not negative, not {trick_points}"
        )
    most = min(_MAX_CARD_POINTS * _PLAYERS * cards, _POINTS_PER_DECK * ruleset.decks)
    if trick_points > most:
        raise HandResultError(
            f"last-trick points {trick_points} cannot be held by {_PLAYERS} × {cards} cards "
            f"(at most {most})"
        )
    dig = trick_points * cards
    figures = {"points": trick_points, "cards": cards, "before": points}
    if trick_points == 0:
        # 7.3 changes nothing: say so rather than print "−0×1 = −0".
        final = points
        step = Consequence.make("7.3", "last_trick_no_points", final=final, **figures)
    elif winner is Role.DECLARERS:
        final = points - dig
        step = Consequence.make("7.3", "last_trick_declarers", dig=dig, final=final, **figures)
    elif ruleset.last_trick == "bonus":
        gain = trick_points + dig
        final = points + gain
        step = Consequence.make(
            "7.3", "last_trick_defenders_bonus", gain=gain, final=final, **figures
        )
    else:
        final = points + dig
        step = Consequence.make("7.3", "last_trick_defenders", dig=dig, final=final, **figures)
    return final, step
