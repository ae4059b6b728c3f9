"""Card notation, the deck and points (RULES.md section 1, section 7 point values)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee_desk.rules.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_level,
    points_of,
)
from referee_desk.rules.errors import CardNotationError, RulesError


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("H10", Rank.TEN, Suit.H),
        ("HT", Rank.TEN, Suit.H),  # 1: "T accepted for 10"
        ("h10", Rank.TEN, Suit.H),  # 1: case-insensitive
        ("♥5", Rank.FIVE, Suit.H),  # 1: ♠ ♥ ♦ ♣ accepted
        ("♠A", Rank.ACE, Suit.S),
        ("DQ", Rank.QUEEN, Suit.D),
        ("c2", Rank.TWO, Suit.C),
        ("BJ", Rank.BIG_JOKER, None),
        ("lj", Rank.LITTLE_JOKER, None),
        ("大王", Rank.BIG_JOKER, None),  # 1: 大王 (big joker)
        ("小王", Rank.LITTLE_JOKER, None),  # 1: 小王 (little joker)
    ],
)
def test_parse_card_notation(token: str, rank: Rank, suit: Suit | None) -> None:
    """1: suit letter then rank; jokers BJ / LJ."""
    assert parse_card(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["", "X5", "H1", "H11", "HB", "J", "5H", "SBJ"])
def test_bad_tokens_are_refused_with_the_token_named(token: str) -> None:
    with pytest.raises(CardNotationError) as info:
        parse_card(token)
    if token:
        assert repr(token) in str(info.value)


def test_list_error_names_position() -> None:
    """Errors name the bad token and its 1-based position."""
    with pytest.raises(CardNotationError, match=r"card 3: .*'ZZ'"):
        parse_cards("H5 S10 ZZ")
    assert issubclass(CardNotationError, RulesError)
    assert issubclass(CardNotationError, ValueError)


def test_lists_split_on_spaces_and_commas() -> None:
    """1: lists are separated by spaces or commas."""
    assert parse_cards("H5, S10 ,BJ") == parse_cards(["H5", "S10", "BJ"])
    assert parse_cards("H5，S10、BJ") == parse_cards("H5 S10 BJ")


def test_a_joker_has_no_suit() -> None:
    with pytest.raises(CardNotationError):
        Card(Rank.BIG_JOKER, Suit.S)
    with pytest.raises(CardNotationError):
        Card(Rank.ACE)


def test_repr_is_short_and_readable() -> None:
    assert repr(parse_card("H5")) == "Card('H5')"
    assert repr(parse_card("BJ")) == "Card('BJ')"


def test_deck_has_54_distinct_cards_and_100_points() -> None:
    """1: one deck is 54 cards; 7: 5 → 5, 10 → 10, K → 10, 100 per deck, 400 in all."""
    assert len(DECK) == 54 == len(set(DECK))
    assert points_of(DECK) == 100
    assert points_of(DECK * 4) == 400
    assert parse_card("S5").points == 5
    assert parse_card("S10").points == 10
    assert parse_card("SK").points == 10
    assert parse_card("SA").points == 0
    assert parse_card("BJ").points == 0


def test_symbols_format() -> None:
    assert format_card(parse_card("H10"), symbols=True) == "♥10"
    assert format_cards(parse_cards("BJ S3")) == "BJ S3"


@pytest.mark.parametrize(("text", "rank"), [("3", Rank.THREE), ("t", Rank.TEN), ("A", Rank.ACE)])
def test_levels(text: str, rank: Rank) -> None:
    """2: levels 3 4 … A."""
    assert parse_level(text) == rank


def test_two_is_never_a_level() -> None:
    """2.1 / 3.1: 2 is never a level, it is a fixed trump."""
    with pytest.raises(CardNotationError, match="2 is never a level"):
        parse_level("2")


@given(st.lists(st.sampled_from(DECK), max_size=30), st.booleans())
def test_parse_format_round_trip(cards: list[Card], symbols: bool) -> None:
    """parse_cards(format_cards(x)) == x, with letters or suit symbols."""
    assert parse_cards(format_cards(cards, symbols=symbols)) == tuple(cards)
