"""Replay: fold a match's events into its state, refusing what cannot happen.

``Replayer.apply(event)`` checks one event against the state the earlier events
left and folds it in; ``replay(events)`` applies a whole record. Every rule comes
from ``referee_desk.rules`` (trick winner, follow check, hand result, levels); the
fold only keeps the books and names the article behind each consequence.

This module is the thin core: the envelope check, the dispatch through the explicit
``HANDLERS`` table to plain functions over the fold's parts (``parts.Fold``: the
match's books, the clock, the hands), corrections (a refold into fresh parts) and
``state()``, which freezes the parts into a ``MatchState``. ``fork()`` copies a fold
(``fold.fork``) for a preview to fold drafts into, leaving the original unchanged.
"""

from __future__ import annotations

import copy
import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold import bidding, clock_end, opening, penalties, play, presets
from referee_desk.match.fold.books import MatchBooks
from referee_desk.match.fold.clock_end import time_out_check, time_out_end
from referee_desk.match.fold.corrections import Fixes, fixes_after, would_refuse
from referee_desk.match.fold.fork import SHARE, copier, fork_parts
from referee_desk.match.fold.freeze import freezer
from referee_desk.match.fold.hand import FINISHED, VOIDED, Hands
from referee_desk.match.fold.memo import event_ms, parsed_payload, to_epoch_ms
from referee_desk.match.fold.naming import REFUSALS, failure_at, refusal_at
from referee_desk.match.fold.parts import Fold, Handler
from referee_desk.match.fold.trick_input import prepare_payload, prepared_trick
from referee_desk.match.schema_check import validate_schema
from referee_desk.match.state import MatchState
from referee_desk.match.values import Consequence, Correction

#: Event type → handler: the whole dispatch (``correction`` is handled by ``apply``).
#: Each handler is ``(fold, event, payload, at_ms)``; tests may swap one in.
HANDLERS: dict[str, Handler] = {
    ev.BID: bidding.on_bid,
    ev.BIDDING_CLOSED: bidding.on_bidding_closed,
    ev.CLOCK_PAUSED: clock_end.on_clock_paused,
    ev.CLOCK_RESUMED: clock_end.on_clock_resumed,
    ev.CLOCK_STARTED: clock_end.on_clock_started,
    ev.COMMITTEE_DECISION: penalties.on_committee_decision,
    ev.COMMITTEE_RULING: penalties.on_committee_ruling,
    ev.CONCEALMENT: presets.on_concealment,
    ev.CONDUCT_WARNING: penalties.on_conduct_warning,
    ev.FALSE_BID: penalties.on_false_bid,
    ev.FALSE_BID_TRUMP: penalties.on_false_bid_trump,
    ev.FORFEIT: penalties.on_forfeit,
    ev.HAND_STARTED: bidding.on_hand_started,
    ev.HAND_SUMMARY: play.on_hand_summary,
    ev.KITTY_BURIED: presets.on_kitty_buried,
    ev.MATCH_ENDED: clock_end.on_match_ended,
    ev.MATCH_OPENED: opening.on_match_opened,
    ev.NOTE: opening.on_note,
    ev.OPEN_BID: penalties.on_open_bid,
    ev.PENALTY_CHOICE: penalties.on_penalty_choice,
    ev.REDEAL: bidding.on_redeal,
    ev.REVOKE: penalties.on_revoke,
    ev.THINK_OVERRUN: penalties.on_think_overrun,
    ev.THROW_FAILED: presets.on_throw_failed,
    ev.TRICK: play.on_trick,
    ev.WRONG_DEALER: penalties.on_wrong_dealer,
    ev.WRONG_PLAY: penalties.on_wrong_play,
}


class RecordLog:
    """What the core knows of the events folded so far (for the envelope checks)."""

    __slots__ = ("last_recorded_at", "last_seq", "last_time", "match_id", "types_by_seq")

    def __init__(self) -> None:
        self.match_id: str | None = None
        self.last_seq = 0
        self.last_time: int | None = None
        self.last_recorded_at: str | None = None
        self.types_by_seq: dict[int, str] = {}

    def touch(self, event: Event, at: int) -> None:
        """Note ``event`` (at ``at`` ms) as the last folded."""
        self.last_seq = event.seq
        self.last_time = at
        self.last_recorded_at = event.recorded_at
        self.types_by_seq[event.seq] = event.type
        if self.match_id is None:
            self.match_id = event.match_id


