"""Following a lead: RULES.md section 5, Guilin chapter 4 (4.1–4.7).

Table-driven cases quote the article; hypothesis checks the strand DP against a
brute-force oracle that tries every split and every n-card subset (tests only).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from multisets import sub_multisets

from referee_desk.rules.cards import Card, parse_cards
from referee_desk.rules.errors import IllegalInputError, RulesError
from referee_desk.rules.follow import (
    FollowMode,
    best_follow,
    check_follow,
    follow_requirement,
    is_legal_follow,
    legal_follows,
)
from referee_desk.rules.profile import pair_profile
from referee_desk.rules.ruleset import GUILIN_2009
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import UnitKind, classify

L10S = TrumpContext.of("10", "S")  # level 10: ♥ 3 … 9 J Q K A chain without a gap


def verdict(lead: str, hand: str, play: str, ctx: TrumpContext = L10S, **params: bool):
    ruleset = GUILIN_2009.with_overrides(params) if params else GUILIN_2009
    return check_follow(parse_cards(lead), parse_cards(hand), parse_cards(play), ctx, ruleset)


# Each case: (article and quote, lead, hand, play, legal)
CASES = [
    # 4.1 单张 / 对子
    ("4.1: any card of the suit follows a single", "HA", "H3 H4 C5", "H4", True),
    ("4.1: 需要跟同花任意一张牌", "HA", "H3 H4 C5", "C5", False),
    ("4.1: 连同花牌都没有, 就可以任意出牌", "HA", "S3 C4 C5", "C5", True),
    ("4.1: 有对子存在, 此刻必须跟对", "HA HA", "H3 H3 H4 H5 C5", "H3 H3", True),
    ("4.1: must follow the pair, not two singles", "HA HA", "H3 H3 H4 H5 C5", "H4 H5", False),
    ("4.1: no pair: any two of the suit", "HA HA", "H3 H4 H5 C5", "H3 H5", True),
    ("4.1: a pair taken from a triple", "HA HA", "H3 H3 H3 H4", "H3 H3", True),
    ("4.1: a pair taken from a bomb", "HA HA", "H4 H3 H3 H3 H3", "H3 H4", False),
    ("4.1: a pair taken from a tractor is a pair", "HA HA", "H3 H3 H4 H4", "H3 H3", True),
    ("4.1: one card of the suit: play it plus any", "HA HA", "H3 C4 C5", "H3 C5", True),
    ("4.1: one card of the suit: keeping it back", "HA HA", "H3 C4 C5", "C4 C5", False),
    ("4.1: trump pair lead, trump pair held", "SA SA", "LJ LJ S3 H4", "LJ LJ", True),
    ("4.1: off-suit level cards are no pair", "SA SA", "H10 D10 S3 S3", "H10 D10", False),
    ("4.1: off-suit level cards with a real pair", "SA SA", "H10 D10 S3 S3", "S3 S3", True),
    # 4.2 two-pair tractor lead (连牌)
    ("4.2: 有连牌 必须去跟", "HA HA HK HK", "H3 H3 H4 H4 H6 H6 C3", "H3 H3 H4 H4", True),
    (
        "4.2: tractor held, two pairs refused",
        "HA HA HK HK",
        "H3 H3 H4 H4 H6 H6",
        "H3 H3 H6 H6",
        False,
    ),
    (
        "4.2: 又或者是炸弹 — a bomb follows",
        "HA HA HK HK",
        "H6 H6 H6 H6 H3 H3 H4 H4",
        "H6 H6 H6 H6",
        True,
    ),
    (
        "4.2: a tractor also follows beside a bomb",
        "HA HA HK HK",
        "H6 H6 H6 H6 H3 H3 H4 H4",
        "H3 H3 H4 H4",
        True,
    ),
    ("4.2: 必须出够相应的对数", "HA HA HK HK", "H3 H3 H5 H5 H7 H8", "H3 H3 H5 H5", True),
    ("4.2: pairs before singles", "HA HA HK HK", "H3 H3 H5 H5 H7 H8", "H3 H3 H7 H8", False),
    ("4.2: no pair: any cards of the suit", "HA HA HK HK", "H3 H5 H7 H8 H9", "H3 H5 H7 H9", True),
    ("4.2: triple gives a pair", "HA HA HK HK", "H3 H3 H3 H5 H7", "H3 H3 H5 H7", True),
    (
        "4.2: bomb held, triple + 1 is no pair profile",
        "HA HA HK HK",
        "H3 H3 H3 H3 H5",
        "H3 H3 H3 H5",
        False,
    ),
    ("4.2: short: all of the suit + others", "HA HA HK HK", "H3 H3 H5 C3 C4", "H3 H3 H5 C3", True),
    (
        "4.2: short: all of the suit is required",
        "HA HA HK HK",
        "H3 H3 H5 C3 C4",
        "H3 H3 C3 C4",
        False,
    ),
    (
        "4.2: trump tractor lead; LJLJ+trump level pair is no tractor",
        "SA SA SK SK",
        "LJ LJ S10 S10 S3 S3 S5 S5",
        "LJ LJ S10 S10",
        True,
    ),
    (
        "4.2: trump tractor lead; joker tractor required",
        "SA SA SK SK",
        "BJ BJ LJ LJ S3 S3 S5 S5",
        "S3 S3 S5 S5",
        False,
    ),
    # 4.3 longer tractors (8-card cascade)
    (
        "4.3: 有四连对的要先跟四连对",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H5 H5 H6 H6 H8 H8",
        "H3 H3 H4 H4 H5 H5 H6 H6",
        True,
    ),
    (
        "4.3: four-pair tractor held, three-pair + pair refused",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H5 H5 H6 H6 H8 H8",
        "H3 H3 H4 H4 H5 H5 H8 H8",
        False,
    ),
    (
        "4.3: 没有四连对的应当垫三连对加一对",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H5 H5 H8 H8 H9",
        "H3 H3 H4 H4 H5 H5 H8 H8",
        True,
    ),
    (
        "4.3: three-pair + pair held, 2+2 refused",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H5 H5 H8 H8 H9 H9",
        "H3 H3 H4 H4 H8 H8 H9 H9",
        False,
    ),
    (
        "4.3: 或者特拖加一对 (bulldozer + pair)",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H3 H4 H4 H4 H8 H8 H9",
        "H3 H3 H3 H4 H4 H4 H8 H8",
        True,
    ),
    (
        "4.3: 没有三连对或者特拖 — 两个两连对",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H7 H7 H8 H8 HK",
        "H3 H3 H4 H4 H7 H7 H8 H8",
        True,
    ),
    (
        "4.3: 一个两连对加一个炸弹",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H7 H7 H7 H7 HK",
        "H3 H3 H4 H4 H7 H7 H7 H7",
        True,
    ),
    (
        "4.3: tractor + bomb held, tractor + pairs refused",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H7 H7 H7 H7 HK HK",
        "H3 H3 H4 H4 H7 H7 HK HK",
        False,
    ),
    (
        "4.3: two-pair tractor + two pairs",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H4 H4 H7 H7 H9 H9 HK",
        "H3 H3 H4 H4 H7 H7 H9 H9",
        True,
    ),
    (
        "4.3: 没有连对的需要出四对牌",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H5 H5 H7 H7 H9 H9 HK",
        "H3 H3 H5 H5 H7 H7 H9 H9",
        True,
    ),
    (
        "4.3: four pairs held, three pairs + 2 refused",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H5 H5 H7 H7 H9 H9 HK",
        "H3 H3 H5 H5 H7 H7 H9 HK",
        False,
    ),
    (
        "4.3: three pairs + two singles",
        "HA HA HK HK HQ HQ HJ HJ",
        "H3 H3 H5 H5 H7 H7 H9 HJ HK",
        "H3 H3 H5 H5 H7 H7 H9 HK",
        True,
    ),
    (
        "4.3: 那就从最长的拖拉机跟起 (3-pair lead, 2-pair tractor + pair)",
        "HA HA HK HK HQ HQ",
        "H3 H3 H4 H4 H7 H7 H9",
        "H3 H3 H4 H4 H7 H7",
        True,
    ),
    (
        "4.3: longest tractor first, not three pairs",
        "HA HA HK HK HQ HQ",
        "H3 H3 H4 H4 H7 H7 H9 H9",
        "H3 H3 H7 H7 H9 H9",
        False,
    ),
    # 4.4 bomb lead: 四张; 三加一张; 二对拖拉机; 二对任意牌 …
    ("4.4: 四张 first", "HA HA HA HA", "H3 H3 H3 H3 H5 H5 H6 H6", "H3 H3 H3 H3", True),
    (
        "4.4: bomb held, tractor refused",
        "HA HA HA HA",
        "H3 H3 H3 H3 H5 H5 H6 H6",
        "H5 H5 H6 H6",
        False,
    ),
    ("4.4: 三加一张", "HA HA HA HA", "H3 H3 H3 H5 H5 H6 H6 H8", "H3 H3 H3 H8", True),
    ("4.4: triple + 1 from the suit", "HA HA HA HA", "H3 H3 H3 H5 H5 H6 H6", "H3 H3 H3 H5", True),
    (
        "4.4: triple held, two-pair tractor refused",
        "HA HA HA HA",
        "H3 H3 H3 H5 H5 H6 H6",
        "H5 H5 H6 H6",
        False,
    ),
    ("4.4: 二对拖拉机", "HA HA HA HA", "H3 H3 H5 H5 H6 H6 H8", "H5 H5 H6 H6", True),
    (
        "4.4: tractor held, two pairs refused",
        "HA HA HA HA",
        "H3 H3 H5 H5 H6 H6 H8",
        "H3 H3 H5 H5",
        False,
    ),
    ("4.4: 二对任意牌", "HA HA HA HA", "H3 H3 H5 H5 H7 H8", "H3 H3 H5 H5", True),
    (
        "4.4: two pairs held, pair + 2 refused",
        "HA HA HA HA",
        "H3 H3 H5 H5 H7 H8",
        "H3 H3 H7 H8",
        False,
    ),
    ("4.4: pair + 2", "HA HA HA HA", "H3 H3 H5 H7 H8", "H3 H3 H5 H8", True),
    ("4.4: four singles", "HA HA HA HA", "H3 H4 H5 H7 H8", "H3 H5 H7 H8", True),
    # 4.5 triple lead: 存在三张的话必须领出来; 不存在就出二加一, 并且不用去拆拖拉机
    ("4.5: 存在三张的话那是必须要领出来的", "HA HA HA", "H3 H3 H3 H5 H5 H7", "H3 H3 H3", True),
    ("4.5: triple held, pair + 1 refused", "HA HA HA", "H3 H3 H3 H5 H5 H7", "H5 H5 H7", False),
    ("4.5: a bomb counts as holding a triple", "HA HA HA", "H3 H3 H3 H3 H5 H5", "H3 H3 H3", True),
    ("4.5: 不存在三张的情形, 那就去出二加一", "HA HA HA", "H3 H3 H5 H7 H8", "H3 H3 H8", True),
    ("4.5: a free pair held, singles refused", "HA HA HA", "H3 H3 H5 H7 H8", "H5 H7 H8", False),
    (
        "4.5: 不用去拆拖拉机 — singles beside a tractor",
        "HA HA HA",
        "H3 H3 H4 H4 H7 H8",
        "H3 H7 H8",
        True,
    ),
    (
        "4.5: the tractor's pair may still be played",
        "HA HA HA",
        "H3 H3 H4 H4 H7 H8",
        "H3 H3 H7",
        True,
    ),
    (
        "4.5: tractor + free pair: the pair is required",
        "HA HA HA",
        "H3 H3 H4 H4 H8 H8 HJ",
        "H3 HJ H8",
        False,
    ),
    # 4.6 bulldozer lead 888999: 推土机, 三连对, 二连对(或炸弹)加一对, 三对, 任意
    (
        "4.6: 推土机 first",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H3 H4 H4 H4 HJ HJ HQ HQ HK HK",
        "H3 H3 H3 H4 H4 H4",
        True,
    ),
    (
        "4.6: bulldozer held, three-pair tractor refused",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H3 H4 H4 H4 HJ HJ HQ HQ HK HK",
        "HJ HJ HQ HQ HK HK",
        False,
    ),
    (
        "4.6: 然后是三连对",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H4 H4 H5 H5 H7 H7 H7 H7 HA",
        "H3 H3 H4 H4 H5 H5",
        True,
    ),
    (
        "4.6: three-pair tractor held, bomb + pair refused",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H4 H4 H5 H5 H7 H7 H7 H7 HA",
        "H7 H7 H7 H7 H3 H3",
        False,
    ),
    (
        "4.6: 二连对 加上一对",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H4 H4 HJ HJ HA HA HK",
        "H3 H3 H4 H4 HJ HJ",
        True,
    ),
    (
        "4.6: 或者是炸弹 加上一对",
        "H8 H8 H8 H9 H9 H9",
        "H7 H7 H7 H7 HJ HJ HA HK",
        "H7 H7 H7 H7 HJ HJ",
        True,
    ),
    ("4.6: 接着是三对", "H8 H8 H8 H9 H9 H9", "H3 H3 H5 H5 HJ HJ HA HK", "H3 H3 H5 H5 HJ HJ", True),
    (
        "4.6: three pairs held, pairs + singles refused",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H5 H5 HJ HJ HA HK",
        "H3 H3 H5 H5 HA HK",
        False,
    ),
    (
        "4.6: 再加上任意一张牌",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H5 H5 H6 HJ HA HK",
        "H3 H3 H5 H5 H6 HK",
        True,
    ),
    (
        "4.6: a triple is no bulldozer",
        "H8 H8 H8 H9 H9 H9",
        "H3 H3 H3 H5 H5 H5 HJ",
        "H3 H3 H3 H5 H5 H5",
        True,
    ),
]


@pytest.mark.parametrize(("article", "lead", "hand", "play", "legal"), CASES)
def test_follow_cases(article: str, lead: str, hand: str, play: str, legal: bool) -> None:
    result = verdict(lead, hand, play)
    assert result.legal is legal, f"{article}: {result.reason}"
    if legal:
        assert result.instead is None
    else:
        assert result.instead is not None
        again = verdict(lead, hand, " ".join(str(c) for c in result.instead))
        assert again.legal, f"{article}: instead {result.instead} judged {again.reason}"
        assert result.rule.startswith("4."), result.rule


@pytest.mark.parametrize(
    ("lead", "rule"),
    [
        ("HA", "4.1"),
        ("HA HA", "4.1"),
        ("HA HA HK HK", "4.2"),
        ("HA HA HK HK HQ HQ", "4.3"),
        ("HA HA HA HA", "4.4"),
        ("HA HA HA", "4.5"),
        ("HA HA HA HK HK HK", "4.6"),
    ],
)
def test_rule_article_by_lead(lead: str, rule: str) -> None:
    n = len(parse_cards(lead))
    hand = "H3 H5 H7 H9 HJ HQ C3 C4 C5"
    play = " ".join(hand.split()[:n])
    assert verdict(lead, hand, play).rule == rule


def test_triple_lead_exemption_parameter() -> None:
    """4.5 [P triple_lead_spares_tractors]: off, a pair from the tractor is required."""
    lead, hand, singles = "HA HA HA", "H3 H3 H4 H4 H7 H8", "H3 H7 H8"
    assert verdict(lead, hand, singles).legal
    off = verdict(lead, hand, singles, triple_lead_spares_tractors=False)
    assert not off.legal
    assert off.rule == "4.5"
    assert verdict(lead, hand, "H4 H4 H8", triple_lead_spares_tractors=False).legal


def test_bridged_level_gap_changes_what_is_a_tractor() -> None:
    """3.1 [P bridge_level_gap]: at level 4, ♥3355 is a tractor only when bridged."""
    lead, hand, pairs = "HA HA HK HK", "H3 H3 H5 H5 H7 H7", "H5 H5 H7 H7"
    plain = TrumpContext.of("4", "S")
    bridged = TrumpContext.of("4", "S", bridge_level_gap=True)
    assert verdict(lead, hand, pairs, plain).legal  # two pairs are all that is held
    assert not verdict(lead, hand, pairs, bridged).legal  # H3H3H5H5 is now a tractor
    assert verdict(lead, hand, "H3 H3 H5 H5", bridged).legal


def test_reason_names_required_shape_and_cards() -> None:
    result = verdict(
        "HA HA HK HK HQ HQ HJ HJ", "H3 H3 H4 H4 H5 H5 H8 H8 H9 C3", "H3 H3 H4 H4 H8 H8 H9 C3"
    )
    assert not result.legal
    assert "three-pair tractor" in result.reason and "a pair" in result.reason
    assert "C3" in result.reason  # off-suit card named
    short = verdict("HA HA", "H3 C4 C5", "C4 C5")
    assert "H3" in short.reason and "kept back" in short.reason


def test_requirement_describe() -> None:
    req = follow_requirement(
        parse_cards("HA HA HK HK HQ HQ HJ HJ"), parse_cards("H3 H3 H4 H4 H5 H5 H8 H8 H9 C3"), L10S
    )
    assert req.mode is FollowMode.SHAPE
    assert req.key == (0, (3, 1))
    assert "three-pair tractor" in req.describe()
    void = follow_requirement(parse_cards("HA"), parse_cards("C3 C4"), L10S)
    assert void.mode is FollowMode.ALL_OF_SUIT and "void" in void.describe()


@pytest.mark.parametrize(
    ("lead", "hand", "play", "message"),
    [
        ("H3 H5", "H4 H6", "H4 H6", "not one unit"),  # 4.7 不允许甩牌
        ("HA HA HK HK HQ", "H3 H4 H5 H6 H7", "H3 H4 H5 H6 H7", "not one unit"),
        ("HA HA", "H3 H4 H5", "H3", "has 1 cards"),
        ("HA HA", "H3 H4 H5", "H3 H3", "does not hold H3"),
        ("HA HA", "H3 H4 H5", "H3 H9", "does not hold H9"),
        ("HA", "H3 H3 H3 H3 H3", "H3", "5 times"),
    ],
)
def test_bad_input_is_refused(lead: str, hand: str, play: str, message: str) -> None:
    with pytest.raises(IllegalInputError, match=message):
        verdict(lead, hand, play)
    assert issubclass(IllegalInputError, RulesError)


def test_legal_follows_and_is_legal() -> None:
    lead, hand = parse_cards("HA HA"), parse_cards("H3 H3 H4 H4 H5 C3")
    plays = list(legal_follows(lead, hand, L10S))
    assert sorted(plays) == sorted([parse_cards("H3 H3"), parse_cards("H4 H4")])
    assert all(is_legal_follow(lead, hand, p, L10S) for p in plays)
    assert not is_legal_follow(lead, hand, parse_cards("H3 H4"), L10S)
    assert best_follow(lead, hand, L10S) in plays
    short = list(legal_follows(parse_cards("HA HA"), parse_cards("H3 C4 C5 C5"), L10S))
    assert sorted(short) == sorted([parse_cards("H3 C4"), parse_cards("H3 C5")])


def test_legal_follows_is_lazy() -> None:
    """A 54-card hand has a huge number of single-lead follows; the iterator is lazy."""
    hand = parse_cards(" ".join(f"H{r}" for r in "3456789JQKA" for _ in range(4)) + " C3 C4 C5")
    first = next(legal_follows(parse_cards("HA HA HA HK HK HK"), hand, L10S))
    assert len(first) == 6 and classify(first, L10S) is not None


# ------------------------------------------------------------ brute-force oracle

_VALUE = {UnitKind.PAIR: 1, UnitKind.TRIPLE: 1, UnitKind.BOMB: 2}


def brute_profile(cards: tuple[Card, ...], ctx: TrumpContext) -> tuple[int, ...]:
    """RULES.md 5: the greatest descending list over every split into units."""
    counts = sorted(Counter(cards).items())
    units = []
    for sub in sub_multisets(counts):
        u = classify(sub, ctx)
        if u is None or u.kind is UnitKind.SINGLE:
            continue
        value = _VALUE.get(u.kind, u.each * u.length // 2)
        units.append((Counter(sub), value))
    best: tuple[int, ...] = ()

    def search(remaining: Counter, start: int, acc: list[int]) -> None:
        nonlocal best
        best = max(best, tuple(sorted(acc, reverse=True)))
        for j in range(start, len(units)):
            need, value = units[j]
            if all(remaining[c] >= k for c, k in need.items()):
                search(remaining - need, j, [*acc, value])

    search(Counter(cards), 0, [])
    return best


def brute_key(play: tuple[Card, ...], lead, ctx: TrumpContext):
    profile = brute_profile(play, ctx)
    if lead.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB):
        return (min(max(Counter(play).values()), lead.each), profile)
    if lead.kind is UnitKind.BULLDOZER:
        u = classify(play, ctx)
        same = u is not None and (u.kind, u.each, u.length) == (lead.kind, lead.each, lead.length)
        return (int(same), profile)
    return (0, profile)


def brute_free_pair(held: tuple[Card, ...], ctx: TrumpContext) -> bool:
    counts = Counter(held)
    in_chain = set()
    for sub in sub_multisets(sorted(counts.items())):
        u = classify(sub, ctx)
        if u is not None and u.length > 1:
            in_chain.update(sub)
    return any(n >= 2 and c not in in_chain for c, n in counts.items())


def brute_legal(lead, held: tuple[Card, ...], play: tuple[Card, ...], ctx, spares=True) -> bool:
    n = lead.size
    if len(held) <= n:
        return not (Counter(held) - Counter(play))
    if any(ctx.effective_suit(c) != lead.suit for c in play):
        return False
    if lead.kind is UnitKind.SINGLE:
        return True
    if (
        lead.kind is UnitKind.TRIPLE
        and spares
        and max(Counter(held).values()) < 3
        and not brute_free_pair(held, ctx)
    ):
        return True
    keys = [brute_key(s, lead, ctx) for s in sub_multisets(sorted(Counter(held).items()), n)]
    return brute_key(play, lead, ctx) == max(keys)


CONTEXTS = [
    TrumpContext.of("10", "S"),
    TrumpContext.of("5", "H"),  # ♥ is trump: leads in ♥ are trump leads
    TrumpContext.of("6", "NT"),
    TrumpContext.of("6", "C", bridge_level_gap=True),
]
POOL = parse_cards("H3 H4 H5 H6 H7 H8 H2 S5 BJ LJ C9")
LEADS = [
    "HA",
    "HA HA",
    "HA HA HA",
    "HA HA HA HA",
    "HA HA HK HK",
    "HA HA HK HK HQ HQ",
    "HA HA HK HK HQ HQ HJ HJ",
    "HA HA HA HK HK HK",
    "HA HA HA HA HK HK HK HK",
]


@st.composite
def situations(draw, max_cards: int = 11):
    ctx = draw(st.sampled_from(CONTEXTS))
    lead = classify(parse_cards(draw(st.sampled_from(LEADS))), ctx)
    assert lead is not None
    counts = draw(st.lists(st.integers(0, 4), min_size=len(POOL), max_size=len(POOL)))
    hand = [c for c, k in zip(POOL, counts, strict=True) for _ in range(k)][:max_cards]
    filler = parse_cards("D3 D4 D6 D7 D8 D10 D10 D4 D3 D8")
    hand = tuple(hand) + filler[: max(0, lead.size - len(hand) + 1)]
    play = tuple(draw(st.permutations(hand))[: lead.size])
    return ctx, lead, hand, play


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_verdict_matches_brute_force(situation) -> None:
    """5: legal iff the play's key is the greatest key of any n cards of H (oracle)."""
    ctx, lead, hand, play = situation
    result = check_follow(lead.cards, hand, play, ctx)
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    assert result.legal is brute_legal(lead, held, play, ctx), result.reason


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_max_key_matches_brute_force(situation) -> None:
    """The DP's greatest key over n-subsets of H equals the brute-force maximum."""
    ctx, lead, hand, _play = situation
    req = follow_requirement(lead.cards, hand, ctx)
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    if req.mode is not FollowMode.SHAPE:
        return
    subsets = sub_multisets(sorted(Counter(held).items()), lead.size)
    assert req.key == max(brute_key(s, lead, ctx) for s in subsets)
    assert brute_key(req.example, lead, ctx) == req.key


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CONTEXTS), st.lists(st.integers(0, 4), min_size=11, max_size=11))
def test_pair_profile_matches_brute_force(ctx: TrumpContext, counts: list[int]) -> None:
    """5: P(F) is the greatest list over all splits (lexicographic, extension greater)."""
    cards = tuple(c for c, k in zip(POOL, counts, strict=True) for _ in range(k))[:10]
    assert pair_profile(cards, ctx) == brute_profile(cards, ctx)


