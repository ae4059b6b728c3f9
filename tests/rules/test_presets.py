"""The presets `qq-four-deck` (seed 001) and `three-deck` (seed 002): RULES.md section 12.

Every expected answer is derived from the quoted article of RULES.md 12 or of the
seed text (`001` = /work/shared/seeds/001_*, `002` = /work/shared/seeds/002_*), not
from the engine's output.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from referee_desk.rules.cards import Rank, parse_cards
from referee_desk.rules.errors import CardNotationError, IllegalInputError, RulesError
from referee_desk.rules.follow import best_follow, check_follow
from referee_desk.rules.levels import first_level, gain_levels, ladder_of
from referee_desk.rules.profile import pair_profile
from referee_desk.rules.result import (
    HandResultError,
    hand_result,
    kitty_multiplier_of,
    result_from_final_score,
)
from referee_desk.rules.ruleset import (
    GUILIN_2009,
    QQ_FOUR_DECK,
    THREE_DECK,
    Ruleset,
    get_ruleset,
)
from referee_desk.rules.throws import as_throw, check_throw, kitty_components, shape_of
from referee_desk.rules.trick import trick_result, trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

P = parse_cards
QQ, TD = QQ_FOUR_DECK, THREE_DECK


def ctx(level: str, trump: str, ruleset: Ruleset) -> TrumpContext:
    return TrumpContext.for_ruleset(level, trump, ruleset)


def kind(cards: str, level: str, trump: str, ruleset: Ruleset) -> str | None:
    unit = classify(P(cards), ctx(level, trump, ruleset))
    return None if unit is None else f"{unit.kind}{unit.length}"


# ------------------------------------------------------------------ 12.1 cards, trumps


def test_parameters_per_preset_as_rules_12_lists_them() -> None:
    """12.1 [P decks = 4 / 4 / 3]; [P kitty = 0 / 8 / 6]; hand size (54·decks − kitty)/4
    = 54 / 52 / 39 (both seeds print "25", their two-deck origin)."""
    assert [r.decks for r in (GUILIN_2009, QQ, TD)] == [4, 4, 3]
    assert [r.kitty for r in (GUILIN_2009, QQ, TD)] == [0, 8, 6]
    assert [r.hand_size for r in (GUILIN_2009, QQ, TD)] == [54, 52, 39]
    # 12.2 [P bombs_beat_tractors = true / false / false], [P bridge_level_gap = false /
    # true / true]; 12.4 [P throws = false / true / true], [P throw_fail_points = 0/0/20].
    assert [r.bombs_beat_tractors for r in (GUILIN_2009, QQ, TD)] == [True, False, False]
    assert [r.bridge_level_gap for r in (GUILIN_2009, QQ, TD)] == [False, True, True]
    assert [r.throws for r in (GUILIN_2009, QQ, TD)] == [False, True, True]
    assert [r.throw_fail_points for r in (GUILIN_2009, QQ, TD)] == [0, 0, 20]
    # 12.5 [P last_trick = multiply / kitty / kitty], [P kitty_multiplier = — / by_shape /
    # power_of_cards]; 12.8 [P match_minutes = 120 / none / none].
    assert [r.last_trick for r in (GUILIN_2009, QQ, TD)] == ["multiply", "kitty", "kitty"]
    assert (QQ.kitty_multiplier, TD.kitty_multiplier) == ("by_shape", "power_of_cards")
    assert [r.match_minutes for r in (GUILIN_2009, QQ, TD)] == [120, None, None]
    # 12.6 stage/step/shutout_bonus/max_gain; 12.7 a_needs_dig, a_fallback=J.
    assert (QQ.stage, QQ.step, QQ.shutout_bonus, QQ.max_gain) == (80, 40, 1, 3)
    assert (TD.stage, TD.step, TD.shutout_bonus, TD.max_gain) == (120, 60, 1, None)
    assert (QQ.a_needs_dig, QQ.a_fallback, TD.a_needs_dig) == (True, "J", False)
    # 12.8 [P conceal_points=60]: 藏张 replaces 劳改 in three-deck only.
    assert (TD.concealment, TD.conceal_points, QQ.concealment) == (True, 60, False)


def test_presets_are_selected_by_name_and_round_trip() -> None:
    assert get_ruleset("qq-four-deck") is QQ and get_ruleset("three-deck") is TD
    for preset in (QQ, TD):
        assert Ruleset.from_dict(preset.to_dict()) == preset
    changed = get_ruleset("three-deck", {"twos_fixed_in_three_deck": True})
    assert changed.fixed_ranks == ("10", "2")


def test_guilin_lists_only_its_own_parameters() -> None:
    """Guilin records freeze exactly the parameters of sections 1-11 (the samples stay
    byte-identical); an override of a section-12 parameter is listed."""
    assert "kitty" not in GUILIN_2009.parameters()
    assert "kitty" in QQ.parameters() and "throws" in TD.parameters()
    assert get_ruleset("guilin-2009", {"throws": True}).parameters()["throws"] is True


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"decks": 5}, ["'decks'", "3 or 4"]),
        ({"kitty": 7}, ["kitty 7", "four equal hands"]),
        ({"max_gain": 0}, ["'max_gain'", "positive"]),
        ({"match_minutes": "none"}, ["'match_minutes'", "whole number"]),
        ({"kitty_multiplier": "triple"}, ["'kitty_multiplier'", "by_shape"]),
        ({"levels": "4..A"}, ["'levels'", "2..A"]),
    ],
)
def test_bad_preset_overrides_are_refused(overrides: dict, words: list[str]) -> None:
    with pytest.raises(RulesError) as caught:
        get_ruleset("qq-four-deck", overrides)
    for word in words:
        assert word in str(caught.value)


def test_levels_start_at_two_in_the_presets() -> None:
    """12.1 [P levels = 3..A / 2..A / 2..A]: both sides start at the first level (002:
    首盘从2打起)."""
    assert first_level(GUILIN_2009) == Rank.THREE
    assert first_level(QQ) == first_level(TD) == Rank.TWO
    assert len(ladder_of(QQ)) == 13 and len(ladder_of(GUILIN_2009)) == 12
    assert gain_levels("2", 3, QQ).level == Rank.FIVE
    ctx("2", "H", QQ)  # a level in qq-four-deck
    with pytest.raises(CardNotationError, match="2 is never a level"):
        TrumpContext.of("2", "H")  # Guilin 3.1


def test_qq_trump_order() -> None:
    """12.1 qq-four-deck: BJ > LJ > 主级 > 副级 > A K … of the trump suit (001: 大王 >
    小王 > 主花色级牌 > 其他花色级牌 > 主花色A-K-Q...3); no fixed 2s: at level 5 a ♠2
    is a plain ♠ card."""
    c = ctx("5", "H", QQ)
    order = P("BJ LJ H5 S5 HA HK H2")
    for high, low in pairwise(order):
        assert trick_winner([(low,), (high,)], c, ruleset=QQ) == 1, (high, low)
    assert c.effective_suit(P("S2")[0]) == "S"
    # Among equal off-suit cards the first played wins (as 5.1).
    assert trick_winner([P("S5"), P("D5")], c, ruleset=QQ) == 0


def test_three_deck_trump_order() -> None:
    """12.1 three-deck (002 二.3): 大王、小王、主10、副10、主级牌、副级牌、A、K、Q、J、9 … 2."""
    c = ctx("5", "H", TD)
    order = P("BJ LJ H10 S10 H5 S5 HA HK HQ HJ H9 H2")
    for high, low in pairwise(order):
        assert trick_winner([(low,), (high,)], c, ruleset=TD) == 1, (high, low)
    # Side suits rank A K Q J 9 … 2 without the level rank and the 10s (002 副牌).
    assert c.effective_suit(P("S10")[0]) == "trump"
    assert trick_winner([P("S9"), P("SJ")], c, ruleset=TD) == 1
    assert trick_winner([P("S3"), P("S2")], c, ruleset=TD) == 0


def test_three_deck_at_level_ten() -> None:
    """12.1: at level 10 the level cards are the 10s: BJ > LJ > 主10 > 副10 > A K …"""
    c = ctx("10", "S", TD)
    order = P("BJ LJ S10 H10 SA SK")
    for high, low in pairwise(order):
        assert trick_winner([(low,), (high,)], c, ruleset=TD) == 1


def test_three_deck_twos_fixed() -> None:
    """12.1 [P twos_fixed_in_three_deck]: {10, 2} (002: 当2为常主时，主2大于副2)."""
    rs = get_ruleset("three-deck", {"twos_fixed_in_three_deck": True})
    c = ctx("5", "H", rs)
    assert c.effective_suit(P("S2")[0]) == "trump"
    assert trick_winner([P("S2"), P("H2")], c, ruleset=rs) == 1
    assert trick_winner([P("H2"), P("S2")], c, ruleset=rs) == 0


# ------------------------------------------------------------------ 12.2 units, tractors


def test_bridge_level_gap_in_the_presets() -> None:
    """12.2 [P bridge_level_gap = … true / true]: level 8: 7799 is a tractor; three-deck
    also bridges its fixed 10s (9 J are consecutive)."""
    assert kind("H7 H7 H9 H9", "8", "S", QQ) == "tractor2"
    assert kind("H7 H7 H9 H9", "8", "S", GUILIN_2009) is None
    assert kind("HJ HJ H9 H9", "8", "S", TD) == "tractor2"


@pytest.mark.parametrize(
    ("cards", "level", "trump", "ruleset", "expected", "source"),
    [
        ("BJ BJ LJ LJ", "2", "H", QQ, "tractor2", "001: 大王对+小王对 是最大的拖拉机"),
        ("LJ LJ H2 H2", "2", "H", QQ, "tractor2", "001: 小王对+主2对 是第二大的拖拉机"),
        ("H2 H2 S2 S2", "2", "H", QQ, "tractor2", "12.2: off-suit level → trump-suit level"),
        ("S2 S2 HA HA", "2", "H", QQ, "tractor2", "12.2: trump-suit A → off-suit level"),
        ("S2 S2 D2 D2", "2", "H", QQ, None, "12.2: two off-suit level pairs are equal"),
        ("S2 S2 LJ LJ", "2", "NT", QQ, "tractor2", "12.2: in no-trump off-suit level → LJ"),
        ("HK HK SA SA", "A", "H", QQ, "tractor2", "12.2: at level A trump K joins off-suit A"),
        ("SA SA SK SK", "2", "H", QQ, "tractor2", "001: 副牌中，(AA, KK) 都是拖拉机"),
        ("H5 H5 S10 S10", "5", "H", TD, "tractor2", "12.2: trump level → off-suit 10"),
        ("S10 S10 H10 H10", "5", "H", TD, "tractor2", "12.2: off-suit 10 → trump-suit 10"),
        ("H10 H10 LJ LJ", "5", "H", TD, "tractor2", "12.2: trump-suit 10 → LJ"),
        ("S5 S5 H5 H5 S10 S10", "5", "H", TD, "tractor3", "12.2 three-deck chain"),
        ("S5 S5 S10 S10", "5", "NT", TD, "tractor2", "12.2: three-deck no-trump level → 10"),
        ("S10 S10 LJ LJ", "5", "NT", TD, "tractor2", "12.2: three-deck no-trump 10 → LJ"),
        ("LJ LJ H5 H5", "5", "H", TD, None, "12.2: the 10s sit between level and LJ"),
        ("LJ LJ H3 H3", "3", "H", GUILIN_2009, None, "Guilin keeps 3.1"),
    ],
)
def test_trump_chain_for_tractors(cards, level, trump, ruleset, expected, source) -> None:
    """12.2: `… trump-suit A → off-suit level pair → trump-suit level pair → (off-suit 10
    → trump-suit 10 in three-deck) → LJ pair → BJ pair`; absent links are skipped."""
    assert kind(cards, level, trump, ruleset) == expected, source


def test_off_suit_level_pairs_link_to_both_neighbours() -> None:
    """12.2: an off-suit level pair links to the trump-suit A and to the trump-suit level
    pair, but two off-suit level pairs never link: with ♥AAAA ♠22 ♦22 (level 2, trump ♥)
    the best split is two two-pair tractors (♥AA♠22, ♥AA♦22)."""
    c = ctx("2", "H", QQ)
    assert pair_profile(P("HA HA HA HA S2 S2 D2 D2"), c) == (2, 2)
    assert pair_profile(P("HA HA S2 S2 D2 D2 H2 H2"), c) == (3, 1)
    assert pair_profile(P("HA HA S2 S2 H2 H2 D2 D2 LJ LJ"), c) == (4, 1)


def test_no_bomb_tiers_without_bombs_beat_tractors() -> None:
    """12.2 [P bombs_beat_tractors=false]: a play competes only with the lead's exact
    shape: ♥6666 does not beat ♥AAKK (Guilin 6.4 it does), ♥555666 not ♥AAKKQQ (6.3)."""
    c = ctx("9", "S", QQ)
    assert trick_winner([P("HA HA HK HK"), P("H6 H6 H6 H6")], c, ruleset=QQ) == 0
    assert trick_winner([P("HA HA HK HK HQ HQ"), P("H5 H5 H5 H6 H6 H6")], c, ruleset=QQ) == 0
    g = TrumpContext.of("9", "S")
    assert trick_winner([P("HA HA HK HK"), P("H6 H6 H6 H6")], g) == 1
    # A trump tractor still ruffs a side tractor.
    assert trick_winner([P("HA HA HK HK"), P("S3 S3 S4 S4")], c, ruleset=QQ) == 1


def test_follow_duty_is_unchanged_a_bomb_counts_as_a_two_pair_tractor() -> None:
    """12.2: the follow duty of section 5 is unchanged (a bomb still counts as a two-pair
    tractor there), whether or not bombs beat tractors (4.2: 有炸弹的必须出炸弹)."""
    c = ctx("9", "S", QQ)
    lead, hand = P("HA HA HK HK"), P("H7 H7 H7 H7 H3 H4 H5 C3")
    assert check_follow(lead, hand, P("H7 H7 H7 H7"), c, QQ).legal
    assert not check_follow(lead, hand, P("H7 H7 H3 H4"), c, QQ).legal


def test_three_decks_hold_each_card_three_times() -> None:
    """12.1 [P decks=3]: a fourth copy is a data-entry error (as 1.4's fifth)."""
    c = ctx("5", "S", TD)
    with pytest.raises(IllegalInputError, match="3 decks"):
        check_follow(P("H9"), P("H3 H3 H3 H3"), P("H3"), c, TD)


# ------------------------------------------------------------------ 12.4 throws


@pytest.mark.parametrize(
    ("cards", "components"),
    [
        ("SA SK SK", ["SK SK", "SA"]),  # 12.4: e.g. `SA SK SK`; count first, then rank
        ("HA HA HK HK H9", ["HA HA HK HK", "H9"]),  # 12.4: e.g. `HA HA HK HK H9`
        ("SQ SQ SQ SJ SJ", ["SQ SQ SJ SJ", "SQ"]),  # 12.4: the tractor QQJJ + the single Q
        ("SA SA SA SA SK SK", ["SA SA SK SK", "SA SA"]),  # 12.4: AAKK + the pair AA
        ("SA SK SQ SJ", ["SA", "SK", "SQ", "SJ"]),  # 002 九.2: AKQJ 甩牌, single cards
    ],
)
def test_throw_components(cards: str, components: list[str]) -> None:
    """12.4: of all splits into units, the one whose units listed by card count then
    rank (highest first) compare greatest."""
    throw = as_throw(P(cards), ctx("8", "H", QQ))
    assert [" ".join(map(str, u.cards)) for u in throw.components] == components


def test_throw_fails_against_shown_cards() -> None:
    """12.4: `HK HK HQ` against shown `HA HA`: the pair KK and the single Q are both
    beaten; the thrower plays only the smallest beaten component, the single Q (001:
    你只能打出最小的那一张)."""
    check = check_throw(P("HK HK HQ"), P("HA HA"), ctx("8", "S", QQ))
    assert check.fails
    assert [" ".join(map(str, u.cards)) for u in check.beaten] == ["HK HK", "HQ"]
    assert check.forced is not None and list(map(str, check.forced.cards)) == ["HQ"]


def test_throw_stands_when_nothing_shown_beats_it() -> None:
    """12.4: same shape needed: a shown ♥Q single does not beat the pair KK or the A."""
    check = check_throw(P("HA HK HK"), P("HQ HQ S3"), ctx("8", "S", QQ))
    assert not check.fails and check.forced is None


def test_throw_forced_is_the_smallest_beaten_component() -> None:
    """12.4: the smallest beaten component: fewest cards, then lowest rank. ♥KKQQ + ♥99
    + ♥J against shown ♥AAA: the pair AA beats 99, a single A beats J, no tractor beats
    KKQQ; the single J (fewest cards) is forced."""
    check = check_throw(P("HK HK HQ HQ HJ H9 H9"), P("HA HA HA"), ctx("8", "S", QQ))
    assert [" ".join(map(str, u.cards)) for u in check.beaten] == ["H9 H9", "HJ"]
    assert check.forced is not None and list(map(str, check.forced.cards)) == ["HJ"]


def test_equal_beaten_components_leave_the_choice_to_the_referee() -> None:
    """12.4: two beaten components equal in size and rank: either; the referee names it
    (♠K and ♥K? one suit only: two single 9s of different … here ♥Q and ♥Q cannot be two
    components, so: ♥AA + ♥K + ♥Q against shown ♥A — only K and Q beaten, Q forced)."""
    check = check_throw(P("HA HA HK HQ"), P("HA"), ctx("8", "S", QQ))
    assert [list(map(str, u.cards)) for u in check.beaten] == [["HK"], ["HQ"]]
    assert check.choices == (check.forced,)


def test_a_higher_tractor_beats_a_tractor_component() -> None:
    """12.4: a tractor of the same length beats a tractor component; a longer or shorter
    one does not (same shape)."""
    c = ctx("8", "S", QQ)
    assert check_throw(P("HQ HQ HJ HJ H3"), P("HK HK HA HA"), c).fails
    single_only = check_throw(P("HQ HQ HJ HJ H3"), P("HA HA"), c)
    assert [list(map(str, u.cards)) for u in single_only.beaten] == [["H3"]]


@pytest.mark.parametrize("preset", [QQ, TD])
def test_equal_beaten_components_are_all_choices(preset: Ruleset) -> None:
    """12.4 "Two beaten components equal in size and rank: either; the referee names
    it"; 12.2: off-suit level pairs of different suits are equal, so at level J, trump
    ♣, `HJ HJ CA CA DJ DJ` splits into CA CA + either J pair and the other J pair; shown
    `CJ CJ LJ LJ` beats the pair, which is `HJ HJ` or `DJ DJ`."""
    check = check_throw(P("HJ HJ CA CA DJ DJ"), P("CJ CJ LJ LJ"), ctx("J", "C", preset))
    assert sorted(" ".join(map(str, u.cards)) for u in check.choices) == ["DJ DJ", "HJ HJ"]
    assert check.forced in check.choices
    single = check_throw(P("SA SA SK"), P("SA SA SA"), ctx("2", "H", preset))
    assert [list(map(str, u.cards)) for u in single.choices] == [["SK"]]


def test_guilin_refuses_throws() -> None:
    """4.7 不允许甩牌: Guilin refuses a lead of several units in follow and winner."""
    g = TrumpContext.of("8", "S")
    with pytest.raises(IllegalInputError, match=r"4\.7"):
        trick_winner([P("HA HA HK HK H9"), P("H3 H4 H5 H6 H7")], g)
    with pytest.raises(IllegalInputError, match=r"4\.7"):
        check_follow(P("HA HK"), P("H3 H4 H5"), P("H3 H4"), g)


def test_following_a_throw() -> None:
    """12.4: short in the suit: play everything in it; otherwise meet the largest
    component's duty as well as the holding allows, then the next one's."""
    c = ctx("8", "S", QQ)
    lead = P("HA HA HK HK H9")
    hand = P("HQ HQ HJ HJ H3 H4 H5 S3")
    assert check_follow(lead, hand, P("HQ HQ HJ HJ H3"), c, QQ).legal
    verdict = check_follow(lead, hand, P("HQ HQ H3 H4 H5"), c, QQ)
    assert not verdict.legal and verdict.rule == "12.4"
    assert check_follow(lead, hand, verdict.instead, c, QQ).legal
    short = P("HQ HQ H3 S3 S4 S5")
    assert check_follow(lead, short, P("HQ HQ H3 S3 S4"), c, QQ).legal
    assert not check_follow(lead, short, P("HQ HQ S3 S4 S5"), c, QQ).legal
    assert check_follow(lead, short, best_follow(lead, short, c, QQ), c, QQ).legal


def test_following_a_throw_meets_each_component_with_what_is_left() -> None:
    """12.4: throw ♥KK + ♥Q + ♥J (pair, single, single): a follower with one pair must
    play it; with no pair any ♥ cards."""
    c = ctx("8", "S", TD)
    lead = P("HK HK HQ HJ")
    hand = P("H3 H3 H5 H6 H7")
    assert check_follow(lead, hand, P("H3 H3 H5 H6"), c, TD).legal
    assert not check_follow(lead, hand, P("H3 H5 H6 H7"), c, TD).legal


def test_triple_component_exemption_is_judged_on_the_whole_holding() -> None:
    """12.4 / 4.5: a triple component: no triple held and every pair in a tractor → any
    cards; a free pair → the pair is due."""
    c = ctx("8", "S", TD)
    lead = P("HA HA HA HK")
    tractor_only = P("H3 H3 H4 H4 H6")
    assert check_follow(lead, tractor_only, P("H3 H4 H6 H3"), c, TD).legal
    assert check_follow(lead, tractor_only, P("H3 H4 H6 H4"), c, TD).legal
    free_pair = P("H3 H3 H6 H9 HJ")
    assert not check_follow(lead, free_pair, P("H3 H6 H9 HJ"), c, TD).legal


@pytest.mark.parametrize(
    ("preset", "level", "trump", "lead", "held", "legal", "illegal"),
    [
        (
            QQ,
            "5",
            "NT",
            "DA DA D10 D10 D10",
            "D3 D3 DJ DJ D6 D7 D8 D10 DQ",
            ["DJ DJ D6 D3 D3", "D3 D3 DJ DJ D10", "DJ DJ DQ D3 D3"],
            ["D3 D8 DJ DJ DQ", "DJ DJ D6 D7 D8", "D3 D3 D6 D7 D8", "D3 DJ D6 D7 D8"],
        ),
        (
            TD,
            "5",
            "S",
            "HA HA H9 H9 H9",
            "H3 H3 HJ HJ H6 H7 H8 HQ HK",
            ["HJ HJ H6 H3 H3", "H3 H3 HJ HJ HK"],
            ["H3 H8 HJ HJ HQ", "HJ HJ H6 H7 H8", "H3 H3 H6 H7 H8"],
        ),
    ],
)
def test_a_throws_later_component_is_judged_on_what_the_larger_ones_leave(
    preset: Ruleset,
    level: str,
    trump: str,
    lead: str,
    held: str,
    legal: list[str],
    illegal: list[str],
) -> None:
    """12.4: "meet the largest component's duty as well as the holding allows, then the
    next one's with what is left". Against triple + pair, the triple's duty (pair + 1) is
    met by one pair and one card, and what is left still holds the other pair for the
    pair component (issue 19: `D3 D8 DJ DJ DQ` was answered legal)."""
    c = ctx(level, trump, preset)
    hand = P(held + " S3 S4")
    for play in legal:
        assert check_follow(P(lead), hand, P(play), c, preset).legal, play
    for play in illegal:
        verdict = check_follow(P(lead), hand, P(play), c, preset)
        assert not verdict.legal and verdict.rule == "12.4", play
        assert check_follow(P(lead), hand, verdict.instead, c, preset).legal
    assert check_follow(P(lead), hand, best_follow(P(lead), hand, c, preset), c, preset).legal


def test_who_wins_against_a_throw() -> None:
    """12.4: no play of the throw's suit beats it; an all-trump play that splits into one
    unit of each component's shape does (002: 毙牌时必须用主牌，且拖拉机的数目不得少于…
    对牌的数目也不得少于…); the highest unit of the largest shape wins; first among
    equals; a trump throw cannot be beaten."""
    c = ctx("8", "S", TD)
    throw = P("HA HA HK HK H9")
    assert trick_winner([throw, P("HQ HQ HJ HJ H3")], c, ruleset=TD) == 0
    assert trick_winner([throw, P("S3 S3 S4 S4 S5")], c, ruleset=TD) == 1
    assert trick_winner([throw, P("S3 S3 S5 S5 S6")], c, ruleset=TD) == 0  # no tractor
    assert trick_winner([throw, P("S3 S3 S4 S4 S5"), P("S6 S6 S7 S7 S9")], c, ruleset=TD) == 2
    assert trick_winner([throw, P("S6 S6 S7 S7 S9"), P("S6 S6 S7 S7 SA")], c, ruleset=TD) == 1
    trump_throw = P("SA SA SK SK S9")
    assert trick_winner([trump_throw, P("LJ LJ BJ BJ S10")], c, ruleset=TD) == 0
    result = trick_result([throw, P("S3 S3 S4 S4 S5")], c, ruleset=TD)
    assert result.competing == (True, True) and result.points == 25


# ------------------------------------------------------------------ 12.5 kitty


@pytest.mark.parametrize(
    ("lead", "ruleset", "multiplier", "source"),
    [
        ("H9", QQ, 2, "001: 用非主牌单张抠底，底牌分数×2"),
        ("H9 H9", QQ, 4, "001: 用对子抠底，底牌分数×4"),
        ("H9 H9 H9", QQ, 4, "12.5 by_shape: pair, triple or bomb ×4"),
        ("H8 H8 H7 H7", QQ, 4, "001: 用两对拖拉机抠底，则× (2^2) = ×4"),
        ("H8 H8 H7 H7 H6 H6", QQ, 8, "001: 用三对拖拉机抠底，则× (2^3) = ×8"),
        ("SA SA SA SK SK SK S9 S9 S8 S8 S7 S7", QQ, 8, "12.5: the tractor's ×8, not ×4"),
        ("H9", TD, 2, "002 六.1: 单张抠底2倍"),
        ("H9 H9", TD, 4, "002 六.1: 对子抠底4倍"),
        ("H9 H9 H9", TD, 8, "12.5 power_of_cards: triple ×8"),
        ("H4 H4 H5 H5 H6 H6", TD, 64, "002 九.2: 闲家用445566抠底，抠底倍数为64倍"),
        ("HA HK HQ HJ", TD, 2, "002 九.2: 闲家用AKQJ甩牌抠底…为2倍"),
    ],
)
def test_kitty_multiplier(lead: str, ruleset: Ruleset, multiplier: int, source: str) -> None:
    """12.5: the shape is judged on the last lead; for a throw the greatest multiplier
    among its components."""
    c = ctx("3", "D", ruleset)
    shapes = [shape_of(u) for u in kitty_components(P(lead), c)]
    assert kitty_multiplier_of(shapes, ruleset) == multiplier, source


def test_kitty_dig_by_the_defenders() -> None:
    """12.5: defenders win the last trick: + the trick's points as any trick's + the
    kitty's points × m. 002 九.2: 445566 ×64."""
    r = hand_result(
        defenders_points=60,
        last_trick_points=20,
        last_trick_cards=6,
        last_trick_winner="defenders",
        declarer_level="2",
        defender_level="2",
        ruleset=TD,
        kitty_points=15,
        kitty_multiplier=64,
    )
    assert r.defenders_final == 60 + 20 + 15 * 64
    assert r.consequences[0].article == "12.5"


def test_kitty_is_not_dug_when_the_declarers_win_the_last_trick() -> None:
    """12.5: when the declarers win it, nothing changes (no 反抠)."""
    r = hand_result(
        defenders_points=60,
        last_trick_points=20,
        last_trick_cards=2,
        last_trick_winner="declarers",
        declarer_level="2",
        defender_level="2",
        ruleset=QQ,
        kitty_points=25,
        kitty_multiplier=4,
    )
    assert r.defenders_final == 60 and r.kept_deal and r.levels_up == 1


def test_kitty_figures_are_checked() -> None:
    """12.1: the kitty holds 8 (qq) or 6 (three-deck) cards: at most 80 / 60 points."""
    base = dict(
        defenders_points=60,
        last_trick_points=0,
        last_trick_cards=1,
        last_trick_winner="defenders",
        declarer_level="2",
        defender_level="2",
    )
    with pytest.raises(HandResultError, match=r"0 to 60"):
        hand_result(**base, ruleset=TD, kitty_points=65, kitty_multiplier=2)
    with pytest.raises(HandResultError, match=r"2, 4, 8"):
        hand_result(**base, ruleset=QQ, kitty_points=10, kitty_multiplier=3)
    with pytest.raises(HandResultError, match="kitty"):
        hand_result(**base, ruleset=QQ)
    with pytest.raises(HandResultError, match="1 to 39"):
        hand_result(
            **{**base, "last_trick_cards": 40}, ruleset=TD, kitty_points=10, kitty_multiplier=2
        )
    with pytest.raises(HandResultError, match="no kitty"):
        hand_result(**base, ruleset=GUILIN_2009, kitty_points=10, kitty_multiplier=2)


# ------------------------------------------------------------------ 12.6 result tables

QQ_TABLE = [
    # 001 升级规则, row by row (12.6: the table is final; 大光/小光 are in it)
    (0, "declarers", 3),  # 0分：升3级 (大光 included)
    (5, "declarers", 2),  # 5-35分：升2级 (小光 included)
    (35, "declarers", 2),
    (40, "declarers", 1),  # 40-75分：升1级
    (75, "declarers", 1),
    (80, "defenders", 0),  # 80-115分：上台
    (115, "defenders", 0),
    (120, "defenders", 1),  # 120-155分：上台 + 升1级
    (155, "defenders", 1),
    (160, "defenders", 2),  # 160-195分：上台 + 升2级
    (195, "defenders", 2),
    (200, "defenders", 3),  # 200分以上：上台 + 升3级
    (400, "defenders", 3),  # max_gain=3
    (-20, "declarers", 3),  # 12.6: D ≤ 0 counts as 0
]

THREE_DECK_TABLE = [
    # 002 六.2, row by row
    (0, "declarers", 3),  # 0分记大光，庄家方连升3级
    (5, "declarers", 2),  # 0分<得分<60分，庄家方连升2级
    (55, "declarers", 2),
    (60, "declarers", 1),  # 60分≤得分<120分，庄家方升1级
    (115, "declarers", 1),
    (120, "defenders", 0),  # 120分≤得分<180分，抓分方上台
    (175, "defenders", 0),
    (180, "defenders", 1),  # 每增加60分，抓分方多升一级
    (240, "defenders", 2),
    (480, "defenders", 6),  # no cap
    (-40, "declarers", 3),
]


@pytest.mark.parametrize(("final", "deal", "up"), QQ_TABLE)
def test_qq_result_table(final: int, deal: str, up: int) -> None:
    r = result_from_final_score(final, "5", "5", QQ)
    assert (str(r.deal), r.levels_up, r.defenders_final) == (deal, up, final)


@pytest.mark.parametrize(("final", "deal", "up"), THREE_DECK_TABLE)
def test_three_deck_result_table(final: int, deal: str, up: int) -> None:
    r = result_from_final_score(final, "3", "3", TD)
    assert (str(r.deal), r.levels_up) == (deal, up)


def test_guilin_keeps_its_table() -> None:
    """12.6: Guilin keeps section 7 (stage 160, step 40, no bonus, no cap, negative D)."""
    assert result_from_final_score(-40, "5", "5").levels_up == 5
    assert result_from_final_score(400, "5", "5").levels_up == 6


# ------------------------------------------------------------------ 12.7 level A


def test_qq_a_needs_a_dig() -> None:
    """12.7 [P a_needs_dig=true, a_fallback=J]: won as declarers at A without a dig since
    reaching A → back to J (001: 必须至少抠一次底才能算通过…退回到J); with a dig → pass A."""
    no_dig = result_from_final_score(40, "A", "9", QQ)
    assert not no_dig.passed_a and no_dig.declarer_level == Rank.JACK
    assert any(c.article == "12.7" for c in no_dig.consequences)
    dug = result_from_final_score(40, "A", "9", QQ, dug_at_a=True)
    assert dug.passed_a


def test_three_deck_a_as_guilin() -> None:
    """12.7: three-deck as Guilin's section 7 (a hand won at A as declarers passes A)."""
    assert result_from_final_score(40, "A", "9", TD).passed_a
    taken = result_from_final_score(200, "9", "A", TD)
    assert not taken.passed_a and taken.defender_level == Rank.ACE


# ------------------------------------------------------------------ the rules service


def ask(**query: object) -> dict:
    from referee_desk.rules.service import RulesService

    return RulesService().answer(query)


def test_service_selects_the_preset() -> None:
    """Issue 12: `ruleset` selects the preset; levels from 2; the trump chain of 12.2."""
    a = ask(op="unit", level="2", trump="H", ruleset="qq-four-deck", cards="LJ LJ H2 H2")
    assert a == {"unit": "tractor", "length": 2, "each": 2, "suit": "trump"}
    g = ask(op="unit", level="2", trump="H", cards="LJ LJ H2 H2")
    assert "2 is never a level" in g["error"]


def test_service_unit_names_a_throw_only_where_allowed() -> None:
    a = ask(op="unit", level="8", trump="S", ruleset="three-deck", cards="HA HA HK HK H9")
    assert a["unit"] == "throw" and a["suit"] == "H" and a["length"] == 2
    assert [c["cards"] for c in a["components"]] == ["HA HA HK HK", "H9"]
    assert ask(op="unit", level="8", trump="S", cards="HA HA HK HK H9") == {"unit": None}


def test_service_throw_op() -> None:
    """12.4: `HK HK HQ` against shown `HA HA` fails; forced the single Q; 002's −20."""
    q = dict(op="throw", level="8", trump="S", lead="HK HK HQ", shown="HA HA")
    a = ask(**q, ruleset="qq-four-deck")
    assert (a["fails"], a["forced"], a["beaten"]) == (True, "HQ", ["HK HK", "HQ"])
    assert "points" not in a
    assert ask(**q, ruleset="three-deck")["points"] == 20
    stands = ask(**{**q, "shown": "HQ HJ"}, ruleset="three-deck")
    assert (stands["fails"], stands["forced"]) == (False, None)
    assert "4.7" in ask(**q)["error"]
    assert "unknown field" in ask(**q, ruleset="three-deck", hand="H3")["error"]


def test_service_follow_and_winner_accept_throws_where_allowed() -> None:
    base = dict(level="8", trump="S", ruleset="qq-four-deck")
    f = ask(
        op="follow", **base, lead="HA HA HK HK H9", hand="HQ HQ HJ HJ H3 H4", play="HQ HQ H3 H4 HJ"
    )
    assert f["legal"] is False and f["rule"] == "12.4" and f["instead"] == "HQ HQ HJ HJ H3"
    w = ask(op="winner", **base, plays=["HA HA HK HK H9", "S3 S3 S4 S4 S5", "HQ HQ HJ HJ H3"])
    assert w == {"winner": 1, "points": 25}
    guilin = ask(op="winner", level="8", trump="S", plays=["HA HA HK HK H9", "S3 S3 S4 S4 S5"])
    assert "4.7" in guilin["error"]


def test_service_result_with_the_kitty() -> None:
    """12.5: 002 九.2 445566 ×64; the kitty presets need kitty_points and last_lead."""
    q = dict(
        op="result",
        ruleset="three-deck",
        level="9",
        trump="S",
        defenders_points=40,
        last_trick_points=10,
        last_trick_cards=6,
        last_trick_winner="defenders",
        declarer_level="2",
        defender_level="2",
    )
    a = ask(**q, kitty_points=5, last_lead="H4 H4 H5 H5 H6 H6")
    assert (a["multiplier"], a["defenders_final"]) == (64, 40 + 10 + 5 * 64)
    assert (a["deal"], a["levels_up"]) == ("defenders", 4)  # 370: 120 + 4×60 ≤ 370 < 420
    assert "kitty_points" in ask(**q)["error"]
    singles = ask(**q, kitty_points=10, last_lead="HA HK HQ HJ")
    assert singles["multiplier"] == 2  # 002 九.2: AKQJ 甩牌抠底 … 2倍
    guilin = {**q, "ruleset": "guilin-2009", "declarer_level": "3", "defender_level": "3"}
    assert "no kitty" in ask(**guilin, kitty_points=5, last_lead="H4")["error"]


def test_service_result_a_needs_dig() -> None:
    """12.7 (001): at A without a dig → back to J; declarers_dug_at_a → pass A."""
    q = dict(
        op="result",
        ruleset="qq-four-deck",
        level="A",
        trump="S",
        defenders_points=40,
        last_trick_points=0,
        last_trick_cards=1,
        last_trick_winner="declarers",
        declarer_level="A",
        defender_level="9",
        kitty_points=0,
        last_lead="H3",
    )
    assert (ask(**q)["declarer_level"], ask(**q)["passed_a"]) == ("J", False)
    assert ask(**q, declarers_dug_at_a=True)["passed_a"] is True
    assert "true or false" in ask(**q, declarers_dug_at_a=1)["error"]


def test_twos_fixed_ladder_starts_at_three() -> None:
    """Desk reading of 12.1: with the 2s fixed, 2 is not a level (as Guilin 3.1)."""
    rs = get_ruleset("three-deck", {"twos_fixed_in_three_deck": True})
    assert first_level(rs) == Rank.THREE


def test_readme_service_examples_are_what_the_service_answers() -> None:
    """README's rules-service examples (Guilin and the presets) stay true."""
    import json
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    pairs = re.findall(r"\$ echo '(\{.*\})' \| uv run referee-desk rules\n(\{.*\})", readme)
    assert len(pairs) >= 3
    for query, expected in pairs:
        assert ask(**json.loads(query)) == json.loads(expected), query


def test_refusals_and_failures_are_different_types() -> None:
    """Issue 17 / guide: a refusal (input wrong) is a different type from a failure (a
    bug): every refusal is a RulesError (a ValueError), a failure is not."""
    from referee_desk.rules.errors import RulesFailed, RulesProblem, RulesRefused

    with pytest.raises(RulesRefused) as refused:
        check_throw(P("HA HK SA"), P("HA"), ctx("8", "S", QQ))
    assert isinstance(refused.value, ValueError | RulesProblem)
    failure = RulesFailed("invariant broken")
    assert isinstance(failure, RulesProblem) and not isinstance(failure, RulesError)
    assert not isinstance(failure, ValueError)
