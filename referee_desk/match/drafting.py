"""Building, checking and sealing new events: what the desk calls to record something.

``new_event`` fills in the envelope (seq, time, clock reading) from the record so
far; ``validate`` refuses what the state cannot accept; ``seal`` links it into the
hash chain. The store persists only sealed events that passed ``validate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.clock import format_time, parse_time
from referee_desk.match.envelope import GENESIS_HASH, Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.replay import Replayer, replayer_for
from referee_desk.match.schema_check import validate_schema
from referee_desk.match.state import MatchState


def _recorded_at(now: str | datetime | None) -> str:
    if now is None:
        return format_time(datetime.now(UTC))
    if isinstance(now, datetime):
        return format_time(now)
    return format_time(parse_time(now))


def new_event(
    events_or_state: Sequence[Event] | MatchState | Replayer,
    type: str,
    payload: dict[str, Any],
    referee: str,
    now: str | datetime | None = None,
    *,
    match_id: str | None = None,
) -> Event:
    """An unsealed event with match_id, seq, recorded_at and clock_ms filled in.

    ``events_or_state`` is the record so far (a list of events, a replayed
    ``MatchState`` or a ``Replayer``); for ``match_opened`` pass ``[]`` and
    ``match_id``. The clock reading is derived from the earlier events at ``now``.
    """
    if type not in ev.PAYLOAD_TYPES:
        raise EventRefused(key="event.unknown_type", params={"type": str(type)})
    state: MatchState | None
    if isinstance(events_or_state, MatchState):
        state = events_or_state
    elif isinstance(events_or_state, Replayer):
        state = events_or_state.state()
    else:
        state = replayer_for(events_or_state).state() if events_or_state else None
    recorded_at = _recorded_at(now)
    at = parse_time(recorded_at)
    if state is None or state.last_seq == 0:
        if not match_id:
            raise EventRefused(key="event.first_needs_match_id")
        return Event(match_id, 1, type, recorded_at, None, referee, dict(payload))
    clock: int | None
    if state.clock.started:
        clock = state.clock.elapsed_at(at)
    elif type == ev.CLOCK_STARTED:
        clock = 0
    else:
        clock = None
    return Event(
        match_id or state.match_id,
        state.last_seq + 1,
        type,
        recorded_at,
        clock,
        referee,
        dict(payload),
    )


def validate(events: Sequence[Event], draft: Event) -> None:
    """Raise EventRefused (SchemaRefused for shape) if ``draft`` cannot follow ``events``."""
    validate_schema(draft.to_dict())
    replayer_for(events).apply(draft)


def seal(events: Sequence[Event], draft: Event) -> Event:
    """``draft`` linked after the last event (its hash filled in)."""
    prev = events[-1].hash if events else GENESIS_HASH
    return draft.sealed(prev)


def append(events: list[Event], draft: Event) -> Event:
    """Validate, seal and append ``draft`` to an in-memory record; returns the sealed event."""
    validate(events, draft)
    event = seal(events, draft)
    events.append(event)
    return event


def undo_entries(events: Sequence[Event], reason: str) -> list[tuple[str, dict[str, Any]]]:
    """What undoing an entry means in an append-only record: one ``correction`` voiding
    each of the entry's events, newest first, with the referee's reason. Nothing is
    deleted; the record grows by the corrections, and the fold then treats the voided
    events as if never entered (``fold/corrections.py``). The schema refuses an empty
    reason (a correction must say why)."""
    return [
        ("correction", {"target_seq": event.seq, "action": "void", "reason": reason})
        for event in reversed(events)
    ]


class Recorder:
    """An in-memory match record that keeps its replayer warm (samples, tests, tools).

    ``record(type, payload, now)`` builds, validates, seals and appends one event in
    time proportional to that event (not to the record's length); a refused event
    leaves the record as it was. ``record_many`` records several as one entry (all or
    none), and ``undo`` undoes an entry headless, as the desk does (``undo_entries``).
    """

    def __init__(self, match_id: str, referee: str) -> None:
        self.match_id = match_id
        self.referee = referee
        self.events: list[Event] = []
        self.replayer = Replayer(check_schema=True)

    def draft(self, type: str, payload: dict[str, Any], now: str | datetime) -> Event:
        if not self.events:
            return new_event([], type, payload, self.referee, now, match_id=self.match_id)
        return new_event(self.replayer, type, payload, self.referee, now)

    def record(self, type: str, payload: dict[str, Any], now: str | datetime) -> Event:
        draft = self.draft(type, payload, now)
        validate_schema(draft.to_dict())
        event = seal(self.events, draft)
        try:
            self.replayer.apply(event)
        except EventRefused:
            # A refused apply may leave the fold half-done: rebuild it from the record.
            self.replayer = replayer_for(self.events, check_schema=False)
            self.replayer.check_schema = True
            raise
        self.events.append(event)
        return event

    def record_many(
        self, entries: Sequence[tuple[str, dict[str, Any]]], now: str | datetime
    ) -> list[Event]:
        """Record several events as one entry: a refusal of any leaves the record as it was."""
        kept = len(self.events)
        try:
            return [self.record(type, payload, now) for type, payload in entries]
        except BaseException:
            del self.events[kept:]  # nothing of a refused entry stays (not yet shared)
            self.replayer = replayer_for(self.events, check_schema=False)
            self.replayer.check_schema = True
            raise

    def undo(self, entry: Sequence[Event], reason: str, now: str | datetime) -> list[Event]:
        """Undo an entry: record the corrections that void its events (``undo_entries``);
        a refusal records none of them."""
        return self.record_many(undo_entries(entry, reason), now)

    def state(self, now: str | datetime | None = None) -> MatchState:
        return self.replayer.state(now)
