"""Referee review of the rules core against RULES.md 1-7 and 11 and the Guilin text.

Every expected answer below was derived from the quoted article, not from the
code's output. The last part holds an independent model of the rules (own trump
order, own chain positions, own units, brute-force pair profiles and keys), written
from RULES.md alone, and compares the engine with it on random situations.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from multisets import sub_multisets

from referee_desk.rules.cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from referee_desk.rules.errors import CardNotationError, IllegalInputError, RulesError
from referee_desk.rules.follow import check_follow
from referee_desk.rules.result import (
    Role,
    hand_result,
    next_dealer,
    result_from_final_score,
)
from referee_desk.rules.ruleset import GUILIN_2009, get_ruleset
from referee_desk.rules.seats import PLAY_ORDER, Seat
from referee_desk.rules.trick import competes, trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

P = parse_cards


def ctx(level: str, trump: str, **params: bool) -> TrumpContext:
    return TrumpContext.of(level, trump, bridge_level_gap=params.get("bridge_level_gap", False))


# ====================================================================== 2 / 5.1


# (article, level, trump, singles in play order, winner index)
ORDER = [
    ("2 NT: BJ > LJ", "5", "NT", ["LJ", "BJ"], 1),
    ("2 NT: BJ > LJ (BJ first)", "5", "NT", ["BJ", "LJ"], 0),
    ("2 NT: LJ > level cards", "5", "NT", ["H5", "LJ"], 1),
    ("2 NT: level cards > 2s", "5", "NT", ["H2", "D5"], 1),
    ("2 NT: 2s > side A", "5", "NT", ["HA", "C2"], 1),
    ("5.1 NT: level cards rank equal, first played wins", "5", "NT", ["D5", "H5", "S5"], 0),
    ("5.1 NT: equal level cards after a side lead", "5", "NT", ["H3", "C5", "S5", "D5"], 1),
    ("5.1 NT: off-suit 2s equal, first wins", "5", "NT", ["H4", "D2", "C2", "S2"], 1),
    ("2: an off-suit side A does not compete", "5", "NT", ["H3", "DA"], 0),
    ("2: trump-suit level card > off-suit level card", "9", "S", ["H9", "S9"], 1),
    (
        "2: off-suit level card led first still loses to trump-suit level",
        "9",
        "S",
        ["D9", "C9", "S9"],
        2,
    ),
    ("5.1: 副X 三个花色里先出牌的就是大", "9", "S", ["H9", "D9", "C9"], 0),
    ("2: off-suit level card > 2 of the trump suit", "9", "S", ["S2", "H9"], 1),
    ("2: 主2 > 副2", "9", "S", ["H2", "S2"], 1),
    ("5.1: 副2 三个花色里先出牌的就是大", "9", "S", ["D2", "H2", "C2"], 0),
    ("2: off-suit 2 > trump-suit A", "9", "S", ["SA", "C2"], 1),
    ("2: trump-suit A > trump-suit K", "9", "S", ["SK", "SA"], 1),
    ("2: LJ > trump-suit level card", "9", "S", ["S9", "LJ"], 1),
    ("2: the smallest trump ruffs a side A", "9", "S", ["HA", "S3"], 1),
    ("2: a side card never beats a trump lead", "9", "S", ["S3", "HA"], 0),
    ("2: level card of a side suit is trump, beats that suit's A", "9", "S", ["HA", "H9"], 1),
]


@pytest.mark.parametrize(("article", "level", "trump", "plays", "winner"), ORDER)
def test_trump_order_on_singles(article: str, level: str, trump: str, plays, winner) -> None:
    assert trick_winner([P(p) for p in plays], ctx(level, trump)) == winner, article


# ====================================================================== 3 units

# (article, level, trump, cards, (kind, length, each, suit) or None)
UNITS = [
    ("3.1: 红桃3344 is a tractor (level 5)", "5", "S", "H3 H3 H4 H4", ("tractor", 2, 2, "H")),
    ("3.1: …but not at level 3, where 3s are level cards", "3", "S", "H3 H3 H4 H4", None),
    ("3.1: 黑桃AAKK (♠ trump, level 5)", "5", "S", "SA SA SK SK", ("tractor", 2, 2, "trump")),
    ("3.2: KKKQQQ", "5", "S", "DK DK DK DQ DQ DQ", ("bulldozer", 2, 3, "D")),
    ("11: level 4 trump ♠: ♥33 ♥55 not a tractor", "4", "S", "H3 H3 H5 H5", None),
    ("11: level 4 trump ♠: ♥55 ♥66 is", "4", "S", "H5 H5 H6 H6", ("tractor", 2, 2, "H")),
    ("3.1: the gap inside the trump suit (level 7, ♠66 ♠88)", "7", "S", "S6 S6 S8 S8", None),
    ("3.1: trump-suit tractor below the gap", "7", "S", "S5 S5 S6 S6", ("tractor", 2, 2, "trump")),
    ("3.1: trump-suit tractor above the gap", "7", "S", "S8 S8 S9 S9", ("tractor", 2, 2, "trump")),
    ("11: ♥22 ♥AA ♥KK no (level 5, ♥)", "5", "H", "H2 H2 HA HA HK HK", None),
    ("11: ♥AA ♥KK ♥QQ is", "5", "H", "HA HA HK HK HQ HQ", ("tractor", 3, 2, "trump")),
    (
        "11: ♥AAA ♥KKK ♥QQQ bulldozer",
        "5",
        "H",
        "HA HA HA HK HK HK HQ HQ HQ",
        ("bulldozer", 3, 3, "trump"),
    ),
    ("11: BJ BJ LJ LJ tractor", "7", "S", "BJ BJ LJ LJ", ("tractor", 2, 2, "trump")),
    ("11: LJ LJ + trump-suit level pair no", "7", "S", "LJ LJ S7 S7", None),
    ("3: ♠AA + LJ LJ not consecutive", "7", "S", "SA SA LJ LJ", None),
    ("3: BJ BJ LJ LJ in no-trump too", "7", "NT", "BJ BJ LJ LJ", ("tractor", 2, 2, "trump")),
    ("3.1: 主2副2不可相连", "7", "S", "S2 S2 H2 H2", None),
    ("3.3: 2s never in a tractor (♠22 ♠AA)", "7", "S", "S2 S2 SA SA", None),
    ("3.3: '22AAKK' side suit", "7", "S", "H2 H2 HA HA HK HK", None),
    ("3.3: '222AAAKK' not a unit", "7", "S", "H2 H2 H2 HA HA HA HK HK", None),
    ("3.1: level cards never join (level 9, ♥99 ♥88)", "9", "S", "H9 H9 H8 H8", None),
    ("3.1: trump level pair + off-suit level pair", "9", "S", "S9 S9 H9 H9", None),
    ("unit: ♥9 ♦9 at level 9 are not identical: no pair", "9", "S", "H9 D9", None),
    ("unit: ♥9 ♥9 at level 9 is a trump pair", "9", "S", "H9 H9", ("pair", 1, 2, "trump")),
    ("3.3: A-K consecutive (AAKK side)", "5", "S", "HA HA HK HK", ("tractor", 2, 2, "H")),
    ("3: no wrap A-3", "5", "S", "HA HA H3 H3", None),
    ("3.1: level K: ♥AA ♥QQ not consecutive", "K", "S", "HA HA HQ HQ", None),
    ("3.1: level A: ♥KK ♥QQ tractor", "A", "S", "HK HK HQ HQ", ("tractor", 2, 2, "H")),
    ("3.1: level A: ♥AA is trump, ♥KK side: mixed", "A", "S", "HA HA HK HK", None),
    (
        "3.2: 推土机 of bombs 33334444",
        "9",
        "H",
        "H3 H3 H3 H3 H4 H4 H4 H4",
        ("bulldozer", 2, 4, "trump"),
    ),
    ("3.2: AAAKKK side", "9", "S", "HA HA HA HK HK HK", ("bulldozer", 2, 3, "H")),
    ("3.4: 3333 bomb", "9", "S", "D3 D3 D3 D3", ("bomb", 1, 4, "D")),
    ("3: triple", "9", "S", "D3 D3 D3", ("triple", 1, 3, "D")),
    ("3: mixed t (333 44) is not a unit", "9", "S", "D3 D3 D3 D4 D4", None),
    ("3: mixed effective suits", "9", "S", "H3 S3", None),
    ("3: single level card of a side suit is trump", "9", "S", "D9", ("single", 1, 1, "trump")),
    ("3: NT: ♥55 ♦55 (level 5) no", "5", "NT", "H5 H5 D5 D5", None),
    ("3: NT: gap at the level (♥44 ♥66 level 5)", "5", "NT", "H4 H4 H6 H6", None),
]


@pytest.mark.parametrize(("article", "level", "trump", "cards", "expected"), UNITS)
def test_units(article: str, level: str, trump: str, cards: str, expected) -> None:
    unit = classify(P(cards), ctx(level, trump))
    got = None if unit is None else (str(unit.kind), unit.length, unit.each, unit.suit)
    assert got == expected, article


def test_bridge_level_gap_parameter_both_ways() -> None:
    """3.1 打"4"的时候, 副牌"3"和"5"不算连牌 [P bridge_level_gap=false]; true bridges it."""
    assert classify(P("H3 H3 H5 H5"), ctx("4", "S")) is None
    bridged = classify(P("H3 H3 H5 H5"), ctx("4", "S", bridge_level_gap=True))
    assert bridged is not None and (bridged.kind, bridged.length) == ("tractor", 2)
    # Bridging never lets the level card itself, or a 2, into the chain.
    assert classify(P("H3 H3 H4 H4 H5 H5"), ctx("4", "S", bridge_level_gap=True)) is None


# ====================================================================== 6 winner

# (article, level, trump, plays, winner)
TRICKS = [
    ("6.2: 副牌拖拉机 AAKK … 4433: AAKK beats 4433", "9", "S", ["H4 H4 H3 H3", "HA HA HK HK"], 1),
    (
        "6.2: KKQQ beats 4433, AAKK beats KKQQ",
        "9",
        "S",
        ["H4 H4 H3 H3", "HK HK HQ HQ", "HA HA HK HK"],
        2,
    ),
    ("6.4: ♥6666 beats ♥AAKK", "9", "S", ["HA HA HK HK", "H6 H6 H6 H6"], 1),
    ("6.3: ♥555666 beats ♥AAKKQQ", "9", "S", ["HA HA HK HK HQ HQ", "H5 H5 H5 H6 H6 H6"], 1),
    (
        "6.3: 33334444 beats a four-pair tractor",
        "9",
        "S",
        ["HA HA HK HK HQ HQ HJ HJ", "H3 H3 H3 H3 H4 H4 H4 H4"],
        1,
    ),
    (
        "6: a bomb + a pair against a three-pair tractor is no unit",
        "9",
        "S",
        ["HA HA HK HK HQ HQ", "H6 H6 H6 H6 H7 H7"],
        0,
    ),
    (
        "6.5: 赛员2 ♥7777 炸掉 ♥AAKK; a trump tractor does not 枪毙 it",
        "9",
        "S",
        ["HA HA HK HK", "H7 H7 H7 H7", "S3 S3 S4 S4"],
        1,
    ),
    (
        "6.5: 非得打出主牌炸弹才行",
        "9",
        "S",
        ["HA HA HK HK", "H7 H7 H7 H7", "S3 S3 S4 S4", "S5 S5 S5 S5"],
        3,
    ),
    (
        "6.5: 主牌拖拉机枪毙后, ♥7777 无法超越",
        "9",
        "S",
        ["HA HA HK HK", "S3 S3 S4 S4", "H7 H7 H7 H7"],
        1,
    ),
    ("6.5: a low trump tractor ruffs ♥AAKK", "9", "S", ["HA HA HK HK", "S3 S3 S4 S4"], 1),
    ("6.4: a trump bomb ruffs a side tractor", "9", "S", ["HA HA HK HK", "S3 S3 S3 S3"], 1),
    (
        "6.5: a side bomb after a trump bomb loses",
        "9",
        "S",
        ["HA HA HK HK", "S3 S3 S3 S3", "H7 H7 H7 H7"],
        1,
    ),
    (
        "6.4: trump bomb beaten by a trump bomb of higher rank",
        "9",
        "S",
        ["HA HA HK HK", "S3 S3 S3 S3", "S4 S4 S4 S4"],
        2,
    ),
    (
        "6.4: trump tractor after a trump bomb loses (weaker type)",
        "9",
        "S",
        ["HA HA HK HK", "S3 S3 S3 S3", "BJ BJ LJ LJ"],
        1,
    ),
    ("6: trump pair ruffs a side pair", "9", "S", ["HA HA", "S3 S3"], 1),
    ("6: a higher trump pair over-ruffs", "9", "S", ["HA HA", "S3 S3", "S4 S4"], 2),
    ("6: trump single + side card does not compete", "9", "S", ["HA HA", "S3 H4"], 0),
    ("6: two different trumps are no pair", "9", "S", ["HA HA", "S3 S4"], 0),
    ("6: another side suit never wins", "9", "S", ["H3 H3", "DA DA"], 0),
    ("6: level pairs: ♦99 equals ♥99, first stays", "9", "S", ["H9 H9", "D9 D9"], 0),
    (
        "6: trump-suit level pair beats off-suit level pair",
        "9",
        "S",
        ["H9 H9", "D9 D9", "S9 S9"],
        2,
    ),
    ("6.2: 大王小王 is the highest trump tractor", "9", "S", ["SA SA SK SK", "BJ BJ LJ LJ"], 1),
    (
        "6.1: equal tractors: first played wins",
        "9",
        "S",
        ["HA HA HK HK", "D3 D3 D4 D4", "HA HA HK HK"],
        0,
    ),
    (
        "6: bulldozer lead, higher bulldozer wins",
        "9",
        "S",
        ["H7 H7 H7 H8 H8 H8", "HJ HJ HJ HQ HQ HQ"],
        1,
    ),
    (
        "6: bulldozer lead, lower bulldozer loses",
        "9",
        "S",
        ["H7 H7 H7 H8 H8 H8", "H5 H5 H5 H6 H6 H6"],
        0,
    ),
    (
        "6: a tractor never competes against a bulldozer lead",
        "9",
        "S",
        ["H7 H7 H7 H8 H8 H8", "S3 S3 S4 S4 S5 S5"],
        0,
    ),
    (
        "6: trump bulldozer ruffs a side bulldozer",
        "9",
        "S",
        ["H7 H7 H7 H8 H8 H8", "S3 S3 S3 S4 S4 S4"],
        1,
    ),
    (
        "6: a tractor never competes against a bomb lead",
        "9",
        "S",
        ["H6 H6 H6 H6", "HA HA HK HK"],
        0,
    ),
    (
        "6.3: bulldozer > tractor whatever the ranks; trump tractor cannot ruff it",
        "9",
        "S",
        ["HA HA HK HK HQ HQ", "H3 H3 H3 H4 H4 H4", "S3 S3 S4 S4 S5 S5"],
        1,
    ),
    (
        "6.5: a trump bulldozer ruffs the side bulldozer",
        "9",
        "S",
        ["HA HA HK HK HQ HQ", "H3 H3 H3 H4 H4 H4", "S3 S3 S4 S4 S5 S5", "S6 S6 S6 S7 S7 S7"],
        3,
    ),
    ("6: trump bomb lead: higher trump bomb wins", "9", "S", ["S3 S3 S3 S3", "H9 H9 H9 H9"], 1),
    ("6: winner so far with two plays", "9", "S", ["HA HA HK HK", "H6 H6 H6 H6"], 1),
]


@pytest.mark.parametrize(("article", "level", "trump", "plays", "winner"), TRICKS)
def test_trick_winner_table(article: str, level: str, trump: str, plays, winner) -> None:
    assert trick_winner([P(p) for p in plays], ctx(level, trump)) == winner, article


def test_bomb_competes_with_two_pair_tractor_only() -> None:
    """6.4 炸弹能够打出相同张数的连牌 — same card count only: not a three-pair tractor."""
    c = ctx("9", "S")
    assert competes(P("H6 H6 H6 H6"), P("HA HA HK HK"), c)
    assert not competes(P("H6 H6 H6 H6"), P("HA HA HK HK HQ HQ"), c)
    assert not competes(P("H6 H6 H6 H6"), P("HA HA HA"), c)
    # 6.3 相同对数目: a bulldozer of another card count does not compete.
    assert not competes(P("H3 H3 H3 H4 H4 H4"), P("HA HA HK HK"), c)


# ====================================================================== 4 / 5 follow

L10 = ("10", "S")  # level 10, ♠ trump: ♥ chains 3…9 and J…A (the 10 is the gap)
TR8 = "HA HA HK HK HQ HQ HJ HJ"
BZ = "H8 H8 H8 H9 H9 H9"

# (article, lead, hand, play, legal)
FOLLOWS = [
    # 4.1
    ("4.1: 有对子存在, 此刻必须跟对", "HA HA", "H3 H3 H4 H5 C5", "H4 H5", False),
    ("4.1: the pair follows", "HA HA", "H3 H3 H4 H5 C5", "H3 H3", True),
    ("4.1: a pair out of a bomb is required", "HA HA", "H3 H3 H3 H3 H5", "H3 H5", False),
    (
        "4.1: ♥10 ♦10 are no pair at level 10 (trump lead)",
        "SA SA",
        "H10 D10 S3 S3 C4",
        "H10 D10",
        False,
    ),
    (
        "4.1: ♥10 ♦10 with no trump pair: any two trumps",
        "SA SA",
        "H10 D10 S3 S4 C4",
        "H10 D10",
        True,
    ),
    ("4.1: 同花任意一张", "HA", "H3 H4 C5", "C5", False),
    ("4.1: 连同花牌都没有, 就可以任意出牌", "HA", "S3 C4 C5", "S3", True),
    # 4.2
    (
        "4.2: 有炸弹 必须去跟: bomb follows a two-pair tractor",
        "HA HA HK HK",
        "H6 H6 H6 H6 H3 H3 H5 H8",
        "H6 H6 H6 H6",
        True,
    ),
    (
        "4.2: bomb held: two pairs out of it are not enough",
        "HA HA HK HK",
        "H6 H6 H6 H6 H3 H3 H5 H8",
        "H6 H6 H3 H3",
        False,
    ),
    (
        "4.2: 出够相应的对数 (no tractor, no bomb)",
        "HA HA HK HK",
        "H3 H3 H3 H5 H5 H8",
        "H3 H3 H5 H5",
        True,
    ),
    ("4.2: triple + 1 is one pair only", "HA HA HK HK", "H3 H3 H3 H5 H5 H8", "H3 H3 H3 H8", False),
    (
        "4.2: a tractor out of a bulldozer",
        "HA HA HK HK",
        "H3 H3 H3 H4 H4 H4 H8",
        "H3 H3 H4 H4",
        True,
    ),
    (
        "4.2: 9 and J are not consecutive at level 10",
        "HA HA HK HK",
        "H9 H9 HJ HJ H3 H3 H5",
        "H9 H9 H3 H3",
        True,
    ),
    # 4.3 (8-card tractor)
    (
        "4.3: 没有四连对的应当垫三连对加一对",
        TR8,
        "H3 H3 H4 H4 H5 H5 H8 H8 HJ",
        "H3 H3 H4 H4 H5 H5 H8 H8",
        True,
    ),
    (
        "4.3: three-pair tractor + pair held: 2+2 refused",
        TR8,
        "H3 H3 H4 H4 H5 H5 H8 H8 HJ",
        "H3 H3 H4 H4 H8 H8 H5 HJ",
        False,
    ),
    ("4.3: 或者特拖加一对", TR8, "H3 H3 H3 H4 H4 H4 H8 H8 HJ", "H3 H3 H3 H4 H4 H4 H8 H8", True),
    (
        "4.3: three-pair tractor + pair out of a bomb beats tractor + bomb",
        TR8,
        "H3 H3 H4 H4 H5 H5 H9 H9 H9 H9",
        "H3 H3 H4 H4 H5 H5 H9 H9",
        True,
    ),
    (
        "4.3: …so a two-pair tractor + bomb is refused there",
        TR8,
        "H3 H3 H4 H4 H5 H5 H9 H9 H9 H9",
        "H3 H3 H4 H4 H9 H9 H9 H9",
        False,
    ),
    ("4.3: 两个两全对", TR8, "H3 H3 H4 H4 H7 H7 H8 H8 HJ HJ", "H3 H3 H4 H4 H7 H7 H8 H8", True),
    (
        "4.3: two tractors held: tractor + two pairs refused",
        TR8,
        "H3 H3 H4 H4 H7 H7 H8 H8 HJ HJ",
        "H3 H3 H7 H7 H8 H8 HJ HJ",
        False,
    ),
    (
        "4.3: 一个两连对加一个炸弹",
        TR8,
        "H3 H3 H4 H4 HQ HQ HQ HQ H7",
        "H3 H3 H4 H4 HQ HQ HQ HQ",
        True,
    ),
    (
        "4.3: 没有连对的需要出四对牌",
        TR8,
        "H3 H3 H5 H5 H7 H7 H9 H9 HJ",
        "H3 H3 H5 H5 H7 H7 H9 H9",
        True,
    ),
    (
        "4.3: four pairs held: three pairs + 2 refused",
        TR8,
        "H3 H3 H5 H5 H7 H7 H9 H9 HJ",
        "H3 H3 H5 H5 H7 H7 H9 HJ",
        False,
    ),
    (
        "4.3: 从最长的拖拉机跟起 (6-card lead)",
        "HA HA HK HK HQ HQ",
        "H3 H3 H4 H4 H7 H7 H9 H9",
        "H3 H3 H4 H4 H7 H7",
        True,
    ),
    (
        "4.3: longest first: three pairs refused",
        "HA HA HK HK HQ HQ",
        "H3 H3 H4 H4 H7 H7 H9 H9",
        "H3 H3 H7 H7 H9 H9",
        False,
    ),
    # 4.4 bomb lead: bomb > triple+1 > two-pair tractor > two pairs > pair+2 > singles
    ("4.4: 四张", "HA HA HA HA", "H3 H3 H3 H3 H5 H5 H6 H6 H8", "H3 H3 H3 H3", True),
    (
        "4.4: bomb held, triple+1 refused",
        "HA HA HA HA",
        "H3 H3 H3 H3 H5 H5 H6 H6 H8",
        "H3 H3 H3 H8",
        False,
    ),
    ("4.4: 三加一张", "HA HA HA HA", "H3 H3 H3 H5 H5 H6 H6 H8", "H3 H3 H3 H5", True),
    (
        "4.4: triple held, two-pair tractor refused",
        "HA HA HA HA",
        "H3 H3 H3 H5 H5 H6 H6 H8",
        "H5 H5 H6 H6",
        False,
    ),
    ("4.4: 二对拖拉机", "HA HA HA HA", "H3 H3 H5 H5 H6 H6 H8", "H5 H5 H6 H6", True),
    (
        "4.4: tractor held, two pairs refused",
        "HA HA HA HA",
        "H3 H3 H5 H5 H6 H6 H8",
        "H3 H3 H6 H6",
        False,
    ),
    ("4.4: 二对任意牌", "HA HA HA HA", "H3 H3 H6 H6 H8 H9", "H3 H3 H6 H6", True),
    (
        "4.4: two pairs held, pair + 2 refused",
        "HA HA HA HA",
        "H3 H3 H6 H6 H8 H9",
        "H3 H3 H8 H9",
        False,
    ),
    ("4.4: pair + 2", "HA HA HA HA", "H3 H3 H6 H8 H9", "H3 H3 H6 H9", True),
    ("4.4: pair held, four singles refused", "HA HA HA HA", "H3 H3 H6 H8 H9", "H3 H6 H8 H9", False),
    ("4.4: singles", "HA HA HA HA", "H3 H4 H6 H8 H9", "H4 H6 H8 H9", True),
    # 4.5 triple lead, with a bomb in hand
    (
        "4.5: a bomb counts as holding a triple",
        "HA HA HA",
        "H3 H3 H3 H3 H5 H5 H7",
        "H3 H3 H3",
        True,
    ),
    ("4.5: bomb held: pair + 1 refused", "HA HA HA", "H3 H3 H3 H3 H5 H5 H7", "H5 H5 H7", False),
    ("4.5: triple out of a bulldozer", "HA HA HA", "H3 H3 H3 H4 H4 H4 H7", "H4 H4 H4", True),
    ("4.5: 不存在三张, 出二加一", "HA HA HA", "H3 H3 H5 H5 H7 H8", "H5 H5 H8", True),
    (
        "4.5: free pair held: three singles refused",
        "HA HA HA",
        "H3 H3 H5 H5 H7 H8",
        "H3 H5 H7",
        False,
    ),
    # 4.6 888999: bulldozer > 3-pair tractor > (tractor | bomb) + pair > 3 pairs > pairs + singles
    (
        "11/4.6: must play ♥555666",
        BZ,
        "H5 H5 H5 H6 H6 H6 HJ HJ HQ HQ HK HK",
        "H5 H5 H5 H6 H6 H6",
        True,
    ),
    (
        "11/4.6: ♥JJQQKK refused",
        BZ,
        "H5 H5 H5 H6 H6 H6 HJ HJ HQ HQ HK HK",
        "HJ HJ HQ HQ HK HK",
        False,
    ),
    (
        "4.6: a 3x2 bulldozer out of two bombs",
        BZ,
        "H3 H3 H3 H3 H4 H4 H4 H4 H7",
        "H3 H3 H3 H4 H4 H4",
        True,
    ),
    (
        "4.6: two bombs held: bomb + pair refused",
        BZ,
        "H3 H3 H3 H3 H4 H4 H4 H4 H7",
        "H3 H3 H3 H3 H4 H4",
        False,
    ),
    ("4.6: 三连对", BZ, "HJ HJ HQ HQ HK HK H3 H3 H4 H4 H7 H7", "HJ HJ HQ HQ HK HK", True),
    (
        "4.6: 3-pair tractor held: 2-pair tractor + pair refused",
        BZ,
        "HJ HJ HQ HQ HK HK H3 H3 H4 H4 H7 H7",
        "H3 H3 H4 H4 H7 H7",
        False,
    ),
    ("4.6: 二连对加上一对", BZ, "H3 H3 H4 H4 H7 H7 HJ HJ HA", "H3 H3 H4 H4 H7 H7", True),
    (
        "4.6: 二连对 held: three pairs refused",
        BZ,
        "H3 H3 H4 H4 H7 H7 HJ HJ HA",
        "H3 H3 H7 H7 HJ HJ",
        False,
    ),
    ("4.6: 包括炸弹 加上一对", BZ, "H6 H6 H6 H6 H3 H3 HJ HJ HA", "H6 H6 H6 H6 H3 H3", True),
    (
        "4.6: bomb + pair held: three pairs refused",
        BZ,
        "H6 H6 H6 H6 H3 H3 HJ HJ HA",
        "H6 H6 H3 H3 HJ HJ",
        False,
    ),
    ("4.6: 三对", BZ, "H3 H3 H6 H6 HJ HJ HA HK", "H3 H3 H6 H6 HJ HJ", True),
    (
        "4.6: three pairs held: two pairs + 2 refused",
        BZ,
        "H3 H3 H6 H6 HJ HJ HA HK",
        "H3 H3 H6 H6 HA HK",
        False,
    ),
    (
        "4.6: 对子跟完了之后, 再加上任意一张牌",
        BZ,
        "H3 H3 H6 H6 HJ HA HK",
        "H3 H3 H6 H6 HJ HK",
        True,
    ),
    (
        "4.6: two pairs held: one pair + 4 refused",
        BZ,
        "H3 H3 H6 H6 HJ HA HK",
        "H3 H3 H6 HJ HA HK",
        False,
    ),
    # 5.1 short suit and void
    (
        "5.1: short: all of the suit + anything",
        "HA HA HK HK",
        "H3 H5 C3 C4 S9",
        "H3 H5 C3 S9",
        True,
    ),
    ("5.1: short: keeping a suit card back", "HA HA HK HK", "H3 H5 C3 C4 S9", "H3 C3 C4 S9", False),
    (
        "5.1: exactly n suit cards: all of them",
        "HA HA HK HK",
        "H3 H5 H7 H9 C3",
        "H3 H5 H7 H9",
        True,
    ),
    (
        "5.1: void: any cards",
        "HA HA HK HK HQ HQ",
        "S3 S3 C4 C5 D6 D7 D8",
        "C4 C5 D6 D7 D8 S3",
        True,
    ),
    ("5.1: trump lead, short in trump (a ♥10 is trump)", "SA SA", "H10 C3 C4", "H10 C4", True),
    ("5.1: trump lead, the level card must be played", "SA SA", "H10 C3 C4", "C3 C4", False),
    (
        "5.2: the right shape with a card of another suit is refused",
        "HA HA",
        "H3 H3 H4 C5 C5",
        "C5 C5",
        False,
    ),
]


@pytest.mark.parametrize(("article", "lead", "hand", "play", "legal"), FOLLOWS)
def test_follow_table(article: str, lead: str, hand: str, play: str, legal: bool) -> None:
    verdict = check_follow(P(lead), P(hand), P(play), ctx(*L10))
    assert verdict.legal is legal, f"{article}: {verdict.reason}"
    if not legal:
        assert verdict.instead is not None
        assert check_follow(P(lead), P(hand), verdict.instead, ctx(*L10)).legal


def test_throws_are_refused() -> None:
    """4.7 不允许甩牌: a lead that is not exactly one unit is refused, by name."""
    c = ctx(*L10)
    for lead in ["HA HK", "HA HA HK", "HA HA H3 H3", "H9 D9", "HA HA HA HK HK"]:
        with pytest.raises(IllegalInputError, match=r"4\.7"):
            check_follow(P(lead), P("H3 H4 H5 H6 H7 H8"), P("H3 H4 H5 H6 H7")[: len(P(lead))], c)
        with pytest.raises(IllegalInputError, match=r"4\.7"):
            trick_winner([P(lead)], c)


def test_follow_rule_articles() -> None:
    """The verdict names the chapter-4 article of the lead type."""
    c = ctx(*L10)
    hand = P("H3 H3 H3 H3 H4 H4 H4 H4 H5 H5 H5 H6 H6 H7 H8")
    for lead, article in [
        ("HA", "4.1"),
        ("HA HA", "4.1"),
        ("HA HA HK HK", "4.2"),
        ("HA HA HK HK HQ HQ", "4.3"),
        ("HA HA HA HA", "4.4"),
        ("HA HA HA", "4.5"),
        (BZ, "4.6"),
    ]:
        lead_cards = P(lead)
        play = hand[: len(lead_cards)]
        assert check_follow(lead_cards, hand, play, c).rule == article, lead


TRIPLE_EXEMPTION = [
    # (hand, play, legal with spares=true, legal with spares=false)
    ("H3 H3 H4 H4 H7 H9", "H3 H7 H9", True, False),  # every pair is in a tractor
    ("H3 H3 H4 H4 H7 H9", "H3 H3 H9", True, True),
    ("H3 H3 H4 H4 H8 H8 H9", "H3 H4 H9", False, False),  # ♥88 is a free pair
    ("H3 H3 H4 H4 H8 H8 H9", "H3 H3 H9", True, True),  # a pair is required: any pair
    ("H3 H3 H3 H4 H4 H7", "H4 H4 H7", False, False),  # a triple exists: 4.5 first clause
]


@pytest.mark.parametrize(("hand", "play", "spares", "strict"), TRIPLE_EXEMPTION)
def test_triple_lead_exemption_both_ways(hand: str, play: str, spares: bool, strict: bool) -> None:
    """4.5 若不存在三张…出二加一, 并且不用去拆拖拉机 [P triple_lead_spares_tractors=true]."""
    lead, c = P("HA HA HA"), ctx(*L10)
    on = check_follow(lead, P(hand), P(play), c, GUILIN_2009)
    off = check_follow(
        lead, P(hand), P(play), c, get_ruleset(overrides={"triple_lead_spares_tractors": False})
    )
    assert (on.legal, off.legal) == (spares, strict), (on.reason, off.reason)
    assert on.rule == off.rule == "4.5"


def test_triple_lead_exemption_level_card_pair_is_free() -> None:
    """Level cards never join a tractor (3.1), so a trump level pair is a free pair (4.5)."""
    c = ctx("10", "S")
    hand = P("S3 S3 S4 S4 H10 H10 S7 C5")
    assert not check_follow(P("SA SA SA"), hand, P("S3 S4 S7"), c).legal
    assert check_follow(P("SA SA SA"), hand, P("H10 H10 S7"), c).legal


def test_follow_respects_bridge_level_gap() -> None:
    """3.1 [P bridge_level_gap]: at level 4, ♥33 ♥55 is a tractor only when bridged."""
    lead, hand = P("HA HA HK HK"), P("H3 H3 H5 H5 H8 H8 H9")
    plain, bridged = ctx("4", "S"), ctx("4", "S", bridge_level_gap=True)
    assert check_follow(lead, hand, P("H3 H3 H8 H8"), plain).legal  # two pairs, no tractor
    assert not check_follow(lead, hand, P("H3 H3 H8 H8"), bridged).legal  # 3355 and 8899


# ====================================================================== 7 result

# (defenders' final score D, side holding the deal, levels up) — 7.1, 7.2, b=floor((D-160)/40)
RESULTS = [
    (160, "defenders", 0),
    (195, "defenders", 0),
    (200, "defenders", 1),
    (235, "defenders", 1),
    (240, "defenders", 2),
    (400, "defenders", 6),
    (155, "declarers", 1),
    (120, "declarers", 1),
    (119, "declarers", 2),
    (80, "declarers", 2),
    (79, "declarers", 3),
    (40, "declarers", 3),
    (39, "declarers", 4),
    (0, "declarers", 4),
    (-5, "declarers", 5),
    (-40, "declarers", 5),
    (-41, "declarers", 6),
    (-80, "declarers", 6),
    (-81, "declarers", 7),
]


@pytest.mark.parametrize(("final", "deal", "up"), RESULTS)
def test_result_from_defenders_final(final: int, deal: str, up: int) -> None:
    """7.1 160分上台, 每增加40分加一级; 7.2 160以下连庄加一级, 每少40分升一级, 负分类推."""
    r = result_from_final_score(final, "3", "3")
    assert (str(r.deal), r.levels_up) == (deal, up)
    mover = r.declarer_level if deal == "declarers" else r.defender_level
    stayer = r.defender_level if deal == "declarers" else r.declarer_level
    assert int(mover) == 3 + up and stayer == Rank.THREE


DIGS = [
    # (before, L, c, winner, mode, final) — 7.3 按照最后一次出牌的张数的倍数来计分
    (100, 25, 2, "defenders", "multiply", 150),
    (100, 25, 2, "defenders", "bonus", 175),
    (100, 25, 2, "declarers", "multiply", 50),
    (100, 25, 2, "declarers", "bonus", 50),
    (10, 30, 4, "declarers", "multiply", -110),
    (120, 10, 6, "defenders", "multiply", 180),
    (155, 25, 2, "declarers", "multiply", 105),  # 11
]


@pytest.mark.parametrize(("before", "points", "cards", "winner", "mode", "final"), DIGS)
def test_last_trick_dig(
    before: int, points: int, cards: int, winner: str, mode: str, final: int
) -> None:
    r = hand_result(
        defenders_points=before,
        last_trick_points=points,
        last_trick_cards=cards,
        last_trick_winner=winner,
        declarer_level="7",
        defender_level="5",
        ruleset=get_ruleset(overrides={"last_trick": mode}),
    )
    assert r.defenders_final == final


def test_section_11_dig_105_gives_declarers_two() -> None:
    """11: D = 155 − 25 × 2 = 105 → declarers +2."""
    r = hand_result(
        defenders_points=155,
        last_trick_points=25,
        last_trick_cards=2,
        last_trick_winner="declarers",
        declarer_level="7",
        defender_level="5",
    )
    assert (r.defenders_final, r.deal, r.levels_up) == (105, Role.DECLARERS, 2)
    assert (r.declarer_level, r.defender_level) == (Rank.NINE, Rank.FIVE)


# (declarers, defenders, D, must_play_a, declarers after, defenders after, passed_a)
CAP = [
    ("Q", "5", 0, True, "A", "5", False),  # +4 stops at A
    ("A", "5", 155, True, "A", "5", True),  # won at A as declarers: 打过A
    ("A", "5", -100, True, "A", "5", True),
    ("A", "5", 160, True, "A", "5", False),  # lost the deal at A
    ("5", "K", 240, True, "5", "A", False),  # defenders +2 from K: stop at A
    ("5", "A", 300, True, "5", "A", False),  # defenders at A take the deal, no pass
    ("Q", "5", 0, False, "A", "5", True),  # must_play_a=false: Q +4 goes past A
    ("5", "K", 240, False, "5", "A", True),
    ("5", "A", 160, False, "5", "A", False),  # +0 never passes
    ("K", "5", 155, True, "A", "5", False),  # K +1 = A, not past it
]


@pytest.mark.parametrize(("dec", "dfn", "final", "must", "dec_after", "dfn_after", "passed"), CAP)
def test_cap_at_a_and_passing_a(dec, dfn, final, must, dec_after, dfn_after, passed) -> None:
    """7 [P must_play_a=true]: no gain takes a side past A; a side at A must win at A
    as declarers to pass A (1.5 率先打过A)."""
    ruleset = get_ruleset(overrides={"must_play_a": must})
    r = result_from_final_score(final, dec, dfn, ruleset)
    assert (r.declarer_level.label, r.defender_level.label, r.passed_a) == (
        dec_after,
        dfn_after,
        passed,
    )


NEXT = [
    # (dealer, deal, next dealer) — partner when kept; next in play order (N→W→S→E) when taken
    (Seat.N, "declarers", Seat.S),
    (Seat.S, "declarers", Seat.N),
    (Seat.E, "declarers", Seat.W),
    (Seat.W, "declarers", Seat.E),
    (Seat.N, "defenders", Seat.W),
    (Seat.W, "defenders", Seat.S),
    (Seat.S, "defenders", Seat.E),
    (Seat.E, "defenders", Seat.N),
]


@pytest.mark.parametrize(("dealer", "deal", "expected"), NEXT)
def test_next_dealer(dealer: Seat, deal: str, expected: Seat) -> None:
    """7 [P rotation=partner_or_next]; 8.5 双方一起按照逆时针方向轮流坐庄."""
    assert next_dealer(dealer, deal) is expected
    # Taking the deal always hands it to the other side; keeping it never does.
    assert (expected.side is dealer.side) is (deal == "declarers")


def test_play_order_counter_clockwise() -> None:
    """1: play goes counter-clockwise N → W → S → E → N; partners sit opposite (1.2)."""
    assert [s.value for s in PLAY_ORDER] == ["N", "W", "S", "E"]
    assert [s.value for s in Seat.E.play_order_from()] == ["E", "N", "W", "S"]
    assert all(s.next_in_play.next_in_play is s.partner for s in Seat)


# ====================================================================== 1 notation


@pytest.mark.parametrize("bad", ["H1", "X5", "H11", "BJJ", "♥", "10H", "LJ5", "H", "S1O", "♥0"])
def test_bad_token_is_named_with_its_position(bad: str) -> None:
    """1: a clear error for a bad token, naming it (and where it stands in the list)."""
    with pytest.raises(CardNotationError) as err:
        parse_cards(f"S3 H4 {bad} D5")
    message = str(err.value)
    assert repr(bad) in message and "card 3" in message, message


def test_missing_rank_says_so() -> None:
    with pytest.raises(CardNotationError, match="rank is missing"):
        parse_card("♥")


def test_empty_inputs() -> None:
    """An empty token is an error; an empty list is no cards (a void hand), not an error."""
    with pytest.raises(CardNotationError, match="empty"):
        parse_card("")
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()


def test_accepted_spellings() -> None:
    """1: ♠♥♦♣ accepted, T for 10, 大王/小王, case-insensitive, spaces or commas."""
    assert P("♠10, hT h10 大王 小王 bj lj ♦a") == P("S10 H10 H10 BJ LJ BJ LJ DA")


def test_emoji_style_suit_symbols_are_accepted() -> None:
    """1: ♠ ♥ ♦ ♣ accepted — also as typed on phones, with the emoji variation selector."""
    assert P("\u2665\ufe0f10 \u2660\ufe0fA") == P("H10 SA")
    assert TrumpContext.of("10", "\u2665\ufe0f").trump is Suit.H


def test_fifth_copy_in_a_follow_hand_is_named_with_its_position() -> None:
    """1: each card exists 4 times [P decks=4]; a fifth copy is a data-entry error."""
    hand = P("H3 H4 H4 H4 H4 C5 H4")
    with pytest.raises(IllegalInputError) as err:
        check_follow(P("HA"), hand, P("H3"), ctx(*L10))
    message = str(err.value)
    assert "H4" in message and "card 7" in message, message


# ====================================================================== JSON service


def run_service(queries: list[object]) -> list[dict]:
    lines = "".join(
        (q if isinstance(q, str) else json.dumps(q, ensure_ascii=False)) + "\n" for q in queries
    )
    proc = subprocess.run(
        [sys.executable, "-m", "referee_desk.cli.main", "rules"],
        input=lines.encode(),
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode().splitlines()
    assert len(out) == len(queries)
    return [json.loads(line) for line in out]


def test_service_issue_examples_and_keys() -> None:
    """Issue 2: the four ops with the documented keys; a bad line gets an error, the
    stream goes on, exit status 0."""
    base = {"level": "10", "trump": "S"}
    answers = run_service(
        [
            {"op": "unit", "cards": "H5 H5 H6 H6", **base},
            {"op": "unit", "cards": "H5 H6", **base},
            {"op": "unit", "cards": "BJ", **base},
            {
                "op": "follow",
                "lead": "HA HA HK HK",
                "hand": "H3 H3 H4 H4 H6 H6",
                "play": "H3 H3 H6 H6",
                **base,
            },
            {
                "op": "follow",
                "lead": "HA HA HK HK",
                "hand": "H3 H3 H4 H4 H6 H6",
                "play": "H3 H3 H4 H4",
                **base,
            },
            {"op": "winner", "plays": ["HA HA HK HK", "H7 H7 H7 H7", "S3 S3 S4 S4"], **base},
            {"op": "winner", "plays": ["HA HA HK HK"], **base},
            "this is not json",
            {
                "op": "result",
                "defenders_points": 155,
                "last_trick_points": 25,
                "last_trick_cards": 2,
                "last_trick_winner": "declarers",
                "declarer_level": "7",
                "defender_level": "5",
                **base,
            },
            {
                "op": "result",
                "defenders_points": 100,
                "last_trick_points": 25,
                "last_trick_cards": 2,
                "last_trick_winner": "defenders",
                "declarer_level": "A",
                "defender_level": "K",
                "params": {"last_trick": "bonus"},
                **base,
            },
            {
                "op": "unit",
                "cards": "H3 H3 H5 H5",
                "level": "4",
                "trump": "S",
                "params": {"bridge_level_gap": True},
            },
            {"op": "unit", "cards": "H3 H3 H5 H5", "level": "4", "trump": "S"},
            {"op": "unit", "cards": "H3 H3 H5 H5", "params": {"no_such": 1}, **base},
            {
                "op": "follow",
                "lead": "HA HA HA",
                "hand": "H3 H3 H4 H4 H7 H9",
                "play": "H3 H7 H9",
                **base,
            },
            {
                "op": "follow",
                "lead": "HA HA HA",
                "hand": "H3 H3 H4 H4 H7 H9",
                "play": "H3 H7 H9",
                "params": {"triple_lead_spares_tractors": False},
                **base,
            },
        ]
    )
    assert answers[0] == {"unit": "tractor", "length": 2, "each": 2, "suit": "H"}
    assert answers[1] == {"unit": None}
    assert answers[2] == {"unit": "single", "length": 1, "each": 1, "suit": "trump"}
    assert set(answers[3]) == {"legal", "rule", "reason", "instead"}
    assert (answers[3]["legal"], answers[3]["rule"]) == (False, "4.2")
    assert Counter(answers[3]["instead"].split()) == Counter(["H3", "H3", "H4", "H4"])
    assert set(answers[4]) == {"legal", "rule", "reason"} and answers[4]["legal"] is True
    assert answers[5]["winner"] == 1 and answers[6]["winner"] == 0
    assert set(answers[7]) == {"error"}
    required = {
        "defenders_final",
        "deal",
        "levels_up",
        "declarer_level",
        "defender_level",
        "passed_a",
    }
    assert required <= set(answers[8])
    assert {k: answers[8][k] for k in required} == {
        "defenders_final": 105,
        "deal": "declarers",
        "levels_up": 2,
        "declarer_level": "9",
        "defender_level": "5",
        "passed_a": False,
    }
    # bonus: 100 + 25 + 25×2 = 175 → defenders take the deal, +0, stay at K.
    assert {k: answers[9][k] for k in required} == {
        "defenders_final": 175,
        "deal": "defenders",
        "levels_up": 0,
        "declarer_level": "A",
        "defender_level": "K",
        "passed_a": False,
    }
    assert answers[10]["unit"] == "tractor" and answers[11] == {"unit": None}
    assert "no_such" in answers[12]["error"]
    assert answers[13]["legal"] is True and answers[14]["legal"] is False


def test_service_errors_name_the_bad_token() -> None:
    base = {"op": "unit", "level": "5", "trump": "H"}
    answers = run_service(
        [
            {**base, "cards": "H5 H1"},
            {**base, "cards": ""},
            {**base, "cards": "H6 H6 H6 H6 H6"},
            {
                "op": "follow",
                "level": "5",
                "trump": "H",
                "lead": "SA",
                "hand": "S3 S4 S4 S4 S4 S4",
                "play": "S3",
            },
            {**base, "level": "2", "cards": "H5"},
            {**base, "trump": "X", "cards": "H5"},
            {
                "op": "result",
                "defenders_points": 100,
                "last_trick_points": 0,
                "last_trick_cards": 1,
                "last_trick_winner": "defenders",
                "declarer_level": "7",
                "defender_level": "2",
            },
        ]
    )
    assert "'H1'" in answers[0]["error"] and "card 2" in answers[0]["error"]
    assert "no cards" in answers[1]["error"]
    assert "H6" in answers[2]["error"] and "5 times" in answers[2]["error"]
    assert "S4" in answers[3]["error"] and "hand: card 6" in answers[3]["error"]
    assert "level" in answers[4]["error"]
    assert "trump" in answers[5]["error"]
    assert "defender_level" in answers[6]["error"] and "'2'" in answers[6]["error"]


# ====================================================================== independent model

_LEVEL_CHAIN = [Rank(v) for v in range(3, 15)]


class Model:
    """RULES.md 2, 3 and 5 re-stated from the text, sharing nothing with the engine
    but the Card value type."""

    def __init__(self, level: Rank, trump: Suit | None, bridge: bool = False) -> None:
        self.level, self.trump, self.bridge = level, trump, bridge
        self._profiles: dict[tuple[Card, ...], tuple[int, ...]] = {}

    def suit(self, c: Card) -> str:
        trump = c.suit is None or c.rank in (self.level, Rank.TWO) or c.suit == self.trump
        return "trump" if trump else c.suit.value

    def power(self, c: Card) -> tuple[int, int]:
        """BJ > LJ > trump-suit level > other level > trump-suit 2 > other 2 > A…3."""
        on_trump = self.trump is not None and c.suit == self.trump
        if c.rank == Rank.BIG_JOKER:
            return (6, 0)
        if c.rank == Rank.LITTLE_JOKER:
            return (5, 0)
        if c.rank == self.level:
            return (4 if on_trump else 3, 0)
        if c.rank == Rank.TWO:
            return (2 if on_trump else 1, 0)
        return (0, int(c.rank))

    def chain(self, c: Card) -> int | None:
        if c.suit is None:
            return 1000 + int(c.rank)  # LJ, BJ: consecutive with each other only
        if c.rank in (Rank.TWO, self.level):
            return None
        if self.bridge:
            return [r for r in _LEVEL_CHAIN if r != self.level].index(c.rank)
        return int(c.rank)

    def unit(self, cards) -> tuple[str, int, int, str, tuple[int, int]] | None:
        cards = list(cards)
        if not cards or len({self.suit(c) for c in cards}) != 1:
            return None
        counts = Counter(cards)
        if len(set(counts.values())) != 1:
            return None
        each, length = next(iter(counts.values())), len(counts)
        top = max(self.power(c) for c in cards)
        suit = self.suit(cards[0])
        if length == 1:
            kind = {1: "single", 2: "pair", 3: "triple", 4: "bomb"}.get(each)
            return None if kind is None else (kind, 1, each, suit, top)
        idx = [self.chain(c) for c in counts]
        if each < 2 or None in idx:
            return None
        idx.sort()
        if any(b - a != 1 for a, b in pairwise(idx)):
            return None
        return ("tractor" if each == 2 else "bulldozer", length, each, suit, top)

    # -- 5: pair profile by exhaustive splitting ---------------------------------
    def profile(self, cards) -> tuple[int, ...]:
        known = self._profiles.get(tuple(sorted(cards)))
        if known is not None:
            return known
        counts = Counter(cards)
        candidates = []
        for sub in sub_multisets(sorted(counts.items())):
            u = self.unit(sub)
            if u is None or u[0] == "single":
                continue
            kind, length, each = u[0], u[1], u[2]
            value = {"pair": 1, "triple": 1, "bomb": 2}.get(kind, each * length // 2)
            candidates.append((Counter(sub), value))
        best: tuple[int, ...] = ()

        def search(rest: Counter, start: int, acc: tuple[int, ...]) -> None:
            nonlocal best
            best = max(best, tuple(sorted(acc, reverse=True)))
            for j in range(start, len(candidates)):
                need, value = candidates[j]
                if all(rest[c] >= k for c, k in need.items()):
                    search(rest - need, j, (*acc, value))

        search(counts, 0, ())
        self._profiles[tuple(sorted(cards))] = best
        return best

    def key(self, play, lead) -> tuple:
        kind, each = lead[0], lead[2]
        if kind in ("pair", "triple", "bomb"):
            return (min(max(Counter(play).values()), each), self.profile(play))
        if kind == "bulldozer":
            u = self.unit(play)
            return (int(u is not None and u[:3] == lead[:3]), self.profile(play))
        return (0, self.profile(play))

    def legal(self, lead_cards, hand, play, spares: bool = True) -> bool:
        lead = self.unit(lead_cards)
        n = len(lead_cards)
        held = [c for c in hand if self.suit(c) == lead[3]]
        if len(held) <= n:
            return not (Counter(held) - Counter(play))
        if any(self.suit(c) != lead[3] for c in play):
            return False
        if lead[0] == "single":
            return True
        counts = Counter(held)
        if lead[0] == "triple" and spares and max(counts.values()) < 3:
            in_chain = {
                c
                for sub in sub_multisets(sorted(counts.items()))
                if (u := self.unit(sub)) is not None and u[1] > 1
                for c in sub
            }
            if not any(k >= 2 and c not in in_chain for c, k in counts.items()):
                return True
        best = max(self.key(s, lead) for s in sub_multisets(sorted(counts.items()), n))
        return self.key(play, lead) == best

    # -- 6: trick winner ----------------------------------------------------------
    def winner(self, plays) -> int:
        lead = self.unit(plays[0])

        def matches(u) -> bool:
            if u[:3] == lead[:3]:
                return True
            if lead[0] != "tractor" or u[1] * u[2] != lead[1] * lead[2]:
                return False
            return u[0] == "bulldozer" or (u[0] == "bomb" and lead[1] == 2)

        def strength(u) -> int:
            return int(lead[0] == "tractor" and u[0] in ("bomb", "bulldozer"))

        best, w = 0, lead
        for i, play in enumerate(plays[1:], start=1):
            u = self.unit(play)
            if u is None or u[3] not in (lead[3], "trump") or not matches(u):
                continue
            if u[3] == w[3]:
                if (strength(u), u[4]) > (strength(w), w[4]):
                    best, w = i, u
            elif u[3] == "trump" and strength(u) >= strength(w):
                best, w = i, u
        return best


SETTINGS = [
    (Rank.TEN, Suit.S, False),
    (Rank.FIVE, Suit.H, False),
    (Rank.SIX, None, False),
    (Rank.FOUR, Suit.C, True),
    (Rank.ACE, Suit.H, False),
]
#: ♥ cards around the level gaps and 2s, trumps of every kind, and a few others.
POOL = P("H2 H3 H4 H5 H6 H7 HK HA S5 S6 BJ LJ D5 C9")
LEAD_SHAPES = [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (2, 4), (3, 2), (4, 2)]


@st.composite
def follow_situations(draw):
    level, trump, bridge = draw(st.sampled_from(SETTINGS))
    model = Model(level, trump, bridge)
    c = TrumpContext(level, trump, bridge)
    each, length = draw(st.sampled_from(LEAD_SHAPES))
    lead_suit = draw(st.sampled_from([Suit.H, Suit.H, Suit.H, Suit.S, Suit.D]))
    chain = [r for r in (Rank.QUEEN, Rank.KING, Rank.ACE, Rank.JACK, Rank.NINE) if r != level]
    lead = tuple(Card(r, lead_suit) for r in sorted(chain[:length]) for _ in range(each))
    if model.unit(lead) is None:
        lead = tuple(Card(Rank.QUEEN, lead_suit) for _ in range(each))
    most = draw(st.sampled_from([2, 4]))  # hands of pairs only reach the 4.5 exemption
    counts = draw(st.lists(st.integers(0, most), min_size=len(POOL), max_size=len(POOL)))
    hand = [card for card, k in zip(POOL, counts, strict=True) for _ in range(k)][:12]
    hand += P("D3 D4 C3 C4 C6 D8 D8 C7")[: max(0, len(lead) - len(hand) + 1)]
    play = tuple(draw(st.permutations(hand))[: len(lead)])
    return model, c, lead, tuple(hand), play


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(follow_situations(), st.booleans())
def test_follow_agrees_with_the_independent_model(situation, spares: bool) -> None:
    """Every distinct play of the lead's size from the hand: same verdict as the model."""
    model, c, lead, hand, _play = situation
    if model.unit(lead) is None or classify(lead, c) is None:
        assert (model.unit(lead) is None) == (classify(lead, c) is None)
        return
    ruleset = get_ruleset(overrides={"triple_lead_spares_tractors": spares})
    plays = list(sub_multisets(sorted(Counter(hand).items()), len(lead)))[:150]
    for play in plays:
        verdict = check_follow(lead, hand, play, c, ruleset)
        assert verdict.legal is model.legal(lead, hand, play, spares), (
            format_cards(lead),
            format_cards(hand),
            format_cards(play),
            verdict.reason,
        )
        if not verdict.legal:
            assert model.legal(lead, hand, verdict.instead, spares)


