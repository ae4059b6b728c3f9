"""Review: the penalties of chapter 8 (RULES.md 9) with values worked out by hand.

Hands are won in the race by N unless said otherwise: NS declarers, EW defenders, both
at 3; N → W → S → E is the play order, so a taken deal passes from N to W.
"""

from __future__ import annotations

import pytest
from test_review_helpers import Desk, started

from referee_desk.rules.seats import Seat, Side

# -- 8.2 wrong play ------------------------------------------------------------------------

# (p, [(seat, cards exposed)], summary points before last, D, NS, EW, holder)
WRONG_PLAYS = [
    # Declarer S exposes 2: +20 to the defenders; 150 + 20 = 170 → EW take, +0.
    (10, [("S", 2)], 150, 170, "3", "3", "EW"),
    # Defender E exposes 3: −30; 150 − 30 = 120 → NS keep, +1.
    (10, [("E", 3)], 150, 120, "4", "3", "NS"),
    # Both: +20 − 10 = +10; 150 + 10 = 160 → EW take, +0.
    (10, [("N", 2), ("W", 1)], 150, 160, "3", "3", "EW"),
    # [P misplay_points_per_card=5]: declarer 3 cards → +15; 185 + 15 = 200 → EW +1.
    (5, [("N", 3)], 185, 200, "3", "4", "EW"),
    # Defenders' points may go negative: 0 − 40 = −40 → b = −5 → NS +5 → 8.
    (10, [("E", 4)], 0, -40, "8", "3", "NS"),
]


@pytest.mark.parametrize(("p", "plays", "before", "final", "ns", "ew", "holder"), WRONG_PLAYS)
def test_wrong_play_points(p, plays, before, final, ns, ew, holder):
    """8.2: 按照每一张以一（）分来计算扣除抑或是加分 — p × cards: a defender offender's are
    subtracted from the defenders' points, a declarer offender's added."""
    d = started(misplay_points_per_card=p)
    d.race("N", "H")
    for seat, n in plays:
        d.ev("wrong_play", {"seat": seat, "cards_exposed": n})
    expected_adjust = sum(p * n * (1 if Seat(seat).side == Side.NS else -1) for seat, n in plays)
    assert d.state.current_hand.defenders_points == expected_adjust
    d.summary(before)
    s = d.state
    hand = s.hands[-1]
    assert hand.result.defenders_final == final
    assert d.levels() == (ns, ew)
    assert s.deal_holder == Side(holder)
    assert [v.article for v in hand.violations] == ["8.2"] * len(plays)
    lines = [str(c) for c in s.consequences if c.article == "8.2"]
    assert len(lines) == len(plays)


def test_wrong_play_needs_a_hand_in_play():
    """8.2 is about cards played: no wrong play before trump and declarers are known."""
    d = started()
    d.refused("wrong_play", {"seat": "E", "cards_exposed": 1})
    d.ev("hand_started", {"dealer": None})
    d.refused("wrong_play", {"seat": "E", "cards_exposed": 1})


def _trick(leader, *plays, last=False):
    """A trick payload; plays are (seat, cards) or (seat, cards, discarded)."""
    out = []
    for play in plays:
        item = {"seat": play[0], "cards": list(play[1])}
        if len(play) > 2:
            item["discarded"] = play[2]
        out.append(item)
    payload = {"leader": leader, "plays": out}
    if last:
        payload["last"] = True
    return payload


def test_replacement_cards_cannot_win_the_trick():
    """8.2: 而后再拿来换出的牌，不管其大小究竟有多么大，全部都作为垫牌进行处理.

    Level 3, trump ♥. N leads ♠4; W's ♠A is played in place of a wrong play (a
    discard), so among the rest ♠K (E) wins: E is a defender and captures ♠K = 10.
    """
    d = started()
    d.race("N", "H")
    d.ev("wrong_play", {"seat": "W", "cards_exposed": 1, "cards": ["D9"]})  # −10
    d.ev(
        "trick",
        _trick("N", ("N", ["S4"]), ("W", ["SA"], True), ("S", ["S6"]), ("E", ["SK"])),
    )
    hand = d.state.current_hand
    assert hand.tricks[0].winner == Seat.E
    assert hand.tricks[0].points == 10
    assert hand.defenders_points == 10 - 10


def test_replacement_trump_cannot_ruff():
    """8.2: even a trump played as a replacement is a discard: ♠6 (S) wins, not W's ♥7."""
    d = started()
    d.race("N", "H")
    d.ev(
        "trick",
        _trick("N", ("N", ["S4"]), ("W", ["H7"], True), ("S", ["S6"]), ("E", ["S5"])),
    )
    hand = d.state.current_hand
    assert hand.tricks[0].winner == Seat.S
    assert hand.defenders_points == 0  # ♠5 went to the declarers


