"""The organizer's table board on the web: per table, what the server knows of its desk.

Read with the organizer's own rights (conflicts are the organizer's to see), only for a
visitor who gave the organizer's password. This reads what the server holds today:
last event heard from each desk, events and matches it holds, its conflicts (every
reported conflict counts as open: the server does not record settling them yet).
Heartbeats and "events on the desk not yet on the server" need the desks to report
them; until they do, a quiet desk shows only as "last heard".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from referee_desk.store.postgres.connection import connect

#: A desk not heard from for this many minutes is marked quiet.
QUIET_MINUTES = 10


@dataclass(frozen=True, slots=True)
class BoardRow:
    table: str
    role: str
    matches: int
    events: int
    last_heard: str
    """Local ``HH:MM:SS`` of the last event the desk pushed, empty when never."""
    quiet: bool
    conflicts: tuple[str, ...]


def read_board(url: str, now: datetime | None = None) -> tuple[BoardRow, ...]:
    """One row per table, in table order (the organizer's address)."""
    now = now or datetime.now(UTC)
    with connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT d.table_label, d.role, "
            "(SELECT count(*) FROM referee_desk.matches m WHERE m.desk_role = d.role), "
            "(SELECT count(*) FROM referee_desk.events e WHERE e.pushed_by = d.role), "
            "(SELECT max(received_at) FROM referee_desk.events e WHERE e.pushed_by = d.role) "
            "FROM referee_desk.desks d ORDER BY d.role"
        ).fetchall()
        found = conn.execute(
            "SELECT reported_by, kind, match_id, seq FROM referee_desk.conflicts ORDER BY id"
        ).fetchall()
    conflicts: dict[str, list[str]] = {}
    for who, kind, match_id, seq in found:
        conflicts.setdefault(who, []).append(f"{kind} {match_id} #{seq}")
    out = []
    for label, role, matches, events, heard in rows:
        quiet = heard is None or (now - heard).total_seconds() > QUIET_MINUTES * 60
        shown = heard.astimezone().strftime("%H:%M:%S") if heard is not None else ""
        out.append(
            BoardRow(label, role, matches, events, shown, quiet, tuple(conflicts.get(role, ())))
        )
    return tuple(out)
