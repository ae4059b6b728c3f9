"""Issue 5, hostile input: the card notation parser (RULES.md section 1) under random
text. It never raises anything but ``CardNotationError``, whose message names the bad
token (and, in a list, its 1-based position); valid notation in any accepted spelling
round-trips to the same cards.

The canonical ``parse_cards(format_cards(x)) == x`` property is in tests/rules/test_cards.py;
here the spellings, separators and junk are random.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_desk.rules.cards import DECK, Card, Rank, format_card, parse_card, parse_cards
from referee_desk.rules.errors import CardNotationError

FAST = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=20000, deadline=None, suppress_health_check=list(HealthCheck))
LONG_LISTS = settings(max_examples=10000, deadline=None, suppress_health_check=list(HealthCheck))

#: 1: lists are separated by spaces or commas (also the full-width ，and 、).
SEPARATOR = re.compile(r"[\s,，、]")
SEPARATORS = st.sampled_from([" ", ",", ", ", " ,", "，", "、", "  ", "\t", "\n", "\u3000"])
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_JOKER_NAMES = {Rank.BIG_JOKER: ["BJ", "bj", "Bj", "大王"], Rank.LITTLE_JOKER: ["LJ", "lj", "小王"]}


@st.composite
def spelling(draw: st.DrawFn, card: Card) -> str:
    """One accepted spelling of ``card`` (1: letters or ♠♥♦♣, T for 10, any case)."""
    if card.is_joker:
        return draw(st.sampled_from(_JOKER_NAMES[card.rank]))
    text = format_card(card)
    suit, rank = text[0], text[1:]
    if rank == "10":
        rank = draw(st.sampled_from(["10", "T", "t"]))
    if draw(st.booleans()):
        suit = _SYMBOLS[suit] + draw(st.sampled_from(["", "\ufe0f"]))  # phones add U+FE0F
    elif draw(st.booleans()):
        suit = suit.lower()
    return suit + (rank.lower() if draw(st.booleans()) else rank)


junk_tokens = st.text(min_size=1, max_size=8).filter(lambda t: not SEPARATOR.search(t))


def check_card_error(token: str, error: CardNotationError) -> None:
    message = str(error)
    assert message and "\n" not in message and "Traceback" not in message
    if token.strip().replace("\ufe0f", ""):
        assert repr(token) in message, (token, message)
    else:
        assert "empty" in message


def attempt_card(token: str) -> None:
    try:
        card = parse_card(token)
    except CardNotationError as error:
        check_card_error(token, error)
        return
    assert isinstance(card, Card) and card in DECK
    assert parse_card(format_card(card)) == card


def joined(tokens: list[str], separators: list[str]) -> str:
    """``tokens`` with ``separators[i]`` between token i and token i + 1."""
    if not tokens:
        return ""
    return tokens[0] + "".join(s + t for s, t in zip(separators, tokens[1:], strict=True))


def attempt_list(tokens: list[str], separators: list[str]) -> None:
    """Tokens free of separators, joined: the error names the first bad one and where."""
    text = joined(tokens, separators)
    expected: list[Card] = []
    first_bad: tuple[int, str] | None = None
    for position, token in enumerate(tokens, start=1):
        try:
            expected.append(parse_card(token))
        except CardNotationError:
            first_bad = (position, token)
            break
    try:
        parsed = parse_cards(text)
    except CardNotationError as error:
        assert first_bad is not None, (text, str(error))
        position, token = first_bad
        assert str(error).startswith(f"card {position}: "), (text, str(error))
        assert repr(token) in str(error)
        return
    assert first_bad is None, text
    assert parsed == tuple(expected)


@FAST
@given(st.text(max_size=12))
def test_random_text_as_one_card(token: str) -> None:
    attempt_card(token)


@FAST
@given(st.text(max_size=60))
def test_random_text_as_a_card_list(text: str) -> None:
    """Any text: a tuple of cards or CardNotationError naming position and token."""
    try:
        cards = parse_cards(text)
    except CardNotationError as error:
        assert re.match(r"card \d+: ", str(error)) and "\n" not in str(error)
        return
    assert all(card in DECK for card in cards)


@st.composite
def near_valid_lists(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=12))
    tokens = [draw(spelling(card)) for card in cards]
    for _ in range(draw(st.integers(0, 2))):
        index = draw(st.integers(0, len(tokens) - 1))
        action = draw(st.sampled_from(["junk", "cut", "extend", "swap"]))
        token = tokens[index]
        if action == "junk":
            tokens[index] = draw(junk_tokens)
        elif action == "cut" and len(token) > 1:
            tokens[index] = token[: draw(st.integers(1, len(token) - 1))]
        elif action == "extend":
            tokens[index] = token + draw(junk_tokens)
        elif action == "swap":
            tokens[index] = token[::-1]
    tokens = [t for t in tokens if t and not SEPARATOR.search(t)] or ["H5"]
    separators = [draw(SEPARATORS) for _ in tokens[1:]]
    return tokens, separators


@FAST
@given(near_valid_lists())
def test_near_valid_lists_name_the_first_bad_token(case: tuple[list[str], list[str]]) -> None:
    attempt_list(*case)


@FAST
@given(st.lists(st.sampled_from(DECK), max_size=20), st.data())
def test_every_accepted_spelling_round_trips(cards: list[Card], data: st.DataObject) -> None:
    """1: ``H10``/``HT``/``h10``/``♥10``/``♥️10``, ``BJ``/``大王``: all the same card."""
    tokens = [data.draw(spelling(card)) for card in cards]
    separators = [data.draw(SEPARATORS) for _ in tokens[1:]]
    text = joined(tokens, separators)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(tokens) == tuple(cards)


@pytest.mark.parametrize("token", ["♥", "HX", "10H", "H١٠", "Ｈ5", "\ufe0f", "S\x00", "大小王"])
def test_hand_picked_hostile_tokens(token: str) -> None:
    with pytest.raises(CardNotationError) as info:
        parse_card(token)
    check_card_error(token, info.value)


def test_the_error_type_is_what_protects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the parser's own checks an unknown rank would escape as a KeyError, which
    the property above does not accept: the test can fail."""
    import referee_desk.rules.cards as cards_module

    class Strict(dict):
        def get(self, key, default=None):  # the unguarded lookup a careless parser does
            return self[key]

    monkeypatch.setattr(cards_module, "_LABEL_TO_RANK", Strict(cards_module._LABEL_TO_RANK))
    with pytest.raises(KeyError):
        attempt_card("HX")


@pytest.mark.slow
@LONG
@given(st.text(max_size=40))
def test_random_text_as_one_card_long(token: str) -> None:
    attempt_card(token)


@pytest.mark.slow
@LONG_LISTS
@given(near_valid_lists())
def test_near_valid_lists_long(case: tuple[list[str], list[str]]) -> None:
    attempt_list(*case)
