"""Every refusal raised while an event is folded names that event (seq and type)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.rules.errors import RulesError


@contextmanager
def refusals_named_by(event: Event) -> Iterator[None]:
    """Re-raise a refusal (or a rule/shape error) from inside the fold as one naming ``event``.

    A refusal that already names an event (a nested fold's) passes unchanged.
    """
    try:
        yield
    except EventRefused as exc:
        if exc.seq is None:
            raise exc.at(event.seq, event.type) from None
        raise
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        raise EventRefused(str(exc), seq=event.seq, event_type=event.type) from None
