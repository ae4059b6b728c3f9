"""Corrections: void or replace an earlier event; nothing is deleted or edited in place.

``fixes_after`` checks a correction against the record so far and gives the fixes
then in force; the core (``replayer``) folds the whole record again from the start
with them, and a correction whose new record would not be acceptable is refused
(``would_refuse``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.schema_check import validate_schema

#: seq → ("void", None) or ("replace", payload): the corrections in force.
Fixes = dict[int, tuple[str, dict[str, Any] | None]]


def fixes_after(
    event: Event, events: list[Event], types_by_seq: dict[int, str], fixes: Fixes
) -> Fixes:
    """The fixes in force once the correction ``event`` is applied (refused if it cannot be)."""
    p: ev.CorrectionPayload = ev.payload_of(event)
    target = p.target_seq
    if target >= event.seq or target not in types_by_seq:
        raise EventRefused(key="correction.target_not_earlier", params={"target": target})
    target_type = types_by_seq[target]
    if target_type == ev.CORRECTION:
        raise EventRefused(key="correction.target_is_correction")
    if fixes.get(target, ("", None))[0] == "void":
        raise EventRefused(key="correction.already_voided", params={"target": target})
    if target_type == ev.MATCH_OPENED and p.action == "void":
        raise EventRefused(key="correction.match_opened")
    if p.action == "replace":
        original = events[target - 1]
        validate_schema(replace(original, payload=dict(p.payload or {})).to_dict())
    after = dict(fixes)
    after[target] = (p.action, dict(p.payload) if p.payload is not None else None)
    return after


def would_refuse(target: int, exc: EventRefused) -> EventRefused:
    """The refusal of a correction whose refold meets ``exc``."""
    return EventRefused(
        key="correction.would_refuse",
        params={
            "target": target,
            "seq": exc.seq,
            "type": exc.event_type or "",
            "inner_key": exc.key or "",
            "inner": exc.params,
            "inner_reason": exc.reason,
        },
    )
