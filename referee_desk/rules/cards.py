"""Cards and the notation of RULES.md section 1.

A card is a small immutable value; four decks hold each distinct card four times.
Notation: suit letter then rank (``H10``, ``ST``, ``♥5``), ``BJ``/``LJ`` (or
``大王``/``小王``) for the jokers; case-insensitive; lists split on spaces or commas.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

from referee_desk.rules.errors import CardNotationError


class Suit(StrEnum):
    """The four suits; the value is the notation letter."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SYMBOL_TO_SUIT = {v: k for k, v in _SUIT_SYMBOLS.items()}


class Rank(IntEnum):
    """Card ranks by face value; jokers above A so that sorting is natural."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    LITTLE_JOKER = 15
    BIG_JOKER = 16

    @property
    def is_joker(self) -> bool:
        return self >= Rank.LITTLE_JOKER

    @property
    def label(self) -> str:
        """The notation of the rank alone (``10``, ``J``, ``LJ``)."""
        return _RANK_LABELS[self]


_RANK_LABELS = {
    **{Rank(v): str(v) for v in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.LITTLE_JOKER: "LJ",
    Rank.BIG_JOKER: "BJ",
}
_LABEL_TO_RANK = {label: rank for rank, label in _RANK_LABELS.items() if not rank.is_joker}
_LABEL_TO_RANK["T"] = Rank.TEN

#: The ranks that can be a level (2.1: 2 is never a level).
LEVELS: tuple[Rank, ...] = tuple(Rank(v) for v in range(3, 15))

POINT_VALUES = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Card:
    """One card; ``suit`` is None for the two jokers.

    Only 54 distinct cards exist, so each is built once and ``Card(rank, suit)``
    returns the shared instance: equality is identity and the hash is the C-level
    identity hash, which keeps counting and set work cheap. ``index`` is the card's
    position in ``DECK`` (for per-context lookup tables); ordering is by (rank, suit).
    """

    __slots__ = ("_order", "index", "is_joker", "points", "rank", "suit")

    rank: Rank
    suit: Suit | None
    if TYPE_CHECKING:  # set on each interned card, not dataclass fields
        index: int
        is_joker: bool
        points: int
        _order: int

    def __new__(cls, rank: Rank, suit: Suit | None = None) -> Card:
        try:
            return _INTERNED[rank, suit]
        except (KeyError, TypeError):
            pass
        if isinstance(rank, int) and 2 <= rank <= 16 and (suit is None or suit in _SUIT_SET):
            shown = Rank(rank).label if suit is None else f"{Suit(suit).value}{Rank(rank).label}"
            raise CardNotationError(
                f"a joker has no suit and every other card has one: Card({shown!r})"
            )
        raise CardNotationError(f"not a card: rank {rank!r}, suit {suit!r}")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Card):  # as fast as a class check; no subclass exists
            return self._order < other._order
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Card):  # as fast as a class check; no subclass exists
            return self._order <= other._order
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Card):  # as fast as a class check; no subclass exists
            return self._order > other._order
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Card):  # as fast as a class check; no subclass exists
            return self._order >= other._order
        return NotImplemented

    def __str__(self) -> str:
        return format_card(self)

    def __repr__(self) -> str:
        """Short and readable in test failures: ``Card('H5')``, ``Card('BJ')``."""
        return f"Card({format_card(self)!r})"


_SUIT_SET = frozenset(Suit)


def _build_deck() -> dict[tuple[Rank, Suit | None], Card]:
    """The 54 shared Card instances, in DECK order (suits S H D C by rank, LJ, BJ)."""
    keys: list[tuple[Rank, Suit | None]]
    keys = [(rank, suit) for suit in Suit for rank in Rank if not rank.is_joker]
    keys += [(Rank.LITTLE_JOKER, None), (Rank.BIG_JOKER, None)]
    # (rank, suit) order as the former dataclass ordering: rank first, then suit letter.
    order = {key: i for i, key in enumerate(sorted(keys, key=lambda k: (k[0], k[1] or "")))}
    table: dict[tuple[Rank, Suit | None], Card] = {}
    for index, (rank, suit) in enumerate(keys):
        card = object.__new__(Card)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("index", index),
            ("is_joker", suit is None),
            ("points", POINT_VALUES.get(rank, 0)),
            ("_order", order[rank, suit]),
        ):
            object.__setattr__(card, name, value)
        table[rank, suit] = card
    return table


_INTERNED = _build_deck()

BIG_JOKER = Card(Rank.BIG_JOKER)
LITTLE_JOKER = Card(Rank.LITTLE_JOKER)

#: The 54 distinct cards of one deck; ``DECK[card.index] is card``.
DECK: tuple[Card, ...] = tuple(_INTERNED.values())

_JOKER_TOKENS = {
    "BJ": BIG_JOKER,
    "大王": BIG_JOKER,
    "LJ": LITTLE_JOKER,
    "小王": LITTLE_JOKER,
}
_SPLIT = re.compile(r"[\s,，、]+")
#: Variation selector that phones and some keyboards append to ♠♥♦♣ (``♥️``).
_EMOJI_STYLE = "\ufe0f"


#: Tokens already parsed (short ones only, so the memo stays small): a record repeats
#: the same few dozen spellings thousands of times.
_PARSED: dict[str, Card] = {}


def parse_card(token: str) -> Card:
    """Parse one card token; raise CardNotationError naming the token."""
    found = _PARSED.get(token)
    if found is not None:
        return found
    card = _parse_card(token)
    if len(token) <= 6 and len(_PARSED) < 4096:
        _PARSED[token] = card
    return card


def _parse_card(token: str) -> Card:
    text = token.strip().replace(_EMOJI_STYLE, "")
    upper = text.upper()
    if upper in _JOKER_TOKENS:
        return _JOKER_TOKENS[upper]
    if not text:
        raise CardNotationError("empty card token")
    head, rest = upper[0], upper[1:]
    suit = _SYMBOL_TO_SUIT.get(head)
    if suit is None:
        try:
            suit = Suit(head)
        except ValueError:
            raise CardNotationError(
                f"bad card {token!r}: it must start with a suit S H D C (or ♠ ♥ ♦ ♣), or be BJ / LJ"
            ) from None
    if not rest:
        raise CardNotationError(f"bad card {token!r}: the rank is missing after the suit")
    rank = _LABEL_TO_RANK.get(rest)
    if rank is None:
        raise CardNotationError(
            f"bad card {token!r}: rank {rest!r} is not one of 2 3 4 5 6 7 8 9 10 J Q K A"
        )
    return Card(rank, suit)


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse a card list (a string split on spaces/commas, or an iterable of tokens).

    Errors name the bad token and its 1-based position in the list.
    """
    tokens: Iterable[str | Card]
    tokens = [t for t in _SPLIT.split(cards.strip()) if t] if isinstance(cards, str) else cards
    result: list[Card] = []
    for position, token in enumerate(tokens, start=1):
        if isinstance(token, Card):
            result.append(token)
            continue
        if not isinstance(token, str):
            raise CardNotationError(f"card {position}: {token!r} is not a card token")
        try:
            result.append(parse_card(token))
        except CardNotationError as exc:
            raise CardNotationError(f"card {position}: {exc}") from None
    return tuple(result)


