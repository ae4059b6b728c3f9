"""Plausible, valid match records for a tournament's matches (tests, benchmarks, demo).

Hands are entered in summary form (defenders' points only), so each record goes
through the real match layer: bidding race, rotation, level gains (7.1-7.2),
pass A (1.5), time-out (1.5), forfeit (8.10), disqualification after a second
conduct offence (8.8). Nothing here decides a rule; it only chooses inputs.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from referee_desk.match import Recorder
from referee_desk.match.envelope import Event

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
        _hand(rec, at, winner, gain=min(4, loser_gains + 1))
        # The next hand ends after the 120 minutes: time-out, the higher level wins (1.5).
        limit = rec.state().ruleset.match_minutes
        _hand(rec, at, winner, gain=1, finish_at=limit + 5)
    else:
        while rec.state().end is None:
            _hand(rec, at, winner, gain=4)
    _close(rec, at)
    return rec.events


def _hand(rec: Recorder, at: _Clock, side: str, gain: int, finish_at: float | None = None) -> None:
    """One hand in summary form that ``side`` wins, going up about ``gain`` levels."""
    st = rec.state()
    dealer = st.next_dealer.value if st.next_dealer is not None else None
    rec.record("hand_started", {"dealer": dealer}, at())
    if dealer is None:
        # Bidding race (2.1): the side that should win bids LJ plus a 3 and deals.
        seat = "N" if side == "NS" else "E"
        rec.record("bid", {"seat": seat, "kind": "dark", "cards": ["LJ", "H3"]}, at(0.5))
        rec.record("bidding_closed", {"dealer": seat, "trump": "H"}, at(0.5))
        declarers = side
    else:
        rec.record("bidding_closed", {"dealer": dealer, "trump": "NT"}, at(0.5))
        declarers = "NS" if dealer in ("N", "S") else "EW"
    # 7.2: declarers keep the deal and go up ``gain``; 7.1: defenders take it, +(gain - 1).
    points = max(0, 160 - 40 * gain) if declarers == side else 160 + 40 * (gain - 1)
    step = 10.0 if finish_at is None else max(1.0, finish_at - at.minute)
    rec.record(
        "hand_summary",
        {
            "defenders_points_before_last": points,
            "last_trick_points": 0,
            "last_trick_cards_per_player": 1,
            "last_trick_side": declarers,
        },
        at(step),
    )


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
