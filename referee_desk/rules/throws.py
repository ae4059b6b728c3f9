"""Throws (甩牌, RULES.md 12.4): a lead of two or more units of one effective suit.

A throw is judged by its **components**: of all splits into units, the one whose
units listed by card count then rank (highest first) compare greatest. A throw fails
when shown cards of its suit hold a unit of some component's shape that beats it; the
thrower then plays only the smallest beaten component. A throw that stands is beaten
only by an all-trump play that splits into one unit of each component's shape.

Pure functions over card multisets of one suit; the searches are small (a throw has
few components, a suit few ranks) and memoised by the multiset.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from referee_desk.rules.cards import Card, format_cards
from referee_desk.rules.errors import IllegalInputError
from referee_desk.rules.trump import TRUMP, TrumpContext
from referee_desk.rules.units import Unit, classify

#: A card multiset as a hashable value: (card, copies) pairs in DECK order.
Holding = tuple[tuple[Card, int], ...]

#: A unit's shape: (identical cards per rank, number of ranks).
Shape = tuple[int, int]


def holding_of(cards: Iterable[Card]) -> Holding:
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return tuple(sorted(counts.items(), key=lambda item: item[0].index))


def shape_of(unit: Unit) -> Shape:
    return (unit.each, unit.length)


def _minus(holding: Holding, cards: Iterable[Card]) -> Holding:
    counts = dict(holding)
    for card in cards:
        counts[card] -= 1
    return tuple((c, counts[c]) for c, _ in holding if counts[c] > 0)


# ------------------------------------------------------------------ units inside cards


def units_of_shape(holding: Holding, each: int, length: int, ctx: TrumpContext) -> list[Unit]:
    """Every unit of exactly this shape inside the holding (one per card choice)."""
    out: list[Unit] = []
    if length == 1:
        for card, count in holding:
            if count >= each:
                unit = classify((card,) * each, ctx)
                if unit is not None:
                    out.append(unit)
        return out
    chain = ctx.tables.chain
    by_index: dict[int, list[Card]] = {}
    for card, count in holding:
        index = chain[card.index]
        if count >= each and index is not None:
            by_index.setdefault(index, []).append(card)
    for start in sorted(by_index):
        paths: list[list[Card]] = [[c] for c in by_index[start]]
        for step in range(1, length):
            nxt = by_index.get(start + step)
            if not nxt:
                paths = []
                break
            paths = [[*p, c] for p in paths for c in nxt]
        for path in paths:
            unit = classify(tuple(c for c in path for _ in range(each)), ctx)
            if unit is not None:
                out.append(unit)
    return out


def _all_units(holding: Holding, ctx: TrumpContext) -> list[Unit]:
    """Every unit inside the holding (any shape)."""
    most = max((k for _, k in holding), default=0)
    out: list[Unit] = []
    for each in range(1, most + 1):
        out.extend(units_of_shape(holding, each, 1, ctx))
        if each >= 2:
            length = 2
            while True:
                found = units_of_shape(holding, each, length, ctx)
                if not found:
                    break
                out.extend(found)
                length += 1
    return out


def _order_key(unit: Unit) -> tuple[int, int]:
    """Component order (12.4): card count, then rank."""
    return (unit.size, unit.top_power)


# ------------------------------------------------------------------ decomposition


@dataclass(frozen=True, slots=True)
class Throw:
    """A throw's cards, effective suit and components in component order."""

    cards: tuple[Card, ...]
    suit: str
    components: tuple[Unit, ...]

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def shapes(self) -> tuple[Shape, ...]:
        return tuple(shape_of(u) for u in self.components)

    def describe(self) -> str:
        return " + ".join(f"{u.describe()} {format_cards(u.cards)}" for u in self.components)


def components_of(cards: Iterable[Card], ctx: TrumpContext) -> tuple[Unit, ...]:
    """The components of cards of one effective suit (12.4), in component order."""
    cards = tuple(cards)
    suit_of = ctx.tables.suit_of
    if not cards or len({suit_of[c] for c in cards}) != 1:
        raise IllegalInputError(
            f"{format_cards(cards) or '(no cards)'} is not a throw: a throw is two or more "
            "units of one effective suit (12.4)"
        )
    return _decompose(holding_of(cards), ctx)[1]


@lru_cache(maxsize=4096)
def _decompose(
    holding: Holding, ctx: TrumpContext
) -> tuple[tuple[tuple[int, int], ...], tuple[Unit, ...]]:
    """(order keys, units) of the greatest split: the first unit is a greatest unit
    inside the holding (any unit extends to a split), then the rest recursively."""
    if not holding:
        return ((), ())
    units = _all_units(holding, ctx)
    top = max(_order_key(u) for u in units)
    best: tuple[tuple[tuple[int, int], ...], tuple[Unit, ...]] | None = None
    for unit in units:
        if _order_key(unit) != top:
            continue
        keys, rest = _decompose(_minus(holding, unit.cards), ctx)
        candidate = ((top, *keys), (unit, *rest))
        if best is None or candidate[0] > best[0]:
            best = candidate
    assert best is not None
    return best


