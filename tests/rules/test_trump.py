"""Levels, trumps and card order (RULES.md section 2; Guilin 3.1 and 5.1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee_desk.rules.cards import DECK, Card, parse_card, parse_cards
from referee_desk.rules.trump import TRUMP, TrumpContext


def c(token: str) -> Card:
    return parse_card(token)


LEVEL_9_SPADES = TrumpContext.of("9", "S")


@pytest.mark.parametrize(
    ("token", "is_trump"),
    [
        ("BJ", True),
        ("LJ", True),
        ("S9", True),  # level card of the trump suit
        ("H9", True),  # 2: every level card (any suit) is trump
        ("C2", True),  # 3.1: 2 is a fixed trump
        ("S3", True),  # trump suit
        ("HA", False),
        ("D10", False),
    ],
)
def test_trumps(token: str, is_trump: bool) -> None:
    """2: trumps are both jokers, every level card, every 2, every trump-suit card."""
    assert LEVEL_9_SPADES.is_trump(c(token)) is is_trump
    expected = TRUMP if is_trump else c(token).suit.value  # type: ignore[union-attr]
    assert LEVEL_9_SPADES.effective_suit(c(token)) == expected


def test_trump_order_high_to_low() -> None:
    """5.1: BJ > LJ > trump-suit level card > other level cards > trump 2 > other 2s > A … 3."""
    order = ["BJ", "LJ", "S9", "H9", "S2", "D2", "SA", "SK", "SQ", "SJ", "S10", "S8", "S3"]
    powers = [LEVEL_9_SPADES.power(c(t)) for t in order]
    assert powers == sorted(powers, reverse=True)
    assert len(set(powers)) == len(powers)


def test_equal_cards() -> None:
    """2 / 5.1: off-suit level cards rank equal, so do off-suit 2s ("先出牌的就是大的")."""
    ctx = LEVEL_9_SPADES
    assert ctx.power(c("H9")) == ctx.power(c("D9")) == ctx.power(c("C9"))
    assert ctx.power(c("H2")) == ctx.power(c("D2")) == ctx.power(c("C2"))
    assert ctx.power(c("S9")) > ctx.power(c("H9"))
    assert ctx.power(c("S2")) > ctx.power(c("H2"))


def test_no_trump_order() -> None:
    """2: in no-trump, BJ > LJ > level cards > 2s; all level cards equal, all 2s equal."""
    ctx = TrumpContext.of("5", "NT")
    assert ctx.trump is None
    assert ctx.power(c("BJ")) > ctx.power(c("LJ")) > ctx.power(c("S5")) > ctx.power(c("S2"))
    assert len({ctx.power(c(t)) for t in ("S5", "H5", "D5", "C5")}) == 1
    assert len({ctx.power(c(t)) for t in ("S2", "H2", "D2", "C2")}) == 1
    assert not ctx.is_trump(c("SA"))


def test_side_suits_skip_level_and_two() -> None:
    """2: side suits are A K Q … 3 without the level rank and without 2."""
    ctx = LEVEL_9_SPADES
    hearts = [card for card in DECK if ctx.effective_suit(card) == "H"]
    assert sorted(card.rank.label for card in hearts) == sorted(
        ["A", "K", "Q", "J", "10", "8", "7", "6", "5", "4", "3"]
    )


def test_chain_gap_at_the_level_is_not_bridged() -> None:
    """3.1: "打4的时候, 副牌3和5不算连牌" [P bridge_level_gap=false]."""
    ctx = TrumpContext.of("4", "S")
    assert ctx.chain_index(c("H5")) - ctx.chain_index(c("H3")) == 2
    bridged = TrumpContext.of("4", "S", bridge_level_gap=True)
    assert bridged.chain_index(c("H5")) - bridged.chain_index(c("H3")) == 1


def test_level_cards_twos_and_jokers_in_the_chain() -> None:
    """3.1, 3.3, 6.2: level cards and 2s never chain; LJ–BJ chain only with each other."""
    ctx = LEVEL_9_SPADES
    assert ctx.chain_index(c("S9")) is None
    assert ctx.chain_index(c("H2")) is None
    assert ctx.chain_index(c("BJ")) - ctx.chain_index(c("LJ")) == 1
    assert ctx.chain_index(c("LJ")) - ctx.chain_index(c("SA")) > 1
    assert ctx.chain_index(c("SA")) - ctx.chain_index(c("SK")) == 1  # 3.3: A–K consecutive


@given(st.sampled_from(DECK), st.sampled_from(DECK))
def test_power_orders_cards_within_one_effective_suit(a: Card, b: Card) -> None:
    """5.1: within trump, jokers > level cards > 2s > trump-suit A … 3; identical cards equal."""
    ctx = LEVEL_9_SPADES
    if ctx.effective_suit(a) != ctx.effective_suit(b):
        return
    if a == b:
        assert ctx.power(a) == ctx.power(b)
    tier = {"BJ": 5, "LJ": 4}

    def rank_tier(card: Card) -> int:
        if card.rank.label in tier:
            return tier[card.rank.label]
        if card.rank == ctx.level:
            return 3
        if card.rank.label == "2":
            return 2
        return 1

    if rank_tier(a) > rank_tier(b):
        assert ctx.power(a) > ctx.power(b)
    elif rank_tier(a) == rank_tier(b) == 1:
        assert (ctx.power(a) > ctx.power(b)) == (a.rank > b.rank)


def test_sorted_shows_trumps_first() -> None:
    ctx = LEVEL_9_SPADES
    assert ctx.sorted(list(parse_cards("H3 BJ S4 H9"))) == list(parse_cards("BJ H9 S4 H3"))
