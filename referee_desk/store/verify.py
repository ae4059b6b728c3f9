"""Tamper evidence: the first place a match record's chain or content goes wrong.

Shared by the tournament file (on open and in ``verify``), the JSON Lines
importer and ``referee-desk verify``. Each match is checked on its own chain, in
the order the record holds it, then replayed so every event must be acceptable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee_desk.match.envelope import GENESIS_HASH, Event, compute_hash
from referee_desk.store.match_checks import first_problem


@dataclass(frozen=True, slots=True)
class Problem:
    """The first problem found: which match, which event, which line, and why."""

    reason: str
    match_id: str | None = None
    seq: int | None = None
    line: int | None = None
    file: str | None = None

    def __str__(self) -> str:
        where: list[str] = []
        if self.file is not None:
            where.append(f"{self.file}:{self.line}" if self.line is not None else self.file)
        elif self.line is not None:
            where.append(f"line {self.line}")
        if self.match_id is not None:
            where.append(f"match {self.match_id}")
        if self.seq is not None:
            where.append(f"event {self.seq}")
        reason = " ".join(self.reason.split())
        return f"{', '.join(where)}: {reason}" if where else reason


def chain_problem(
    match_id: str,
    events: Sequence[Event],
    lines: Sequence[int] | None = None,
    *,
    stored_canonical: Sequence[str] | None = None,
) -> Problem | None:
    """The first broken link of one match's chain (in record order), or None."""
    prev = GENESIS_HASH
    for index, event in enumerate(events):
        line = lines[index] if lines is not None else None

        def problem(reason: str, event: Event = event, line: int | None = line) -> Problem:
            return Problem(reason, match_id, event.seq, line)

        if event.match_id != match_id:
            return problem(f"belongs to match {event.match_id!r}")
        if event.seq != index + 1:
            return problem(
                f"sequence broken: expected event {index + 1} here, found {event.seq} "
                "(an event was deleted, inserted or moved)"
            )
        if event.prev_hash != prev:
            return problem("hash chain broken: prev_hash does not match the previous event")
        canonical = event.canonical_json()
        if stored_canonical is not None and stored_canonical[index] != canonical.decode("utf-8"):
            return problem("stored canonical JSON differs from the stored fields")
        if event.hash != compute_hash(event.prev_hash, canonical):
            return problem("hash chain broken: the event's content does not match its hash")
        prev = event.hash
    return None


def match_problem(
    match_id: str,
    events: Sequence[Event],
    lines: Sequence[int] | None = None,
    *,
    stored_canonical: Sequence[str] | None = None,
    replay: bool = True,
) -> Problem | None:
    """Chain first, then replay: the first problem of one match, or None."""
    found = chain_problem(match_id, events, lines, stored_canonical=stored_canonical)
    if found is not None or not replay:
        return found
    refused = first_problem(events)
    if refused is None:
        return None
    index, reason = refused
    line = lines[index] if lines is not None else None
    return Problem(f"not acceptable: {reason}", match_id, events[index].seq, line)
