"""Units (牌型, RULES.md section 3): what one lead or one competing play may be.

A unit is single, pair, triple, bomb, tractor or bulldozer; all its cards are in one
effective suit. "Identical" means the same rank *and* suit: off-suit level cards
rank equal but are not identical, so ♥9 ♦9 at level 9 is not a pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise

from referee_desk.rules.cards import Card, format_cards
from referee_desk.rules.trump import TrumpContext


class UnitKind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    BOMB = "bomb"
    TRACTOR = "tractor"
    BULLDOZER = "bulldozer"


#: Kind of a one-rank unit by its number of identical cards (3.4: four is a bomb).
_BY_EACH = {1: UnitKind.SINGLE, 2: UnitKind.PAIR, 3: UnitKind.TRIPLE, 4: UnitKind.BOMB}

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: ``length`` consecutive ranks of ``each`` identical cards.

    ``top_power`` is the power (TrumpContext.power) of the highest card, which is the
    unit's rank (section 3, last line); ``cards`` are sorted strongest first.
    """

    kind: UnitKind
    length: int
    each: int
    suit: str
    top_power: int
    cards: tuple[Card, ...]

    @property
    def size(self) -> int:
        return len(self.cards)

    def describe(self) -> str:
        """Short English name, e.g. ``three-pair tractor``, ``bulldozer 3×2``."""
        return describe_shape(self.kind, self.length, self.each)

    def __str__(self) -> str:
        return f"{self.describe()} {format_cards(self.cards)}"


def describe_shape(kind: UnitKind, length: int, each: int) -> str:
    if kind is UnitKind.TRACTOR:
        return f"{_NUMBER_WORDS.get(length, str(length))}-pair tractor"
    if kind is UnitKind.BULLDOZER:
        return f"bulldozer of {length} ranks × {each} ({length * each} cards)"
    return str(kind)


def classify(cards: Iterable[Card], ctx: TrumpContext) -> Unit | None:
    """The unit these cards form exactly, or None when they are not one unit.

    None for: no cards, mixed effective suits, unequal numbers of identical cards per
    rank, non-consecutive ranks, level cards or 2s in a chain (3.1, 3.3), or more
    than four identical cards.
    """
    cards = tuple(cards)
    if not cards:
        return None
    tables = ctx.tables
    suit_of = tables.suit_of
    suit = suit_of[cards[0]]
    if len(cards) > 1:
        for card in cards:
            if suit_of[card] != suit:
                return None
    counts = Counter(cards)
    each_values = set(counts.values())
    if len(each_values) != 1:
        return None
    each = each_values.pop()
    ordered = tuple(sorted(cards, key=tables.order_of.__getitem__))
    power_of = tables.power_of
    top_power = max(map(power_of.__getitem__, counts))
    if len(counts) == 1:
        kind = _BY_EACH.get(each)
        if kind is None:
            return None
        return Unit(kind, 1, each, suit, top_power, ordered)
    if each < 2 or each > 4:
        return None
    chain = tables.chain
    indexes = []
    for card in counts:
        index = chain[card.index]
        if index is None:
            return None
        indexes.append(index)
    indexes.sort()
    if any(b - a != 1 for a, b in pairwise(indexes)):
        return None
    kind = UnitKind.TRACTOR if each == 2 else UnitKind.BULLDOZER
    return Unit(kind, len(counts), each, suit, top_power, ordered)
