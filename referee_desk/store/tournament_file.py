"""One tournament, one SQLite file: the durable, append-only record of every match.

Each event is validated by the match layer, sealed into its match's hash chain and
committed in its own transaction (WAL, ``synchronous=FULL``), then witnessed in the
heads journal, before ``append`` returns. Events are never updated or deleted: only
``Appender`` and ``Importer`` insert them, and triggers refuse an UPDATE or DELETE even
from SQL. Other layers keep their own tables in the same file (``ensure_extension``,
``transaction``).

``TournamentFile`` is the file's connection (``FileCore``) and its event log
(``EventLog``: reading events and heads) itself, and its public parts do the rest, each
the one owner of its invariant: ``tf.people`` (PINs, sign-in, assignments, refusals,
access log), ``tf.seals`` (locks, the file's keys), ``tf.checks`` (every check:
``tf.checks.verify()``), ``tf.signatures`` (the signed guard), ``tf.trust``,
``tf.witness`` (the heads journal), ``tf.backups``. ``append`` and ``import_jsonl``
are the only writers of events; a lock goes through ``tf.seals.lock``, which checks the
sign-in as ``append`` does.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

from referee_desk.match.envelope import Event
from referee_desk.store import access, backup
from referee_desk.store.appender import Appender
from referee_desk.store.checks import Checks
from referee_desk.store.errors import (
    DamagedFile,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
)
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore, utc_now
from referee_desk.store.importing import Importer, ImportReport
from referee_desk.store.opening import SQLITE_MAGIC, Preparation, SessionMarks, connect
from referee_desk.store.people import People
from referee_desk.store.postgres.address import is_server_url, redact
from referee_desk.store.seals import Seal, SealInfo, Seals
from referee_desk.store.signatures import Signatures
from referee_desk.store.trust import Trust
from referee_desk.store.witness import Witness

#: A heads journal larger than this (bytes) is rewritten as heads only on a clean close.
COMPACT_JOURNAL_AT = 4 * 1024 * 1024


class TournamentFile(FileCore, EventLog):
    """An open tournament file. Use ``TournamentFile.open(path)``; close it when done.

    ``connection`` is the underlying ``sqlite3.Connection`` (autocommit mode): other
    layers read it freely and write inside ``with tf.transaction():``. They must
    never write the ``events`` table, which only ``append`` and ``import_jsonl`` fill.
    """

    def __init__(
        self,
        path: Path,
        conn: sqlite3.Connection,
        *,
        read_only: bool,
        backup_every: int | None = None,
        backup_keep: int = backup.DEFAULT_KEEP,
    ) -> None:
        FileCore.__init__(self, path, conn, read_only=read_only)
        EventLog.__init__(self, self)
        self.witness = Witness(path)
        self.signatures = Signatures(conn)
        self.trust = Trust(self, self.signatures)
        self.people = People(self, self.signatures, self.trust)
        self.seals = Seals(self, self, self.signatures, self.witness, self.trust, self.people)
        self.backups = backup.RollingBackups(
            conn, path, backup_every, backup_keep, before=self.witness.sync
        )
        self.checks = Checks(self, self, self.seals, self.signatures, self.witness, self.trust)
        self.appender = Appender(self, self, self.people, self.seals, self.witness, self.backups)
        self._importer = Importer(self, self, self.people, self.seals, self.witness)
        self.session = SessionMarks(self, self.witness)
        self.backup_keep = backup_keep
        self._closed = False

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        create: bool = True,
        read_only: bool = False,
        check: bool = True,
        tournament_id: str | None = None,
        backup_every: int | None = None,
        backup_keep: int = backup.DEFAULT_KEEP,
        _frozen: bool = False,
    ) -> Self:
        """Open (or create) a tournament file.

        ``check`` runs SQLite's integrity check, every match's hash chain and the heads
        journal, so damage or loss is refused with ``DamagedFile`` instead of showing a
        silently shortened match. ``backup_every`` (events) turns on rolling backups,
        also made on close. Raises ``NotATournamentFile``, ``NewerFileError``,
        ``DamagedFile`` or ``UnreadableFile``.
        """
        if is_server_url(os.fspath(path)):  # never a file named after it, never echoed whole
            raise NotATournamentFile(
                key="store.server_address", params={"address": redact(os.fspath(path))}
            )
        file = Path(path)
        existed = file.exists() and file.stat().st_size > 0
        conn, new, read_only = connect(file, create=create, read_only=read_only, frozen=_frozen)
        try:
            opened = cls(
                file, conn, read_only=read_only, backup_every=backup_every, backup_keep=backup_keep
            )
            Preparation(opened.checks).run(new, tournament_id, check, backup_keep)
            if not opened.read_only:
                opened.session.start()
        except BaseException as error:
            conn.close()
            if isinstance(error, StoreError | StoreWriteError):
                raise
            if isinstance(error, sqlite3.OperationalError) and _no_room(error) and not read_only:
                if existed:  # a full disk before opening: the intact file opens for reading
                    # (as it is on disk: with no room, nobody can be writing to it)
                    reading = cls.open(
                        file, create=False, read_only=True, check=check, _frozen=True
                    )
                    reading.core.why_read_only = StoreWriteError(
                        key="store.disk_was_full",
                        params={"file": str(file), "detail": str(error)},
                    )
                    return reading
                for suffix in ("", "-wal", "-shm", "-journal", ".heads"):
                    Path(f"{file}{suffix}").unlink(missing_ok=True)  # nothing half-made
                raise StoreWriteError(
                    key="store.not_created_disk_full", params={"file": str(file)}
                ) from None
            if isinstance(error, sqlite3.Error):
                raise DamagedFile(
                    key="store.damaged_sqlite", params={"file": str(file), "error": str(error)}
                ) from None
            if isinstance(error, UnicodeError | ValueError | LookupError | OverflowError):
                # e.g. SQLite's report quotes damaged schema bytes that are not UTF-8
                raise DamagedFile(
                    key="store.damaged_unreadable", params={"file": str(file), "error": str(error)}
                ) from None
            raise
        return opened

    def close(self) -> None:
        """Make the rolling backup (if on), mark a clean close, checkpoint, close."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self.read_only and self.session.token is not None:
                self.backups.on_close()
                self._compact_journal()
                self.session.end()
        except (sqlite3.Error, StoreWriteError, OSError):
            pass  # the events are committed already; a missed mark only costs a check
        finally:
            self.witness.close()
            self.connection.close()

    def _compact_journal(self) -> None:
        """Rewrite a large heads journal as just the heads, when it is safe to.

        Only when the journal agrees with the file (nothing is compacted away that it
        still has to name) and no other desk has the file open (its journal descriptor
        would keep writing to the old file), inside the write lock so none opens meanwhile.
        """
        if self.witness.size() < COMPACT_JOURNAL_AT or self.witness.failed:
            return
        with self.transaction() as conn:
            others = conn.execute(
                "SELECT COUNT(*) FROM sessions WHERE token != ? AND token NOT IN "
                "(SELECT token FROM session_ends)",
                (self.session.token,),
            ).fetchone()[0]
            if others or self.checks.witness_problem() is not None:
                return
            heads = {m: self.head(m) for m in self.match_ids()}
            seals = {m: (s.head_seq, s.head_hash) for m, s in self.seals.all().items()}
            self.witness.rebuild(self.tournament_id, heads, seals)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------- writing events (the only ways)

    def append(
        self,
        draft: Event,
        *,
        expected_seq: int | None = None,
        by: access.Session | None = None,
        lock: bool = False,
    ) -> Event:
        """Validate, seal and commit one event; returns the stored event (``Appender``)."""
        return self.appender.append(draft, expected_seq=expected_seq, by=by, lock=lock)

    def import_jsonl(
        self, paths: Sequence[str | os.PathLike[str]], *, by: access.Session | None = None
    ) -> ImportReport:
        """Import JSON Lines records, all or nothing (``Importer``); in a file with PINs
        ``by`` is checked as at the desk."""
        return self._importer.import_jsonl(paths, by=by)

    # ------------------------------------------ what every store answers (``Records``)

    def all_events(self) -> list[Event]:
        """Every event of the file, match by match (order of ``match_ids``)."""
        return [event for match_id in self.match_ids() for event in self.events(match_id)]

    @property
    def key_fingerprint(self) -> str | None:
        """The file's key: the organizer's when adopted, else the first key that signed."""
        return self.signatures.root_key()

    def seal_info(self, match_id: str) -> SealInfo | None:
        """The latest lock as a report prints it: key, head, time, valid (None: unlocked)."""
        return self.seals.seal_info(match_id)


def _no_room(error: sqlite3.Error) -> bool:
    """SQLite's words for a disk that has no room to open or create a file."""
    text = str(error)
    return "full" in text or "disk I/O error" in text


def open_tournament(path: str | os.PathLike[str], **options: Any) -> TournamentFile:
    """Shorthand for ``TournamentFile.open``."""
    return TournamentFile.open(path, **options)


__all__ = [
    "SQLITE_MAGIC",
    "Seal",
    "SealInfo",
    "TournamentFile",
    "open_tournament",
    "utc_now",
]
