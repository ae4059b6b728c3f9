"""The hand's result (RULES.md 7; Guilin 7.1-7.3, 1.5, 2.3, 8.3, 8.5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee_desk.rules.cards import LEVELS, Rank
from referee_desk.rules.levels import TOP_LEVEL
from referee_desk.rules.result import (
    Consequence,
    HandResultError,
    Role,
    hand_result,
    last_trick_dig,
    next_dealer,
    result_from_final_score,
    result_from_levels_up,
    shuffle_and_cut,
    stage_offset,
)
from referee_desk.rules.ruleset import GUILIN_2009, get_ruleset
from referee_desk.rules.seats import PLAY_ORDER, Seat, Side

# -- 7.1 / 7.2: the final score decides the deal and the levels --------------------

# 7.1: "防守方上台所获得的分数是160分，要是得分处于160分以上的情况，那么每增加40分便会
# 加一级，而且不存在上限的设定。"  (160 takes the deal; +1 per 40 above; no cap)
STAGE_TABLE = [
    (160, 0),
    (175, 0),
    (195, 0),
    (200, 1),
    (235, 1),
    (240, 2),
    (275, 2),
    (280, 3),
    (400, 6),
    (560, 10),  # no cap on the gain itself
]

# 7.2: "防守的一方要是得分在160分以下，坐庄的一方呢，是在加一级连庄的基础上面，每少40分
# 就往上升一级，负分的情况按这个规则类推。"  (below 160: keep the deal +1, +1 per 40 less;
# negative scores by the same rule)
KEEP_TABLE = [
    (155, 1),
    (120, 1),
    (115, 2),
    (80, 2),
    (75, 3),
    (40, 3),
    (35, 4),
    (0, 4),
    (-5, 5),
    (-40, 5),
    (-45, 6),
    (-80, 6),
    (-85, 7),
]


@pytest.mark.parametrize(("final", "up"), STAGE_TABLE)
def test_defenders_at_160_or_more_take_the_deal(final: int, up: int) -> None:
    result = result_from_final_score(final, "3", "3", GUILIN_2009)
    assert result.deal is Role.DEFENDERS
    assert not result.kept_deal
    assert result.levels_up == up
    assert result.b == up
    assert result.defenders_final == final
    assert result.consequences[0].article == "7.1"


@pytest.mark.parametrize(("final", "up"), KEEP_TABLE)
def test_defenders_below_160_let_the_declarers_keep_the_deal(final: int, up: int) -> None:
    result = result_from_final_score(final, "3", "3", GUILIN_2009)
    assert result.deal is Role.DECLARERS
    assert result.kept_deal
    assert result.levels_up == up
    assert result.b == -up
    assert result.consequences[0].article == "7.2"


@pytest.mark.parametrize(("final", "up"), [*STAGE_TABLE, *KEEP_TABLE])
def test_only_the_winning_side_moves(final: int, up: int) -> None:
    """Levels below the cap: the winner goes up exactly its gain, the loser stays."""
    result = result_from_final_score(final, "4", "3", GUILIN_2009)
    if result.deal is Role.DEFENDERS:
        assert (result.declarer_level, result.defender_level) == (Rank.FOUR, Rank(3 + up))
    else:
        assert (result.declarer_level, result.defender_level) == (Rank(4 + up), Rank.THREE)
    assert result.levels_moved == up
    assert result.passed_a is False


# -- 7.3: the last-trick dig ---------------------------------------------------------

# 7.3: "哪一方就“抠”取最后一次出牌的全部牌面值分，并且按照最后一次出牌的张数的倍数来计分。
# 对于守方而言，其得分计入自身已获取的分值当中，而攻方得分则是从守方已经获取的分值里减去。"
DIG_TABLE = [
    # before, L, c, winner, D (multiply)
    (100, 30, 4, "defenders", 100 + 30 * 4),
    (100, 30, 4, "declarers", 100 - 30 * 4),
    (155, 25, 2, "declarers", 155 - 25 * 2),
    (140, 0, 1, "defenders", 140),
    (20, 40, 4, "declarers", 20 - 40 * 4),  # the score can go negative
    (0, 10, 1, "defenders", 10),
    (300, 160, 8, "defenders", 300 + 160 * 8),
]


@pytest.mark.parametrize(("before", "points", "cards", "winner", "final"), DIG_TABLE)
def test_last_trick_is_multiplied_by_cards_per_player(
    before: int, points: int, cards: int, winner: str, final: int
) -> None:
    got, consequence = last_trick_dig(before, points, cards, winner, GUILIN_2009)
    assert got == final
    assert consequence.article == "7.3"
    if points:
        assert f"{points}×{cards} = " in consequence.text
    else:
        assert "no points" in consequence.text


@pytest.mark.parametrize(("before", "points", "cards", "winner", "final"), DIG_TABLE)
def test_bonus_mode_adds_the_ordinary_capture_for_defenders_only(
    before: int, points: int, cards: int, winner: str, final: int
) -> None:
    """[P last_trick=bonus]: "would add L × c on top of the ordinary capture of L";
    declarers winning it still subtract L × c."""
    bonus = get_ruleset(overrides={"last_trick": "bonus"})
    got, consequence = last_trick_dig(before, points, cards, winner, bonus)
    if winner == "defenders":
        assert got == final + points
        assert "last_trick=bonus" in consequence.text or points == 0
    else:
        assert got == final


def test_section_11_check_defenders_155_declarers_dig_25_in_pairs() -> None:
    """RULES.md 11: "Defenders have 155 points, declarers win a last trick of pairs
    holding 25 points: D = 155 − 25 × 2 = 105 → declarers +2"."""
    result = hand_result(
        defenders_points=155,
        last_trick_points=25,
        last_trick_cards=2,
        last_trick_winner="declarers",
        declarer_level="7",
        defender_level="5",
    )
    assert result.defenders_final == 105
    assert result.deal is Role.DECLARERS
    assert result.levels_up == 2
    assert result.declarer_level is Rank.NINE
    assert result.defender_level is Rank.FIVE
    assert result.articles[0].startswith("7.3: declarers win the last trick: −25×2 = −50")
    assert result.articles[1].startswith("7.2: defenders 105 → declarers +2")


