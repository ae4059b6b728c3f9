"""Trump context and card order (RULES.md section 2).

``TrumpContext`` is the level in play plus the trump suit (None for no-trump). It
answers what a referee asks of a single card: is it trump, which effective suit does
it follow, how strong is it, and where does it sit in a tractor chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from referee_desk.rules.cards import LEVELS, Card, Rank, Suit, parse_level
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


@dataclass(frozen=True, slots=True)
class TrumpContext:
    """The level in play and the trump suit (None: no-trump, 无主)."""

    level: Rank
    trump: Suit | None
    bridge_level_gap: bool = False

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise CardNotationError(f"bad level {self.level!r}: 2 is never a level (3.1)")

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
        return (
            card.suit is None
            or card.rank == self.level
            or card.rank == Rank.TWO
            or card.suit == self.trump
        )

    def effective_suit(self, card: Card) -> EffectiveSuit:
        """``"trump"`` or the card's side suit."""
        if self.is_trump(card):
            return TRUMP
        assert card.suit is not None
        return card.suit.value

    def power(self, card: Card) -> int:
        """Strength in the order of section 2; equal cards have equal power.

        Only cards of the same effective suit are compared by power (a trump-suit 3
        has a lower number than a side-suit A; trumping is decided by effective suit).
        """
        if card.rank == Rank.BIG_JOKER:
            return _POWER_BIG_JOKER
        if card.rank == Rank.LITTLE_JOKER:
            return _POWER_LITTLE_JOKER
        on_trump_suit = self.trump is not None and card.suit == self.trump
        if card.rank == self.level:
            return _POWER_TRUMP_LEVEL if on_trump_suit else _POWER_OFF_LEVEL
        if card.rank == Rank.TWO:
            return _POWER_TRUMP_TWO if on_trump_suit else _POWER_OFF_TWO
        return int(card.rank)

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Order for display: trumps first, strongest first, then suit."""
        is_trump = self.is_trump(card)
        suit_order = "SHDC".index(card.suit.value) if card.suit else -1
        return (0 if is_trump else 1 + suit_order, -self.power(card), suit_order)

    def chain_index(self, card: Card) -> int | None:
        """Position in the chain of consecutive ranks (3), or None if it never chains.

        Two cards of one effective suit are consecutive when their indexes differ by 1.
        Level cards and 2s never chain (3.1, 3.3); LJ–BJ chain only with each other
        (6.2); the level rank's gap is not bridged unless ``bridge_level_gap``.
        """
        if card.rank == Rank.LITTLE_JOKER:
            return _CHAIN_LITTLE_JOKER
        if card.rank == Rank.BIG_JOKER:
            return _CHAIN_LITTLE_JOKER + 1
        if card.rank in (Rank.TWO, self.level):
            return None
        value = int(card.rank)
        if self.bridge_level_gap and value > self.level:
            value -= 1
        return value

    def sorted(self, cards: list[Card] | tuple[Card, ...]) -> list[Card]:
        return sorted(cards, key=self.sort_key)