# -- trick refusals named in the issue -----------------------------------------------------


def test_fifth_copy_of_a_card_in_play_is_refused():
    """RULES 1: each distinct card exists exactly 4 times (1.4): a fifth ♠5 is refused."""
    d = started()
    d.race("N", "H")
    d.ev("trick", _trick("N", ("N", ["S5"]), ("W", ["S5"]), ("S", ["S5"]), ("E", ["S5"])))
    # Among equals the one played first wins (5.1): N leads again.
    assert d.state.current_hand.tricks[0].winner == Seat.N
    msg = d.refused(
        "trick", _trick("N", ("N", ["S5"]), ("W", ["S6"]), ("S", ["S7"]), ("E", ["S8"]))
    )
    assert "1.4" in msg


def test_fifth_copy_within_one_trick_is_refused():
    """RULES 1: a pair lead and three more ♦9 in one trick would be five copies."""
    d = started()
    d.race("N", "H")
    d.refused(
        "trick",
        _trick(
            "N",
            ("N", ["D9", "D9"]),
            ("W", ["D9", "D9"]),
            ("S", ["D9", "D4"]),
            ("E", ["D5", "D6"]),
        ),
    )


def test_a_seat_playing_twice_in_a_trick_is_refused():
    """Issue 3: a seat playing twice in a trick is refused (one card set per seat, 1.3)."""
    d = started()
    d.race("N", "H")
    msg = d.refused(
        "trick", _trick("N", ("N", ["S4"]), ("W", ["S6"]), ("N", ["S7"]), ("E", ["S8"]))
    )
    assert "twice" in msg


def test_plays_out_of_order_are_refused():
    """RULES 1: play goes counter-clockwise N → W → S → E."""
    d = started()
    d.race("N", "H")
    d.refused("trick", _trick("N", ("N", ["S4"]), ("E", ["S6"]), ("S", ["S7"]), ("W", ["S8"])))


# -- 8.3 劳改 -----------------------------------------------------------------------------

# (offender, chooser, choice, defenders_points, D, NS, EW, holder, next dealer, article)
REVOKES = [
    # A by the defenders (declarer S offended): EW +2 → 5 and take the deal; next after N: W.
    ("S", "E", "A", None, None, "3", "5", "EW", "W", "8.3 A"),
    # A by the declarers (defender E offended): NS +2 → 5, keep; next N's partner S.
    ("E", "N", "A", None, None, "5", "3", "NS", "S", "8.3 A"),
    # B, declarers offended: 45 + 160 = 205 → b = 1 → EW +1, take.
    ("N", "W", "B", 45, 205, "3", "4", "EW", "W", "8.3 B"),
    # B, declarers offended: 120 + 160 = 280 → b = 3 → EW 6.
    ("N", "E", "B", 120, 280, "3", "6", "EW", "W", "8.3 B"),
    # B, declarers offended: 0 + 160 = 160 → b = 0 → EW take, +0.
    ("S", "W", "B", 0, 160, "3", "3", "EW", "W", "8.3 B"),
    # B, defenders offended: 100 − 160 = −60 → b = ⌊−220/40⌋ = −6 → NS +6 → 9.
    ("W", "S", "B", 100, -60, "9", "3", "NS", "S", "8.3 B"),
    # B, defenders offended: 0 − 160 = −160 → b = −8 → NS +8 → J.
    ("E", "N", "B", 0, -160, "J", "3", "NS", "S", "8.3 B"),
    # B, defenders offended: 200 − 160 = 40 → b = −3 → NS +3 → 6.
    ("E", "S", "B", 200, 40, "6", "3", "NS", "S", "8.3 B"),
]


