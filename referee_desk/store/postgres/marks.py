"""What a desk's file remembers about syncing: the head each server holds, open conflicts.

Kept in the desk's own tournament file (extension ``sync``, tables ``sync_*``) so the
desk can show its sync state without the network: events beyond the pushed head are
waiting; a conflict stays until a later push of that match goes through.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Literal

from referee_desk.store.file_core import utc_now
from referee_desk.store.tournament_file import TournamentFile

EXTENSION = "sync"
VERSION = 1

ConflictKind = Literal["fork", "claimed", "refused", "behind"]


@dataclass(frozen=True, slots=True)
class Conflict:
    """A match the server would not take: where, what kind, and why (one line)."""

    match_id: str
    seq: int
    kind: ConflictKind
    reason: str

    def __str__(self) -> str:
        return f"match {self.match_id}, event {self.seq}: {self.reason}"


def _migrate(conn: sqlite3.Connection, from_version: int) -> None:
    if from_version < 1:
        conn.execute(
            "CREATE TABLE sync_servers (server_id TEXT PRIMARY KEY, address TEXT NOT NULL, "
            "last_push_at TEXT NOT NULL)"
        )
        conn.execute(
            "CREATE TABLE sync_pushed (server_id TEXT NOT NULL, match_id TEXT NOT NULL, "
            "seq INTEGER NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (server_id, match_id))"
        )
        conn.execute(
            "CREATE TABLE sync_conflicts (server_id TEXT NOT NULL, match_id TEXT NOT NULL, "
            "seq INTEGER NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL, at TEXT NOT NULL, "
            "PRIMARY KEY (server_id, match_id))"
        )


def ensure(tf: TournamentFile) -> None:
    tf.ensure_extension(EXTENSION, VERSION, _migrate)


def _has_tables(tf: TournamentFile) -> bool:
    row = tf.connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_pushed'"
    ).fetchone()
    return row is not None


def latest_server(tf: TournamentFile) -> tuple[str, str] | None:
    """(server_id, address) of the server this file was last pushed to, or None."""
    if not _has_tables(tf):
        return None
    row = tf.connection.execute(
        "SELECT server_id, address FROM sync_servers ORDER BY last_push_at DESC LIMIT 1"
    ).fetchone()
    return (row[0], row[1]) if row else None


def pushed_heads(tf: TournamentFile, server_id: str) -> dict[str, tuple[int, str]]:
    if not _has_tables(tf):
        return {}
    rows = tf.connection.execute(
        "SELECT match_id, seq, hash FROM sync_pushed WHERE server_id = ?", (server_id,)
    ).fetchall()
    return {m: (s, h) for m, s, h in rows}


def conflicts(tf: TournamentFile, server_id: str) -> list[Conflict]:
    if not _has_tables(tf):
        return []
    rows = tf.connection.execute(
        "SELECT match_id, seq, kind, reason FROM sync_conflicts WHERE server_id = ? "
        "ORDER BY at, match_id",
        (server_id,),
    ).fetchall()
    return [Conflict(*r) for r in rows]


def record_push(
    tf: TournamentFile,
    server_id: str,
    address: str,
    heads: dict[str, tuple[int, str]],
    found: list[Conflict],
    cleared: list[str],
) -> None:
    """Remember what the server now holds and which matches are (no longer) in conflict."""
    ensure(tf)
    now = utc_now()
    with tf.transaction() as conn:
        conn.execute(
            "INSERT INTO sync_servers (server_id, address, last_push_at) VALUES (?, ?, ?) "
            "ON CONFLICT (server_id) DO UPDATE SET address = excluded.address, "
            "last_push_at = excluded.last_push_at",
            (server_id, address, now),
        )
        conn.executemany(
            "INSERT INTO sync_pushed (server_id, match_id, seq, hash) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (server_id, match_id) DO UPDATE SET seq = excluded.seq, "
            "hash = excluded.hash",
            [(server_id, m, s, h) for m, (s, h) in heads.items()],
        )
        conn.executemany(
            "DELETE FROM sync_conflicts WHERE server_id = ? AND match_id = ?",
            [(server_id, m) for m in cleared],
        )
        conn.executemany(
            "INSERT OR REPLACE INTO sync_conflicts (server_id, match_id, seq, kind, reason, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(server_id, c.match_id, c.seq, c.kind, c.reason, now) for c in found],
        )
