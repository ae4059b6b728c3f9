"""Review: bidding (Guilin 2.1, 2.2; RULES.md 8) and the bidding violations 8.1, 8.5, 8.6.

Expected values are derived from RULES.md by hand and written as literals.
"""

from __future__ import annotations

import pytest
from test_review_helpers import Desk, started

from referee_desk.rules.seats import Seat, Side

# -- 2.1: the opening bid ------------------------------------------------------------------

OPENING_REFUSED = [
    # 2.1: 必须带有一张（而且仅仅只能是一张）小王 — exactly one LJ plus k ≥ 1 level cards (3s).
    pytest.param(["H3"], id="level-card-without-LJ"),
    pytest.param(["LJ"], id="LJ-alone"),
    pytest.param(["LJ", "LJ", "H3"], id="two-LJ"),
    pytest.param(["BJ", "H3"], id="BJ-instead-of-LJ"),
    pytest.param(["LJ", "BJ", "H3"], id="LJ-and-BJ"),
    pytest.param(["LJ", "H3", "S3"], id="mixed-suits"),
    pytest.param(["LJ", "H4"], id="non-level-card"),
    pytest.param(["LJ", "H2"], id="a-2-is-never-a-level"),
    pytest.param(["LJ", "H3", "H4"], id="level-card-plus-non-level-card"),
]


@pytest.mark.parametrize("cards", OPENING_REFUSED)
def test_opening_bid_shape_refused(cards):
    """RULES 8 / 2.1: an opening bid is exactly one LJ plus k ≥ 1 level cards of one suit."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.refused("bid", {"seat": "N", "kind": "dark", "cards": cards})
    assert d.state.current_hand.bids == ()


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_opening_bid_with_k_level_cards_accepted(k):
    """RULES 8 / 2.1: one LJ plus k ≥ 1 level cards (3s) of one suit; the count is k."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "W", "kind": "dark", "cards": ["LJ"] + ["C3"] * k})
    bid = d.state.current_hand.bids[-1]
    assert (bid.seat, bid.count, bid.suit.value) == (Seat.W, k, "C")


# -- 2.1: counters -------------------------------------------------------------------------

# (standing level cards, counter level cards, accepted?) — 2.1: 2反1，3反2，依此类推.
COUNTERS = [
    (1, 1, False),
    (1, 2, True),
    (1, 3, True),
    (2, 2, False),
    (2, 3, True),
    (3, 2, False),
    (3, 4, True),
]