def as_throw(cards: Iterable[Card], ctx: TrumpContext) -> Throw:
    """The lead as a throw (two or more components), or IllegalInputError."""
    cards = tuple(cards)
    components = components_of(cards, ctx)
    if len(components) < 2:
        raise IllegalInputError(f"{format_cards(cards)} is one unit, not a throw")
    return Throw(tuple(ctx.sorted(cards)), components[0].suit, components)


# ------------------------------------------------------------------ failure


@dataclass(frozen=True, slots=True)
class ThrowCheck:
    """Which components the shown cards beat, and what the thrower must play instead.

    ``forced`` is the smallest beaten component (fewest cards, then lowest rank);
    ``choices`` every beaten component equal to it in size and rank (the referee
    names one when there are several).
    """

    throw: Throw
    beaten: tuple[Unit, ...]
    forced: Unit | None
    choices: tuple[Unit, ...]

    @property
    def fails(self) -> bool:
        return bool(self.beaten)


def check_throw(lead: Iterable[Card], shown: Iterable[Card], ctx: TrumpContext) -> ThrowCheck:
    """Does ``shown`` (cards another player shows) make the throw fail (12.4)?

    Every component that some unit inside the shown cards of the throw's suit beats
    (same shape, higher rank) is beaten.
    """
    throw = as_throw(lead, ctx)
    suit_of = ctx.tables.suit_of
    holding = holding_of(c for c in shown if suit_of[c] == throw.suit)
    beaten = []
    for component in throw.components:
        each, length = shape_of(component)
        rivals = units_of_shape(holding, each, length, ctx)
        if any(r.top_power > component.top_power for r in rivals):
            beaten.append(component)
    if not beaten:
        return ThrowCheck(throw, (), None, ())
    low = min(_order_key(u) for u in beaten)
    choices: list[Unit] = []
    for unit in beaten:
        if _order_key(unit) == low:
            choices.extend(_equal_splits(throw, unit, ctx))
    unique = tuple({tuple(sorted(c.index for c in u.cards)): u for u in choices}.values())
    return ThrowCheck(throw, tuple(beaten), unique[0], unique)


def _equal_splits(throw: Throw, component: Unit, ctx: TrumpContext) -> list[Unit]:
    """The component and every unit equal to it in shape and rank that another
    greatest split of the throw has as a component (12.2: off-suit level pairs of
    different suits are equal, so `SA SA C2 C2 D2 D2` at level 2, trump ♠, splits
    into the tractor `SA SA C2 C2` and the pair `D2 D2` as well as the other way)."""
    holding = holding_of(throw.cards)
    keys = _decompose(holding, ctx)[0]
    out = [component]
    for unit in units_of_shape(holding, *shape_of(component), ctx):
        if unit.top_power != component.top_power or unit.cards == component.cards:
            continue
        rest = _decompose(_minus(holding, unit.cards), ctx)[0]
        if tuple(sorted((_order_key(unit), *rest), reverse=True)) == keys:
            out.append(unit)
    return out


# ------------------------------------------------------------------ who wins


def ruff_top(play: Iterable[Card], throw: Throw, ctx: TrumpContext) -> int | None:
    """An all-trump play against a side-suit throw: the highest rank its unit of the
    largest component's shape can have in a split into one unit per component shape,
    or None when it has no such split (12.4)."""
    cards = tuple(play)
    if throw.suit == TRUMP or len(cards) != throw.size:
        return None
    suit_of = ctx.tables.suit_of
    if any(suit_of[c] != TRUMP for c in cards):
        return None
    return _best_split(holding_of(cards), throw.shapes, ctx)


@lru_cache(maxsize=4096)
def _best_split(holding: Holding, shapes: tuple[Shape, ...], ctx: TrumpContext) -> int | None:
    first, rest = shapes[0], shapes[1:]
    candidates = sorted(
        units_of_shape(holding, *first, ctx), key=lambda u: u.top_power, reverse=True
    )
    for unit in candidates:
        left = _minus(holding, unit.cards)
        if not rest or _best_split(left, rest, ctx) is not None:
            return unit.top_power
    return None


def throw_winner(
    cards: Sequence[tuple[Card, ...]], ctx: TrumpContext, skip: frozenset[int]
) -> tuple[int, tuple[bool, ...], int]:
    """(winner index, which plays competed, cards each) of a trick led by a throw.

    A standing throw is beaten by no play of its own suit; a side-suit throw by an
    all-trump play splitting into the components' shapes, the highest unit of the
    largest shape winning (first played among equals). A trump throw stands.
    """
    throw = as_throw(cards[0], ctx)
    for index, play in enumerate(cards[1:], start=1):
        if len(play) != throw.size:
            raise IllegalInputError(
                f"play {index} ({format_cards(play) or 'no cards'}) has {len(play)} cards; "
                f"the throw has {throw.size}"
            )
    competing = [0 not in skip]
    winner = 0
    best: int | None = None
    for index, play in enumerate(cards[1:], start=1):
        top = None if index in skip else ruff_top(play, throw, ctx)
        competing.append(top is not None)
        if top is not None and (best is None or top > best):
            winner, best = index, top
    return winner, tuple(competing), throw.size


def kitty_components(lead: Iterable[Card], ctx: TrumpContext) -> tuple[Unit, ...]:
    """The last lead's units for the kitty multiplier (12.5): its components."""
    cards = tuple(lead)
    unit = classify(cards, ctx)
    if unit is not None:
        return (unit,)
    return components_of(cards, ctx)
