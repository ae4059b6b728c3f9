"""Review: the match clock and the end of a match (Guilin 1.5; RULES.md 10).

1.5: 于规定的两小时之内，哪一方率先打过"A"即为胜利，要是双方都没有打过"A"，那么就按照
"A、K、Q…3"这样的顺序，排列在前的一方为胜利，当双方相同处于一级的时候，是以在庄上的那方为胜利.
"""

from __future__ import annotations

import pytest
from test_review_helpers import CLOCK_START_MS, MIN, Desk, started

from referee_desk.match import format_time
from referee_desk.rules.seats import Side


def _equal_levels_ew_hold() -> Desk:
    """N race, D = 170 → b = 0: EW take the deal, +0 (7.1). Both at 3; EW hold the deal."""
    d = started()
    d.race("N", "H")
    d.summary(170, after=600)
    assert d.levels() == ("3", "3") and d.state.deal_holder == Side.EW
    return d


def test_clock_is_120_minutes_by_default():
    """RULES 10 [P match_minutes=120]."""
    d = started()
    assert d.state.clock.limit_ms == 120 * MIN


@pytest.mark.parametrize(
    ("minutes", "ended"),
    [(119.99, False), (120, True), (150, True)],
)
def test_time_out_at_equal_levels_goes_to_the_deal_holder(minutes, ended):
    """1.5: at equal levels the side holding the deal for the next hand wins (at 120:00)."""
    d = _equal_levels_ew_hold()
    d.at_clock(minutes)
    d.ev("note", {"text": "检查时间"}, after=0)
    s = d.state
    if not ended:
        assert s.end is None
        d.ev("hand_started", {"dealer": "W"}, after=0)
        return
    assert (s.end.reason, s.end.winner, s.end.article) == ("time_out", Side.EW, "1.5")
    d.refused("hand_started", {"dealer": "W"})
    d.refused("match_ended", {"reason": "time_out", "winner": "NS"})
    d.ev("match_ended", {"reason": "time_out", "winner": "EW"})


def test_time_out_is_derived_when_reading_the_state_later():
    """RULES 10: the clock is derived from event times; reading at 121:00 shows the end."""
    d = _equal_levels_ew_hold()
    now = format_time(CLOCK_START_MS + 121 * MIN)
    s = d.rec.state(now)
    assert s.end is not None and s.end.reason == "time_out" and s.end.winner == Side.EW
    assert d.rec.state(format_time(CLOCK_START_MS + 100 * MIN)).end is None


def test_time_out_higher_level_beats_the_deal():
    """1.5: the higher level wins (J above 10), whoever holds the deal.

    1 N race: D = 0 → NS +4 → 7, next S. 2 S: D = 400 → b = 6: EW 3 → 9, take, next E.
    3 E: D = 80 → b = −2: EW 9 → J, keep, next W. 4 W: D = 280 → b = 3: NS 7 → 10,
    take, next after W: S. NS hold the deal at 10; EW at J win.
    """
    d = started()
    d.race("N", "H")
    d.summary(0)
    d.rotation_hand()
    d.summary(100, 100, 3, "EW")
    d.rotation_hand()
    d.summary(80)
    d.rotation_hand()
    d.summary(280)
    s = d.state
    assert d.levels() == ("10", "J") and s.deal_holder == Side.NS
    d.at_clock(121)
    d.ev("note", {"text": "时间到"}, after=0)
    s = d.state
    assert (s.end.reason, s.end.winner) == ("time_out", Side.EW)


def test_time_out_a_beats_k():
    """1.5: A > K. NS reach A (two hands of −50 → +6 each); a committee ruling (8.11)
    puts EW at K (+10 from 3); EW hold no advantage from the deal."""
    d = started()
    d.race("N", "H")
    d.summary(0, 25, 2, "NS")
    d.rotation_hand()
    d.summary(0, 25, 2, "NS")
    d.ev("committee_ruling", {"text": "裁定", "level_changes": {"EW": 10}})
    assert d.levels() == ("A", "K")
    d.at_clock(125)
    d.ev("note", {"text": "时间到"}, after=0)
    assert (d.state.end.reason, d.state.end.winner) == ("time_out", Side.NS)


