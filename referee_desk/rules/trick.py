"""Who wins a trick (RULES.md section 6; Guilin chapters 5 and 6).

Only competing plays can win: one unit, in the lead's suit or all trumps, with the
lead's card count and a matching type. Among equals the earlier play stays (6.1);
a trump challenger over a side-suit winner needs a type at least as strong (6.5).
Cards played in place of a wrong play are discards and never win (8.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee_desk.rules.cards import Card, format_cards, points_of
from referee_desk.rules.errors import IllegalInputError
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.throws import throw_winner
from referee_desk.rules.trump import TRUMP, TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify


def lead_unit(lead: Iterable[Card], ctx: TrumpContext) -> Unit:
    """The lead as a unit; a lead that is not one unit is refused (4.7: no throws)."""
    cards = tuple(lead)
    unit = classify(cards, ctx)
    if unit is None:
        raise IllegalInputError(
            f"lead {format_cards(cards) or '(no cards)'} is not one unit "
            "(4.7: throws are forbidden; a lead must be exactly one unit)"
        )
    return unit


def type_strength(unit: Unit, lead: Unit, tiers: bool = True) -> int:
    """Strength of a competing unit's type against this lead (6.3, 6.4).

    1 for a bomb against a two-pair tractor lead and for a bulldozer against a
    tractor lead; 0 for the lead's own type. Bulldozers of equal card count but
    different shape (3×4 against 4×3, only against a 6-pair tractor) share tier 1
    and are then compared by rank: RULES.md does not rank them against each other.
    """
    if not tiers:
        return 0  # 12.2 bombs_beat_tractors=false: only the lead's exact shape competes
    if lead.kind is UnitKind.TRACTOR and unit.kind in (UnitKind.BOMB, UnitKind.BULLDOZER):
        return 1
    return 0


def _type_matches(unit: Unit, lead: Unit, tiers: bool = True) -> bool:
    if unit.size != lead.size:
        return False
    if unit.kind is lead.kind:
        return unit.length == lead.length and unit.each == lead.each
    if not tiers:
        return False
    if lead.kind is UnitKind.TRACTOR:
        if unit.kind is UnitKind.BOMB:
            return lead.length == 2  # 6.4: 6666 beats AAKK
        return unit.kind is UnitKind.BULLDOZER  # 6.3: 555666 beats AAKKQQ
    return False


def competing_unit(
    play: Iterable[Card], lead: Unit, ctx: TrumpContext, tiers: bool = True
) -> Unit | None:
    """The play's unit if it competes against ``lead`` (section 6), else None.

    ``tiers`` is the ruleset's ``bombs_beat_tractors`` (12.2).
    """
    unit = classify(play, ctx)
    if unit is None:
        return None
    if unit.suit != lead.suit and unit.suit != TRUMP:
        return None
    return unit if _type_matches(unit, lead, tiers) else None


def competes(
    play: Iterable[Card], lead: Iterable[Card] | Unit, ctx: TrumpContext, tiers: bool = True
) -> bool:
    """Can this play win against the lead at all (section 6, first rule)?"""
    lead_u = lead if isinstance(lead, Unit) else lead_unit(lead, ctx)
    return competing_unit(play, lead_u, ctx, tiers) is not None


def beats(challenger: Unit, winner: Unit, lead: Unit, tiers: bool = True) -> bool:
    """Does a competing challenger beat the current winner (section 6)?"""
    c_strength = type_strength(challenger, lead, tiers)
    w_strength = type_strength(winner, lead, tiers)
    if challenger.suit == winner.suit:
        if c_strength != w_strength:
            return c_strength > w_strength
        return challenger.top_power > winner.top_power  # equal rank: earlier stays (6.1)
    if challenger.suit == TRUMP:
        return c_strength >= w_strength  # 6.5 枪毙
    return False  # a side-suit play never beats a trump winner


@dataclass(frozen=True, slots=True)
class TrickResult:
    """Winner (index in play order), points in the trick and which plays competed."""

    winner: int
    points: int
    competing: tuple[bool, ...]
    cards_each: int


def trick_result(
    plays: Sequence[Iterable[Card]],
    ctx: TrumpContext,
    *,
    discarded: Iterable[int] = frozenset(),
    ruleset: Ruleset = GUILIN_2009,
) -> TrickResult:
    """Judge a trick so far: ``plays[0]`` is the lead, then the others in play order.

    ``discarded`` holds indexes of plays made in place of a wrong play (8.2): they
    count as discards and cannot win. If the lead itself is such a play, the first
    competing later play takes over; if nothing can win, the lead is named winner
    (somebody must take the cards). A lead of several units is a throw (12.4) where
    the ruleset allows throws, and refused (4.7) where it does not.
    """
    cards = [tuple(p) for p in plays]
    if not cards:
        raise IllegalInputError("a trick needs at least the lead")
    skip = frozenset(discarded)
    if len(cards[0]) <= 2 and len(cards) <= 4:
        quick = _small_trick(cards, ctx, skip)
        if quick is not None:
            return quick
    return _general_trick(cards, ctx, skip, ruleset)


def _general_trick(
    cards: list[tuple[Card, ...]],
    ctx: TrumpContext,
    skip: frozenset[int],
    ruleset: Ruleset = GUILIN_2009,
) -> TrickResult:
    """``trick_result`` by units for any lead (and its refusals)."""
    if len(cards) > 4:
        raise IllegalInputError(f"a trick has at most four plays, not {len(cards)}")
    if ruleset.throws and classify(cards[0], ctx) is None:
        best, competing_plays, each = throw_winner(cards, ctx, skip)
        points = sum(points_of(p) for p in cards)
        return TrickResult(best, points, competing_plays, each)
    tiers = ruleset.bombs_beat_tractors
    lead = lead_unit(cards[0], ctx)
    for index in skip:
        if not 0 <= index < len(cards):
            raise IllegalInputError(f"discarded play {index} is not in this trick")
    for index, play in enumerate(cards[1:], start=1):
        if len(play) != lead.size:
            raise IllegalInputError(
                f"play {index} ({format_cards(play) or 'no cards'}) has {len(play)} cards; "
                f"the lead has {lead.size}"
            )
    competing: list[bool] = [0 not in skip]
    winner_index: int | None = None if 0 in skip else 0
    winner: Unit | None = None if 0 in skip else lead
    for index, play in enumerate(cards[1:], start=1):
        unit = None if index in skip else competing_unit(play, lead, ctx, tiers)
        competing.append(unit is not None)
        if unit is None:
            continue
        if winner is None or beats(unit, winner, lead, tiers):
            winner_index, winner = index, unit
    return TrickResult(
        winner=0 if winner_index is None else winner_index,
        points=sum(points_of(p) for p in cards),
        competing=tuple(competing),
        cards_each=lead.size,
    )


def _small_trick(
    cards: list[tuple[Card, ...]], ctx: TrumpContext, skip: frozenset[int]
) -> TrickResult | None:
    """``trick_result`` for a single or pair lead without building units (same answer).

    A single or a pair competes when it is one card, or two identical cards, of the
    lead's suit or trump; then only its power and suit decide (6.1, 6.5: equal types).
    None when the general path must judge (or refuse) the trick.
    """
    lead = cards[0]
    size = len(lead)
    if size == 0 or (size == 2 and lead[0] is not lead[1]):
        return None  # no lead, or not one unit: the general path refuses it
    for play in cards:
        if len(play) != size:
            return None
    for i in skip:
        if not 0 <= i < len(cards):
            return None
    tables = ctx.tables
    suit_of = tables.suit_of
    power_of = tables.power_of
    lead_suit = suit_of[lead[0]]
    winner_index: int | None = None
    winner_suit = ""
    winner_power = 0
    competing: list[bool] = []
    points = 0
    for index, play in enumerate(cards):
        first = play[0]
        if size == 2:
            second = play[1]
            points += first.points + second.points
            if second is not first:
                competing.append(False)
                continue
        else:
            points += first.points
        if index in skip:
            competing.append(False)
            continue
        suit = suit_of[first]
        if suit != lead_suit and suit != TRUMP:
            competing.append(False)
            continue
        competing.append(True)
        strength = power_of[first]
        if winner_index is None or (
            strength > winner_power if suit == winner_suit else suit == TRUMP
        ):
            winner_index, winner_suit, winner_power = index, suit, strength
    return TrickResult(
        winner=0 if winner_index is None else winner_index,
        points=points,
        competing=tuple(competing),
        cards_each=size,
    )


def trick_winner(
    plays: Sequence[Iterable[Card]],
    ctx: TrumpContext,
    *,
    discarded: Iterable[int] = frozenset(),
    ruleset: Ruleset = GUILIN_2009,
) -> int:
    """Index (in play order) of the play winning the trick so far (section 6)."""
    return trick_result(plays, ctx, discarded=discarded, ruleset=ruleset).winner
