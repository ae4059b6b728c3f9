"""Replay: fold a match's events into its state, refusing what cannot happen.

``Replayer.apply(event)`` checks one event against the state the earlier events
left and folds it in; ``replay(events)`` applies a whole record. Every rule comes
from ``referee_desk.rules`` (trick winner, follow check, hand result, levels); the
fold only keeps the books and names the article behind each consequence. The
handlers live in one mixin per part of the rules (bidding, play, penalties, clock
and end, corrections); this module is the core that checks envelopes and dispatches.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.clock import limit_of
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.bidding import Bidding
from referee_desk.match.fold.clock_end import ClockAndEnd
from referee_desk.match.fold.corrections import Corrections
from referee_desk.match.fold.hand import FINISHED, VOIDED
from referee_desk.match.fold.memo import event_ms, parsed_payload, to_epoch_ms
from referee_desk.match.fold.naming import REFUSALS, failure_at, refusal_at
from referee_desk.match.fold.penalties import Penalties
from referee_desk.match.fold.play import Play
from referee_desk.match.fold.trick_input import prepare_payload, prepared_trick
from referee_desk.match.schema_check import validate_schema
from referee_desk.match.state import Consequence, Correction, MatchInfo, MatchState, Note
from referee_desk.rules.levels import first_level
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat, Side


class Replayer(Corrections, ClockAndEnd, Bidding, Play, Penalties):
    """The incremental fold. After a refused ``apply`` the replayer must be discarded."""

    def __init__(self, *, check_schema: bool = False) -> None:
        self.check_schema = check_schema
        self.events: list[Event] = []
        self._reset()

    # -- public ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check ``event`` against the state and fold it in; raise EventRefused if it cannot."""
        try:
            self._check_envelope(event)
            if event.type == ev.CORRECTION:
                self._apply_correction(event)
            else:
                self._fold(event, self.fixes, strict=True)
            self.events.append(event)
        except REFUSALS as exc:
            raise refusal_at(exc, event) from None
        except Exception as exc:  # a bug, unless the event is malformed (see failure_at)
            raise failure_at(exc, event) from exc

    def state(self, now: str | datetime | int | None = None) -> MatchState:
        """The frozen state; ``now`` reads the clock (and a derived time-out) at that time."""
        now_ms = to_epoch_ms(now) if now is not None else self.last_time
        clock = self._clock(now_ms)
        end = self.end
        hands = list(self.hands)
        current = self.hand.frozen() if self.hand is not None else None
        if end is None and now_ms is not None and clock.time_up_at(now_ms):
            derived = self._time_out_end(now_ms, self.last_seq, dry=True)
            if derived is not None:
                end, current = derived
        if current is not None:
            hands.append(current)
        return MatchState(
            match_id=self.match_id or "",
            info=self.info,
            ruleset=self.ruleset,
            levels=dict(self.levels),
            passed_a=self.passed_a,
            hands=tuple(hands),
            current_hand=current
            if current is not None
            and current.status
            not in (
                FINISHED,
                VOIDED,
            )
            else None,
            deal_holder=self.deal_holder,
            next_dealer=self.next_dealer,
            shuffler=self.shuffler,
            cutter=self.cutter,
            clock=clock,
            warnings=dict(self.warnings),
            referred=frozenset(self.referred),
            overruns=dict(self.overruns),
            violations=tuple(self.violations),
            consequences=tuple(self.consequences),
            flags=tuple(self.flags),
            notes=tuple(self.notes),
            corrections=tuple(self.corrections),
            end=end,
            last_seq=self.last_seq,
            last_recorded_at=self.last_recorded_at,
            voided_seqs=frozenset(s for s, (a, _) in self.fixes.items() if a == "void"),
            dug_at_a=frozenset(self.dug_at_a),
        )

    def clock_at(self, when: str | datetime | int) -> int | None:
        """The clock reading (ms) at a time, None before the clock starts."""
        if self.clock_started_at is None:
            return None
        return self._clock(to_epoch_ms(when)).elapsed_at(to_epoch_ms(when))

    # -- envelope and dispatch ---------------------------------------------------------

    def _check_envelope(self, event: Event) -> None:
        if self.check_schema:
            validate_schema(event.to_dict())
        elif event.type not in ev.PAYLOAD_TYPES:
            raise EventRefused(key="event.unknown_type", params={"type": event.type})
        if event.seq != self.last_seq + 1:
            raise EventRefused(key="event.seq_gap", params={"expected": self.last_seq + 1})
        if self.match_id is None:
            if event.type != ev.MATCH_OPENED:
                raise EventRefused(key="event.first_must_open")
        elif event.match_id != self.match_id:
            raise EventRefused(key="event.other_match")
        at = event_ms(event.recorded_at)
        if self.last_time is not None and at < self.last_time:
            raise EventRefused(key="event.time_backwards")
        if self.clock_started_at is not None:
            expected: int | None = self._elapsed(at)
        else:
            expected = 0 if event.type == ev.CLOCK_STARTED else None
        if event.clock_ms != expected:
            raise EventRefused(key="event.clock_mismatch")

    def _fold(self, event: Event, fixes: dict[int, tuple[str, Any]], *, strict: bool) -> None:
        at = event_ms(event.recorded_at)
        fix = fixes.get(event.seq)
        if event.type == ev.CORRECTION:
            p: ev.CorrectionPayload = ev.payload_of(event)
            self._touch(event)
            self.corrections.append(Correction(event.seq, p.target_seq, p.action, p.reason))
            self.consequences.append(
                Consequence.make(
                    event.seq,
                    "record",
                    "correction",
                    target=p.target_seq,
                    action=p.action,
                    reason=p.reason,
                )
            )
            return
        if fix is not None and fix[0] == "void":
            self._touch(event)
            return
        if event.type == ev.TRICK:  # the hot path: read the raw payload, no typed tree
            data: Any = prepare_payload(fix[1]) if fix is not None else prepared_trick(event)
        elif fix is not None:
            data = ev.parse_payload(event.type, fix[1])
        else:
            data = parsed_payload(event)
        time_up = None  # unknown until read: the match has a clock and no end yet
        if self.match_id is not None and event.type != ev.MATCH_OPENED:
            if self.end is None and self.clock_started_at is not None:
                time_up = self._time_up(at)
                if time_up:
                    self._time_out_check(at, event.seq)
            if self.end is not None and event.type not in ev.AFTER_END_TYPES:
                raise EventRefused(key="match.ended", params={"article": self.end.article})
            if self.end is not None and self.end.recorded and event.type == ev.MATCH_ENDED:
                raise EventRefused(key="match.end_already")
        handler = HANDLERS.get(event.type)
        if handler is None:
            raise EventRefused(key="event.unknown_type", params={"type": event.type})
        handler(self, event, data, at)
        # e.g. the hand in play at time-out is over; a trick moves no clock, so time not up
        # before it is not up after it.
        if (
            self.end is None
            and self.match_id is not None
            and self.clock_started_at is not None
            and (time_up is not False or event.type != ev.TRICK)
        ):
            self._time_out_check(at, event.seq)
        self._touch(event, at)

    # -- handlers: opening and notes ---------------------------------------------------

    def _on_match_opened(self, event: Event, p: ev.MatchOpenedPayload, at: int) -> None:
        if self.info is not None:
            raise EventRefused(key="match.already_opened")
        self.ruleset = Ruleset.from_dict(p.ruleset)
        missing = sorted(set(self.ruleset.parameters()) - set(p.ruleset.get("params") or {}))
        if missing:
            raise EventRefused(
                key="match.ruleset_incomplete", params={"missing": ", ".join(missing)}
            )
        self.limit_ms = limit_of(self.ruleset.match_minutes)
        self.levels = {side: first_level(self.ruleset) for side in Side}
        self.info = MatchInfo(
            tournament=p.tournament,
            round=p.round,
            table=p.table,
            pairs={Side(k): v for k, v in p.pairs.items()},
            seats={Seat(k): v for k, v in p.seats.items()},
            referee=p.referee,
        )
        self.match_id = event.match_id

    def _on_note(self, event: Event, p: ev.NotePayload, at: int) -> None:
        if p.about_seq is not None and p.about_seq >= event.seq:
            raise EventRefused(key="note.about_not_earlier", params={"about": p.about_seq})
        self.notes.append(Note(event.seq, p.text, p.about_seq))


