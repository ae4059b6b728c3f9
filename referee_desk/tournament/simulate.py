"""Plausible, valid match records for a tournament's matches (tests, benchmarks, demo).

Hands are entered in summary form (defenders' points only), so each record goes
through the real match layer: bidding race, rotation, level gains (7.1-7.2),
pass A (1.5; 12.7's dig at A in qq-four-deck), time-out (1.5, only with a time
limit), forfeit (8.10), disqualification after a second conduct offence (8.8).
Nothing here decides a rule; it only chooses inputs.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from referee_desk.match import Recorder
from referee_desk.match.envelope import Event
from referee_desk.rules.cards import Rank

START = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)

#: Ways a simulated match ends; ``pending`` passes A with a committee referral open.
WAYS = ("passed_a", "time_out", "forfeit", "disqualification", "pending")


def simulate_match(
    match_id: str,
    opening: dict[str, Any],
    winner: str = "NS",
    way: str = "passed_a",
    loser_gains: int = 0,
    start: datetime = START,
    referee: str | None = None,
) -> list[Event]:
    """A sealed record in which side ``winner`` (``NS``/``EW``) wins in the given ``way``.

    ``loser_gains`` hands (up to 3 for a time-out) are first won by the other side, one
    level each; a forfeit or disqualification comes before any hand.
    """
    if way not in WAYS:
        raise ValueError(f"way must be one of {', '.join(WAYS)}, not {way!r}")
    loser = "EW" if winner == "NS" else "NS"
    ref = referee or opening.get("referee") or "裁判"
    rec = Recorder(match_id, ref)
    at = _Clock(start)

    rec.record("match_opened", opening, start)
    rec.record("clock_started", {}, at())
    if way == "forfeit":
        rec.record("forfeit", {"side": loser, "text": "未按时到场 did not appear"}, at())
        _close(rec, at)
        return rec.events
    if way in ("disqualification", "pending"):
        offender = "E" if loser == "EW" else "N"
        rec.record("conduct_warning", {"seat": offender, "text": "交谈 talking"}, at())
        rec.record("conduct_warning", {"seat": offender, "text": "示意 signalling"}, at())
        if way == "disqualification":
            rec.record(
                "committee_decision",
                {"side": loser, "decision": "disqualification", "text": "二次违规 second offence"},
                at(),
            )
            _close(rec, at)
            return rec.events
    for _ in range(loser_gains):
        _hand(rec, at, loser, gain=1)
    if way == "time_out":
        limit = rec.state().ruleset.match_minutes
        if limit is None:
            raise ValueError(
                f"the ruleset {rec.state().ruleset.name} sets no time limit (12.8): "
                "a match cannot end by time-out"
            )
        _hand(rec, at, winner, gain=min(4, loser_gains + 1))
        # The next hand ends after the time limit: time-out, the higher level wins (1.5).
        _hand(rec, at, winner, gain=1, finish_at=limit + 5)
    else:
        while rec.state().end is None:
            if _needs_dig(rec, winner):
                _dig_at_a(rec, at, winner)
            else:
                _hand(rec, at, winner, gain=4)
    _close(rec, at)
    return rec.events


def _needs_dig(rec: Recorder, side: str) -> bool:
    """12.7 a_needs_dig: the side is at A and has not dug the kitty since it got there."""
    st = rec.state()
    at_a = {s.value for s, r in st.levels.items() if r == Rank.ACE}
    dug = {s.value for s in st.dug_at_a}
    return st.ruleset.a_needs_dig and side in at_a and side not in dug


def _dig_at_a(rec: Recorder, at: _Clock, side: str) -> None:
    """Let ``side`` (at A) dig once: if it deals, it first hands the deal over (+0)."""
    st = rec.state()
    holder = st.deal_holder.value if st.deal_holder is not None else None
    other = "EW" if side == "NS" else "NS"
    if holder == side:
        _hand(rec, at, other, gain=1, exactly_stage=True)
    _hand(rec, at, side, gain=1, dig=True)


def _hand(
    rec: Recorder,
    at: _Clock,
    side: str,
    gain: int,
    finish_at: float | None = None,
    exactly_stage: bool = False,
    dig: bool = False,
) -> None:
    """One hand in summary form that ``side`` wins, going up about ``gain`` levels.

    ``exactly_stage``: the defenders reach the stage and only take the deal (+0);
    ``dig``: the defenders win the last trick (a dig, 12.5/12.7), kitty worth 0.
    """
    st = rec.state()
    rules = st.ruleset
    dealer = st.next_dealer.value if st.next_dealer is not None else None
    rec.record("hand_started", {"dealer": dealer}, at())
    if dealer is None:
        # Bidding race: the side that should win bids and deals (2.1 LJ plus a level
        # card; 12.3 the presets show level cards only).
        seat = "N" if side == "NS" else "E"
        cards = ["LJ", "H3"] if rules.race_needs_lj else [f"H{rules.first_level}"]
        rec.record("bid", {"seat": seat, "kind": "dark", "cards": cards}, at(0.5))
        rec.record("bidding_closed", {"dealer": seat, "trump": "H"}, at(0.5))
        declarers = side
    else:
        rec.record("bidding_closed", {"dealer": dealer, "trump": "NT"}, at(0.5))
        declarers = "NS" if dealer in ("N", "S") else "EW"
    defenders = "EW" if declarers == "NS" else "NS"
    # 7.2: declarers keep the deal and go up ``gain``; 7.1: defenders take it, +(gain - 1)
    # (12.6: each preset's stage and step).
    stage, step_points = rules.stage, rules.step
    if declarers == side:
        points = max(0, stage - step_points * gain)
    elif exactly_stage:
        points = stage
    else:
        points = stage + step_points * (gain - 1)
    step = 10.0 if finish_at is None else max(1.0, finish_at - at.minute)
    payload: dict[str, Any] = {
        "defenders_points_before_last": points,
        "last_trick_points": 0,
        "last_trick_cards_per_player": 1,
        "last_trick_side": defenders if dig else declarers,
    }
    if rules.last_trick == "kitty":
        payload["kitty_points"] = 0
        if dig:
            payload["last_lead_shape"] = [[1, 1]]
    rec.record("hand_summary", payload, at(step))


class _Clock:
    """Wall-clock times for the record: each call moves on ``step`` minutes."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        self.minute = 0.0

    def __call__(self, step: float = 1.0) -> datetime:
        self.minute += step
        return self.start + timedelta(minutes=self.minute)


def _close(rec: Recorder, at: _Clock) -> None:
    end = rec.state().end
    if end is not None and not end.recorded:
        rec.record("match_ended", {"reason": end.reason, "winner": end.winner.value}, at(0.5))
