"""The connection of one open tournament file, its facts, and other layers' tables.

``FileCore`` is what every collaborator of ``TournamentFile`` shares: the path, the one
``sqlite3.Connection`` (autocommit), whether the handle may write, and ``transaction``.
Other layers keep their own tables in the same file through ``ensure_extension`` and
write them inside ``transaction``; they never write the ``events`` table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from referee_desk.store.errors import NewerFileError, StoreWriteError
from referee_desk.store.stamps import utc_now


def write_error(path: Path, error: sqlite3.Error) -> StoreWriteError:
    """A failed SQLite write as the one-line message the desk's dialog shows."""
    text = str(error)
    if "full" in text:
        return StoreWriteError(
            key="store.not_saved_disk_full", params={"file": str(path), "detail": text}
        )
    if "readonly" in text or "read-only" in text:
        return StoreWriteError(
            key="store.not_saved_read_only", params={"file": str(path), "detail": text}
        )
    return StoreWriteError(key="store.not_saved", params={"file": str(path), "detail": text})


__all__ = ["FileCore", "utc_now", "write_error"]


class FileCore:
    """The open connection shared by the file's collaborators."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, read_only: bool) -> None:
        self.path = path
        self.connection = conn
        self.read_only = read_only
        #: Why a file opened for writing is read-only (a disk already full at opening,
        #: ``TournamentFile.open``, the one reason there is): every refused write says
        #: that, not "the file is read-only".
        self.why_read_only: StoreWriteError | None = None
        #: Run once after the current transaction commits (dropped on rollback).
        self.after_commit: list[Callable[[], None]] = []

    def read_only_error(self) -> StoreWriteError:
        why = self.why_read_only
        if why is not None:  # ``store.disk_was_full``, "… (so it opened for reading only)"
            return StoreWriteError(
                key="store.read_only_disk_was_full", params={"file": why.params["file"]}
            )
        return StoreWriteError(key="store.read_only", params={"file": str(self.path)})

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (rolled back on error) for other layers' tables.

        SQLite write failures surface as ``StoreWriteError`` with a clear message.
        """
        if self.read_only:
            raise self.read_only_error()
        conn = self.connection
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise write_error(self.path, error) from None
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as error:
            self.after_commit.clear()
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.OperationalError):
                raise write_error(self.path, error) from None
            raise
        done, self.after_commit = self.after_commit, []
        for callback in done:
            callback()

    def ensure_extension(
        self, name: str, version: int, migrate: Callable[[sqlite3.Connection, int], None]
    ) -> None:
        """Create or upgrade another layer's tables in this file.

        ``migrate(conn, from_version)`` runs inside one transaction when the stored
        version of ``name`` (0 when absent) is below ``version``; it must bring the
        tables from ``from_version`` to ``version``. A stored version above ``version``
        raises ``NewerFileError``.
        """
        row = self.connection.execute(
            "SELECT version FROM extensions WHERE name = ?", (name,)
        ).fetchone()
        stored = row[0] if row else 0
        if stored > version:
            raise NewerFileError(
                f"{self.path}: made by a newer Referee Desk ({name} tables version {stored}; "
                f"this desk knows up to {version})"
            )
        if stored == version:
            return
        with self.transaction() as conn:
            migrate(conn, stored)
            conn.execute(
                "INSERT OR REPLACE INTO extensions (name, version) VALUES (?, ?)", (name, version)
            )

    def meta(self) -> dict[str, str]:
        """The file's key/value facts (format, tournament_id, created_at …), no secret."""
        rows = self.connection.execute("SELECT key, value FROM meta").fetchall()
        facts = {k: v for k, v in rows if k != "seal_secret"}  # an old file's HMAC secret
        facts["store_schema_version"] = str(
            self.connection.execute("PRAGMA user_version").fetchone()[0]
        )
        return facts

    @property
    def tournament_id(self) -> str:
        row = self.connection.execute(
            "SELECT value FROM meta WHERE key = 'tournament_id'"
        ).fetchone()
        return row[0] if row else ""
