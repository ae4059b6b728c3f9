"""The match clock and the ways a match ends (1.5, RULES.md section 10)."""

from __future__ import annotations

from match_table import Table

from referee_desk.match import replay
from referee_desk.rules.cards import Rank
from referee_desk.rules.seats import Side


def test_clock_derives_from_event_times_and_pauses(table):
    """1.5: 120 minutes from the referee's start; every pause is recorded."""
    start = table.events[-1]
    assert start.clock_ms == 0
    table.ev("hand_started", {"dealer": None}, after=90)
    assert table.events[-1].clock_ms == 90_000
    table.ev("clock_paused", {"reason": "裁判裁定牌张"}, after=30)
    assert "paused" in table.refused("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    table.ev("clock_resumed", after=600)  # ten minutes of pause do not count
    assert table.events[-1].clock_ms == 120_000
    table.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]}, after=15)
    state = table.state
    assert state.clock.elapsed_ms == 135_000
    assert state.clock.remaining_ms == 120 * 60_000 - 135_000
    assert [p.reason for p in state.clock.pauses] == ["裁判裁定牌张"]
    assert state.clock.elapsed_at(table.t + 60_000) == 195_000


def test_clock_ms_must_match_the_record(table):
    draft = table.rec.draft("hand_started", {"dealer": None}, table.now(10))
    from dataclasses import replace

    from referee_desk.match import EventRefused, seal

    bad = seal(table.events, replace(draft, clock_ms=draft.clock_ms + 1000))
    try:
        table.rec.replayer.apply(bad)
    except EventRefused as exc:
        assert exc.key == "event.clock_mismatch"
    else:
        raise AssertionError("a wrong clock reading was accepted")


def test_events_cannot_go_back_in_time(table):
    assert "timed before the previous" in table.refused("note", {"text": "x"}, after=-5)


def _climb_to_a(t: Table) -> None:
    """NS keep the deal with 0 points three times: +4, +4, +4 capped at A (7.2, 1.5)."""
    t.race_hand("N", "H")
    for _ in range(3):
        t.summary(0)
        t.next_hand("S", bidder=None)


def test_pass_a_wins_at_once_and_locks_the_match():
    """1.5: 于规定的两小时之内，哪一方率先打过"A"即为胜利."""
    t = Table(match_minutes=300).start()
    _climb_to_a(t)
    assert t.state.levels[Side.NS] == Rank.ACE  # 3 → 7 → J → A (capped, not passed)
    assert t.state.end is None
    t.summary(155)  # at A as declarers, defenders below 160: pass A
    state = t.state
    assert state.passed_a == Side.NS
    assert (state.end.reason, state.end.winner, state.end.article) == ("passed_a", Side.NS, "1.5")
    assert "has ended" in t.refused("hand_started", {"dealer": "N"})
    assert "has ended" in t.refused("conduct_warning", {"seat": "E", "text": "x"})
    assert "passing A won by NS" in t.refused("match_ended", {"reason": "time_out", "winner": "NS"})
    t.ev("match_ended", {"reason": "passed_a", "winner": "NS"})
    t.ev("note", {"text": "赛后签字", "about_seq": t.events[-1].seq})
    t.ev("committee_ruling", {"text": "赛后复核无异议"})
    note = t.events[-2].seq
    t.ev("correction", {"target_seq": note, "action": "void", "reason": "签字记录重复"})
    assert note in t.state.voided_seqs
    assert t.state.end.recorded
    assert "already recorded" in t.refused("match_ended", {"reason": "passed_a", "winner": "NS"})


def test_time_out_decided_by_level():
    """1.5: 要是双方都没有打过"A"，那么就按照"A、K、Q … 3"这样的顺序，排列在前的一方为胜利."""
    t = Table().start()
    t.race_hand("N", "H")
    t.summary(130)  # NS +1 → 4
    t.next_hand()
    assert "has not ended" in t.refused("match_ended", {"reason": "time_out", "winner": "NS"})
    t.summary(130)  # NS +1 → 5
    t.next_hand()
    t.summary(240)  # EW take the deal, +2 → 5
    t.next_hand()
    t.summary(150)  # EW keep, +1 → 6
    t.next_hand()
    t.summary(170, 10, 1, "EW")  # NS take the deal +0; past 120 minutes now
    state = t.state
    assert state.clock.elapsed_ms >= 120 * 60_000
    assert state.end is not None and state.end.reason == "time_out"
    assert state.end.winner == Side.EW  # EW at 6, NS at 5
    assert "has ended" in t.refused("hand_started", {"dealer": state.next_dealer.value})
    t.ev("match_ended", {"reason": "time_out", "winner": "EW"})


def test_time_out_equal_levels_decided_by_the_deal():
    """1.5: 当双方相同处于一级的时候，是以在庄上的那方为胜利."""
    t = Table(match_minutes=60).start()
    t.race_hand("N", "H")
    t.summary(120)  # NS +1 → 4
    t.next_hand()
    t.summary(200)  # EW take the deal, +1 → 4; EW hold the deal
    assert t.state.levels[Side.NS] == t.state.levels[Side.EW]
    t.ev("note", {"text": "时间到"}, after=1200)
    state = t.state
    assert state.deal_holder == Side.EW
    assert (state.end.reason, state.end.winner) == ("time_out", Side.EW)
    assert "equal levels" in state.end.text


def test_time_out_with_stop_voids_the_hand_in_progress():
    """[P at_time_out=stop]: the hand in progress at time-out is voided."""
    t = Table(match_minutes=30, at_time_out="stop").start()
    t.race_hand("E", "S")
    t.summary(60, 0, 1, "EW")  # EW keep +3 → 6
    t.next_hand()  # W deals
    t.ev("note", {"text": "继续打牌"}, after=600)
    assert "has ended" in t.refused(
        "hand_summary",
        {
            "defenders_points_before_last": 0,
            "last_trick_points": 0,
            "last_trick_cards_per_player": 1,
            "last_trick_side": "EW",
        },
    )
    state = t.state
    assert state.hands[-1].status == "voided"
    assert (state.end.reason, state.end.winner) == ("time_out", Side.EW)


def test_time_out_with_finish_hand_lets_the_hand_finish():
    """[P at_time_out=finish_hand]: the hand in progress is played out."""
    t = Table(match_minutes=30).start()
    t.race_hand("E", "S")
    t.summary(60, 0, 1, "EW")
    t.next_hand()
    t.ev("note", {"text": "超时, 打完本盘"}, after=600)
    assert t.state.end is None or t.state.current_hand is None
    t.summary(240, 0, 1, "NS")  # NS take the deal +2 → 5; EW at 6
    assert (t.state.end.reason, t.state.end.winner) == ("time_out", Side.EW)


def test_replay_with_now_reads_the_clock_later(table):
    table.race_hand("N", "H")
    state = replay(table.events, now="2026-11-29T13:00:00.000Z")
    assert state.clock.remaining_ms < 0
    assert state.end is None  # a hand is in progress (finish_hand)


def test_review_mode_replays_up_to_an_index(table):
    table.race_hand("N", "H")
    table.summary(130)
    full = replay(table.events)
    early = replay(table.events, upto=3)
    assert early.last_seq == 3 and early.hands[0].status == "bidding"
    assert early.current_hand is not None and early.current_hand.number == 1
    assert full.levels[Side.NS] == Rank.FOUR and early.levels[Side.NS] == Rank.THREE