def test_pauses_are_excluded_from_the_match_time():
    """RULES 10: the referee can pause and resume; only running time counts."""
    d = _equal_levels_ew_hold()
    d.at_clock(60)
    d.ev("clock_paused", {"reason": "争议裁决"}, after=0)
    d.refused("hand_started", {"dealer": "W"})  # no play while paused
    d.wall(CLOCK_START_MS + 90 * MIN)
    d.ev("clock_resumed", after=0)
    # Wall 120:00 after the start is 90:00 of match time: not over.
    d.wall(CLOCK_START_MS + 120 * MIN)
    event = d.ev("hand_started", {"dealer": "W"}, after=0)
    assert event.clock_ms == 90 * MIN  # every event carries the clock reading
    s = d.state
    assert s.end is None
    assert s.clock.elapsed_ms == 90 * MIN
    assert [p.reason for p in s.clock.pauses] == ["争议裁决"]
    # W deals, EW declare at 3; D = 200 → NS take, +1 → 4 at wall 140:00 (match 110:00).
    d.ev("bidding_closed", {"dealer": "W", "trump": "NT"}, after=60)
    d.wall(CLOCK_START_MS + 140 * MIN)
    d.summary(200, after=0)
    assert d.state.end is None
    # Match time 120:00 is wall 150:00.
    d.wall(CLOCK_START_MS + 150 * MIN)
    d.ev("note", {"text": "时间到"}, after=0)
    assert (d.state.end.reason, d.state.end.winner) == ("time_out", Side.NS)


def _hand_in_play_at_time_out(mode: str) -> Desk:
    """Both at 3, EW hold the deal; W deals hand 2 (EW declarers) at 100:00."""
    d = Desk(at_time_out=mode).start()
    d.race("N", "H")
    d.summary(170, after=600)
    d.at_clock(100)
    d.rotation_hand()
    return d


def test_time_out_finish_hand_plays_the_hand_out():
    """RULES 10 [P at_time_out=finish_hand]: the hand in play is finished first.

    At 125:00 the hand ends with D = 200 → NS take the deal, +1 → 4: NS win on level.
    """
    d = _hand_in_play_at_time_out("finish_hand")
    d.at_clock(121)
    d.ev("note", {"text": "时间到，本盘打完"}, after=0)
    assert d.state.end is None
    d.at_clock(125)
    d.summary(200, after=0)
    s = d.state
    assert d.levels() == ("4", "3")
    assert (s.end.reason, s.end.winner) == ("time_out", Side.NS)
    d.refused("hand_started", {"dealer": "S"})


def test_time_out_stop_voids_the_hand_in_play():
    """RULES 10 [at_time_out=stop]: the hand in progress is voided; at equal levels (3–3)
    EW, holding the deal, win."""
    d = _hand_in_play_at_time_out("stop")
    d.at_clock(121)
    d.refused(
        "hand_summary",
        {
            "defenders_points_before_last": 200,
            "last_trick_points": 0,
            "last_trick_cards_per_player": 1,
            "last_trick_side": "NS",
        },
    )
    d.ev("match_ended", {"reason": "time_out", "winner": "EW"}, after=0)
    s = d.state
    assert s.hands[-1].status == "voided"
    assert d.levels() == ("3", "3")
    assert (s.end.reason, s.end.winner, s.end.recorded) == ("time_out", Side.EW, True)


def test_match_ended_before_the_end_is_refused():
    """The referee's match_ended is checked against the replayed state."""
    d = _equal_levels_ew_hold()
    d.refused("match_ended", {"reason": "time_out", "winner": "EW"})


# Everything the table can produce is refused after the end (issue 3): only notes,
# corrections and committee rulings (and one confirming match_ended) follow.
AFTER_END_REFUSED = [
    ("hand_started", {"dealer": "W"}),
    ("bid", {"seat": "E", "kind": "dark", "cards": ["D3"]}),
    ("clock_paused", {"reason": "x"}),
    ("conduct_warning", {"seat": "E", "text": "交谈"}),
    ("think_overrun", {"seat": "E", "seconds": 30}),
    ("forfeit", {"side": "EW"}),
    ("wrong_dealer", {"seat": "W"}),
    ("committee_decision", {"side": "NS", "decision": "disqualification", "text": "x"}),
]


