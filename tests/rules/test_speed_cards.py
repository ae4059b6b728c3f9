"""Cards are shared values and contexts answer from tables: same answers as the rules.

RULES.md 1: "Each distinct card exists exactly 4 times" — four identical cards are
one value, so ``Card(rank, suit)`` and ``parse_card`` return the one shared instance
of each of the 54 cards; equality, hashing and ordering behave as for any value.
RULES.md 2 (trump order, effective suit) is checked here from its own wording, card
by card, against the tables every context answers from.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle

import pytest

from referee_desk.rules.cards import DECK, Card, Rank, Suit, parse_card, parse_cards
from referee_desk.rules.errors import CardNotationError
from referee_desk.rules.trump import TRUMP, TrumpContext, card_tables

CONTEXTS = [
    TrumpContext(level, trump, gap)
    for level in (Rank(v) for v in range(3, 15))
    for trump in (None, *Suit)
    for gap in (False, True)
]


def test_fifty_four_distinct_cards_each_shared():
    """1: 4 decks of 54 distinct cards; every spelling gives the same card value."""
    assert len(DECK) == len(set(DECK)) == 54
    for card in DECK:
        assert DECK[card.index] is card
        assert Card(card.rank, card.suit) is card
        assert parse_card(str(card)) is card
        assert parse_card(str(card).lower()) is card
    assert parse_cards("♥10 HT h10 H10") == (Card(Rank.TEN, Suit.H),) * 4
    assert parse_card("大王") is Card(Rank.BIG_JOKER) is parse_card("bj")


def test_card_is_a_frozen_value():
    """Equal cards compare, hash, copy and pickle as one value; fields stay rank, suit."""
    h5 = Card(Rank.FIVE, Suit.H)
    assert [f.name for f in dataclasses.fields(Card)] == ["rank", "suit"]
    assert h5 == parse_card("H5") and hash(h5) == hash(parse_card("♥5"))
    assert h5 != Card(Rank.FIVE, Suit.S) and h5 != "H5"
    assert copy.copy(h5) is h5 and copy.deepcopy([h5])[0] is h5
    assert pickle.loads(pickle.dumps(h5)) is h5
    assert dataclasses.replace(h5, suit=Suit.S) is parse_card("S5")
    with pytest.raises(dataclasses.FrozenInstanceError):
        h5.rank = Rank.SIX  # type: ignore[misc]
    assert (h5.points, Card(Rank.TEN, Suit.C).points, Card(Rank.KING, Suit.D).points) == (5, 10, 10)
    assert Card(Rank.LITTLE_JOKER).is_joker and not h5.is_joker


def test_ordering_is_rank_then_suit():
    """Sorting cards orders by rank (jokers above A), then by suit letter."""
    for a, b in itertools.product(DECK, repeat=2):
        key_a = (int(a.rank), a.suit.value if a.suit else "")
        key_b = (int(b.rank), b.suit.value if b.suit else "")
        assert (a < b) == (key_a < key_b)
        assert (a <= b) == (key_a <= key_b)
        assert (a > b) == (key_a > key_b)
        assert (a >= b) == (key_a >= key_b)


@pytest.mark.parametrize(
    ("rank", "suit"), [(Rank.BIG_JOKER, Suit.S), (Rank.ACE, None), ("A", "S"), (1, Suit.H)]
)
def test_not_a_card_is_refused(rank, suit):
    """1: a joker has no suit and every other card has one."""
    with pytest.raises(CardNotationError):
        Card(rank, suit)


def _power(card: Card, ctx: TrumpContext) -> int:
    """2: BJ > LJ > trump-suit level > other level cards > trump-suit 2 > other 2s > A…3."""
    if card.rank is Rank.BIG_JOKER:
        return 6
    if card.rank is Rank.LITTLE_JOKER:
        return 5
    if card.rank == ctx.level:
        return 4 if card.suit == ctx.trump else 3
    if card.rank is Rank.TWO:
        return 2 if card.suit == ctx.trump else 1
    return 0


@pytest.mark.parametrize("ctx", CONTEXTS, ids=repr)
def test_tables_answer_as_section_two(ctx):
    """2: trumps are both jokers, every level card, every 2 and the trump suit; the
    effective suit is trump or the side suit; the order is the trump order above."""
    tables = card_tables(ctx.level, ctx.trump, ctx.bridge_level_gap)
    for card in DECK:
        trump = card.suit is None or card.rank in (ctx.level, Rank.TWO) or card.suit == ctx.trump
        assert ctx.is_trump(card) is trump
        assert ctx.effective_suit(card) == (TRUMP if trump else card.suit.value)
        assert tables.suit_of[card] == ctx.effective_suit(card)
        assert tables.power_of[card] == ctx.power(card)
    for a, b in itertools.product(DECK, repeat=2):
        if ctx.effective_suit(a) != ctx.effective_suit(b):
            continue
        # Within one effective suit, power orders the cards as section 2 does.
        expect = (_power(a, ctx), int(a.rank) if not _power(a, ctx) else 0) > (
            _power(b, ctx),
            int(b.rank) if not _power(b, ctx) else 0,
        )
        assert (ctx.power(a) > ctx.power(b)) == expect, (a, b)
    # Display order: every card has its own place, trumps first, strongest first.
    ordered = ctx.sorted(list(DECK))
    assert ordered == sorted(DECK, key=ctx.sort_key)
    assert len({ctx.sort_key(c) for c in DECK}) == 54


def test_chain_positions_follow_section_three():
    """3.1, 3.3: level cards and 2s never chain; the level gap is bridged only when
    the ruleset says so (8 9 10 at level 9 is 8-10 consecutive only with the bridge)."""
    plain = TrumpContext(Rank.NINE, Suit.S)
    bridged = TrumpContext(Rank.NINE, Suit.S, True)
    h8, h9, h10 = (Card(r, Suit.H) for r in (Rank.EIGHT, Rank.NINE, Rank.TEN))
    assert plain.chain_index(h9) is None and plain.chain_index(Card(Rank.TWO, Suit.H)) is None
    assert plain.chain_index(h10) - plain.chain_index(h8) == 2
    assert bridged.chain_index(h10) - bridged.chain_index(h8) == 1
    lj, bj = Card(Rank.LITTLE_JOKER), Card(Rank.BIG_JOKER)
    assert plain.chain_index(bj) - plain.chain_index(lj) == 1


def test_equal_contexts_share_tables_and_hash():
    """Contexts are values: equal ones hash alike and answer from the same tables."""
    a, b = TrumpContext.of("9", "S"), TrumpContext(Rank.NINE, Suit.S)
    assert a == b and hash(a) == hash(b) and a.tables is b.tables
    assert a != TrumpContext.of("9", "H") and a != TrumpContext.of("9", "S", bridge_level_gap=True)
    assert dataclasses.replace(a, trump=Suit.H).effective_suit(parse_card("H3")) == TRUMP
