"""The ``events`` table: each match's hash chain, read in sequence order.

Read-only: ``Appender`` and ``Importer`` are its only writers, and the schema's
triggers refuse an UPDATE or DELETE even from SQL. The checks of what it reads are in
``checks.py``.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from referee_desk.match.envelope import GENESIS_HASH, Event
from referee_desk.store.errors import DamagedFile
from referee_desk.store.file_core import FileCore
from referee_desk.store.rows import SELECT_COLUMNS, RowError, from_row

_ROWS_SQL = f"SELECT {SELECT_COLUMNS} FROM events WHERE match_id = ? AND seq > ? ORDER BY seq"


class EventLog:
    """Reading (and inserting into) the events of one open file."""

    def __init__(self, core: FileCore) -> None:
        self.core = core

    def match_ids(self) -> list[str]:
        """Every match with at least one event, in the order they were first recorded."""
        rows = self.core.connection.execute(
            "SELECT match_id FROM events GROUP BY match_id ORDER BY MIN(id)"
        ).fetchall()
        return [r[0] for r in rows]

    def raw_rows(self, match_id: str, after_seq: int = 0) -> list[tuple[Any, ...]]:
        """The stored rows after ``after_seq`` (columns of ``rows.COLUMNS``), as SQLite has them.

        Read with SQLite's own UTF-8 decoding (fast); a row with damaged bytes is read
        again with the file's lenient decoding, so the chain check names that event.
        """
        conn = self.core.connection
        lenient = conn.text_factory
        conn.text_factory = str
        try:
            return conn.execute(_ROWS_SQL, (match_id, after_seq)).fetchall()
        except sqlite3.OperationalError as error:
            if "decode" not in str(error):
                raise
        finally:
            conn.text_factory = lenient
        return conn.execute(_ROWS_SQL, (match_id, after_seq)).fetchall()

    def rows(self, match_id: str, after_seq: int = 0) -> list[tuple[Event, str]]:
        """(event, stored canonical JSON) after ``after_seq``; ``DamagedFile`` if unreadable."""
        rows = self.raw_rows(match_id, after_seq)
        try:
            return [from_row(r) for r in rows]
        except RowError as error:
            raise DamagedFile(
                key="store.damaged_match",
                params={"path": self.core.path, "match": match_id, "detail": error},
            ) from None

    def events(self, match_id: str) -> list[Event]:
        return [event for event, _ in self.rows(match_id)]

    def head(self, match_id: str) -> tuple[int, str]:
        """(last seq, last hash) of a match; (0, GENESIS_HASH) when it has no event."""
        row = self.core.connection.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS_HASH)

    def heads(self) -> dict[str, tuple[int, str]]:
        """match id -> (number of events, hash of the last one), every match at once."""
        rows = self.core.connection.execute(
            "SELECT e.match_id, e.seq, e.hash FROM events e JOIN "
            "(SELECT match_id, MAX(seq) AS s FROM events GROUP BY match_id) h "
            "ON e.match_id = h.match_id AND e.seq = h.s"
        ).fetchall()
        return {m: (s, h) for m, s, h in rows}

    def hash_at(self, match_id: str, seq: int) -> str | None:
        row = self.core.connection.execute(
            "SELECT hash FROM events WHERE match_id = ? AND seq = ?", (match_id, seq)
        ).fetchone()
        return row[0] if row else None

    def count(self) -> int:
        return self.core.connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
