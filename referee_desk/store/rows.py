"""Converting between ``Event`` and its row in the ``events`` table."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from referee_desk.match.envelope import Event, canonical_dumps

#: Columns of ``events`` in the order ``INSERT_SQL`` and ``SELECT_COLUMNS`` use.
COLUMNS = (
    "match_id",
    "seq",
    "type",
    "recorded_at",
    "clock_ms",
    "referee",
    "payload",
    "prev_hash",
    "hash",
    "schema_version",
    "canonical",
)
SELECT_COLUMNS = ", ".join(COLUMNS)
INSERT_SQL = f"INSERT INTO events ({SELECT_COLUMNS}) VALUES ({', '.join('?' * len(COLUMNS))})"


def to_row(event: Event, canonical: str | None = None) -> tuple[Any, ...]:
    """The row of ``event``; ``canonical`` is its canonical JSON when the caller has it."""
    return (
        event.match_id,
        event.seq,
        event.type,
        event.recorded_at,
        event.clock_ms,
        event.referee,
        canonical_dumps(event.payload),
        event.prev_hash,
        event.hash,
        event.schema_version,
        event.canonical_json().decode("utf-8") if canonical is None else canonical,
    )


class RowError(ValueError):
    """A stored row that does not decode into an event (damaged or forged)."""


def from_row(row: sqlite3.Row | tuple[Any, ...]) -> tuple[Event, str]:
    """The event and the canonical JSON stored beside it."""
    try:
        payload = json.loads(row[6])
    except (TypeError, ValueError) as error:
        raise RowError(f"payload is not JSON ({error})") from None
    if not isinstance(payload, dict):
        raise RowError("payload is not a JSON object")
    event = Event(
        match_id=row[0],
        seq=row[1],
        type=row[2],
        recorded_at=row[3],
        clock_ms=row[4],
        referee=row[5],
        payload=payload,
        prev_hash=row[7],
        hash=row[8],
        schema_version=row[9],
    )
    return event, row[10]
