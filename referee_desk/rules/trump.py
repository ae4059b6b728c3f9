"""Trump context and card order (RULES.md section 2).

``TrumpContext`` is the level in play plus the trump suit (None for no-trump). It
answers what a referee asks of a single card: is it trump, which effective suit does
it follow, how strong is it, and where does it sit in a tractor chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from referee_desk.rules.cards import DECK, LEVELS, Card, Rank, Suit, parse_level
from referee_desk.rules.errors import CardNotationError

#: The effective suit of every trump card.
TRUMP: Final = "trump"

#: An effective suit: ``"trump"`` or a side suit.
EffectiveSuit = str

# Power values for trumps above every side-suit rank (side ranks use 3..14).
_POWER_OFF_TWO: Final = 20
_POWER_TRUMP_TWO: Final = 21
_POWER_OFF_LEVEL: Final = 22
_POWER_TRUMP_LEVEL: Final = 23
_POWER_LITTLE_JOKER: Final = 24
_POWER_BIG_JOKER: Final = 25
_CHAIN_LITTLE_JOKER: Final = 100


def parse_trump(text: str | Suit | None) -> Suit | None:
    """A trump from ``S H D C`` (or ♠♥♦♣) or ``NT`` / 无主 (returns None)."""
    if text is None or isinstance(text, Suit):
        return text
    value = str(text).strip().replace("\ufe0f", "").upper()  # ♥️ as typed on phones
    if value in ("NT", "无主", "NO-TRUMP", "NOTRUMP"):
        return None
    symbols = {"♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C}
    if value in symbols:
        return symbols[value]
    try:
        return Suit(value)
    except ValueError:
        raise CardNotationError(f"bad trump {text!r}: use S H D C or NT") from None


@dataclass(frozen=True)
class TrumpContext:
    """The level in play and the trump suit (None: no-trump, 无主).

    Every per-card answer comes from tables indexed by ``Card.index`` and built once
    per (level, trump, bridge) by ``card_tables`` (shared by equal contexts). Hot
    loops may read ``ctx.tables`` directly; the methods give the same answers.
    """

    level: Rank
    trump: Suit | None
    bridge_level_gap: bool = False

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise CardNotationError(f"bad level {self.level!r}: 2 is never a level (3.1)")
        tables = card_tables(self.level, self.trump, self.bridge_level_gap)
        object.__setattr__(self, "tables", tables)
        object.__setattr__(self, "_trump", tables.is_trump)
        object.__setattr__(self, "_suit", tables.suit)
        object.__setattr__(self, "_power", tables.power)
        object.__setattr__(self, "_chain", tables.chain)
        object.__setattr__(self, "_sort", tables.sort_key)
        object.__setattr__(self, "_hash", hash((self.level, self.trump, self.bridge_level_gap)))

    def __hash__(self) -> int:
        """The field hash, computed once (contexts key many memo tables)."""
        return self._hash  # type: ignore[attr-defined,no-any-return]

    def __reduce__(self) -> tuple[type[TrumpContext], tuple[Rank, Suit | None, bool]]:
        """Pickle the fields only; the tables are rebuilt (shared) on load."""
        return (TrumpContext, (self.level, self.trump, self.bridge_level_gap))

    @classmethod
    def of(
        cls, level: str | Rank, trump: str | Suit | None, *, bridge_level_gap: bool = False
    ) -> TrumpContext:
        """Build from notation (``TrumpContext.of("9", "S")``, ``of("5", "NT")``)."""
        return cls(parse_level(level), parse_trump(trump), bridge_level_gap)

    @property
    def trump_label(self) -> str:
        return "NT" if self.trump is None else self.trump.value

    def is_trump(self, card: Card) -> bool:
        """Jokers, level cards, 2s and the trump suit are trumps (2)."""
        return self._trump[card.index]  # type: ignore[attr-defined,no-any-return]

    def effective_suit(self, card: Card) -> EffectiveSuit:
        """``"trump"`` or the card's side suit."""
        return self._suit[card.index]  # type: ignore[attr-defined,no-any-return]

    def power(self, card: Card) -> int:
        """Strength in the order of section 2; equal cards have equal power.

        Only cards of the same effective suit are compared by power (a trump-suit 3
        has a lower number than a side-suit A; trumping is decided by effective suit).
        """
        return self._power[card.index]  # type: ignore[attr-defined,no-any-return]

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Order for display: trumps first, strongest first, then suit."""
        return self._sort[card.index]  # type: ignore[attr-defined,no-any-return]

    def chain_index(self, card: Card) -> int | None:
        """Position in the chain of consecutive ranks (3), or None if it never chains.

        Two cards of one effective suit are consecutive when their indexes differ by 1.
        Level cards and 2s never chain (3.1, 3.3); LJ–BJ chain only with each other
        (6.2); the level rank's gap is not bridged unless ``bridge_level_gap``.
        """
        return self._chain[card.index]  # type: ignore[attr-defined,no-any-return]

    def sorted(self, cards: list[Card] | tuple[Card, ...]) -> list[Card]:
        return sorted(cards, key=self.tables.order_of.__getitem__)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class CardTables:
    """Per-card answers of one trump context, each a tuple indexed by ``Card.index``."""

    is_trump: tuple[bool, ...]
    suit: tuple[EffectiveSuit, ...]
    power: tuple[int, ...]
    chain: tuple[int | None, ...]
    sort_key: tuple[tuple[int, int, int], ...]
    display: tuple[int, ...]
    """Rank of each card in ``sort_key`` order (0 first): a cheap integer sort key."""
    suit_of: dict[Card, EffectiveSuit]
    """``suit`` keyed by card, so ``suit_of.__getitem__`` is a C-level key function."""
    power_of: dict[Card, int]
    order_of: dict[Card, int]
    """``display`` keyed by card: ``sorted(cards, key=order_of.__getitem__)`` is
    ``sorted(cards, key=ctx.sort_key)`` (the sort key differs for distinct cards)."""
    weak_of: dict[Card, int]
    """Rank in the order a follower most easily gives cards away: side suits before
    trumps, non-point cards first, low first, then display order."""


@lru_cache(maxsize=256)
def card_tables(level: Rank, trump: Suit | None, bridge_level_gap: bool = False) -> CardTables:
    """The tables of a context, computed by the section-2 definitions below."""
    is_trump = tuple(_is_trump(c, level, trump) for c in DECK)
    suit = tuple(TRUMP if t else c.suit.value for c, t in zip(DECK, is_trump, strict=True))  # type: ignore[union-attr]
    power = tuple(_power(c, level, trump) for c in DECK)
    chain = tuple(_chain_index(c, level, bridge_level_gap) for c in DECK)
    sort_key = tuple(
        (
            0 if t else 1 + "SHDC".index(c.suit.value),
            -p,
            "SHDC".index(c.suit.value) if c.suit else -1,
        )  # type: ignore[union-attr]
        for c, t, p in zip(DECK, is_trump, power, strict=True)
    )
    ranking = sorted(range(len(DECK)), key=lambda i: sort_key[i])
    display = [0] * len(DECK)
    for position, i in enumerate(ranking):
        display[i] = position
    return CardTables(
        is_trump,
        suit,
        power,
        chain,
        sort_key,
        tuple(display),
        dict(zip(DECK, suit, strict=True)),
        dict(zip(DECK, power, strict=True)),
        dict(zip(DECK, display, strict=True)),
        _ranks(
            [
                (t, c.points > 0, p, k)
                for c, t, p, k in zip(DECK, is_trump, power, sort_key, strict=True)
            ]
        ),
    )


def _ranks(keys: list) -> dict[Card, int]:
    """Each card's position when DECK is sorted by ``keys`` (distinct for distinct cards)."""
    ranking = sorted(range(len(DECK)), key=keys.__getitem__)
    return {DECK[i]: position for position, i in enumerate(ranking)}


def _is_trump(card: Card, level: Rank, trump: Suit | None) -> bool:
    return card.suit is None or card.rank == level or card.rank == Rank.TWO or card.suit == trump


def _power(card: Card, level: Rank, trump: Suit | None) -> int:
    if card.rank == Rank.BIG_JOKER:
        return _POWER_BIG_JOKER
    if card.rank == Rank.LITTLE_JOKER:
        return _POWER_LITTLE_JOKER
    on_trump_suit = trump is not None and card.suit == trump
    if card.rank == level:
        return _POWER_TRUMP_LEVEL if on_trump_suit else _POWER_OFF_LEVEL
    if card.rank == Rank.TWO:
        return _POWER_TRUMP_TWO if on_trump_suit else _POWER_OFF_TWO
    return int(card.rank)


def _chain_index(card: Card, level: Rank, bridge_level_gap: bool) -> int | None:
    if card.rank == Rank.LITTLE_JOKER:
        return _CHAIN_LITTLE_JOKER
    if card.rank == Rank.BIG_JOKER:
        return _CHAIN_LITTLE_JOKER + 1
    if card.rank in (Rank.TWO, level):
        return None
    value = int(card.rank)
    if bridge_level_gap and value > level:
        value -= 1
    return value
