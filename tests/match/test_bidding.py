"""Bidding (chapter 2) and the bidding violations 8.1, 8.5 and 8.6."""

from __future__ import annotations

from referee_desk.rules.cards import Rank, Suit
from referee_desk.rules.seats import Seat, Side


def test_opening_bid_needs_exactly_one_lj_plus_level_cards(table):
    """2.1: 在开局进行打"3"叫牌时，所出的牌当中必须带有一张（而且仅仅只能是一张）小王."""
    table.ev("hand_started", {"dealer": None})
    assert "exactly one LJ" in table.refused("bid", {"seat": "N", "kind": "dark", "cards": ["H3"]})
    assert "exactly one LJ" in table.refused(
        "bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "LJ", "H3"]}
    )
    assert "level cards" in table.refused(
        "bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H4"]}
    )
    assert "one suit" in table.refused(
        "bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3", "S3"]}
    )
    table.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})


def test_counter_must_exceed_and_never_counter_own_bid(table):
    """2.1: 2反1，3反2，依此类推，不过不允许自身对自己进行反叫."""
    table.ev("hand_started", {"dealer": None})
    table.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3", "H3"]})
    msg = table.refused("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "S3", "S3"]})
    assert "2 does not exceed 2" in msg
    msg = table.refused("bid", {"seat": "N", "kind": "counter", "cards": ["LJ", "S3", "S3", "S3"]})
    assert "cannot counter their own bid" in msg
    table.ev("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "S3", "S3", "S3"]})
    table.ev("bidding_closed", {"dealer": "E", "trump": "S"})
    hand = table.state.hands[-1]
    assert (hand.dealer, hand.declarers, hand.trump, hand.level) == (
        Seat.E,
        Side.EW,
        Suit.S,
        Rank.THREE,
    )


def test_reinforce_raises_what_a_counter_needs(table):
    """2.1: 加固方式为：1加1、加2 … 双方都能够自由地进行加固."""
    table.ev("hand_started", {"dealer": None})
    table.ev("bid", {"seat": "W", "kind": "dark", "cards": ["LJ", "D3"]})
    assert "only the standing bidder" in table.refused(
        "bid", {"seat": "N", "kind": "reinforce", "cards": ["D3"]}
    )
    table.ev("bid", {"seat": "W", "kind": "reinforce", "cards": ["D3"]})
    assert "2 does not exceed 2" in table.refused(
        "bid", {"seat": "N", "kind": "counter", "cards": ["LJ", "C3", "C3"]}
    )
    table.ev("bid", {"seat": "S", "kind": "counter", "cards": ["LJ", "C3", "C3", "C3"]})
    assert "2.1" in table.refused("bidding_closed", {"dealer": "W", "trump": "D"})
    assert "trump is ♣" in table.refused("bidding_closed", {"dealer": "S", "trump": "D"})
    table.ev("bidding_closed", {"dealer": "S", "trump": "C"})


def test_fifth_copy_shown_in_bids_is_refused(table):
    """1.4 / RULES 1: each distinct card exists exactly 4 times."""
    table.ev("hand_started", {"dealer": None})
    table.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    table.ev("bid", {"seat": "E", "kind": "counter", "cards": ["LJ", "H3", "H3"]})
    # A third seat showing two more ♥3 would make five copies on the table.
    msg = table.refused("bid", {"seat": "S", "kind": "counter", "cards": ["LJ", "H3", "H3", "H3"]})
    assert "H3 would be shown 6 times" in msg
    table.ev("bid", {"seat": "S", "kind": "counter", "cards": ["LJ", "S3", "S3", "S3"]})
    # N re-showing the same ♥3 with another is not a new copy of LJ: 4 LJ in all.
    table.ev("bid", {"seat": "W", "kind": "counter", "cards": ["LJ"] + ["C3"] * 4})


def test_later_hands_bid_without_lj_and_no_bid_is_no_trump(table):
    """2.2: 除开局打"3"外，余下均不需要带小王叫牌; no_bid: later hand → no-trump."""
    table.race_hand("N", "H")
    table.summary(100)  # NS declarers keep the deal: +1
    assert table.state.next_dealer == Seat.S
    table.ev("hand_started", {"dealer": "S"})
    assert "level cards only" in table.refused(
        "bid", {"seat": "E", "kind": "dark", "cards": ["LJ", "C4"]}
    )
    assert "trump is no trump" in table.refused("bidding_closed", {"dealer": "S", "trump": "H"})
    table.ev("bidding_closed", {"dealer": "S", "trump": "NT"})
    assert table.state.current_hand.trump_label == "NT"


def test_nobody_bids_in_the_race_is_a_redeal(table):
    """no_bid=redeal_first_else_nt: the opening hand is dealt again."""
    table.ev("hand_started", {"dealer": None})
    assert "redeal" in table.refused("bidding_closed", {"dealer": "N", "trump": "NT"})
    table.ev("redeal", {"reason": "无人叫主"})
    assert table.state.hands[-1].status == "voided"
    table.race_hand("E", "D")
    assert table.state.current_hand.number == 2


def test_open_bid_loses_the_right_to_bid(table):
    """8.1: 若不小心造成明叫的情况出现，那么失误的那一方便丧失了叫牌的权利."""
    table.ev("hand_started", {"dealer": None})
    table.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    table.ev("open_bid", {"seat": "S"})
    state = table.state
    assert [v.article for v in state.violations] == ["8.1"]
    assert any(str(c).startswith("8.1: S showed a bid openly") for c in state.consequences)
    assert "8.1" in table.refused(
        "bid", {"seat": "S", "kind": "counter", "cards": ["LJ", "S3", "S3"]}
    )
    assert "8.1" in table.refused("bid", {"seat": "N", "kind": "reinforce", "cards": ["H3"]})
    # The standing bid holds if the opponents do not counter.
    table.ev("bid", {"seat": "E", "kind": "pass", "cards": []})
    table.ev("bidding_closed", {"dealer": "N", "trump": "H"})
    assert table.state.current_hand.dealer == Seat.N


def test_false_bid_trump_named_by_non_offenders_or_no_trump(table):
    """8.6: 由并非违规的一方当中的任意一家来确定主牌花色 … 没有去确定 … 只有固定主才是主牌."""
    table.race_hand("N", "H")
    table.summary(60)  # NS keep the deal, +3: 3 → 6
    table.ev("hand_started", {"dealer": "S"})
    table.ev("bid", {"seat": "E", "kind": "dark", "cards": ["C6"]})
    table.ev("false_bid", {"seat": "E"})
    assert "8.6" in table.refused("false_bid_trump", {"seat": "W", "trump": "S"})
    assert "8.6" in table.refused("false_bid_trump", {"seat": None, "trump": "S"})
    assert "8.6" in table.refused("bidding_closed", {"dealer": "S", "trump": "C"})
    table.ev("false_bid_trump", {"seat": None, "trump": "NT"})
    assert "trump is no trump" in table.refused("bidding_closed", {"dealer": "S", "trump": "C"})
    table.ev("bidding_closed", {"dealer": "S", "trump": "NT"})
    hand = table.state.current_hand
    assert hand.trump is None and hand.trump_label == "NT"
    assert [v.article for v in hand.violations] == ["8.6"]


def test_wrong_dealer_replays_the_hand_by_bidding_race(table):
    """8.5: 要是坐庄顺序出现错误，那就得重新开始打，并且要依据首盘比赛方法去进行抢庄."""
    table.race_hand("N", "H")
    table.summary(200)  # EW take the deal: next dealer W (after N in play order)
    assert table.state.next_dealer == Seat.W
    table.ev("hand_started", {"dealer": "E"})
    assert any(f.article == "8.5" for f in table.state.flags)
    table.ev("wrong_dealer", {"seat": "E"})
    state = table.state
    assert state.hands[-1].status == "voided"
    assert state.next_dealer is None
    levels = dict(state.levels)
    assert "decided by the bidding race" in table.refused("hand_started", {"dealer": "W"})
    table.ev("hand_started", {"dealer": None})
    table.ev("bid", {"seat": "S", "kind": "dark", "cards": ["LJ", "S3"]})
    table.ev("bidding_closed", {"dealer": "S", "trump": "S"})
    assert table.state.levels == levels  # 8.5: levels do not change
    assert table.state.current_hand.race
