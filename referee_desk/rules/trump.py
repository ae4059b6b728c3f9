"""Trump context and card order (RULES.md section 2).

``TrumpContext`` is the level in play plus the trump suit (None for no-trump), and the
card system of the ruleset (12.1-12.2: the fixed trump ranks above or below the level
cards, the level-gap bridge, the trump chain of level pairs; Guilin's by default;
``TrumpContext.for_ruleset`` builds it from a ruleset). It answers what a referee asks
of a single card: is it trump, which effective suit does it follow, how strong is it,
and where does it sit in a tractor chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final, Protocol

from referee_desk.rules.cards import DECK, Card, Rank, Suit, parse_level
from referee_desk.rules.errors import CardNotationError

#: The effective suit of every trump card.
TRUMP: Final = "trump"

#: An effective suit: ``"trump"`` or a side suit.
EffectiveSuit = str

# Power values for trumps above every side-suit rank (side ranks use 2..14). Below
# the jokers each trump rank block (fixed ranks above the level, the level, fixed ranks
# below it) takes two values, trump suit above off-suit: Guilin's level 23/22, 2s 21/20.
_POWER_TOP_BLOCK: Final = 23
_POWER_LITTLE_JOKER: Final = 24
_POWER_BIG_JOKER: Final = 25
_CHAIN_LITTLE_JOKER: Final = 100

#: Guilin's fixed trump ranks (2.1: the 2s, below the level cards).
GUILIN_FIXED_BELOW: Final = (Rank.TWO,)

#: Ranks that sit above the level cards when fixed (12.1: three-deck's 10s).
_FIXED_ABOVE_LEVEL: Final = frozenset({Rank.TEN})


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


class CardSystem(Protocol):
    """What ``TrumpContext.for_ruleset`` reads of a ruleset (12.1, 12.2).

    A :class:`referee_desk.rules.ruleset.Ruleset` is one; the card order does not
    import the parameter module.
    """

    @property
    def fixed_ranks(self) -> tuple[str, ...]: ...
    @property
    def first_level(self) -> str: ...
    @property
    def bridge_level_gap(self) -> bool: ...
    @property
    def trump_tractor_chain(self) -> bool: ...


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
    fixed_above: tuple[Rank, ...] = ()
    """Fixed trump ranks above the level cards (12.1: three-deck's 10)."""
    fixed_below: tuple[Rank, ...] = GUILIN_FIXED_BELOW
    """Fixed trump ranks below the level cards (2.1: Guilin's 2s)."""
    trump_chain: bool = False
    """12.2: level and fixed pairs chain into trump tractors (… A, 副级, 主级, LJ, BJ)."""

    if TYPE_CHECKING:
        # Set once by __post_init__, not dataclass fields (so not in __init__, eq or
        # repr); declared as read-only properties because the context is frozen.
        @property
        def tables(self) -> CardTables: ...
        @property
        def _trump(self) -> tuple[bool, ...]: ...
        @property
        def _suit(self) -> tuple[EffectiveSuit, ...]: ...
        @property
        def _power(self) -> tuple[int, ...]: ...
        @property
        def _chain(self) -> tuple[int | None, ...]: ...
        @property
        def _sort(self) -> tuple[tuple[int, int, int], ...]: ...
        @property
        def _hash(self) -> int: ...

    def __post_init__(self) -> None:
        if not isinstance(self.level, Rank) or not Rank.TWO <= self.level <= Rank.ACE:
            raise CardNotationError(f"bad level {self.level!r}: use 2 … A")
        if self.level in self.fixed_below:
            raise CardNotationError(f"bad level {self.level!r}: 2 is never a level (3.1)")
        tables = card_tables(
            self.level,
            self.trump,
            self.bridge_level_gap,
            self.fixed_above,
            self.fixed_below,
            self.trump_chain,
        )
        object.__setattr__(self, "tables", tables)
        object.__setattr__(self, "_trump", tables.is_trump)
        object.__setattr__(self, "_suit", tables.suit)
        object.__setattr__(self, "_power", tables.power)
        object.__setattr__(self, "_chain", tables.chain)
        object.__setattr__(self, "_sort", tables.sort_key)
        object.__setattr__(self, "_hash", hash(self._fields()))

    def _fields(self) -> tuple[object, ...]:
        if self.is_guilin_system:
            return (self.level, self.trump, self.bridge_level_gap)
        return (
            self.level,
            self.trump,
            self.bridge_level_gap,
            self.fixed_above,
            self.fixed_below,
            self.trump_chain,
        )

    def __hash__(self) -> int:
        """The field hash, computed once (contexts key many memo tables)."""
        return self._hash

    def __reduce__(self) -> tuple[type[TrumpContext], tuple[object, ...]]:
        """Pickle the fields only; the tables are rebuilt (shared) on load."""
        return (TrumpContext, self._fields())

    @classmethod
    def for_ruleset(
        cls, level: str | Rank, trump: str | Suit | None, ruleset: CardSystem
    ) -> TrumpContext:
        """The context of a ruleset's card system (12.1, 12.2) from notation."""
        above, below = fixed_rank_split(ruleset.fixed_ranks)
        lowest = Rank.TWO if ruleset.first_level == "2" else Rank.THREE
        return cls(
            parse_level(level, lowest=lowest),
            parse_trump(trump),
            ruleset.bridge_level_gap,
            above,
            below,
            ruleset.trump_tractor_chain,
        )

    @property
    def is_guilin_system(self) -> bool:
        """Guilin's card system (2s fixed below the level, no level-pair chain)."""
        return (
            self.fixed_above == ()
            and self.fixed_below == GUILIN_FIXED_BELOW
            and not self.trump_chain
        )

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
        return self._trump[card.index]

    def effective_suit(self, card: Card) -> EffectiveSuit:
        """``"trump"`` or the card's side suit."""
        return self._suit[card.index]

    def power(self, card: Card) -> int:
        """Strength in the order of section 2; equal cards have equal power.

        Only cards of the same effective suit are compared by power (a trump-suit 3
        has a lower number than a side-suit A; trumping is decided by effective suit).
        """
        return self._power[card.index]

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Order for display: trumps first, strongest first, then suit."""
        return self._sort[card.index]

    def chain_index(self, card: Card) -> int | None:
        """Position in the chain of consecutive ranks (3), or None if it never chains.

        Two cards of one effective suit are consecutive when their indexes differ by 1.
        Level cards and 2s never chain (3.1, 3.3); LJ–BJ chain only with each other
        (6.2); the level rank's gap is not bridged unless ``bridge_level_gap``. With
        ``trump_chain`` (12.2) the level and fixed ranks chain after the trump suit's
        top: ``… A → 副级 → 主级 → 副10 → 主10 → LJ → BJ``; off-suit cards of one rank
        share an index (equal, so never consecutive with each other).
        """
        return self._chain[card.index]

    def sorted(self, cards: list[Card] | tuple[Card, ...]) -> list[Card]:
        return sorted(cards, key=self.tables.order_of.__getitem__)


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


def fixed_rank_split(labels: tuple[str, ...]) -> tuple[tuple[Rank, ...], tuple[Rank, ...]]:
    """Fixed trump ranks (12.1) split into those above and below the level cards."""
    ranks = [parse_level(label, lowest=Rank.TWO) for label in labels]
    above = tuple(r for r in ranks if r in _FIXED_ABOVE_LEVEL)
    below = tuple(r for r in ranks if r not in _FIXED_ABOVE_LEVEL)
    return above, below


@lru_cache(maxsize=256)
def card_tables(
    level: Rank,
    trump: Suit | None,
    bridge_level_gap: bool = False,
    fixed_above: tuple[Rank, ...] = (),
    fixed_below: tuple[Rank, ...] = GUILIN_FIXED_BELOW,
    trump_chain: bool = False,
) -> CardTables:
    """The tables of a context, computed by the section-2 (and 12.1-12.2) definitions."""
    blocks = _trump_blocks(level, fixed_above, fixed_below)
    fixed = frozenset(r for r in blocks if r != level)
    is_trump = tuple(_is_trump(c, level, trump, fixed) for c in DECK)
    # A joker (no suit) is always a trump, so ``c.suit is None`` only adds what ``t`` says.
    suit = tuple(
        TRUMP if t or c.suit is None else c.suit.value for c, t in zip(DECK, is_trump, strict=True)
    )
    power = tuple(_power(c, level, trump, blocks) for c in DECK)
    plain = _plain_chain(level, fixed, bridge_level_gap)
    links = _trump_links(plain, trump, blocks) if trump_chain else None
    chain = tuple(_chain_index(c, level, plain, links, trump) for c in DECK)
    sort_key = tuple(
        (
            0 if t or c.suit is None else 1 + "SHDC".index(c.suit.value),
            -p,
            "SHDC".index(c.suit.value) if c.suit else -1,
        )
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


def _ranks(keys: list[tuple[bool, bool, int, tuple[int, int, int]]]) -> dict[Card, int]:
    """Each card's position when DECK is sorted by ``keys`` (distinct for distinct cards)."""
    ranking = sorted(range(len(DECK)), key=keys.__getitem__)
    return {DECK[i]: position for position, i in enumerate(ranking)}


def _trump_blocks(
    level: Rank, fixed_above: tuple[Rank, ...], fixed_below: tuple[Rank, ...]
) -> tuple[Rank, ...]:
    """Trump ranks between the jokers and the trump suit, highest first (12.1).

    A fixed rank that is also the level is the level (three-deck at 10).
    """
    above = [r for r in fixed_above if r != level]
    below = [r for r in fixed_below if r != level]
    return (*above, level, *below)


def _is_trump(card: Card, level: Rank, trump: Suit | None, fixed: frozenset[Rank]) -> bool:
    return card.suit is None or card.rank == level or card.rank in fixed or card.suit == trump


def _power(card: Card, level: Rank, trump: Suit | None, blocks: tuple[Rank, ...]) -> int:
    if card.rank == Rank.BIG_JOKER:
        return _POWER_BIG_JOKER
    if card.rank == Rank.LITTLE_JOKER:
        return _POWER_LITTLE_JOKER
    on_trump_suit = trump is not None and card.suit == trump
    if card.rank in blocks:
        top = _POWER_TOP_BLOCK - 2 * blocks.index(card.rank)
        return top if on_trump_suit else top - 1
    return int(card.rank)


def _plain_chain(level: Rank, fixed: frozenset[Rank], bridge: bool) -> dict[Rank, int]:
    """Chain index of each plain rank (not level, not fixed) of a suit (3.1, 12.2).

    Unbridged the index is the face value (a removed rank leaves a gap); bridged, the
    plain ranks are numbered consecutively from the lowest one's face value.
    """
    ranks = [Rank(v) for v in range(2, 15) if Rank(v) != level and Rank(v) not in fixed]
    if not bridge:
        return {r: int(r) for r in ranks}
    return {r: int(ranks[0]) + i for i, r in enumerate(ranks)}


def _trump_links(
    plain: dict[Rank, int], trump: Suit | None, blocks: tuple[Rank, ...]
) -> dict[tuple[Rank, bool], int]:
    """12.2's trump chain above the trump suit's top: per block (lowest first) the
    off-suit cards, then the trump-suit card (absent in no-trump), then LJ, BJ."""
    links: dict[tuple[Rank, bool], int] = {}
    index = max(plain.values()) + 1
    for rank in reversed(blocks):
        links[rank, False] = index
        index += 1
        if trump is not None:
            links[rank, True] = index
            index += 1
    links[Rank.LITTLE_JOKER, False] = index
    links[Rank.BIG_JOKER, False] = index + 1
    return links


def _chain_index(
    card: Card,
    level: Rank,
    plain: dict[Rank, int],
    links: dict[tuple[Rank, bool], int] | None,
    trump: Suit | None,
) -> int | None:
    if links is not None:
        on_trump = trump is not None and card.suit == trump
        found = links.get((card.rank, on_trump))
        if found is not None:
            return found
        return plain.get(card.rank)
    if card.rank == Rank.LITTLE_JOKER:
        return _CHAIN_LITTLE_JOKER
    if card.rank == Rank.BIG_JOKER:
        return _CHAIN_LITTLE_JOKER + 1
    return plain.get(card.rank)