@pytest.mark.parametrize(
    ("offender", "chooser", "choice", "points", "final", "ns", "ew", "holder", "nxt", "art"),
    REVOKES,
)
def test_revoke_choice(offender, chooser, choice, points, final, ns, ew, holder, nxt, art):
    """8.3: 此盘比赛宣告结束 … 由未违规的一方 … 挑选: A 按升二级进入下一盘; B 在防守方己得分值中
    增加或减少160分作为防守方最终得分."""
    d = started()
    d.race("N", "H")
    payload = {"seat": offender, "kind": "not_following", "trick": 9}
    if points is not None:
        payload["defenders_points"] = points
    d.ev("revoke", payload)
    # The hand ends at once: no more play, no result in summary form.
    assert d.state.current_hand.status == "revoked"
    d.refused(
        "hand_summary",
        {
            "defenders_points_before_last": 100,
            "last_trick_points": 0,
            "last_trick_cards_per_player": 1,
            "last_trick_side": "NS",
        },
    )
    # The choice belongs to the non-offending side.
    msg = d.refused("penalty_choice", {"seat": Seat(offender).partner.value, "choice": choice})
    assert "8.3" in msg
    msg = d.refused("penalty_choice", {"seat": offender, "choice": choice})
    assert "8.3" in msg
    d.ev("penalty_choice", {"seat": chooser, "choice": choice})
    s = d.state
    hand = s.hands[-1]
    assert hand.status == "finished"
    assert hand.result.defenders_final == final
    assert d.levels() == (ns, ew)
    assert s.deal_holder == Side(holder)
    assert s.next_dealer == Seat(nxt)
    assert (s.shuffler.side, s.cutter.side) == (Side(holder), Side(holder).other)
    assert [v.article for v in hand.violations] == ["8.3"]
    assert any(str(c).startswith(art + ":") for c in s.consequences), [
        str(c) for c in s.consequences
    ]
    if choice == "B":
        sign = "+160" if Seat(offender).side == Side.NS else "−160"
        assert any(str(c).startswith(f"8.3 B: {sign}") for c in s.consequences)


def test_revoke_b_counts_wrong_play_points_as_they_stand():
    """8.3 B: ±160 "to the defenders' points as they stand" — 8.2 adjustments included.

    Declarer S exposed 2 cards: +20. Defender E revokes with 130 captured: 130 + 20 =
    150 as they stand; 150 − 160 = −10 → b = ⌊−170/40⌋ = −5 → NS +5 → 8.
    """
    d = started()
    d.race("N", "H")
    d.ev("wrong_play", {"seat": "S", "cards_exposed": 2})
    d.ev("revoke", {"seat": "E", "kind": "withheld", "defenders_points": 130})
    d.ev("penalty_choice", {"seat": "N", "choice": "B"})
    assert d.state.hands[-1].result.defenders_final == -10
    assert d.levels() == ("8", "3")


def test_revoke_in_detailed_hand_uses_the_derived_points():
    """8.3 B in a trick-by-trick hand: the defenders' points come from the tricks.

    Trump ♥ at 3; E (defender) wins trick 1 with ♠K: 10 + ♠5 + ♠10 = 25 captured.
    W then revokes; declarers N-S choose B: 25 − 160 = −135 → b = ⌊−295/40⌋ = −8 → +8 → J.
    """
    d = started()
    d.race("N", "H")
    d.ev("trick", _trick("N", ("N", ["S4"]), ("W", ["S5"]), ("S", ["S10"]), ("E", ["SK"])))
    d.ev("trick", _trick("E", ("E", ["D6"]), ("N", ["D7"]), ("W", ["D8"]), ("S", ["D9"])))
    assert d.state.current_hand.defenders_points == 25
    d.refused("revoke", {"seat": "W", "kind": "wrong_follow", "trick": 1, "defenders_points": 40})
    d.ev("revoke", {"seat": "W", "kind": "wrong_follow", "trick": 1})
    d.ev("penalty_choice", {"seat": "S", "choice": "B"})
    assert d.state.hands[-1].result.defenders_final == -135
    assert d.levels() == ("J", "3")


def test_revoke_is_not_accepted_in_bidding_or_twice():
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.refused("revoke", {"seat": "E", "kind": "withheld", "defenders_points": 0})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("bidding_closed", {"dealer": "N", "trump": "H"})
    d.ev("revoke", {"seat": "E", "kind": "withheld", "defenders_points": 0})
    d.refused("revoke", {"seat": "N", "kind": "withheld", "defenders_points": 0})
    d.refused("trick", _trick("N", ("N", ["S4"]), ("W", ["S5"]), ("S", ["S6"]), ("E", ["S7"])))


def _ns_at_a() -> Desk:
    """N dealer: 0 − 25×2 = −50 → NS +6 → 9; S dealer: −50 → +6 → A (cap). Next: N."""
    d = started()
    d.race("N", "H")
    d.summary(0, 25, 2, "NS")
    d.rotation_hand()
    d.summary(0, 25, 2, "NS")
    assert d.levels() == ("A", "3") and d.state.next_dealer == Seat.N
    return d