@pytest.mark.parametrize(
    ("type_", "payload"), AFTER_END_REFUSED, ids=[t for t, _ in AFTER_END_REFUSED]
)
def test_nothing_after_the_end_but_notes_corrections_and_rulings(type_, payload):
    d = _equal_levels_ew_hold()
    note = d.ev("note", {"text": "备注"})
    d.ev("forfeit", {"side": "NS", "text": "弃权"})
    assert d.state.locked
    assert "ended" in d.refused(type_, payload)
    d.ev("note", {"text": "赛后备注", "about_seq": note.seq})
    d.ev("correction", {"target_seq": note.seq, "action": "void", "reason": "录入错误"})
    d.ev("committee_ruling", {"text": "赛后裁定"})
    assert d.state.end.reason == "forfeit" and d.state.end.winner == Side.EW


def test_time_out_stop_does_not_void_a_hand_already_ended_by_revoke():
    """8.3: 此盘比赛宣告结束 — a 劳改 ends the hand at once; only the non-offending side's
    choice is pending. RULES 10 ``stop`` voids the hand *in progress*, which a revoked
    hand is not, so the choice made after time-out still settles it.

    W deals hand 2 (EW declarers, both at 3, EW hold the deal). At 110:00 W revokes;
    at 121:00 NS choose A: NS +2 → 5 and take the deal. Time-out: NS (5) beat EW (3).
    """
    d = _hand_in_play_at_time_out("stop")
    d.at_clock(110)
    d.ev("revoke", {"seat": "W", "kind": "withheld", "defenders_points": 60}, after=0)
    d.at_clock(121)
    d.ev("penalty_choice", {"seat": "N", "choice": "A"}, after=0)
    s = d.state
    assert d.levels() == ("5", "3")
    assert s.hands[-1].status == "finished"
    assert (s.end.reason, s.end.winner) == ("time_out", Side.NS)


def test_time_out_consequence_names_article_1_5():
    d = _equal_levels_ew_hold()
    d.at_clock(130)
    d.ev("note", {"text": "时间到"}, after=0)
    assert any(line.startswith("1.5: time-out") for line in d.lines()), d.lines()


def test_no_hand_starts_after_the_match_time_even_without_a_deal_holder():
    """RULES 10 / 1.5: the match lasts 120 minutes (docs/events.md: hand_started needs
    "time not up"). With ``stop``, the opening hand still in bidding at time-out is
    voided; whoever wins, no new hand may be dealt after the time is up."""
    d = Desk(at_time_out="stop").start()
    d.ev("hand_started", {"dealer": None})
    d.at_clock(121)
    d.ev("note", {"text": "时间到"}, after=0)
    assert d.state.hands[-1].status == "voided"
    d.refused("hand_started", {"dealer": None})


def test_think_seconds_parameter():
    """8.9 [P think_seconds]: with 20 s allowed, 15 s is no overrun, 21 s is."""
    d = Desk(think_seconds=20).start()
    d.race("N", "H")
    d.refused("think_overrun", {"seat": "E", "seconds": 15})
    d.ev("think_overrun", {"seat": "E", "seconds": 21})
    assert d.state.overruns[Side.EW] == 1


def test_pass_a_beats_time_out_in_the_hand_finished_after_time():
    """1.5: 哪一方率先打过"A"即为胜利 — with finish_hand, NS at A keep the deal in the hand
    finished after time-out: they pass A; the end is passed_a, not a time-out."""
    d = started()
    d.race("N", "H")
    d.summary(0, 25, 2, "NS")
    d.rotation_hand()
    d.summary(0, 25, 2, "NS")
    assert d.levels() == ("A", "3")
    d.at_clock(110)
    d.rotation_hand()
    d.at_clock(124)
    d.summary(150, after=0)
    s = d.state
    assert (s.end.reason, s.end.winner) == ("passed_a", Side.NS)


def test_nothing_is_played_before_the_clock_starts():
    """RULES 10: match time runs from the referee's start; play needs a started clock."""
    d = Desk()
    d.ev(
        "match_opened",
        {
            "tournament": "t",
            "round": "1",
            "table": "1",
            "pairs": {"NS": "a", "EW": "b"},
            "seats": {"N": "n", "E": "e", "S": "s", "W": "w"},
            "referee": "r",
            "ruleset": d.ruleset.to_dict(),
        },
        after=0,
    )
    d.refused("hand_started", {"dealer": None})
    d.ev("clock_started")
    d.refused("clock_started", {})
    d.ev("hand_started", {"dealer": None})
