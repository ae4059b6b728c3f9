"""What an error raised while an event is folded becomes: a refusal or a failure.

A refusal (the event is wrong) names its event (seq and type). Anything else the
fold raises is a failure (the code is wrong) unless the event itself does not match
the schema: a replay without the schema check trusts the shape, so a malformed
payload meets the fold as a KeyError or TypeError and is refused by the schema then.
"""

from __future__ import annotations

from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused, ReplayFailed, SchemaRefused
from referee_desk.match.schema_check import validate_schema
from referee_desk.rules.errors import RulesError

#: What the fold reports as a refusal: its own, and the rules core's bad-input errors.
REFUSALS = (EventRefused, RulesError)


def refusal_at(error: EventRefused | RulesError, event: Event) -> EventRefused:
    """``error`` from folding ``event``, as a refusal naming it; a refusal that already
    names an event (a nested fold's) passes unchanged.

    A plain function for an ``except`` clause, not a context manager: ``apply`` runs once
    per event of every replay, and a try costs nothing until something is raised.
    """
    if isinstance(error, EventRefused):
        return error if error.seq is not None else error.at(event.seq, event.type)
    return EventRefused(str(error), seq=event.seq, event_type=event.type)


def failure_at(
    error: Exception, event: Event, payload: dict[str, Any] | None = None
) -> EventRefused | ReplayFailed:
    """What an unexpected ``error`` from folding ``event`` is: the schema's refusal when the
    event (with ``payload`` in force, for a replaced event) is malformed, else a failure."""
    if isinstance(error, ReplayFailed):
        return error
    data = event.to_dict()
    if payload is not None:
        data["payload"] = payload
    try:
        validate_schema(data)
    except SchemaRefused as refused:
        return refused if refused.seq is not None else refused.at(event.seq, event.type)
    return ReplayFailed(event.seq, event.type, error)