def test_revoke_a_at_a_is_capped_and_does_not_pass_a():
    """8.3 A with RULES 9.3: "the cap at A applies" — NS at A choosing A stay at A."""
    d = _ns_at_a()
    d.rotation_hand()
    d.ev("revoke", {"seat": "E", "kind": "withheld"})
    d.ev("penalty_choice", {"seat": "S", "choice": "A"})
    s = d.state
    assert d.levels() == ("A", "3")
    assert s.end is None and s.passed_a is None
    assert (s.deal_holder, s.next_dealer) == (Side.NS, Seat.S)


def test_revoke_b_at_a_then_section_7_can_pass_a():
    """8.3 B: the ±160 score is the defenders' final score "for section 7"; NS at A as
    declarers with 80 − 160 = −80 < 160 keep the deal at A → pass A (1.5)."""
    d = _ns_at_a()
    d.rotation_hand()
    d.ev("revoke", {"seat": "W", "kind": "withheld", "defenders_points": 80})
    d.ev("penalty_choice", {"seat": "N", "choice": "B"})
    s = d.state
    assert s.hands[-1].result.defenders_final == -80
    assert (s.end.reason, s.end.winner) == ("passed_a", Side.NS)


def test_revoke_a_defenders_near_a_take_the_deal_capped():
    """8.3 A: "if it was defending, it also takes the deal … the cap at A applies".

    E race: 0 − 25×2 = −50 → EW +6 → 9, next W; W deals: D = 0 → b = −4 → EW +4 → K,
    next E; E deals at K: D = 200 → NS +1 → 4 and take, next after E: N. N deals, NS
    declare at 4, N revokes: EW (defending at K) choose A → K + 2 stops at A, EW take
    the deal, next after N: W.
    """
    d = started()
    d.race("E", "S")
    d.summary(0, 25, 2, "EW")
    assert d.levels() == ("3", "9")
    d.rotation_hand()
    d.summary(0)
    assert d.levels() == ("3", "K")
    d.rotation_hand()
    d.summary(200)
    assert d.levels() == ("4", "K") and d.state.next_dealer == Seat.N
    d.rotation_hand()
    d.ev("revoke", {"seat": "N", "kind": "card_count"})
    d.ev("penalty_choice", {"seat": "W", "choice": "A"})
    s = d.state
    assert d.levels() == ("4", "A")
    assert s.end is None
    assert (s.deal_holder, s.next_dealer) == (Side.EW, Seat.W)


# -- 8.8 conduct, 8.9 thinking time --------------------------------------------------------


def test_conduct_first_warning_then_committee_then_disqualification():
    """8.8: 由对方告知裁判予以一次警告，若再次犯规，当即由在场裁判上报比赛仲裁委员会，宣布取消
    违规一方的比赛资格."""
    d = started()
    d.race("N", "H")
    d.ev("conduct_warning", {"seat": "E", "text": "交谈"})
    d.ev("conduct_warning", {"seat": "N", "text": "示意"})
    s = d.state
    # Offences count per side: one each, both only warned.
    assert s.warnings == {Side.NS: 1, Side.EW: 1} and not s.referred
    d.refused("committee_decision", {"side": "EW", "decision": "disqualification", "text": "x"})
    d.ev("conduct_warning", {"seat": "W", "text": "查看分数"})
    s = d.state
    assert s.warnings[Side.EW] == 2 and s.referred == {Side.EW}
    assert any(c.article == "8.8" and "committee" in c.text for c in s.consequences)
    # The committee decides about the referred side only.
    d.refused("committee_decision", {"side": "NS", "decision": "disqualification", "text": "x"})
    d.ev("committee_decision", {"side": "EW", "decision": "disqualification", "text": "取消资格"})
    s = d.state
    assert (s.end.reason, s.end.winner, s.end.article) == ("disqualification", Side.NS, "8.8")
    assert s.hands[-1].status == "voided"
    assert s.locked


def test_committee_warning_only_does_not_end_and_a_third_offence_is_referred_again():
    d = started()
    d.race("N", "H")
    for text in ("交谈", "示意"):
        d.ev("conduct_warning", {"seat": "S", "text": text})
    d.ev("committee_decision", {"side": "NS", "decision": "warning_only", "text": "再次警告"})
    assert d.state.end is None and not d.state.referred
    d.ev("conduct_warning", {"seat": "N", "text": "翻看牌张"})
    assert d.state.referred == {Side.NS}


