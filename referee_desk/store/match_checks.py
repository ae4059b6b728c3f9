"""The store's one door into the match layer: schema and state validation.

The store never interprets payloads itself; it asks the match layer whether an
event may be recorded (``validate_schema`` for the JSON Schema, the incremental
``Replayer`` or ``validate(events, draft)`` for the state). The names are looked
up lazily so the store works (chain checks only) while the match layer is absent.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from referee_desk.match.envelope import HASHED_FIELDS, Event


@cache
def _lookup(name: str) -> Any:
    try:
        module = importlib.import_module("referee_desk.match")
    except Exception:  # absent or mid-edit: the store still checks chains
        return None
    return getattr(module, name, None)


def match_layer_available() -> bool:
    """True when the match layer can check events for state (not just the chain)."""
    return _lookup("Replayer") is not None or _lookup("validate") is not None


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
    load = _lookup("load_schema")
    if load is None:
        return None
    try:
        import fastjsonschema

        schema = {k: v for k, v in load().items() if k != "$schema"}
        for branch in schema.get("allOf", []):
            if branch["if"]["properties"]["type"]["const"] == event_type:
                return fastjsonschema.compile({**schema, "allOf": [branch["then"]]})
    except Exception:
        return None
    return None


def schema_problem(event: Event) -> str | None:
    """Why the event does not match the event schema, or None if it does.

    The compiled validator answers the common case (valid) quickly; anything it
    doubts goes to the match layer's ``validate_schema``, which has the last word
    and the readable message.
    """
    check: Callable[[dict[str, Any]], None] | None = _lookup("validate_schema")
    if check is None:
        return None
    data = {name: getattr(event, name) for name in _ENVELOPE}
    fast = _fast_validator(data["type"]) if isinstance(data["type"], str) else None
    if fast is not None:
        try:
            fast(data)
            return None
        except Exception:
            pass
    try:
        check(data)
    except Exception as error:  # the schema check refuses by raising; any refusal counts
        return _reason(error)
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
        self._replayer: Any = None
        self._rebuild(list(events))

    @property
    def events(self) -> list[Event]:
        return self._events

    def _rebuild(self, events: list[Event]) -> None:
        factory = _lookup("Replayer")
        self._replayer = factory() if factory is not None else None
        self._events = []
        for event in events:
            if self._replayer is not None:
                self._replayer.apply(event)
            self._events.append(event)

    def problem(self, event: Event) -> str | None:
        self._pending = None
        reason = schema_problem(event)
        if reason is not None:
            return reason
        if self._replayer is not None:
            try:
                self._replayer.apply(event)
            except Exception as error:
                self._rebuild(self._events)
                return _reason(error)
        else:
            validate = _lookup("validate")
            if validate is not None:
                try:
                    validate(list(self._events), event)
                except Exception as error:
                    return _reason(error)
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
