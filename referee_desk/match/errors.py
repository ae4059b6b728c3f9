"""Typed refusals of the match layer: each is a ValueError with one readable line.

Besides its English line, a refusal may carry a phrasebook ``key`` and its ``params``
(like consequences do), so that the desk can word it in the user's language. A refusal
without a key is shown by its English line.
"""

from __future__ import annotations

from typing import Any


class EventRefused(ValueError):
    """An event the record cannot accept (bad shape, or impossible in the current state).

    ``seq`` and ``event_type`` name the event when known; the message already
    contains them, so ``str(exc)`` is the one-line reason to show.
    """

    def __init__(
        self,
        reason: str,
        *,
        seq: int | None = None,
        event_type: str | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
    ):
        self.reason = reason
        self.seq = seq
        self.event_type = event_type
        self.key = key
        self.params: dict[str, Any] = dict(params or {})
        where = []
        if event_type:
            where.append(event_type)
        if seq is not None:
            where.append(f"seq {seq}")
        prefix = f"{' '.join(where)} refused: " if where else "refused: "
        super().__init__(prefix + reason)

    def at(self, seq: int, event_type: str) -> EventRefused:
        """The same refusal, named by its event (checks deep in a fold do not know it)."""
        return EventRefused(
            self.reason, seq=seq, event_type=event_type, key=self.key, params=self.params
        )


class SchemaRefused(EventRefused):
    """An event whose envelope or payload does not match the JSON Schema."""