@pytest.mark.parametrize(("counts", "warnings", "referred"), [(False, 0, False), (True, 2, True)])
def test_think_overrun(counts, warnings, referred):
    """8.9: 最多10秒钟的思考时间 [P think_seconds=10]; an overrun is recorded
    [P overrun_counts_as_warning]: with true it counts as a conduct warning (8.8)."""
    d = started(overrun_counts_as_warning=counts)
    d.race("N", "H")
    d.refused("think_overrun", {"seat": "E", "seconds": 10})
    d.ev("think_overrun", {"seat": "E", "seconds": 11})
    d.ev("think_overrun", {"seat": "W", "seconds": 40})
    s = d.state
    assert s.overruns == {Side.NS: 0, Side.EW: 2}
    assert s.warnings[Side.EW] == warnings
    assert (Side.EW in s.referred) is referred
    assert [v.article for v in s.violations if v.kind == "think_overrun"] == ["8.9", "8.9"]


def test_think_overrun_and_conduct_warning_add_up_with_parameter():
    """[P overrun_counts_as_warning=true]: overrun + a conduct warning = second offence."""
    d = started(overrun_counts_as_warning=True)
    d.race("N", "H")
    d.ev("think_overrun", {"seat": "S", "seconds": 15})
    d.ev("conduct_warning", {"seat": "N", "text": "交谈"})
    assert d.state.referred == {Side.NS}


# -- 8.10 forfeit, 8.11 committee ruling ---------------------------------------------------


@pytest.mark.parametrize(("side", "winner"), [("NS", "EW"), ("EW", "NS")])
def test_forfeit_loses_and_scores_zero(side, winner):
    """8.10: 弃权的一方在该轮比赛当中所获取到的分数是0分，并非弃权的一方得以晋升."""
    d = started()
    d.race("N", "H")
    d.ev("forfeit", {"side": side, "text": "队员缺席"})
    s = d.state
    assert (s.end.reason, s.end.winner, s.end.article) == ("forfeit", Side(winner), "8.10")
    assert "0" in s.end.text
    assert s.hands[-1].status == "voided"
    d.refused("forfeit", {"side": winner})
    d.refused("match_ended", {"reason": "forfeit", "winner": side})
    d.ev("match_ended", {"reason": "forfeit", "winner": winner})


def test_committee_ruling_applied_as_entered():
    """8.11: 由仲裁委员会 … 另外去作出处理 — level and point adjustments applied as entered.

    EW +2 (3 → 5), NS +1 (3 → 4); −30 to the defenders EW: 190 − 30 = 160 → EW take, +0.
    """
    d = started()
    d.race("N", "H")
    d.ev(
        "committee_ruling",
        {"text": "裁定", "level_changes": {"EW": 2, "NS": 1}, "defenders_points": -30},
    )
    assert d.levels() == ("4", "5")
    assert d.state.current_hand.defenders_points == -30
    d.summary(190)
    s = d.state
    assert s.hands[-1].result.defenders_final == 160
    assert d.levels() == ("4", "5") and s.deal_holder == Side.EW
    assert any(c.article == "8.11" for c in s.consequences)


def test_committee_ruling_accepted_after_the_match_is_locked():
    """8.11 / docs: a committee ruling after the end is recorded and applied."""
    d = started()
    d.race("N", "H")
    d.ev("forfeit", {"side": "EW"})
    d.ev("committee_ruling", {"text": "赛后裁定", "level_changes": {"NS": 1}})
    s = d.state
    assert d.levels() == ("4", "3")
    assert (s.end.reason, s.end.winner) == ("forfeit", Side.NS)
    assert any(c.article == "8.11" for c in s.consequences)


def test_committee_point_adjustment_counts_for_revoke_b():
    """8.11 then 8.3 B: E revokes with 100 captured; the committee takes 20 from the
    defenders (as entered): 80 as they stand; 80 − 160 = −80 → b = −6 → NS +6 → 9."""
    d = started()
    d.race("N", "H")
    d.ev("revoke", {"seat": "E", "kind": "withheld", "defenders_points": 100})
    d.ev("committee_ruling", {"text": "扣分", "defenders_points": -20})
    d.ev("penalty_choice", {"seat": "S", "choice": "B"})
    assert d.state.hands[-1].result.defenders_final == -80
    assert d.levels() == ("9", "3")


def test_violation_consequences_carry_articles():
    """Issue 3: each consequence names its article: 8.2, 8.8, 8.9, 8.10."""
    d = started()
    d.race("N", "H")
    d.ev("wrong_play", {"seat": "E", "cards_exposed": 1})
    d.ev("conduct_warning", {"seat": "E", "text": "交谈"})
    d.ev("think_overrun", {"seat": "S", "seconds": 12})
    d.ev("forfeit", {"side": "EW"})
    arts = {c.article for c in d.state.consequences}
    assert {"8.2", "8.8", "8.9", "8.10"} <= arts
    line = next(str(c) for c in d.state.consequences if c.article == "8.2")
    assert "10" in line and "defenders" in line
