"""Corrections: void or replace an earlier event; nothing is deleted or edited in place.

The record is folded again from the start with the correction in force, and a
correction whose new record would not be acceptable is refused.
"""

from __future__ import annotations

from dataclasses import replace

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.books import Books
from referee_desk.match.fold.naming import REFUSALS, failure_at, refusal_at
from referee_desk.match.schema_check import validate_schema


class Corrections(Books):
    """Handling of ``correction`` events (the fold of the correction itself is in the core)."""

    def _apply_correction(self, event: Event) -> None:
        p: ev.CorrectionPayload = ev.payload_of(event)
        target = p.target_seq
        if target >= event.seq or target not in self.types_by_seq:
            raise EventRefused(key="correction.target_not_earlier", params={"target": target})
        target_type = self.types_by_seq[target]
        if target_type == ev.CORRECTION:
            raise EventRefused(key="correction.target_is_correction")
        if self.fixes.get(target, ("", None))[0] == "void":
            raise EventRefused(key="correction.already_voided", params={"target": target})
        if target_type == ev.MATCH_OPENED and p.action == "void":
            raise EventRefused(key="correction.match_opened")
        if p.action == "replace":
            original = self.events[target - 1]
            validate_schema(replace(original, payload=dict(p.payload or {})).to_dict())
        fixes = dict(self.fixes)
        fixes[target] = (p.action, dict(p.payload) if p.payload is not None else None)
        # Fold the whole record again with the correction in force.
        previous = self.events
        fresh = type(self)(check_schema=False)
        fresh.fixes = fixes
        try:
            for old in previous:
                fresh._refold(old)
        except EventRefused as exc:
            raise EventRefused(
                key="correction.would_refuse",
                params={
                    "target": target,
                    "seq": exc.seq,
                    "type": exc.event_type or "",
                    "inner_key": exc.key or "",
                    "inner": exc.params,
                    "inner_reason": exc.reason,
                },
            ) from None
        keep = ("events", "check_schema")
        self.__dict__.update({k: v for k, v in fresh.__dict__.items() if k not in keep})
        self.fixes = fixes
        self._fold(event, fixes, strict=True)

    def _refold(self, event: Event) -> None:
        try:
            self._fold(event, self.fixes, strict=False)
        except REFUSALS as exc:
            raise refusal_at(exc, event) from None
        except Exception as exc:  # a bug, unless the event is malformed (see failure_at)
            fix = self.fixes.get(event.seq)
            raise failure_at(exc, event, fix[1] if fix else None) from exc
