"""The store's one door into the match layer: schema and state validation.

The store never interprets payloads itself; it asks the match layer whether an
event may be recorded (``validate_schema`` for the JSON Schema, the incremental
``Replayer`` for the state). Plain imports: without the match layer the store does
not start, since it could only check chains and would store anything as a first
event. A refusal (``EventRefused``) becomes the reason an event is not acceptable;
a failure (``ReplayFailed``, a bug) is raised as it is, never reported as a refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import fastjsonschema

from referee_desk.match.envelope import HASHED_FIELDS, Event
from referee_desk.match.errors import EventRefused, SchemaRefused
from referee_desk.match.replay import Replayer
from referee_desk.match.schema_check import load_schema, validate_schema


def _reason(error: BaseException) -> str:
    message = " ".join((str(error) or type(error).__name__).split())
    return message if len(message) <= 300 else message[:299] + "…"


_ENVELOPE = (*HASHED_FIELDS, "hash")


@cache
def _fast_validator(event_type: str) -> Callable[[dict[str, Any]], Any] | None:
    """The match layer's schema for one event type, compiled by fastjsonschema (a fast yes).

    The schema's ``allOf`` holds one ``if type == T then payload ...`` branch per type;
    for an event whose type is T only T's branch can apply, so the base schema plus
    that branch is the whole check. None when the schema has another shape.
    """
    schema = {k: v for k, v in load_schema().items() if k != "$schema"}
    for branch in schema.get("allOf", []):
        try:
            if branch["if"]["properties"]["type"]["const"] != event_type:
                continue
        except (KeyError, TypeError):
            return None  # not the one-branch-per-type shape: the full check decides
        return fastjsonschema.compile({**schema, "allOf": [branch["then"]]})
    return None


def schema_problem(event: Event) -> str | None:
    """Why the event does not match the event schema, or None if it does.

    The compiled validator answers the common case (valid) quickly; anything it
    doubts goes to the match layer's ``validate_schema``, which has the last word
    and the readable message.
    """
    data = {name: getattr(event, name) for name in _ENVELOPE}
    fast = _fast_validator(data["type"]) if isinstance(data["type"], str) else None
    if fast is not None:
        try:
            fast(data)
            return None
        except fastjsonschema.JsonSchemaException:
            pass  # doubted: the match layer's check words it (or accepts it after all)
    try:
        validate_schema(data)
    except SchemaRefused as refused:
        return _reason(refused)
    return None


class MatchChecker:
    """Checks one match's events in order, keeping the replayed state between calls.

    ``problem(event)`` returns why the state cannot accept the event (or None); the
    event is then *tentatively* applied: call ``accept()`` once it is stored, or
    ``reject()`` to go back to the state before it.
    """

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._events: list[Event] = []
        self._pending: Event | None = None
        self._replayer = Replayer()
        self._rebuild(list(events))

    @property
    def events(self) -> list[Event]:
        return self._events

    def _rebuild(self, events: list[Event]) -> None:
        self._replayer = Replayer()
        self._events = []
        for event in events:
            self._replayer.apply(event)
            self._events.append(event)

    def problem(self, event: Event) -> str | None:
        self._pending = None
        reason = schema_problem(event)
        if reason is not None:
            return reason
        try:
            self._replayer.apply(event)
        except EventRefused as refused:
            self._rebuild(self._events)
            return _reason(refused)
        except Exception:  # a failure: raised as it is, the half-folded event undone first
            self._rebuild(self._events)
            raise
        self._pending = event
        return None

    def extend(self, events: Sequence[Event]) -> None:
        """Take on events another writer stored (re-checked; rebuilt if they fail)."""
        for event in events:
            if self.problem(event) is None:
                self.accept()
            else:
                self._rebuild([*self._events, *events[events.index(event) :]])
                return

    def accept(self) -> None:
        if self._pending is not None:
            self._events.append(self._pending)
            self._pending = None

    def reject(self) -> None:
        if self._pending is not None:
            self._pending = None
            self._rebuild(self._events)


def first_problem(events: Sequence[Event]) -> tuple[int, str] | None:
    """(index, reason) of the first event the state cannot accept, or None."""
    checker = MatchChecker()
    for index, event in enumerate(events):
        reason = checker.problem(event)
        if reason is not None:
            return index, reason
        checker.accept()
    return None