def replay(
    events: Sequence[Event],
    upto: int | None = None,
    *,
    now: str | datetime | int | None = None,
    check_schema: bool = False,
) -> MatchState:
    """Fold ``events[:upto]`` into the match state; raise EventRefused at the first bad event."""
    return replayer_for(events, upto, check_schema=check_schema).state(now)


def replayer_for(
    events: Sequence[Event], upto: int | None = None, *, check_schema: bool = False
) -> Replayer:
    """A replayer with ``events[:upto]`` applied (raises EventRefused at the first bad one)."""
    replayer = Replayer(check_schema=check_schema)
    with _cycle_collection_paused():
        for event in events if upto is None else events[:upto]:
            replayer.apply(event)
    return replayer


@contextmanager
def _cycle_collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during a bulk fold.

    The fold allocates many small long-lived values (trick records, tuples), which
    otherwise trigger repeated full collections that walk the whole record; the fold
    creates no reference cycles, so reference counting frees everything meanwhile.
    Collection resumes (if it was on) when the fold ends, also after a refusal.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


#: Event type → handler: the whole dispatch (``correction`` is handled by ``apply``).
#: Each handler is ``(replayer, event, payload, at_ms)``; tests may swap one in.
HANDLERS: dict[str, Callable[[Replayer, Event, Any, int], None]] = {
    ev.BID: Replayer._on_bid,
    ev.BIDDING_CLOSED: Replayer._on_bidding_closed,
    ev.CLOCK_PAUSED: Replayer._on_clock_paused,
    ev.CLOCK_RESUMED: Replayer._on_clock_resumed,
    ev.CLOCK_STARTED: Replayer._on_clock_started,
    ev.COMMITTEE_DECISION: Replayer._on_committee_decision,
    ev.COMMITTEE_RULING: Replayer._on_committee_ruling,
    ev.CONCEALMENT: Replayer._on_concealment,
    ev.CONDUCT_WARNING: Replayer._on_conduct_warning,
    ev.FALSE_BID: Replayer._on_false_bid,
    ev.FALSE_BID_TRUMP: Replayer._on_false_bid_trump,
    ev.FORFEIT: Replayer._on_forfeit,
    ev.HAND_STARTED: Replayer._on_hand_started,
    ev.HAND_SUMMARY: Replayer._on_hand_summary,
    ev.KITTY_BURIED: Replayer._on_kitty_buried,
    ev.MATCH_ENDED: Replayer._on_match_ended,
    ev.MATCH_OPENED: Replayer._on_match_opened,
    ev.NOTE: Replayer._on_note,
    ev.OPEN_BID: Replayer._on_open_bid,
    ev.PENALTY_CHOICE: Replayer._on_penalty_choice,
    ev.REDEAL: Replayer._on_redeal,
    ev.REVOKE: Replayer._on_revoke,
    ev.THINK_OVERRUN: Replayer._on_think_overrun,
    ev.THROW_FAILED: Replayer._on_throw_failed,
    ev.TRICK: Replayer._on_trick,
    ev.WRONG_DEALER: Replayer._on_wrong_dealer,
    ev.WRONG_PLAY: Replayer._on_wrong_play,
}
