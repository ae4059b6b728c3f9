"""Every refusal raised while an event is folded names that event (seq and type)."""

from __future__ import annotations

from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused


def refusal_at(error: Exception, event: Event) -> EventRefused:
    """``error`` (a refusal, or a rule or shape error) from folding ``event``, as a refusal
    naming it; a refusal that already names an event (a nested fold's) passes unchanged.

    A plain function for an ``except`` clause, not a context manager: ``apply`` runs once
    per event of every replay, and a try costs nothing until something is raised.
    """
    if isinstance(error, EventRefused):
        return error if error.seq is not None else error.at(event.seq, event.type)
    return EventRefused(str(error), seq=event.seq, event_type=event.type)