def test_defenders_digging_the_last_trick_can_take_the_deal() -> None:
    """7.3 + 7.1: 130 before, a last trick of singles with 30 points: 130 + 30×1 = 160."""
    result = hand_result(
        defenders_points=130,
        last_trick_points=30,
        last_trick_cards=1,
        last_trick_winner="defenders",
        declarer_level="J",
        defender_level="8",
    )
    assert result.defenders_final == 160
    assert result.deal is Role.DEFENDERS
    assert (result.declarer_level, result.defender_level) == (Rank.JACK, Rank.EIGHT)
    assert result.articles[1].startswith("7.1: defenders 160 ≥ 160")


@pytest.mark.parametrize(
    ("stage", "step", "final", "deal", "up"),
    [
        (120, 30, 150, Role.DEFENDERS, 1),
        (120, 30, 119, Role.DECLARERS, 1),
        (120, 30, 89, Role.DECLARERS, 2),
        (200, 50, 199, Role.DECLARERS, 1),
        (200, 50, 300, Role.DEFENDERS, 2),
        (160, 80, 239, Role.DEFENDERS, 0),
    ],
)
def test_stage_and_step_parameters(stage: int, step: int, final: int, deal: Role, up: int) -> None:
    """[P stage=160, step=40]: b = floor((D − stage) / step)."""
    ruleset = get_ruleset(overrides={"stage": stage, "step": step})
    assert stage_offset(final, ruleset) == (up if deal is Role.DEFENDERS else -up)
    result = result_from_final_score(final, "5", "5", ruleset)
    assert (result.deal, result.levels_up) == (deal, up)


