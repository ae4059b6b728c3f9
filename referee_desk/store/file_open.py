"""Opening a tournament file: recognition, integrity and chain checks, migrations,
and the session marks (opened / closed cleanly) that reveal a lost write-ahead log.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import uuid
from pathlib import Path
from typing import Self

from referee_desk.store import backup, keys, legacy_seals, schema
from referee_desk.store.errors import (
    DamagedFile,
    NewerFileError,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
    UnreadableFile,
)
from referee_desk.store.file_core import FileCore, utc_now

SQLITE_MAGIC = b"SQLite format 3\x00"


class OpeningMixin(FileCore):
    """``open`` / ``close`` of ``TournamentFile`` (uses ``chain_problem`` from reading)."""

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
    ) -> Self:
        """Open (or create) a tournament file.

        ``check`` runs SQLite's integrity check and every match's hash chain, so damage is
        refused with ``DamagedFile`` instead of showing a silently shortened match.
        ``backup_every`` (events) turns on rolling backups, also made on close.
        Raises ``NotATournamentFile``, ``NewerFileError`` or ``DamagedFile``.
        """
        file = Path(path)
        try:
            exists = file.exists()
            if exists and file.is_dir():
                raise NotATournamentFile(f"{file}: is a folder, not a tournament file")
            new = not exists or file.stat().st_size == 0
            header = b""
            if not new:
                with open(file, "rb") as handle:
                    header = handle.read(100)
        except OSError as error:
            raise UnreadableFile(f"{file}: cannot be read ({error.strerror or error})") from None
        if new and (not create or read_only):
            raise NotATournamentFile(f"{file}: no such tournament file")
        if not new and header[:16] != SQLITE_MAGIC:
            raise NotATournamentFile(f"{file}: not a Referee Desk tournament file")
        wal = Path(f"{file}-wal")
        folder = file.resolve().parent
        unwritable = not new and not (os.access(file, os.W_OK) and os.access(folder, os.W_OK))
        if unwritable and wal.exists() and wal.stat().st_size > 0:
            raise UnreadableFile(
                f"{file}: read-only, with recent events still in {wal.name}; copy both files "
                "to a folder you can write to and open the copy"
            )
        read_only = read_only or unwritable
        try:
            if unwritable:
                # Nobody can change it here: read it as it is, without the -shm file.
                conn = sqlite3.connect(
                    f"{file.resolve().as_uri()}?mode=ro&immutable=1", uri=True, isolation_level=None
                )
            elif read_only:
                conn = sqlite3.connect(
                    f"{file.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
                )
            else:
                conn = sqlite3.connect(file, isolation_level=None, timeout=10.0)
        except sqlite3.Error as error:
            raise NotATournamentFile(f"{file}: cannot be opened ({error})") from None
        conn.text_factory = _lenient_text
        try:
            opened = cls(
                file, conn, read_only=read_only, backup_every=backup_every, backup_keep=backup_keep
            )
            opened._prepare(new, tournament_id, check)
        except BaseException as error:
            conn.close()
            if isinstance(error, StoreError | StoreWriteError):
                raise
            if isinstance(error, sqlite3.Error):
                raise DamagedFile(f"{file}: damaged: SQLite reports: {error}") from None
            if isinstance(error, UnicodeError | ValueError | LookupError | OverflowError):
                # e.g. SQLite's report quotes damaged schema bytes that are not UTF-8
                raise DamagedFile(f"{file}: damaged: unreadable ({error})") from None
            raise
        return opened

    def _prepare(self, new: bool, tournament_id: str | None, check: bool) -> None:
        conn = self.connection
        conn.execute("PRAGMA busy_timeout = 10000")
        if not new and not self.read_only:
            # An SQLite file without tables: another desk is creating it right now.
            new = conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
        if new:
            new = self._create(tournament_id)
        if not new:
            self._recognize()
            if not self.read_only:
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > schema.STORE_SCHEMA_VERSION:
            schema.migrate(conn, str(self.path), version)  # raises NewerFileError
        if version < schema.STORE_SCHEMA_VERSION:
            if self.read_only:
                raise NewerFileError(
                    f"{self.path}: made by an older Referee Desk (store schema version "
                    f"{version}); open it for writing once to upgrade it"
                )
            backup.make_backup(conn, self.path, self.backup_keep)
            schema.migrate(conn, str(self.path), version)
            with self.transaction():
                legacy_seals.convert(conn, self.signatures, keys.desk_signer())
                self.signatures.sign_guard(keys.desk_signer())
        if check and not new:
            self._check_damage()
            problem = self.witness_problem()
            if problem is not None:
                raise DamagedFile(f"{self.path}: damaged: {problem}").keyed(
                    "store.events_missing",
                    file=self.path.name,
                    match=problem.match_id,
                    seq=problem.seq,
                )
        if not self.read_only:
            self._start_witness(new)
            self._start_session()
            backup.remove_orphans(self.path)

    def _create(self, tournament_id: str | None) -> bool:
        """Create the tables of a new file; False when another desk created it first.

        Two desks creating one new file at once: the second one's ``BEGIN IMMEDIATE``
        waits for the first one's commit, then finds the tables and opens the file.
        """
        conn = self.connection
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                conn.execute("ROLLBACK")
                return False
            schema.create_current(conn)
            now = utc_now()
            meta = {
                "format": schema.FILE_FORMAT,
                "tournament_id": tournament_id or uuid.uuid4().hex,
                "created_at": now,
            }
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            self.signatures.sign_guard(keys.desk_signer())
            conn.execute("COMMIT")
            keys.pin(meta["tournament_id"], keys.desk_signer().fingerprint)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return True

    def _recognize(self) -> None:
        conn = self.connection
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            if "malformed" in str(error):
                # An SQLite header whose pages are gone or broken: damage, not a stranger.
                raise DamagedFile(f"{self.path}: damaged: SQLite reports: {error}") from None
            raise NotATournamentFile(
                f"{self.path}: not a Referee Desk tournament file ({error})"
            ) from None
        if app_id == schema.APPLICATION_ID:
            return
        if {"meta", "events"} <= tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is not None and row[0] == schema.FILE_FORMAT:
                return
        raise NotATournamentFile(
            f"{self.path}: an SQLite file, but not a Referee Desk tournament file"
        )

    def _check_damage(self) -> None:
        rows = self.connection.execute("PRAGMA integrity_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            detail = "; ".join(str(r[0]) for r in rows[:3])
            raise DamagedFile(f"{self.path}: damaged: SQLite integrity check: {detail}")
        problem = self.chain_problem()
        if problem is not None:
            raise DamagedFile(f"{self.path}: damaged: {problem}")

    def _start_witness(self, new: bool) -> None:
        """Start a fresh heads journal for a new file, or one the file has none of.

        A journal left by another tournament (or by a deleted file of the same name)
        is replaced; so is a missing one (a copied file): from here on it witnesses.
        """
        seen = self.witness.read()
        if not new and seen is not None and seen.tournament_id == self.tournament_id:
            return
        heads = {m: self.head(m) for m in self.match_ids()}
        seals = {m: (s.head_seq, s.head_hash) for m, s in self.seals().items()}
        try:
            self.witness.rebuild(self.tournament_id, heads, seals)
        except OSError:
            self.witness.failed = True

    def _start_session(self) -> None:
        token = uuid.uuid4().hex
        host = socket.gethostname()
        try:
            with self.transaction():
                # Sessions of dead processes on this host were recovered by this open.
                for other, pid in self.connection.execute(
                    "SELECT token, pid FROM sessions WHERE host = ? AND token NOT IN "
                    "(SELECT token FROM session_ends)",
                    (host,),
                ).fetchall():
                    if not _alive(pid):
                        self.connection.execute(
                            "INSERT INTO session_ends (token, ended_at, how) VALUES (?, ?, ?)",
                            (other, utc_now(), "recovered"),
                        )
                self.connection.execute(
                    "INSERT INTO sessions (token, host, pid, opened_at) VALUES (?, ?, ?, ?)",
                    (token, host, os.getpid(), utc_now()),
                )
        except StoreWriteError:
            # A read-only file or a full disk: the file opens for reading; appends explain.
            self.read_only = True
            return
        self._session = token
        self.witness.token = token
        # Put the session mark into the main file, so a lost WAL is noticed later.
        self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

    # ---------------------------------------------------------------- closing

    def close(self) -> None:
        """Make the rolling backup (if on), mark a clean close, checkpoint, close."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self.read_only and self._session is not None:
                if self.backup_every and self._appended_since_backup:
                    self.make_backup()
                with self.transaction():
                    self.connection.execute(
                        "INSERT INTO session_ends (token, ended_at, how) VALUES (?, ?, ?)",
                        (self._session, utc_now(), "closed"),
                    )
                # PASSIVE never waits for another desk; the last one out merges the WAL.
                self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, StoreWriteError):
            pass  # the events are committed already; a missed mark only costs a check
        finally:
            self.witness.close()
            self.connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lenient_text(raw: bytes) -> str:
    """Damaged bytes read as U+FFFD, so the hash chain (not a decode crash) names the event."""
    return raw.decode("utf-8", "replace")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