@settings(max_examples=200, deadline=None)
@given(situations(max_cards=16))
def test_instead_is_legal(situation) -> None:
    """An ``instead`` play is always judged legal, and is held by the follower."""
    ctx, lead, hand, play = situation
    result = check_follow(lead.cards, hand, play, ctx)
    if result.legal:
        return
    assert result.instead is not None
    assert not Counter(result.instead) - Counter(hand)
    assert check_follow(lead.cards, hand, result.instead, ctx).legal


@settings(max_examples=200, deadline=None)
@given(situations(), st.data())
def test_short_suit_playing_all_of_it_is_legal(situation, data) -> None:
    """5.1: |H| ≤ n — all of H plus any other cards is legal."""
    ctx, lead, hand, _ = situation
    held = [c for c in hand if ctx.effective_suit(c) == lead.suit]
    if len(held) > lead.size:
        held = held[: lead.size - 1] if lead.size > 1 else []
        hand = tuple(held) + tuple(c for c in hand if ctx.effective_suit(c) != lead.suit)
    others = list((Counter(hand) - Counter(held)).elements())
    if len(held) + len(others) < lead.size:
        return
    extra = data.draw(st.permutations(others))[: lead.size - len(held)]
    assert check_follow(lead.cards, hand, (*held, *extra), ctx).legal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(max_cards=8))
def test_legal_follows_are_exactly_the_brute_force_legal_plays(situation) -> None:
    """legal_follows yields each legal play once, and every legal play (small hands)."""
    ctx, lead, hand, _ = situation
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    produced = [tuple(sorted(p)) for p in legal_follows(lead.cards, hand, ctx)]
    assert len(produced) == len(set(produced))
    everything = sub_multisets(sorted(Counter(hand).items()), lead.size)
    expected = {tuple(sorted(p)) for p in everything if brute_legal(lead, held, p, ctx)}
    assert set(produced) == expected


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(max_cards=13))
def test_verdict_matches_brute_force_long(situation) -> None:
    ctx, lead, hand, play = situation
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    assert check_follow(lead.cards, hand, play, ctx).legal is brute_legal(lead, held, play, ctx)
    legal = set(legal_follows(lead.cards, hand, ctx))
    for candidate in list(legal)[:20]:
        assert brute_legal(lead, held, candidate, ctx)
