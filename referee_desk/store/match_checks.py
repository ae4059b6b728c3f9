"""The store's one door into the match layer: schema and state validation.

The store never interprets payloads itself; it asks the match layer whether an
event may be recorded (``validate_schema`` for the JSON Schema, the incremental
``Replayer`` for the state). Plain imports: without the match layer the store does
not start, since it could only check chains and would store anything as a first
event. A refusal (``EventRefused``) becomes the reason an event is not acceptable;
a failure (``ReplayFailed``, a bug) is raised as it is, never reported as a refusal.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import fastjsonschema

from referee_desk.match.envelope import HASHED_FIELDS, Event
from referee_desk.match.errors import EventRefused, SchemaRefused
from referee_desk.match.replay import Replayer, collection_paused
from referee_desk.match.schema_check import load_schema, validate_schema
from referee_desk.match.state import MatchState
from referee_desk.store.schema_quick import compile_rule


def _reason(error: BaseException) -> str:
    message = " ".join((str(error) or type(error).__name__).split())
    return message if len(message) <= 300 else message[:299] + "…"


_ENVELOPE = (*HASHED_FIELDS, "hash")


@cache
def _schema() -> dict[str, Any]:
    """The store's own copy of the match layer's event schema, every ``$ref`` relative.

    ``load_schema()`` is one shared dict, and fastjsonschema rewrites the ``$ref``s of
    a schema it compiles in place (to ``<$id>#/$defs/...``): whether the quick checks
    below recognise the schema would depend on who compiled it first. This copy is
    never handed to a compiler (each compile gets a copy of its own).
    """
    schema = load_schema()
    return _relative(copy.deepcopy(schema), str(schema.get("$id", "")))


def _relative(value: Any, base: str) -> Any:
    """``value`` with each ``$ref`` to ``base#...`` written as ``#...`` (the same target)."""
    if isinstance(value, dict):
        ref = value.get("$ref")
        if base and isinstance(ref, str) and ref.startswith(base + "#"):
            value["$ref"] = ref[len(base) :]
        for item in value.values():
            _relative(item, base)
    elif isinstance(value, list):
        for item in value:
            _relative(item, base)
    return value


@cache
def _fast_validator(event_type: str) -> Callable[[dict[str, Any]], Any] | None:
    """The match layer's schema for one event type, compiled by fastjsonschema (a fast yes).

    The schema's ``allOf`` holds one ``if type == T then payload ...`` branch per type;
    for an event whose type is T only T's branch can apply, so the base schema plus
    that branch is the whole check. None when the schema has another shape.
    """
    schema = {k: v for k, v in copy.deepcopy(_schema()).items() if k != "$schema"}
    for branch in schema.get("allOf", []):
        try:
            if branch["if"]["properties"]["type"]["const"] != event_type:
                continue
        except (KeyError, TypeError):
            return None  # not the one-branch-per-type shape: the full check decides
        return fastjsonschema.compile({**schema, "allOf": [branch["then"]]})
    return None


#: The envelope part of the event schema that ``_envelope_ok`` checks, word for word;
#: a schema whose envelope differs from it turns the quickest path off.
_ENVELOPE_SCHEMA: dict[str, Any] = {
    "schema_version": {"const": 1},
    "match_id": {"type": "string", "minLength": 1, "maxLength": 200},
    "seq": {"type": "integer", "minimum": 1},
    "recorded_at": {
        "type": "string",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$",
    },
    "clock_ms": {"type": ["integer", "null"], "minimum": 0},
    "referee": {"type": "string", "minLength": 1, "maxLength": 200},
    "payload": {"type": "object"},
    "prev_hash": {"$ref": "#/$defs/sha256"},
    "hash": {"$ref": "#/$defs/sha256hex_or_empty"},
}
_HEX_DEFS = {
    "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    "sha256hex_or_empty": {"type": "string", "pattern": "^([0-9a-f]{64})?$"},
}
_STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
_HEX64 = re.compile(r"[0-9a-f]{64}")


@cache
def _event_types() -> frozenset[str] | None:
    """The schema's event types when its envelope is the one ``_envelope_ok`` checks."""
    schema = _schema()
    properties = dict(schema.get("properties", {}))
    types = properties.pop("type", {}).get("enum")
    defs = schema.get("$defs", {})
    if (
        properties != _ENVELOPE_SCHEMA
        or any(defs.get(name) != rule for name, rule in _HEX_DEFS.items())
        or schema.get("type") != "object"
        or schema.get("additionalProperties") is not False
        or sorted(schema.get("required", [])) != sorted(_ENVELOPE)
        or not isinstance(types, list)
    ):
        return None
    return frozenset(types)


def _envelope_ok(e: Event) -> bool:
    """The envelope satisfies the schema (never True where the schema says no: stricter
    where JSON Schema is loose, e.g. ``$`` before a newline or ``1.0`` as an integer)."""
    v, seq, clock, match_id, referee = e.schema_version, e.seq, e.clock_ms, e.match_id, e.referee
    return (
        type(v) is int
        and v == 1
        and type(match_id) is str
        and 0 < len(match_id) <= 200
        and type(seq) is int
        and seq >= 1
        and type(e.recorded_at) is str
        and _STAMP.fullmatch(e.recorded_at) is not None
        and (clock is None or (type(clock) is int and clock >= 0))
        and type(referee) is str
        and 0 < len(referee) <= 200
        and type(e.payload) is dict
        and type(e.prev_hash) is str
        and _HEX64.fullmatch(e.prev_hash) is not None
        and type(e.hash) is str
        and (e.hash == "" or _HEX64.fullmatch(e.hash) is not None)
    )


@cache
def _payload_rule(event_type: str) -> dict[str, Any] | None:
    """The schema's payload rule for one event type alone (None: no such rule, or the
    schema has another shape)."""
    types = _event_types()
    if types is None or event_type not in types:
        return None
    schema = _schema()
    for branch in schema.get("allOf", []):
        try:
            if branch["if"]["properties"]["type"]["const"] != event_type:
                continue
            then = branch["then"]
            if set(then) != {"properties"} or set(then["properties"]) != {"payload"}:
                return None
            rule: dict[str, Any] = then["properties"]["payload"]
        except (KeyError, TypeError):
            return None
        return rule
    return None


@cache
def _payload_validator(event_type: str) -> Callable[[Any], Any] | None:
    """The schema's payload rule for one event type alone, compiled by fastjsonschema
    (None: no such rule, or the schema has another shape)."""
    rule = _payload_rule(event_type)
    if rule is None:
        return None
    schema = _schema()
    whole = {"$id": schema["$id"], "$defs": schema["$defs"], **rule}
    return fastjsonschema.compile(copy.deepcopy(whole))  # it rewrites what it compiles


@cache
def _payload_check(event_type: str) -> Callable[[Any], bool] | None:
    """A quick yes for one event type's payload: the rule compiled to one expression
    (``schema_quick``), else fastjsonschema's validator as a yes or no. False is a doubt
    (the full check decides); None: no quick check for this type."""
    rule = _payload_rule(event_type)
    if rule is None:
        return None
    compiled = compile_rule(rule, _schema()["$defs"])
    if compiled is not None:
        return compiled
    validator = _payload_validator(event_type)
    if validator is None:
        return None

    def check(payload: Any) -> bool:
        try:
            validator(payload)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return check


def _yes(check: Callable[[Any], bool], payload: Any) -> bool:
    """The quick check's answer; anything it raises is a doubt (the full check decides)."""
    try:
        return check(payload)
    except Exception:
        return False


def schema_problem(event: Event) -> str | None:
    """Why the event does not match the event schema, or None if it does.

    Quickest: the envelope checked directly and the payload by its type's compiled rule.
    Then the compiled validator of the whole schema answers the common case; anything it
    doubts goes to the match layer's ``validate_schema``, which has the last word and
    the readable message.
    """
    quick = _payload_check(event.type) if type(event.type) is str else None
    if quick is not None and _envelope_ok(event) and _yes(quick, event.payload):
        return None  # else doubted: the whole schema decides
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
    ``reject()`` to go back to the state before it. ``refusal`` keeps the match layer's
    own refusal behind the last reason (its key and parameters, for the desk's words).

    The desk reads the state of its open match here (``state``): the store's check is
    the one fold of an entry, so the state shown is the state the store accepted. A
    several-event entry is checked whole before any of it is written (``check_ahead``,
    all or none); each append that follows takes its event as checked (the same hash),
    so every event is still folded once. Any other event, or any rebuild, drops what
    was checked ahead.
    """

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._events: list[Event] = []
        self._pending: Event | None = None
        self._ahead: list[Event] = []
        self._replayer = Replayer()
        self.refusal: EventRefused | None = None
        self._rebuild(list(events))

    @property
    def events(self) -> list[Event]:
        return self._events

    def state(self, now: Any = None) -> MatchState:
        """The state of the events accepted so far (read at ``now``, as ``Replayer.state``)."""
        return self._replayer.state(now)

    def _rebuild(self, events: list[Event]) -> None:
        self._replayer = Replayer()
        self._events = []
        self._ahead = []
        with collection_paused():
            for event in events:
                self._replayer.apply(event)
                self._events.append(event)

    def problem(self, event: Event, *, schema_checked: bool = False) -> str | None:
        """Why the event is not acceptable next (None: tentatively applied).

        ``schema_checked``: the caller ran ``schema_problem`` on this very event already
        (the importer, when it parsed the line); it is not run twice.
        """
        self._pending = None
        self.refusal = None
        if self._ahead:
            if event.hash and event.hash == self._ahead[0].hash:  # the event checked ahead
                self._pending = self._ahead.pop(0)
                return None
            self.drop_ahead()
        reason = None if schema_checked else schema_problem(event)
        if reason is not None:
            return reason
        try:
            self._replayer.apply(event)
        except EventRefused as refused:
            self._rebuild(self._events)
            self.refusal = refused
            return _reason(refused)
        except Exception:  # a failure: raised as it is, the half-folded event undone first
            self._rebuild(self._events)
            raise
        self._pending = event
        return None

    def check_ahead(self, event: Event) -> None:
        """Check the next event of a several-event entry before any of it is written;
        raise the match layer's refusal (all that was checked ahead is dropped then).
        The caller has checked the event's schema (it is checked again here)."""
        if self._pending is not None:
            self.reject()
        reason = schema_problem(event)
        if reason is not None:
            self.drop_ahead()
            validate_schema({name: getattr(event, name) for name in _ENVELOPE})
            raise SchemaRefused(reason)  # not reached: validate_schema raised the same
        try:
            self._replayer.apply(event)
        except BaseException:
            self._rebuild(self._events)
            raise
        self._ahead.append(event)

    def drop_ahead(self) -> None:
        """Forget what was checked ahead (the entry was not written after all)."""
        if self._ahead:
            self._rebuild(self._events)

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
        if self._pending is not None or self._ahead:
            self._pending = None
            self._rebuild(self._events)


class CheckedFold:
    """A read-only view of one match's checked fold, for the desk: the state the store
    accepted, read at any time (also once the file is closed: the clock keeps running).
    It reads whichever checker the store keeps for the match (``checkers``, by match
    id), so it follows every append without asking the file again. Only ``append``
    feeds the fold; this view can only ask the store to check a several-event entry
    ahead of writing it (``check_ahead``), which the appends then take as checked."""

    __slots__ = ("_checkers", "_match_id")

    def __init__(self, checkers: dict[str, MatchChecker], match_id: str) -> None:
        self._checkers = checkers
        self._match_id = match_id

    def state(self, now: Any = None) -> MatchState:
        return self._checkers[self._match_id].state(now)

    def events(self) -> list[Event]:
        """The events folded (a new list: the desk's own to extend)."""
        return list(self._checkers[self._match_id].events)

    def check_ahead(self, event: Event) -> None:
        """The store's check of the next event of a several-event entry, before any of
        it is written (``MatchChecker.check_ahead``); raises the match layer's refusal."""
        self._checkers[self._match_id].check_ahead(event)

    def drop_ahead(self) -> None:
        """The entry checked ahead is not written after all."""
        self._checkers[self._match_id].drop_ahead()


def _chained_envelope_ok(e: Event, referees: set[str]) -> bool:
    """``_envelope_ok`` for an event of a chain ``chain_fault`` passed, past its first.

    The chain proved what is left out: the match id is the first event's (checked in
    full), ``hash`` is a SHA-256 hex digest and ``prev_hash`` the one before it (or the
    genesis hash), so neither needs its pattern again; a referee seen valid in this
    record (``referees``) is not measured again.
    """
    v, seq, clock, referee = e.schema_version, e.seq, e.clock_ms, e.referee
    if referee not in referees:
        if not (type(referee) is str and 0 < len(referee) <= 200):
            return False
        referees.add(referee)
    return (
        type(v) is int
        and v == 1
        and type(seq) is int
        and seq >= 1
        and type(e.recorded_at) is str
        and _STAMP.fullmatch(e.recorded_at) is not None
        and (clock is None or (type(clock) is int and clock >= 0))
        and type(e.payload) is dict
    )


def first_problem(events: Sequence[Event], *, chained: bool = False) -> tuple[int, str] | None:
    """(index, reason) of the first event the state cannot accept, or None.

    ``chained``: ``events`` are one match's whole record and its chain passed
    ``chain_fault`` (the match id, seqs and hashes are proven): the envelope is checked
    for what the chain does not prove (``_chained_envelope_ok``), the payload by its
    type's compiled rule, any doubt by ``schema_problem``; then the one fold. The same
    answers as checking each event with a ``MatchChecker``, in one pass.
    """
    if not chained or not events or _event_types() is None:
        return _checked_one_by_one(events)
    replayer = Replayer()
    apply = replayer.apply
    referees: set[str] = set()
    quick_rules: dict[Any, Callable[[Any], bool] | None] = {}
    first = events[0]
    for index, event in enumerate(events):
        kind = event.type
        quick = quick_rules.get(kind, _ABSENT) if type(kind) is str else None
        if quick is _ABSENT:
            quick = quick_rules[kind] = _payload_check(kind)
        ok = False
        if quick is not None and (
            _chained_envelope_ok(event, referees) if index else _envelope_ok(first)
        ):
            try:  # _yes, inline: this loop runs once per event of a whole file
                ok = quick(event.payload)
            except Exception:
                ok = False
        if not ok:
            reason = schema_problem(event)  # doubted: the whole schema decides
            if reason is not None:
                return index, reason
        try:
            apply(event)
        except EventRefused as refused:
            return index, _reason(refused)
    return None


_ABSENT: Any = object()


def _checked_one_by_one(events: Sequence[Event]) -> tuple[int, str] | None:
    checker = MatchChecker()
    for index, event in enumerate(events):
        reason = checker.problem(event)
        if reason is not None:
            return index, reason
        checker.accept()
    return None