# -- the cap at A and passing A (1.5) -------------------------------------------------


def test_declarers_near_a_stop_at_a() -> None:
    """RULES.md 7: "no gain takes a side past A"."""
    result = result_from_final_score(0, "Q", "5", GUILIN_2009)  # +4 earned
    assert result.levels_up == 4
    assert result.levels_moved == 2
    assert result.declarer_level is Rank.ACE
    assert result.passed_a is False
    assert any(c.startswith("1.5:") and "past A" in c for c in result.articles)


@pytest.mark.parametrize("final", [155, 100, 0, -40])
def test_declarers_at_a_keeping_the_deal_pass_a(final: int) -> None:
    """1.5: "a side at A must win a hand at A as declarers (defenders below 160) to
    pass A (打过A), which wins the match"."""
    result = result_from_final_score(final, "A", "9", GUILIN_2009)
    assert result.passed_a is True
    assert result.deal is Role.DECLARERS
    assert any(c.startswith("1.5:") and "pass A" in c for c in result.articles)


@pytest.mark.parametrize("final", [160, 200, 400])
def test_declarers_at_a_losing_the_deal_do_not_pass(final: int) -> None:
    result = result_from_final_score(final, "A", "9", GUILIN_2009)
    assert result.passed_a is False
    assert result.declarer_level is Rank.ACE
    assert result.deal is Role.DEFENDERS


@pytest.mark.parametrize("final", [160, 200, 560])
def test_defenders_at_a_taking_the_deal_stay_at_a(final: int) -> None:
    """Defenders at A must still win a hand at A as declarers."""
    result = result_from_final_score(final, "10", "A", GUILIN_2009)
    assert result.deal is Role.DEFENDERS
    assert result.defender_level is Rank.ACE
    assert result.passed_a is False


@pytest.mark.parametrize(
    ("final", "declarers", "defenders", "passed"),
    [
        (115, "K", "3", True),  # +2 from K
        (155, "K", "3", False),  # +1 from K: reaches A
        (200, "3", "A", True),  # defenders at A +1
        (160, "3", "A", False),  # +0
        (155, "A", "3", True),
    ],
)
def test_without_must_play_a_going_beyond_a_passes(
    final: int, declarers: str, defenders: str, passed: bool
) -> None:
    ruleset = get_ruleset(overrides={"must_play_a": False})
    assert result_from_final_score(final, declarers, defenders, ruleset).passed_a is passed


levels = st.sampled_from(LEVELS)


@given(
    before=st.integers(-400, 400),
    points=st.integers(0, 80).map(lambda x: 5 * x),
    cards=st.integers(1, 54),
    winner=st.sampled_from(["declarers", "defenders"]),
    declarers=levels,
    defenders=levels,
    bonus=st.booleans(),
)
def test_property_a_is_passed_only_at_a_by_declarers_below_stage(
    before: int,
    points: int,
    cards: int,
    winner: str,
    declarers: Rank,
    defenders: Rank,
    bonus: bool,
) -> None:
    """must_play_a: the result never passes A unless the declarers were at A and the
    defenders ended below the stage; no level leaves the ladder; levels never fall."""
    points = min(points, 40 * cards)
    ruleset = get_ruleset(overrides={"last_trick": "bonus"} if bonus else None)
    result = hand_result(
        defenders_points=before,
        last_trick_points=points,
        last_trick_cards=cards,
        last_trick_winner=winner,
        declarer_level=declarers,
        defender_level=defenders,
        ruleset=ruleset,
    )
    assert result.defenders_final is not None
    if result.passed_a:
        assert declarers is TOP_LEVEL
        assert result.defenders_final < ruleset.stage
    else:
        assert not (declarers is TOP_LEVEL and result.defenders_final < ruleset.stage)
    assert result.declarer_level >= declarers
    assert result.defender_level >= defenders
    assert result.declarer_level in LEVELS and result.defender_level in LEVELS
    assert (result.deal is Role.DEFENDERS) == (result.defenders_final >= ruleset.stage)