@pytest.mark.parametrize(("standing", "counter", "ok"), COUNTERS)
def test_counter_needs_more_level_cards(standing, counter, ok):
    """RULES 8: a counter needs more level cards than the standing bid (2 counters 1)."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ"] + ["H3"] * standing})
    payload = {"seat": "E", "kind": "counter", "cards": ["LJ"] + ["S3"] * counter}
    if ok:
        d.ev("bid", payload)
        d.ev("bidding_closed", {"dealer": "E", "trump": "S"})
        hand = d.state.current_hand
        assert (hand.dealer, hand.declarers, hand.trump.value) == (Seat.E, Side.EW, "S")
    else:
        d.refused("bid", payload)
        # The standing bid holds: N is the last standing bidder (2.1 抢庄).
        d.ev("bidding_closed", {"dealer": "N", "trump": "H"})
        assert d.state.current_hand.dealer == Seat.N


def test_counter_in_the_race_still_needs_the_lj():
    """2.1: every bid of the opening hand carries exactly one LJ (counters too)."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.refused("bid", {"seat": "E", "kind": "counter", "cards": ["S3", "S3"]})
    d.refused("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "S3", "D3"]})


def test_no_player_counters_their_own_bid_but_a_partner_may():
    """RULES 8 / 2.1: 不允许自身对自己进行反叫 — "no player may counter their own bid".

    RULES.md names the player, not the side, so the partner's counter is a counter.
    """
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    msg = d.refused("bid", {"seat": "N", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    assert "2.1" in msg
    d.ev("bid", {"seat": "S", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    d.ev("bidding_closed", {"dealer": "S", "trump": "S"})
    assert d.state.current_hand.dealer == Seat.S


def test_a_countered_bidder_may_counter_back():
    """2.1: N's bid is no longer standing once E countered it, so N may counter E (3 反 2)."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    d.ev("bid", {"seat": "N", "kind": "counter", "cards": ["LJ", "D3", "D3", "D3"]})
    d.ev("bidding_closed", {"dealer": "N", "trump": "D"})
    assert d.state.current_hand.trump.value == "D"


# -- 2.1: reinforce ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bidder", "suit", "added", "opponent", "needed"),
    [
        # 1加1: one bid level card + 1 = 2 → a counter needs 3.
        ("N", "H", 1, "E", 3),
        # 1加2: 1 + 2 = 3 → a counter needs 4. Both sides may reinforce (双方都能够自由地进行加固).
        ("E", "C", 2, "S", 4),
    ],
)
def test_reinforce_raises_what_a_counter_needs(bidder, suit, added, opponent, needed):
    """RULES 8: a player adds level cards of the bid's suit to their own standing bid."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": bidder, "kind": "dark", "cards": ["LJ", suit + "3"]})
    d.ev("bid", {"seat": bidder, "kind": "reinforce", "cards": [suit + "3"] * added})
    assert d.state.current_hand.bids[-1].count == 1 + added
    other = "D" if suit != "D" else "S"
    d.refused(
        "bid", {"seat": opponent, "kind": "counter", "cards": ["LJ"] + [other + "3"] * (needed - 1)}
    )
    d.ev("bid", {"seat": opponent, "kind": "counter", "cards": ["LJ"] + [other + "3"] * needed})


REINFORCE_REFUSED = [
    # Only one's own standing bid can be reinforced (RULES 8: "to their own standing bid").
    pytest.param("S", ["H3"], id="partner-reinforces"),
    pytest.param("E", ["H3"], id="opponent-reinforces"),
    # Level cards of the standing bid's suit only.
    pytest.param("N", ["S3"], id="other-suit"),
    pytest.param("N", ["H4"], id="non-level-card"),
    pytest.param("N", ["LJ"], id="a-second-LJ"),
    # N already shows one ♥3; four more would be a fifth copy (RULES 1, 1.4).
    pytest.param("N", ["H3"] * 4, id="fifth-copy"),
]


@pytest.mark.parametrize(("seat", "cards"), REINFORCE_REFUSED)
def test_reinforce_refused(seat, cards):
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.refused("bid", {"seat": seat, "kind": "reinforce", "cards": cards})


def test_reinforce_after_being_countered_is_refused():
    """RULES 8: reinforce applies to one's own *standing* bid; N's bid no longer stands."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    d.refused("bid", {"seat": "N", "kind": "reinforce", "cards": ["H3", "H3"]})


def test_fifth_copy_across_two_seats_bids_is_refused():
    """RULES 1: each card exists 4 times; N shows ♥3 ×2, E may not show ♥3 ×3."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3", "H3"]})
    d.refused("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "H3", "H3", "H3"]})


# -- 2.2 and the rotation: later hands ------------------------------------------------------


def _second_hand() -> Desk:
    """Hand 1: N wins the race; D = 100 → b = ⌊(100−160)/40⌋ = −2: NS 3 → 5, keep (7.2).

    Next dealer: declarers kept the deal → the dealer's partner, S (RULES 7).
    """
    d = started()
    d.race("N", "H")
    d.summary(100)
    assert d.levels() == ("5", "3")
    assert d.state.next_dealer == Seat.S
    return d


def test_later_hand_bids_need_no_lj_and_use_the_declarers_level():
    """2.2: 除开局打"3"外，余下均不需要带小王叫牌; the level in play is the declarers' (RULES 2)."""
    d = _second_hand()
    d.ev("hand_started", {"dealer": "S"})
    assert d.state.current_hand.level.label == "5"
    # E (EW at 3) must show the level in play, 5, not their own 3.
    d.refused("bid", {"seat": "E", "kind": "dark", "cards": ["D3"]})
    d.ev("bid", {"seat": "E", "kind": "dark", "cards": ["D5"]})
    # A counter still needs more level cards (2.1 carries over).
    d.refused("bid", {"seat": "N", "kind": "counter", "cards": ["S5"]})
    d.ev("bid", {"seat": "N", "kind": "counter", "cards": ["S5", "S5"]})
    # Bidding only sets trump: the dealer stays S (rotation), not the last bidder.
    d.refused("bidding_closed", {"dealer": "N", "trump": "S"})
    d.refused("bidding_closed", {"dealer": "S", "trump": "D"})
    d.ev("bidding_closed", {"dealer": "S", "trump": "S"})
    hand = d.state.current_hand
    assert (hand.dealer, hand.declarers, hand.level.label, hand.trump_label) == (
        Seat.S,
        Side.NS,
        "5",
        "S",
    )


def test_later_hand_defenders_bid_sets_trump_only():
    """RULES 8: later hands — the dealer comes from rotation and bidding only sets trump."""
    d = _second_hand()
    d.ev("hand_started", {"dealer": "S"})
    d.ev("bid", {"seat": "W", "kind": "dark", "cards": ["C5", "C5"]})
    d.refused("bidding_closed", {"dealer": "W", "trump": "C"})
    d.ev("bidding_closed", {"dealer": "S", "trump": "C"})
    hand = d.state.current_hand
    assert (hand.dealer, hand.declarers, hand.trump_label) == (Seat.S, Side.NS, "C")


def test_later_hand_dealer_is_the_rotation_dealer():
    """RULES 8: later hands — the dealer comes from rotation; a race (null) is refused."""
    d = _second_hand()
    d.refused("hand_started", {"dealer": None})


def test_later_hand_nobody_bids_is_no_trump():
    """RULES 8 [P no_bid=redeal_first_else_nt]: later hand with no bid → no-trump."""
    d = _second_hand()
    d.ev("hand_started", {"dealer": "S"})
    for seat in "SENW":
        d.ev("bid", {"seat": seat, "kind": "pass", "cards": []})
    d.refused("bidding_closed", {"dealer": "S", "trump": "H"})
    d.ev("bidding_closed", {"dealer": "S", "trump": "NT"})
    hand = d.state.current_hand
    assert hand.trump is None and hand.trump_label == "NT" and hand.dealer == Seat.S


def test_opening_hand_nobody_bids_is_redealt_as_a_race():
    """RULES 8 [P no_bid]: opening hand with no bid → redeal; the new hand is a race again."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    for seat in "NWSE":
        d.ev("bid", {"seat": seat, "kind": "pass", "cards": []})
    d.refused("bidding_closed", {"dealer": "N", "trump": "NT"})
    d.ev("redeal", {"reason": "无人叫主"})
    assert d.state.hands[-1].status == "voided"
    assert d.state.next_dealer is None
    d.refused("hand_started", {"dealer": "N"})
    d.race("E", "S")
    hand = d.state.current_hand
    assert (hand.number, hand.dealer, hand.level.label) == (2, Seat.E, "3")
    assert d.levels() == ("3", "3")


def test_race_dealer_is_the_last_standing_bidder():
    """RULES 8 / 2.1: the last standing bidder becomes the dealer (抢庄) and names trump."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("bid", {"seat": "W", "kind": "counter", "cards": ["LJ", "C3", "C3"]})
    d.ev("bid", {"seat": "W", "kind": "reinforce", "cards": ["C3"]})
    d.refused("bidding_closed", {"dealer": "N", "trump": "H"})
    d.refused("bidding_closed", {"dealer": "E", "trump": "C"})
    d.ev("bidding_closed", {"dealer": "W", "trump": "C"})
    s = d.state
    assert (s.current_hand.declarers, s.current_hand.level.label) == (Side.EW, "3")
    assert s.deal_holder == Side.EW


# -- 8.1 open bid --------------------------------------------------------------------------


def test_open_bid_side_loses_right_to_counter_opponents_decide():
    """8.1: 失误的那一方便丧失了叫牌的权利 … 由对方来决定是不是反牌 … 不会被罚分."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("open_bid", {"seat": "N"})
    # NS lost the right to bid: no counter, no reinforcement.
    assert "8.1" in d.refused("bid", {"seat": "S", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    assert "8.1" in d.refused("bid", {"seat": "N", "kind": "reinforce", "cards": ["H3"]})
    # The opponents decide: they may counter.
    d.ev("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "D3", "D3"]})
    d.ev("bidding_closed", {"dealer": "E", "trump": "D"})
    s = d.state
    assert [(v.kind, v.article, v.side) for v in s.violations] == [("open_bid", "8.1", Side.NS)]
    assert any(line.startswith("8.1:") for line in d.lines())
    # No points change.
    assert s.current_hand.defenders_points == 0
    assert d.levels() == ("3", "3")


def test_open_bid_standing_bid_holds_if_opponents_do_not_counter():
    """8.1: 要是不反，那么原有的叫牌便是有效的."""
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "E", "kind": "dark", "cards": ["LJ", "S3"]})
    d.ev("open_bid", {"seat": "W"})
    d.ev("bid", {"seat": "N", "kind": "pass", "cards": []})
    d.ev("bid", {"seat": "S", "kind": "pass", "cards": []})
    d.ev("bidding_closed", {"dealer": "E", "trump": "S"})
    hand = d.state.current_hand
    assert (hand.dealer, hand.trump_label, hand.defenders_points) == (Seat.E, "S", 0)


def test_opponents_may_counter_openly_after_an_open_bid():
    """8.1: 由对方来决定是不是反牌（能够明叫） — the opponents "may bid openly".

    After NS showed their bid, EW showing their counter openly is permitted by 8.1 and
    must not cost EW the right to counter. The desk may refuse the ``open_bid`` record
    for EW (it is no violation) or record it, but EW's counter must then be accepted.
    """
    d = started()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("open_bid", {"seat": "N"})
    d.accepts("open_bid", {"seat": "E"})
    d.ev("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    d.ev("bidding_closed", {"dealer": "E", "trump": "S"})
    assert d.state.current_hand.dealer == Seat.E


# -- 8.5 wrong dealer ----------------------------------------------------------------------


def test_wrong_dealer_replays_by_race_rotation_restarts_levels_unchanged():
    """8.5: 重新开始打，并且要依据首盘比赛方法去进行抢庄，相应地顺序也会重新轮庄."""
    d = _second_hand()  # NS 5, EW 3; S is due to deal
    d.ev("hand_started", {"dealer": "E"})
    assert any(f.article == "8.5" for f in d.state.flags)
    d.ev("wrong_dealer", {"seat": "E"})
    s = d.state
    assert s.hands[-1].status == "voided"
    assert s.next_dealer is None
    assert d.levels() == ("5", "3")  # levels do not change
    assert [v.article for v in s.violations] == ["8.5"]
    # The dealer is decided again by the opening method (the race, with the LJ).
    d.refused("hand_started", {"dealer": "S"})
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "W", "kind": "dark", "cards": ["LJ", "D3"]})
    d.ev("bidding_closed", {"dealer": "W", "trump": "D"})
    hand = d.state.current_hand
    assert (hand.dealer, hand.declarers, hand.level.label) == (Seat.W, Side.EW, "3")
    # Rotation restarts from W. D = 170 → b = 0: NS take the deal, +0 (7.1);
    # the next dealer is the player after W in play order N → W → S → E: S.
    d.summary(170)
    s = d.state
    assert s.next_dealer == Seat.S
    assert d.levels() == ("5", "3")
    assert s.deal_holder == Side.NS


# -- 8.6 false bid -------------------------------------------------------------------------


def test_false_bid_in_later_hand_non_offending_player_names_trump():
    """8.6: 由并非违规的一方当中的任意一家来确定主牌花色; the dealer stays the rotation's."""
    d = _second_hand()
    d.ev("hand_started", {"dealer": "S"})
    d.ev("bid", {"seat": "S", "kind": "dark", "cards": ["H5"]})
    d.ev("false_bid", {"seat": "S"})
    assert "8.6" in d.refused("false_bid_trump", {"seat": "N", "trump": "S"})
    d.ev("false_bid_trump", {"seat": "W", "trump": "C"})
    d.refused("bidding_closed", {"dealer": "S", "trump": "H"})
    d.ev("bidding_closed", {"dealer": "S", "trump": "C"})
    hand = d.state.current_hand
    assert (hand.dealer, hand.trump_label) == (Seat.S, "C")
    assert [v.article for v in hand.violations] == ["8.6"]


def test_false_bid_nobody_names_trump_is_no_trump():
    """8.6: 要是并非违规的一方没有去确定主牌花色，那么就只有固定主才是主牌 → no-trump."""
    d = _second_hand()
    d.ev("hand_started", {"dealer": "S"})
    d.ev("bid", {"seat": "E", "kind": "dark", "cards": ["D5"]})
    d.ev("false_bid", {"seat": "E"})
    d.refused("false_bid_trump", {"seat": None, "trump": "D"})
    d.ev("false_bid_trump", {"seat": None, "trump": "NT"})
    d.refused("bidding_closed", {"dealer": "S", "trump": "D"})
    d.ev("bidding_closed", {"dealer": "S", "trump": "NT"})
    hand = d.state.current_hand
    assert hand.trump is None and hand.trump_label == "NT"
    assert any(line.startswith("8.6:") for line in d.lines())


def test_wrong_dealer_is_refused_when_the_dealer_was_in_turn():
    """8.5: 要是坐庄顺序出现错误 — the penalty presupposes a dealing order that is wrong.

    S is due by rotation and S deals: nothing is out of turn, so a ``wrong_dealer``
    (which voids the hand) cannot happen in this state; nor can one that names a seat
    other than the seat that dealt.
    """
    d = _second_hand()
    d.ev("hand_started", {"dealer": "S"})
    assert not any(f.article == "8.5" for f in d.state.flags)
    d.refused("wrong_dealer", {"seat": "S"})
    d.refused("wrong_dealer", {"seat": "W"})
    assert d.state.current_hand.status == "bidding"


def test_wrong_dealer_must_name_the_seat_that_dealt():
    """8.5: the record names the seat that dealt out of turn — E dealt, not W."""
    d = _second_hand()
    d.ev("hand_started", {"dealer": "E"})
    d.refused("wrong_dealer", {"seat": "W"})
    d.ev("wrong_dealer", {"seat": "E"})
