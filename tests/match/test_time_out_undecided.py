"""1.5 at time-out when the match cannot be decided by level or by the deal.

RULES 10: at equal levels the side holding the deal for the next hand wins. When the
opening bidding race never finished (``stop`` voided it, or it was redealt), nobody
holds the deal: 1.5 cannot decide, no hand is dealt any more, and the end awaits the
arbitration committee (8.11), whose level adjustment decides the match by level
(docs/events.md, "Time-out without a deal holder").
"""

from __future__ import annotations

from test_review_helpers import Desk

from referee_desk.rules.seats import Side


def _undecided() -> Desk:
    d = Desk(at_time_out="stop").start()
    d.ev("hand_started", {"dealer": None})
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.at_clock(120)
    d.ev("note", {"text": "时间到"}, after=0)
    return d


def test_time_out_in_the_race_awaits_the_committee():
    """1.5: equal levels (3, 3) and no deal holder: no winner is derived, no hand follows."""
    d = _undecided()
    s = d.state
    assert s.end is None
    assert s.hands[-1].status == "voided"
    undecided = [c for c in s.consequences if c.key == "time_out_undecided"]
    assert len(undecided) == 1 and undecided[0].article == "1.5"
    assert "arbitration committee" in undecided[0].text
    d.refused("hand_started", {"dealer": None})
    d.refused("match_ended", {"reason": "time_out", "winner": "NS"})
    d.ev("note", {"text": "等待仲裁"})
    # The undecided time-out is stated once, not at every later event.
    assert sum(c.key == "time_out_undecided" for c in d.state.consequences) == 1


def test_committee_level_ruling_decides_the_time_out_by_level():
    """8.11: the committee's ruling is applied as entered; a level for EW (3 → 4) makes
    EW the higher side at time-out (1.5: the higher level wins)."""
    d = _undecided()
    d.ev("committee_ruling", {"text": "抢庄未完，判东西胜", "level_changes": {"EW": 1}})
    s = d.state
    assert (s.end.reason, s.end.winner, s.end.article) == ("time_out", Side.EW, "1.5")
    d.ev("match_ended", {"reason": "time_out", "winner": "EW"})
    assert d.state.end.recorded


def test_finish_hand_lets_the_race_finish_and_decides_by_the_deal():
    """RULES 10 [P at_time_out=finish_hand]: the race in progress is finished; its winner
    holds the deal and wins at equal levels once the hand is over (D = 170: EW take)."""
    d = Desk().start()
    d.ev("hand_started", {"dealer": None})
    d.at_clock(121)
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]}, after=0)
    d.ev("bidding_closed", {"dealer": "N", "trump": "H"})
    assert d.state.end is None
    d.summary(170)
    s = d.state
    assert (s.end.reason, s.end.winner) == ("time_out", Side.EW)