# -- penalties that reuse the result (8.3) -------------------------------------------


def test_revoke_option_b_sets_the_final_score() -> None:
    """8.3 B: "在防守方己得分值中增加或减少160分作为防守方最终得分" — declarers revoked
    with the defenders at 60: D = 60 + 160 = 220 → defenders take the deal, +1."""
    prior = (Consequence("8.3 B", "declarers revoked: defenders 60 + 160 = 220"),)
    result = result_from_final_score(60 + 160, "6", "4", GUILIN_2009, prior=prior)
    assert result.deal is Role.DEFENDERS
    assert result.defender_level is Rank.FIVE
    assert result.articles[0].startswith("8.3 B:")
    assert result.articles[1].startswith("7.1:")


def test_revoke_option_a_defenders_go_up_two_and_take_the_deal() -> None:
    """8.3 A: "按升二级进入下一盘" — defending and not offending: +2 and the deal."""
    result = result_from_levels_up("defenders", 2, "9", "5", GUILIN_2009)
    assert result.deal is Role.DEFENDERS
    assert (result.declarer_level, result.defender_level) == (Rank.NINE, Rank.SEVEN)
    assert result.defenders_final is None
    assert result.articles[0] == "8.3 A: defenders +2, take the deal"


def test_revoke_option_a_declarers_keep_the_deal_capped_at_a() -> None:
    """8.3 A with the cap at A: from K the declarers reach A; at A they stay there."""
    from_k = result_from_levels_up(Role.DECLARERS, 2, "K", "5", GUILIN_2009)
    assert (from_k.deal, from_k.declarer_level, from_k.passed_a) == (
        Role.DECLARERS,
        Rank.ACE,
        False,
    )
    at_a = result_from_levels_up(Role.DECLARERS, 2, "A", "5", GUILIN_2009)
    assert (at_a.declarer_level, at_a.passed_a) == (Rank.ACE, False)
    free = get_ruleset(overrides={"must_play_a": False})
    assert result_from_levels_up(Role.DECLARERS, 2, "A", "5", free).passed_a is True


# -- next dealer, shuffle and cut (7, 8.5, 2.3) --------------------------------------


@pytest.mark.parametrize(
    ("dealer", "kept", "taken"),
    [
        (Seat.N, Seat.S, Seat.W),
        (Seat.W, Seat.E, Seat.S),
        (Seat.S, Seat.N, Seat.E),
        (Seat.E, Seat.W, Seat.N),
    ],
)
def test_next_dealer_partner_or_next(dealer: Seat, kept: Seat, taken: Seat) -> None:
    """RULES.md 7 [P rotation=partner_or_next]: kept deal → the dealer's partner; taken
    deal → the player after the dealer in play order (N → W → S → E, counter-clockwise,
    8.5 "逆时针方向轮流坐庄")."""
    assert next_dealer(dealer, Role.DECLARERS, GUILIN_2009) is kept
    assert next_dealer(dealer, "defenders", GUILIN_2009) is taken
    assert kept.side is dealer.side
    assert taken.side is not dealer.side
    assert PLAY_ORDER[(PLAY_ORDER.index(dealer) + 1) % 4] is taken


@pytest.mark.parametrize("dealer", list(Seat))
@pytest.mark.parametrize("deal", list(Role))
def test_winners_shuffle_losers_cut(dealer: Seat, deal: Role) -> None:
    """2.3: "每盘比赛结束后，由赢家洗牌，输家过牌" — the next dealer (a winner) shuffles;
    the loser playing just before the next dealer cuts."""
    plan = shuffle_and_cut(dealer, deal, GUILIN_2009)
    winners = dealer.side if deal is Role.DECLARERS else dealer.side.other
    assert plan.shuffler.side is winners
    assert plan.cutter.side is winners.other
    assert plan.shuffler is next_dealer(dealer, deal, GUILIN_2009)
    assert plan.cutter.next_in_play is plan.shuffler


