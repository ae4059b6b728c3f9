"""A seeded table simulator: deals 216 cards and plays a whole hand with legal follows.

Used by the sample generator, the tests and the replay benchmark to produce
realistic trick-by-trick records. Follows are chosen by the rules core: a simple
candidate (lowest cards of the led suit) is judged by ``check_follow`` and replaced
by the legal play it proposes when illegal, so every record it writes is legal.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from referee_desk.rules.cards import DECK, Card, format_card
from referee_desk.rules.follow import check_follow
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify


def deal(rng: random.Random, ruleset: Ruleset = GUILIN_2009) -> dict[Seat, list[Card]]:
    """Shuffle ``decks`` decks and deal them one card at a time, N W S E (1.3)."""
    cards = [card for _ in range(ruleset.decks) for card in DECK]
    rng.shuffle(cards)
    hands: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
    order = Seat.N.play_order_from()
    for i, card in enumerate(cards):
        hands[order[i % 4]].append(card)
    return hands


def deal_with_kitty(
    rng: random.Random, ruleset: Ruleset
) -> tuple[dict[Seat, list[Card]], list[Card]]:
    """Deal ``hand_size`` cards to each seat, N W S E, and leave the kitty (12.1)."""
    cards = [card for _ in range(ruleset.decks) for card in DECK]
    rng.shuffle(cards)
    hands: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
    order = Seat.N.play_order_from()
    dealt = 4 * ruleset.hand_size
    for i, card in enumerate(cards[:dealt]):
        hands[order[i % 4]].append(card)
    return hands, cards[dealt:]


@dataclass(frozen=True, slots=True)
class SimTrick:
    leader: Seat
    plays: tuple[tuple[Seat, tuple[Card, ...]], ...]
    winner: Seat

    def payload(self, *, last: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "leader": self.leader.value,
            "plays": [
                {"seat": seat.value, "cards": [format_card(c) for c in cards]}
                for seat, cards in self.plays
            ],
        }
        if last:
            data["last"] = True
        return data


def lead_cards(hand: list[Card], ctx: TrumpContext, rng: random.Random) -> tuple[Card, ...]:
    """A random unit lead from the hand (a card, or a pair/triple/bomb of it)."""
    return _lead(hand, ctx, rng)


def follow_cards(
    lead: tuple[Card, ...], hand: list[Card], ctx: TrumpContext, ruleset: Ruleset
) -> tuple[Card, ...]:
    """A legal follow: the lowest cards of the led suit, or the rules core's suggestion."""
    return _follow(lead, hand, ctx, ruleset)


def _lead(hand: list[Card], ctx: TrumpContext, rng: random.Random) -> tuple[Card, ...]:
    counts = Counter(hand)
    card = rng.choice(hand)
    for size in (4, 3, 2):
        if counts[card] >= size and rng.random() < 0.35:
            cards = (card,) * size
            if classify(cards, ctx) is not None:
                return cards
    return (card,)


def _follow(
    lead: tuple[Card, ...],
    hand: list[Card],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> tuple[Card, ...]:
    suit = ctx.effective_suit(lead[0])
    n = len(lead)
    same = sorted((c for c in hand if ctx.effective_suit(c) == suit), key=ctx.power)
    other = sorted((c for c in hand if ctx.effective_suit(c) != suit), key=ctx.power)
    candidate = (
        tuple((same + other)[:n]) if len(same) >= n else tuple(same + other[: n - len(same)])
    )
    verdict = check_follow(lead, tuple(hand), candidate, ctx, ruleset)
    if verdict.legal:
        return candidate
    assert verdict.instead is not None
    return tuple(verdict.instead)


def play_hand(
    hands: dict[Seat, list[Card]],
    ctx: TrumpContext,
    first_leader: Seat,
    rng: random.Random,
    ruleset: Ruleset = GUILIN_2009,
) -> list[SimTrick]:
    """Play every card; returns the tricks in order (the last one empties all hands)."""
    held = {seat: list(cards) for seat, cards in hands.items()}
    tricks: list[SimTrick] = []
    leader = first_leader
    while held[leader]:
        lead = _lead(held[leader], ctx, rng)
        plays: list[tuple[Seat, tuple[Card, ...]]] = [(leader, lead)]
        for seat in leader.play_order_from()[1:]:
            plays.append((seat, _follow(lead, held[seat], ctx, ruleset)))
        for seat, cards in plays:
            for card in cards:
                held[seat].remove(card)
        winner = plays[trick_winner([cards for _, cards in plays], ctx, ruleset=ruleset)][0]
        tricks.append(SimTrick(leader, tuple(plays), winner))
        leader = winner
    return tricks
