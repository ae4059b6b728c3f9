"""Units (牌型): RULES.md section 3, Guilin articles 3.1–3.4 and 6.2."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee_desk.rules.cards import DECK, Card, parse_cards
from referee_desk.rules.trump import TRUMP, TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify

S = UnitKind.SINGLE
P = UnitKind.PAIR
T = UnitKind.TRIPLE
B = UnitKind.BOMB
TR = UnitKind.TRACTOR
BD = UnitKind.BULLDOZER


def unit(cards: str, level: str = "9", trump: str = "S", **kw: bool) -> Unit | None:
    return classify(parse_cards(cards), TrumpContext.of(level, trump, **kw))


@pytest.mark.parametrize(
    ("article", "cards", "level", "trump", "kind", "length", "each", "suit"),
    [
        ("3: single", "HA", "9", "S", S, 1, 1, "H"),
        ("3: pair, 2 identical cards", "HA HA", "9", "S", P, 1, 2, "H"),
        ("3: triple (三张)", "HA HA HA", "9", "S", T, 1, 3, "H"),
        ("3.4: 炸弹 3333", "H3 H3 H3 H3", "9", "S", B, 1, 4, "H"),
        ("3.4: 炸弹 6666", "H6 H6 H6 H6", "9", "S", B, 1, 4, "H"),
        ("3.1: 红桃3344", "H3 H3 H4 H4", "9", "S", TR, 2, 2, "H"),
        ("3.1: 黑桃AAKK (side suit)", "SA SA SK SK", "9", "H", TR, 2, 2, "S"),
        ("3.1: 黑桃AAKK (trump suit)", "SA SA SK SK", "9", "S", TR, 2, 2, TRUMP),
        ("3.3: AAKKQQ is a tractor", "HA HA HK HK HQ HQ", "9", "S", TR, 3, 2, "H"),
        ("3.2: AAAKKK 推土机", "HA HA HA HK HK HK", "9", "S", BD, 2, 3, "H"),
        ("3.2: KKKQQQ 推土机", "HK HK HK HQ HQ HQ", "9", "S", BD, 2, 3, "H"),
        ("3.3: AAAKKKQQQ", "HA HA HA HK HK HK HQ HQ HQ", "9", "S", BD, 3, 3, "H"),
        ("3.2: 33334444 bombs in a row", "H3 H3 H3 H3 H4 H4 H4 H4", "9", "S", BD, 2, 4, "H"),
        ("6.2: 大王小王 is a trump tractor", "BJ BJ LJ LJ", "9", "S", TR, 2, 2, TRUMP),
        ("6.2: no-trump joker tractor", "BJ BJ LJ LJ", "9", "NT", TR, 2, 2, TRUMP),
        ("2: pair of the trump-suit level card", "S9 S9", "9", "S", P, 1, 2, TRUMP),
        ("2: pair of an off-suit 2", "H2 H2", "9", "S", P, 1, 2, TRUMP),
        ("6.2: 4433 smallest side tractor", "H4 H4 H3 H3", "9", "S", TR, 2, 2, "H"),
        ("3: order does not matter", "H4 H3 H4 H3", "9", "S", TR, 2, 2, "H"),
    ],
)
def test_units(
    article: str,
    cards: str,
    level: str,
    trump: str,
    kind: UnitKind,
    length: int,
    each: int,
    suit: str,
) -> None:
    u = unit(cards, level, trump)
    assert u is not None, article
    assert (u.kind, u.length, u.each, u.suit) == (kind, length, each, suit), article
    assert sorted(u.cards) == sorted(parse_cards(cards))


@pytest.mark.parametrize(
    ("article", "cards", "level", "trump"),
    [
        ("3.1: 主2副2不可相连 — 22AAKK", "H2 H2 HA HA HK HK", "5", "H"),
        ("3.3: 222AAAXKK is not a tractor", "H2 H2 H2 HA HA HA H5 H5 HK HK", "5", "H"),
        ("3.1: 打4, 副牌3和5不连", "H3 H3 H5 H5", "4", "S"),
        ("3.1: level gap inside the trump suit", "S3 S3 S5 S5", "4", "S"),
        ("3.1: level cards never join a tractor", "S9 S9 S10 S10", "9", "S"),
        ("3.1: off-suit level + trump-suit level", "S9 S9 H9 H9", "9", "S"),
        ("3.1: 2s never chain with each other", "S2 S2 H2 H2", "9", "S"),
        ("6.2 vs 3.1/3.3: AA22 is not a tractor", "SA SA S2 S2", "9", "S"),
        ("6.2: LJ chains only with BJ", "LJ LJ SA SA", "9", "S"),
        ("11: LJ LJ + trump-suit level pair", "LJ LJ S9 S9", "9", "S"),
        ("3: identical = same rank and suit (H9 D9)", "H9 D9", "9", "S"),
        ("3: identical = same rank and suit (H2 D2)", "H2 D2", "9", "S"),
        ("3: mixed effective suits", "HA SA", "9", "C"),
        ("3: side + trump", "HA HA SA SA", "9", "S"),
        ("3: AAA KK unequal counts", "HA HA HA HK HK", "9", "S"),
        ("3: tractor with a gap", "HA HA HQ HQ", "9", "S"),
        ("3: two ranks of singles", "HA HK", "9", "S"),
        ("3: two different cards", "HA HQ", "9", "S"),
        ("3: a fifth copy is no unit", "HA HA HA HA HA", "9", "S"),
        ("3: empty", "", "9", "S"),
        ("3: mixed side suits", "HA HA DA DA", "9", "S"),
    ],
)
def test_not_units(article: str, cards: str, level: str, trump: str) -> None:
    assert unit(cards, level, trump) is None, article


def test_bridged_level_gap_parameter() -> None:
    """3.1 [P bridge_level_gap]: with the gap bridged, at level 4 side 3 and 5 chain."""
    u = unit("H3 H3 H5 H5", "4", "S", bridge_level_gap=True)
    assert u is not None and u.kind is TR


def test_unit_rank_is_its_highest_card() -> None:
    """3: a unit's rank is the rank of its highest card (section 2 order)."""
    ctx = TrumpContext.of("9", "S")
    u = classify(parse_cards("BJ BJ LJ LJ"), ctx)
    assert u is not None and u.top_power == ctx.power(parse_cards("BJ")[0])
    aakk = classify(parse_cards("HK HK HA HA"), ctx)
    kkqq = classify(parse_cards("HK HK HQ HQ"), ctx)
    assert aakk is not None and kkqq is not None
    assert aakk.top_power > kkqq.top_power
    assert aakk.cards == parse_cards("HA HA HK HK")  # strongest first


def test_describe() -> None:
    assert unit("HA HA HK HK HQ HQ").describe() == "three-pair tractor"  # type: ignore[union-attr]
    assert "bulldozer" in unit("HA HA HA HK HK HK").describe()  # type: ignore[union-attr]
    assert unit("HA").describe() == "single"  # type: ignore[union-attr]


_CTX = TrumpContext.of("9", "S")


@given(st.sampled_from(DECK), st.integers(1, 4))
def test_identical_cards_form_a_one_rank_unit(card: Card, count: int) -> None:
    """3 / 3.4: 1–4 identical cards are single, pair, triple, bomb."""
    u = classify([card] * count, _CTX)
    assert u is not None
    assert u.kind is [S, P, T, B][count - 1]
    assert u.suit == _CTX.effective_suit(card)


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=8))
def test_classified_units_are_consistent(cards: list[Card]) -> None:
    """Every unit is in one effective suit and has length × each cards."""
    u = classify(cards, _CTX)
    if u is None:
        return
    assert len({_CTX.effective_suit(c) for c in cards}) == 1
    assert u.length * u.each == len(cards)
    assert u.top_power == max(_CTX.power(c) for c in cards)
    if u.length > 1:
        assert all(_CTX.chain_index(c) is not None for c in cards)