def format_card(card: Card, *, symbols: bool = False) -> str:
    """Canonical notation (``H10``, ``BJ``); with ``symbols`` the suit shows as ♥."""
    if card.suit is None:
        return card.rank.label
    head = card.suit.symbol if symbols else card.suit.value
    return head + card.rank.label


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Space-separated canonical notation; parse_cards(format_cards(x)) == x."""
    return " ".join(format_card(c, symbols=symbols) for c in cards)


def points_of(cards: Iterable[Card]) -> int:
    """Sum of point values (100 per deck)."""
    return sum(c.points for c in cards)


def parse_level(text: str | Rank, *, lowest: Rank = Rank.THREE) -> Rank:
    """A level from its label (``"3"`` … ``"A"``, ``"T"`` for 10).

    ``lowest`` is the first level of the ruleset's ladder (12.1: the presets start at 2).
    """
    rank: Rank | None
    if isinstance(text, Rank):
        rank = text
    else:
        rank = _LABEL_TO_RANK.get(str(text).strip().upper())
        if rank is None:
            first = "2 3" if lowest == Rank.TWO else "3"
            raise CardNotationError(f"bad level {text!r}: use {first} 4 5 6 7 8 9 10 J Q K A")
    if lowest == Rank.TWO and Rank.TWO <= rank <= Rank.ACE:
        return rank
    if rank not in LEVELS:
        raise CardNotationError(f"bad level {text!r}: 2 is never a level (3.1); use 3 … A")
    return rank
