"""Heads of the match records in a tournament file (for the outcome cache)."""

from __future__ import annotations

import sqlite3


def heads(conn: sqlite3.Connection) -> dict[str, tuple[int, str]]:
    """match id -> (number of events, hash of the last event)."""
    rows = conn.execute(
        "SELECT e.match_id, e.seq, e.hash FROM events e JOIN "
        "(SELECT match_id, MAX(seq) AS s FROM events GROUP BY match_id) h "
        "ON e.match_id = h.match_id AND e.seq = h.s"
    ).fetchall()
    return {m: (s, h) for m, s, h in rows}
