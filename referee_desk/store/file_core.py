"""State shared by every part of an open tournament file, and other layers' tables.

``FileCore`` holds the connection and the bookkeeping of one open file; the other
``file_*`` modules add their methods to it as mixins of ``TournamentFile``.
Other layers keep their own tables in the same file through ``ensure_extension`` and
write them inside ``transaction``; they never write the ``events`` table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from referee_desk.store import backup
from referee_desk.store.access import Session
from referee_desk.store.errors import NewerFileError, StoreWriteError
from referee_desk.store.match_checks import MatchChecker
from referee_desk.store.signatures import Signatures
from referee_desk.store.stamps import utc_now
from referee_desk.store.witness import Witness


def write_error(path: Path, error: sqlite3.Error) -> StoreWriteError:
    """A failed SQLite write as the one-line message the desk's dialog shows."""
    text = str(error)
    if "full" in text:
        why = "the disk is full"
    elif "readonly" in text or "read-only" in text:
        why = "the file is read-only"
    else:
        why = f"the file could not be written ({text})"
    return StoreWriteError(f"not saved: {why}: {path}; the record is unchanged")


__all__ = ["FileCore", "utc_now", "write_error"]


class FileCore:
    """The open connection and the per-handle bookkeeping (checkers, backups, session)."""

    def __init__(
        self,
        path: Path,
        conn: sqlite3.Connection,
        *,
        read_only: bool,
        backup_every: int | None,
        backup_keep: int,
    ) -> None:
        self.path = path
        self.connection = conn
        self.read_only = read_only
        self.backup_every = backup_every
        self.backup_keep = backup_keep
        self._checkers: dict[str, MatchChecker] = {}
        self._appended_since_backup = 0
        self._session: str | None = None
        self._closed = False
        self.witness = Witness(path)
        self.signatures = Signatures(conn)
        self._issued: dict[str, Session] = {}  # token -> session issued by ``login``

    # ------------------------------------------------------------- extension

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (rolled back on error) for other layers' tables.

        SQLite write failures surface as ``StoreWriteError`` with a clear message.
        """
        if self.read_only:
            raise StoreWriteError(f"not saved: the file is open read-only: {self.path}")
        conn = self.connection
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise write_error(self.path, error) from None
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.OperationalError):
                raise write_error(self.path, error) from None
            raise

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

    # --------------------------------------------------------------- backups

    def make_backup(self) -> Path:
        """Write a rolling backup now (SQLite online backup); returns its path."""
        self._appended_since_backup = 0
        return backup.make_backup(self.connection, self.path, self.backup_keep)

    def _rolling_backup(self) -> None:
        """The automatic backup after a commit: it never fails the committed event.

        Another desk pruning the same folder, a full disk or a vanished folder only
        skip this backup (the next one is tried ``backup_every`` events later).
        """
        with suppress(OSError, sqlite3.Error):
            self.make_backup()
