"""Hand results (7.1-7.3) and the penalties of chapter 8 as the replay applies them."""

from __future__ import annotations

from referee_desk.rules.cards import Rank
from referee_desk.rules.seats import Seat, Side

L = {label: rank for rank in Rank for label in [rank.label]}


def test_worked_check_last_trick_dig(table):
    """RULES 11: defenders 155, declarers win a last trick of pairs holding 25: D = 105 → +2."""
    table.race_hand("E", "S")  # EW declarers
    table.summary(155, last=25, cards=2, side="EW")
    state = table.state
    hand = state.hands[-1]
    assert hand.result.defenders_final == 155 - 25 * 2
    assert state.levels == {Side.EW: L["5"], Side.NS: L["3"]}
    assert hand.last_trick.score == -50
    assert state.next_dealer == Seat.W  # 连庄: the dealer's partner deals
    lines = [str(c) for c in state.consequences]
    assert any(line.startswith("7.3:") and "−25×2" in line for line in lines)
    assert any(line.startswith("7.2:") for line in lines)


def test_defenders_take_the_deal(table):
    """7.1: 160-195 +0, 200-235 +1 … the defenders take the deal; next dealer after the dealer."""
    table.race_hand("N", "H")
    table.summary(200, last=10, cards=1, side="EW")  # 200 + 10 = 210 → b = 1
    state = table.state
    assert state.levels == {Side.NS: L["3"], Side.EW: L["4"]}
    assert state.next_dealer == Seat.N.next_in_play == Seat.W
    assert state.deal_holder == Side.EW
    assert state.shuffler.side == Side.EW and state.cutter.side == Side.NS  # 2.3


def test_wrong_play_by_declarer_and_defender(table):
    """8.2: each card played in error costs p points [P misplay_points_per_card=10]."""
    table.race_hand("N", "H")
    table.ev("wrong_play", {"seat": "S", "cards_exposed": 2, "cards": ["HA", "HK"]})  # declarer
    table.ev("wrong_play", {"seat": "E", "cards_exposed": 1})  # defender
    assert table.state.current_hand.defenders_points == 2 * 10 - 1 * 10
    table.summary(150)  # 150 + 20 − 10 = 160 → EW take the deal +0
    hand = table.state.hands[-1]
    assert hand.result.defenders_final == 160
    assert hand.result.taken and table.state.levels == {Side.NS: L["3"], Side.EW: L["3"]}
    arts = [v.article for v in hand.violations]
    assert arts == ["8.2", "8.2"]


def test_wrong_play_card_count_must_match(table):
    table.race_hand("N", "H")
    msg = table.refused("wrong_play", {"seat": "E", "cards_exposed": 2, "cards": ["HA"]})
    assert "2 cards exposed but 1" in msg


def test_revoke_choice_a_non_offending_defenders_take_deal_up_two(table):
    """8.3 A: 按升二级进入下一盘."""
    table.race_hand("N", "H")  # NS declarers, EW defend
    table.ev("revoke", {"seat": "S", "kind": "not_following", "trick": 7})
    assert table.state.current_hand.status == "revoked"
    table.ev("penalty_choice", {"seat": "E", "choice": "A"})
    state = table.state
    assert state.levels == {Side.NS: L["3"], Side.EW: L["5"]}
    assert state.deal_holder == Side.EW and state.next_dealer == Seat.W
    assert any(str(c).startswith("8.3 A:") for c in state.consequences)


def test_revoke_choice_b_adds_160_when_declarers_offend(table):
    """8.3 B: 在防守方己得分值中增加或减少160分作为防守方最终得分."""
    table.race_hand("N", "H")
    table.ev("revoke", {"seat": "N", "kind": "withheld", "defenders_points": 45})
    table.ev("penalty_choice", {"seat": "W", "choice": "B"})
    hand = table.state.hands[-1]
    assert hand.result.defenders_final == 45 + 160  # b = floor(45/40) = 1
    assert table.state.levels == {Side.NS: L["3"], Side.EW: L["4"]}
    assert any(str(c).startswith("8.3 B: +160 to defenders") for c in table.state.consequences)


