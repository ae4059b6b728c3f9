"""What a desk remembers about syncing: the head each server holds, open conflicts.

Kept in a small SQLite file beside the desk's tournament file (``cup.sqlite.sync``), not
in it: the pusher then only reads the tournament file and never competes with the
desk's appends for its write lock. The marks are a cache: lost or stale, they only cost
one comparison with the server (pushing is idempotent), never an event.
Events beyond the pushed head are waiting; a conflict stays until a later push of that
match goes through.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from referee_desk.store import TournamentFile

SUFFIX = ".sync"

ConflictKind = Literal["fork", "claimed", "refused", "behind", "seal"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS sync_servers (server_id TEXT PRIMARY KEY, address TEXT NOT NULL,"
    " last_push_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS sync_pushed (server_id TEXT NOT NULL, match_id TEXT NOT NULL,"
    " seq INTEGER NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (server_id, match_id))",
    "CREATE TABLE IF NOT EXISTS sync_conflicts (server_id TEXT NOT NULL, match_id TEXT NOT NULL,"
    " seq INTEGER NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL, at TEXT NOT NULL,"
    " PRIMARY KEY (server_id, match_id))",
    "CREATE TABLE IF NOT EXISTS sync_seals (server_id TEXT NOT NULL, match_id TEXT NOT NULL,"
    " signature TEXT NOT NULL, PRIMARY KEY (server_id, match_id))",
)


@dataclass(frozen=True, slots=True)
class Conflict:
    """A match the server would not take: where, what kind, and why (one line)."""

    match_id: str
    seq: int
    kind: ConflictKind
    reason: str

    def __str__(self) -> str:
        return f"match {self.match_id}, event {self.seq}: {self.reason}"


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def marks_path(tf: TournamentFile) -> Path:
    return Path(f"{tf.path}{SUFFIX}")


@contextmanager
def _open(tf: TournamentFile, *, write: bool) -> Iterator[sqlite3.Connection | None]:
    path = marks_path(tf)
    if not write and not path.exists():
        yield None
        return
    with closing(sqlite3.connect(path, timeout=30.0, isolation_level=None)) as conn:
        if write:
            conn.execute("PRAGMA journal_mode = WAL")
            for statement in _SCHEMA:
                conn.execute(statement)
        elif len(_tables(conn)) < len(_SCHEMA):  # another writer is creating it right now
            yield None
            return
        yield conn


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sync_%'"
        )
    ]


def latest_server(tf: TournamentFile) -> tuple[str, str, str] | None:
    """(server_id, address, last_push_at) of the server last pushed to, or None."""
    with _open(tf, write=False) as conn:
        if conn is None:
            return None
        row = conn.execute(
            "SELECT server_id, address, last_push_at FROM sync_servers "
            "ORDER BY last_push_at DESC LIMIT 1"
        ).fetchone()
    return (row[0], row[1], row[2]) if row else None


def pushed_heads(tf: TournamentFile, server_id: str) -> dict[str, tuple[int, str]]:
    with _open(tf, write=False) as conn:
        if conn is None:
            return {}
        rows = conn.execute(
            "SELECT match_id, seq, hash FROM sync_pushed WHERE server_id = ?", (server_id,)
        ).fetchall()
    return {m: (s, h) for m, s, h in rows}


def pushed_seals(tf: TournamentFile, server_id: str) -> dict[str, str]:
    """The signature of each match's lock the server took (match_id → signature)."""
    with _open(tf, write=False) as conn:
        if conn is None:
            return {}
        rows = conn.execute(
            "SELECT match_id, signature FROM sync_seals WHERE server_id = ?", (server_id,)
        ).fetchall()
    return dict(rows)


def conflicts(tf: TournamentFile, server_id: str) -> list[Conflict]:
    with _open(tf, write=False) as conn:
        if conn is None:
            return []
        rows = conn.execute(
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
    seals: dict[str, str] | None = None,
) -> None:
    """Remember what the server now holds and which matches are (no longer) in conflict."""
    now = utc_now()
    with _open(tf, write=True) as conn:
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
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
            "INSERT OR REPLACE INTO sync_seals (server_id, match_id, signature) VALUES (?, ?, ?)",
            [(server_id, m, signature) for m, signature in (seals or {}).items()],
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
        conn.execute("COMMIT")
