"""Follows that need no search (RULES.md section 5): the fast paths of ``check_follow``.

A short follower that plays all its cards of the suit (5.1), any card of the suit to
a single lead, a play whose key reaches the greatest any n cards can have, and a
suit without two identical cards are legal whatever the strand DP would find; each
gives the very verdict the full judgement gives.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee_desk.rules.cards import Card
from referee_desk.rules.follow_text import (
    TUPLE_LEADS,
    FollowVerdict,
    Key,
    describe_key,
    lead_article,
    n_cards,
    suit_label,
)
from referee_desk.rules.profile import unit_value
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify


def top_key(lead: Unit) -> Key:
    """The greatest key any n cards can have against this lead (an upper bound).

    n cards hold at most ⌊n/2⌋ pair-units, all in one strand at best; the first item
    is at most the lead's tuple (pair, triple, bomb) or 1 for a same-shape bulldozer.
    """
    if lead.kind in TUPLE_LEADS:
        return (lead.each, (lead.size // 2,))
    return (1 if lead.kind is UnitKind.BULLDOZER else 0, (lead.size // 2,))


def reaches_top(play: Unit | None, lead: Unit) -> bool:
    """Is the play one unit whose key is ``top_key(lead)``?

    One unit of n cards worth ⌊n/2⌋ pair-units has the profile (⌊n/2⌋,); the first
    item then needs as many identical cards as the lead's tuple, or the lead's exact
    bulldozer shape (6.3).
    """
    if play is None or play.suit != lead.suit or play.size != lead.size:
        return False
    if unit_value(play.each, play.length) != lead.size // 2:
        return False
    if lead.kind in TUPLE_LEADS:
        return play.each >= lead.each
    if lead.kind is UnitKind.BULLDOZER:
        return play.kind is UnitKind.BULLDOZER and (play.each, play.length) == (
            lead.each,
            lead.length,
        )
    return True


def is_top_follow(lead: Iterable[Card], play: Iterable[Card], ctx: TrumpContext) -> bool:
    """Is ``play`` a follow no hand can better: all of the lead's suit, greatest key?

    Such a follow is legal whatever else the follower holds (section 5), so a caller
    that knows only part of the hand needs no more. False when the lead is not one
    unit or the counts differ (``check_follow`` then explains).
    """
    lead_cards = tuple(lead)
    play_cards = tuple(play)
    if len(lead_cards) == 2 and len(play_cards) == 2:
        # Pair lead (3.2): only an identical pair of the lead's suit reaches (2, (1,)).
        a, b = lead_cards
        return (
            a == b
            and play_cards[0] == play_cards[1]
            and ctx.effective_suit(play_cards[0]) == ctx.effective_suit(a)
        )
    unit = classify(lead_cards, ctx)
    if unit is None or len(play_cards) != unit.size:
        return False
    if unit.kind is UnitKind.SINGLE:
        return ctx.effective_suit(play_cards[0]) == unit.suit
    return reaches_top(classify(play_cards, ctx), unit)


def all_distinct(cards: tuple[Card, ...], suit: str, ctx: TrumpContext) -> bool:
    """No two identical cards among ``cards`` of effective suit ``suit``."""
    suit_of = ctx.tables.suit_of
    of_suit = [c for c in cards if suit_of[c] == suit]
    return len(set(of_suit)) == len(of_suit)


def quick_verdict(
    unit: Unit,
    hand_cards: tuple[Card, ...],
    play_cards: tuple[Card, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowVerdict | None:
    """The verdict of a legal follow that needs no search, else None (then judge fully).

    Same verdicts as the full judgement: a short follower that plays all its cards of
    the suit (5.1), any cards of the suit to a single lead, or a play whose key
    reaches the upper bound ``top_key`` (so no n cards of the suit can do better).
    """
    suit = unit.suit
    n = unit.size
    suit_of = ctx.tables.suit_of
    held = 0
    for c in hand_cards:
        if suit_of[c] == suit:
            held += 1
    in_suit = 0
    for c in play_cards:
        if suit_of[c] == suit:
            in_suit += 1
    label = suit_label(suit)
    rule = lead_article(unit)
    if held <= n:
        if in_suit != held:
            return None  # kept back a card of the suit: the full judgement explains it
        if not held:
            return FollowVerdict(True, rule, f"void in {label}: any {n} cards may be played")
        return FollowVerdict(True, rule, f"plays all {n_cards(held, label)} held")
    if in_suit != n:
        return None
    if unit.kind is UnitKind.SINGLE:
        return FollowVerdict(True, rule, f"any {n} {label} cards follow this lead")
    if reaches_top(classify(play_cards, ctx), unit):
        key = top_key(unit)
    elif all_distinct(hand_cards, suit, ctx):
        # No two identical cards of the suit: every n of them have the same key, no
        # pair-units and a tuple of 1; to a triple lead no triple and no free pair (4.5).
        if unit.kind is UnitKind.TRIPLE and ruleset.triple_lead_spares_tractors:
            return FollowVerdict(
                True,
                "4.5",
                f"no triple and every {label} pair is in a tractor: any {n} {label} cards",
            )
        key = (1 if unit.kind in TUPLE_LEADS else 0, ())
    else:
        return None
    return FollowVerdict(
        True, rule, f"plays {describe_key(key, unit)}, the best shape held in {label}"
    )