def test_revoke_choice_b_subtracts_160_when_defenders_offend(table):
    table.race_hand("N", "H")
    table.ev("revoke", {"seat": "E", "kind": "wrong_follow", "defenders_points": 100})
    table.ev("penalty_choice", {"seat": "S", "choice": "B"})
    hand = table.state.hands[-1]
    assert hand.result.defenders_final == 100 - 160
    # b = floor((−60 − 160) / 40) = −6 → declarers +6: 3 → 9
    assert table.state.levels[Side.NS] == L["9"]


def test_penalty_choice_by_offending_side_is_refused(table):
    table.race_hand("N", "H")
    table.ev("revoke", {"seat": "E", "kind": "card_count", "defenders_points": 30})
    msg = table.refused("penalty_choice", {"seat": "W", "choice": "A"})
    assert "8.3" in msg and "offending side EW" in msg


def test_revoke_b_needs_points_as_they_stand(table):
    table.race_hand("N", "H")
    table.ev("revoke", {"seat": "E", "kind": "card_count"})
    assert "defenders' captured points" in table.refused(
        "penalty_choice", {"seat": "N", "choice": "B"}
    )
    table.ev("penalty_choice", {"seat": "N", "choice": "A"})


def test_conduct_warnings_escalate_to_disqualification(table):
    """8.8: 由对方告知裁判予以一次警告，若再次犯规，当即由在场裁判上报比赛仲裁委员会."""
    table.race_hand("N", "H")
    assert "8.8" in table.refused(
        "committee_decision", {"side": "EW", "decision": "disqualification", "text": "x"}
    )
    table.ev("conduct_warning", {"seat": "E", "text": "暗示"})
    assert table.state.warnings[Side.EW] == 1 and not table.state.referred
    table.ev("conduct_warning", {"seat": "W", "text": "交谈"})
    assert table.state.referred == {Side.EW}
    table.ev(
        "committee_decision",
        {"side": "EW", "decision": "disqualification", "text": "取消比赛资格"},
    )
    end = table.state.end
    assert (end.reason, end.winner, end.article) == ("disqualification", Side.NS, "8.8")


def test_think_overrun_is_recorded_and_may_count_as_warning(table):
    """8.9: 每位队员在出牌时，允许有最多10秒钟的思考时间."""
    table.race_hand("N", "H")
    assert "within" in table.refused("think_overrun", {"seat": "E", "seconds": 10})
    table.ev("think_overrun", {"seat": "E", "seconds": 25})
    state = table.state
    assert state.overruns[Side.EW] == 1 and state.warnings[Side.EW] == 0


def test_think_overrun_counts_as_warning_with_parameter():
    """[P overrun_counts_as_warning]: an overrun then counts as a conduct warning (8.8)."""
    from match_table import Table

    t = Table(overrun_counts_as_warning=True).start()
    t.race_hand("N", "H")
    t.ev("think_overrun", {"seat": "N", "seconds": 14})
    t.ev("think_overrun", {"seat": "S", "seconds": 30})
    assert t.state.warnings[Side.NS] == 2 and t.state.referred == {Side.NS}


def test_forfeit_ends_the_match(table):
    """8.10: 弃权的一方在该轮比赛当中所获取到的分数是0分，并非弃权的一方得以晋升."""
    table.race_hand("N", "H")
    table.ev("forfeit", {"side": "NS", "text": "队员离场"})
    state = table.state
    assert (state.end.reason, state.end.winner) == ("forfeit", Side.EW)
    assert state.hands[-1].status == "voided"


def test_committee_ruling_adjusts_levels_and_points(table):
    """8.11: the committee's ruling is recorded with any level or point adjustment."""
    table.race_hand("N", "H")
    table.ev(
        "committee_ruling",
        {"text": "牌张散乱, 扣分", "level_changes": {"EW": 1}, "defenders_points": -20},
    )
    assert table.state.levels[Side.EW] == L["4"]
    table.summary(180)  # 180 − 20 = 160 → EW take the deal, +0
    assert table.state.hands[-1].result.defenders_final == 160
    assert "ladder" in table.refused("committee_ruling", {"text": "x", "level_changes": {"NS": -1}})
