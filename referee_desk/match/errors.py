"""The match layer's errors: one root, split by whose fault it is.

``EventRefused`` (and ``SchemaRefused``): the *input* is wrong, an event the record
cannot accept; worded for the user, each is a ValueError with one readable line. A
raise site passes a phrasebook ``key`` and its ``params`` (as consequences do): the
English line is the book's (:mod:`referee_desk.phrasebook`, written once) and the desk
words the same key in the user's language. ``ReplayFailed``: the *code* is wrong, a bug
met while folding an event the schema accepts; it keeps the original exception as
its ``__cause__`` and is never a refusal (nor a ValueError), so no refusal handler
swallows it and ``verify`` does not call an intact record broken.
"""

from __future__ import annotations

from typing import Any

from referee_desk.match.refusal_wording import english


class MatchError(Exception):
    """Root of every error the match layer raises."""


class EventRefused(MatchError, ValueError):
    """An event the record cannot accept (bad shape, or impossible in the current state).

    ``EventRefused(key=..., params=...)``: the reason is the key's English phrase. A
    ``reason`` is given only where no phrase can say it: a wrapped error of the rules
    core (worded by ``fallback_text``) and the schema validator's own message (it names
    the JSON path). ``seq`` and ``event_type`` name the event when known; the message
    already contains them, so ``str(exc)`` is the one-line reason to show.
    """

    def __init__(
        self,
        reason: str | None = None,
        *,
        seq: int | None = None,
        event_type: str | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
    ):
        self.seq = seq
        self.event_type = event_type
        self.key = key
        self.params: dict[str, Any] = dict(params or {})
        if reason is None:
            if key is None:
                raise TypeError("a refusal needs a phrasebook key (or a reason)")
            reason = english(key, self.params)
        self.reason = reason
        where = []
        if event_type:
            where.append(event_type)
        if seq is not None:
            where.append(f"seq {seq}")
        prefix = f"{' '.join(where)} refused: " if where else "refused: "
        super().__init__(prefix + reason)

    def at(self, seq: int, event_type: str) -> EventRefused:
        """The same refusal, named by its event (checks deep in a fold do not know it)."""
        return type(self)(
            self.reason, seq=seq, event_type=event_type, key=self.key, params=self.params
        )


class SchemaRefused(EventRefused):
    """An event whose envelope or payload does not match the JSON Schema."""


class ReplayFailed(MatchError, RuntimeError):
    """A bug met while folding an event: not the record's fault, reported with its cause.

    ``seq`` and ``event_type`` name the event being folded; ``__cause__`` is the
    exception the fold raised (a KeyError, an AssertionError, ...).
    """

    def __init__(self, seq: int, event_type: str, cause: BaseException) -> None:
        self.seq = seq
        self.event_type = event_type
        self.cause = cause
        super().__init__(
            f"{event_type} seq {seq}: the replay failed (a bug in the desk, not a problem "
            f"of the record): {type(cause).__name__}: {cause}"
        )