# -- bad figures -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"last_trick_points": 23}, "multiple of 5"),
        ({"last_trick_points": -5}, "multiple of 5"),
        ({"last_trick_points": 45, "last_trick_cards": 1}, "cannot be held"),
        ({"last_trick_cards": 0}, "1 to 54"),
        ({"last_trick_cards": 55}, "1 to 54"),
        ({"last_trick_winner": "north"}, "declarers or defenders"),
        ({"defenders_points": 10.5}, "whole number"),
        ({"defenders_points": True}, "whole number"),
        ({"declarer_level": "2"}, "never a level"),
        ({"defender_level": "Z"}, "bad level"),
    ],
)
def test_bad_figures_are_refused_by_name(fields: dict[str, object], message: str) -> None:
    good: dict[str, object] = {
        "defenders_points": 100,
        "last_trick_points": 20,
        "last_trick_cards": 2,
        "last_trick_winner": "declarers",
        "declarer_level": "7",
        "defender_level": "5",
    }
    with pytest.raises(ValueError, match=message):
        hand_result(**{**good, **fields})  # type: ignore[arg-type]


def test_bad_level_gain_for_a_penalty_is_refused() -> None:
    with pytest.raises(HandResultError, match="never go down"):
        result_from_levels_up("defenders", -2, "5", "5")


def test_roles_map_back_to_seating_sides() -> None:
    """E–W declared at 7 against N–S at 5; the defenders take the deal with 200 (+1)."""
    result = result_from_final_score(200, "7", "5", GUILIN_2009)
    assert result.levels_by_side(Side.EW) == {Side.EW: Rank.SEVEN, Side.NS: Rank.SIX}
    assert result.side_of(result.deal, Side.EW) is Side.NS
    assert result.side_of("declarers", Side.EW) is Side.EW


@given(
    st.integers(min_value=-40, max_value=80).map(lambda n: n * 5),
    st.sampled_from(["declarers", "defenders"]),
    st.sampled_from([lvl.label for lvl in LEVELS]),
    st.sampled_from([lvl.label for lvl in LEVELS]),
)
def test_every_result_consequence_is_worded_in_both_languages(points, winner, dec, dfn):
    """RULES 13: each step of a result (7.1-7.3, 1.5, 7) has a key whose English template
    gives its ``text`` and whose Chinese template uses 庄家方/防守方, 上台/连庄."""
    from referee_desk.rules.wording import describe

    r = hand_result(
        defenders_points=points,
        last_trick_points=20,
        last_trick_cards=2,
        last_trick_winner=winner,
        declarer_level=dec,
        defender_level=dfn,
    )
    for c in r.consequences:
        assert c.key and describe(c, "en") == c.text
        zh = describe(c, "zh_CN")
        assert "declarers" not in zh and "defenders" not in zh, zh
    last = describe(r.consequences[1], "zh_CN")
    assert ("上台" in last) == (r.deal.value == "defenders")
    assert ("连庄" in last) == (r.deal.value == "declarers")


def test_a_last_trick_without_points_changes_nothing_and_says_so() -> None:
    """7.3: the dig is L × c; with L = 0 the defenders' points stay as they are."""
    from referee_desk.rules.result import last_trick_dig
    from referee_desk.rules.wording import describe

    for winner in ("declarers", "defenders"):
        final, step = last_trick_dig(100, 0, 1, winner, GUILIN_2009)
        assert final == 100
        assert step.article == "7.3"
        assert "−0" not in step.text and "+0" not in step.text
        assert "100" in describe(step, "zh_CN") and "无分" in describe(step, "zh_CN")