class Replayer:
    """The incremental fold. After a refused ``apply`` the replayer must be discarded."""

    def __init__(self, *, check_schema: bool = False) -> None:
        self.check_schema = check_schema
        self.events: list[Event] = []
        self.fixes: Fixes = {}
        self.log = RecordLog()
        self.parts = Fold()

    # -- public ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check ``event`` against the state and fold it in; raise EventRefused if it cannot."""
        try:
            at = self._check_envelope(event)
            if event.type == ev.CORRECTION:
                self._apply_correction(event)
            else:
                fold_event(self.log, self.parts, event, self.fixes, at)
            self.events.append(event)
        except REFUSALS as exc:
            raise refusal_at(exc, event) from None
        except Exception as exc:  # a bug, unless the event is malformed (see failure_at)
            raise failure_at(exc, event) from exc

    def state(self, now: str | datetime | int | None = None) -> MatchState:
        """The frozen state; ``now`` reads the clock (and a derived time-out) at that time."""
        log, f = self.log, self.parts
        now_ms = to_epoch_ms(now) if now is not None else log.last_time
        clock = f.clock.reading(now_ms)
        end = f.books.end
        hands = list(f.hands.done)
        current = f.hands.current.frozen() if f.hands.current is not None else None
        if end is None and now_ms is not None and clock.time_up_at(now_ms):
            derived = time_out_end(f, now_ms, log.last_seq, dry=True)
            if derived is not None:
                end, current = derived
        if current is not None:
            hands.append(current)
        return MatchState(
            **_freeze_books(f.books),
            **_freeze_rotation(f.hands),
            match_id=log.match_id or "",
            hands=tuple(hands),
            current_hand=current
            if current is not None and current.status not in (FINISHED, VOIDED)
            else None,
            clock=clock,
            end=end,
            last_seq=log.last_seq,
            last_recorded_at=log.last_recorded_at,
            voided_seqs=frozenset(s for s, (a, _) in self.fixes.items() if a == "void"),
        )

    def fork(self) -> Replayer:
        """A copy to fold drafts into (a preview): the events and the other frozen values
        shared, every mutable container its own (``fold.fork``), so applying events to
        the copy, or refusing one there, leaves this fold and its ``state()`` unchanged."""
        return _fork_replayer(self)

    def clock_at(self, when: str | datetime | int) -> int | None:
        """The clock reading (ms) at a time, None before the clock starts."""
        clock = self.parts.clock
        if clock.started_at_ms is None:
            return None
        return clock.reading(to_epoch_ms(when)).elapsed_at(to_epoch_ms(when))

    # -- envelope and corrections ------------------------------------------------------

    def _check_envelope(self, event: Event) -> int:
        """Refuse an event that cannot come next; its time in ms when it can."""
        log = self.log
        if self.check_schema:
            validate_schema(event.to_dict())
        elif event.type not in ev.PAYLOAD_TYPES:
            raise EventRefused(key="event.unknown_type", params={"type": event.type})
        if event.seq != log.last_seq + 1:
            raise EventRefused(key="event.seq_gap", params={"expected": log.last_seq + 1})
        if log.match_id is None:
            if event.type != ev.MATCH_OPENED:
                raise EventRefused(key="event.first_must_open")
        elif event.match_id != log.match_id:
            raise EventRefused(key="event.other_match")
        at = event_ms(event.recorded_at)
        if log.last_time is not None and at < log.last_time:
            raise EventRefused(key="event.time_backwards")
        clock = self.parts.clock
        if clock.started_at_ms is not None:
            expected: int | None = clock.elapsed(at)
        else:
            expected = 0 if event.type == ev.CLOCK_STARTED else None
        if event.clock_ms != expected:
            raise EventRefused(key="event.clock_mismatch")
        return at

    def _apply_correction(self, event: Event) -> None:
        """Fold the whole record again with the correction in force, into fresh parts."""
        fixes = fixes_after(event, self.events, self.log.types_by_seq, self.fixes)
        log, parts = RecordLog(), Fold()
        try:
            for old in self.events:
                _refold(log, parts, old, fixes)
        except EventRefused as exc:
            p: ev.CorrectionPayload = ev.payload_of(event)
            raise would_refuse(p.target_seq, exc) from None
        self.log, self.parts, self.fixes = log, parts, fixes
        fold_event(log, parts, event, fixes)


def _fixes(fixes: Fixes) -> Fixes:
    """The fixes' own copy (a replaced payload is a dict; corrections are few)."""
    return {seq: (action, copy.deepcopy(payload)) for seq, (action, payload) in fixes.items()}