UNIT_POOL = P("H2 H3 H4 H5 H6 H7 H9 H10 HJ HQ HK HA S2 S5 S10 SA D10 BJ LJ")


@st.composite
def tricks(draw):
    level, trump, bridge = draw(st.sampled_from(SETTINGS[:3] + SETTINGS[4:]))
    model = Model(level, trump, bridge)

    def a_unit(each: int, length: int) -> tuple[Card, ...]:
        suit = draw(st.sampled_from([Suit.H, Suit.S, Suit.D]))
        start = draw(st.integers(2, 14 - length + 1))
        return tuple(Card(Rank(start + i), suit) for i in range(length) for _ in range(each))

    each, length = draw(st.sampled_from(LEAD_SHAPES))
    lead = a_unit(each, length)
    n = len(lead)
    plays = [lead]
    for _ in range(draw(st.integers(1, 3))):
        shapes = [(e, k) for e, k in LEAD_SHAPES if e * k == n] + [(1, n)]
        e, k = draw(st.sampled_from(shapes))
        if e == 1 and k > 1:
            plays.append(tuple(draw(st.lists(st.sampled_from(UNIT_POOL), min_size=n, max_size=n))))
        elif e == 1 and draw(st.booleans()):
            plays.append((draw(st.sampled_from(UNIT_POOL + P("BJ LJ S10 H10 D2"))),))
        else:
            plays.append(a_unit(e, k))
    return model, TrumpContext(level, trump, bridge), plays


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tricks())
def test_trick_winner_agrees_with_the_independent_model(trick) -> None:
    model, c, plays = trick
    if model.unit(plays[0]) is None:
        assert classify(plays[0], c) is None
        with pytest.raises(RulesError):
            trick_winner(plays, c)
        return
    assert trick_winner(plays, c) == model.winner(plays), [format_cards(p) for p in plays]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SETTINGS), st.lists(st.integers(0, 4), min_size=14, max_size=14))
def test_units_agree_with_the_independent_model(setting, counts) -> None:
    level, trump, bridge = setting
    model, c = Model(level, trump, bridge), TrumpContext(level, trump, bridge)
    cards = [card for card, k in zip(POOL, counts, strict=True) for _ in range(k)]
    for sub in list(sub_multisets(sorted(Counter(cards[:9]).items())))[:200]:
        u, m = classify(sub, c), model.unit(sub)
        assert (None if u is None else (str(u.kind), u.length, u.each, u.suit)) == (
            None if m is None else m[:4]
        ), format_cards(sub)