_fork_log = copier(
    RecordLog,
    {
        "last_recorded_at": SHARE,
        "last_seq": SHARE,
        "last_time": SHARE,
        "match_id": SHARE,
        "types_by_seq": dict,
    },
)
_fork_replayer = copier(
    Replayer,
    {"check_schema": SHARE, "events": list, "fixes": _fixes, "log": _fork_log, "parts": fork_parts},
    frozenset(vars(Replayer())),
)


def fold_event(log: RecordLog, f: Fold, event: Event, fixes: Fixes, at: int | None = None) -> None:
    """Fold one event (its envelope checked; ``at``: its time in ms when already read)
    into ``f``, with the ``fixes`` in force."""
    if at is None:
        at = event_ms(event.recorded_at)
    kind = event.type
    if kind == _CORRECTION:
        p: ev.CorrectionPayload = ev.payload_of(event)
        log.touch(event, at)
        f.books.corrections.append(Correction(event.seq, p.target_seq, p.action, p.reason))
        f.books.consequences.append(
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
    fix = fixes.get(event.seq) if fixes else None
    data: Any
    if fix is not None:
        if fix[0] == "void":
            log.touch(event, at)
            return
        replaced: Any = fix[1]  # a replaced payload, parsed afresh
        data = prepare_payload(replaced) if kind == _TRICK else ev.parse_payload(kind, replaced)
    elif kind == _TRICK:  # the hot path: read the raw payload, no typed tree
        data = prepared_trick(event)
    else:
        data = parsed_payload(event)
    books, clock = f.books, f.clock
    time_up = None  # unknown until read: the match has a clock and no end yet
    if log.match_id is not None and kind != _MATCH_OPENED:
        if books.end is None and clock.started_at_ms is not None:
            time_up = clock.elapsed(at) >= clock.limit_ms  # clock.time_up(at), inlined
            if time_up:
                time_out_check(f, at, event.seq)
        end = books.end
        if end is not None:
            if kind not in ev.AFTER_END_TYPES:
                raise EventRefused(key="match.ended", params={"article": end.article})
            if end.recorded and kind == ev.MATCH_ENDED:
                raise EventRefused(key="match.end_already")
    handler = HANDLERS.get(kind)
    if handler is None:
        raise EventRefused(key="event.unknown_type", params={"type": kind})
    handler(f, event, data, at)
    # e.g. the hand in play at time-out is over; a trick moves no clock, so time not up
    # before it is not up after it.
    if (
        books.end is None
        and log.match_id is not None
        and clock.started_at_ms is not None
        and (time_up is not False or kind != _TRICK)
    ):
        time_out_check(f, at, event.seq)
    log.touch(event, at)


_CORRECTION, _TRICK, _MATCH_OPENED = ev.CORRECTION, ev.TRICK, ev.MATCH_OPENED


def _refold(log: RecordLog, f: Fold, event: Event, fixes: Fixes) -> None:
    try:
        fold_event(log, f, event, fixes)
    except REFUSALS as exc:
        raise refusal_at(exc, event) from None
    except Exception as exc:  # a bug, unless the event is malformed (see failure_at)
        fix = fixes.get(event.seq)
        raise failure_at(exc, event, fix[1] if fix else None) from exc


#: Which ``MatchState`` fields the core derives itself; the deal's rotation comes from
#: the hands, every other field from the match's books (all by name, ``fold.freeze``).
_FROM_CORE = frozenset(
    {
        "match_id",
        "hands",
        "current_hand",
        "clock",
        "end",
        "last_seq",
        "last_recorded_at",
        "voided_seqs",
    }
)
_ROTATION = frozenset({"deal_holder", "next_dealer", "shuffler", "cutter"})
_ALL = frozenset(MatchState.__dataclass_fields__)
_freeze_books = freezer(MatchState, MatchBooks, skip=_FROM_CORE | _ROTATION)
_freeze_rotation = freezer(MatchState, Hands, skip=_ALL - _ROTATION)


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
    with collection_paused():
        for event in events if upto is None else events[:upto]:
            replayer.apply(event)
    return replayer


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during a bulk read and fold (this replay, the
    store's open and ``verify``).

    The fold allocates many small long-lived values (rows, events, trick records,
    tuples), which otherwise trigger repeated full collections that walk the whole
    record; the fold creates no reference cycles, so reference counting frees everything
    meanwhile. Collection resumes (if it was on) when the fold ends, also after a refusal.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
