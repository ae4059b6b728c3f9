"""Opening a tournament file: recognition, creation (also by two desks at once),
migrations, the damage checks, the heads journal and the desk-session marks.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
import uuid
from pathlib import Path

from referee_desk.store import backup, keys, legacy_seals, schema
from referee_desk.store.checks import Checks
from referee_desk.store.errors import (
    DamagedFile,
    NewerFileError,
    NotATournamentFile,
    StoreWriteError,
    UnreadableFile,
)
from referee_desk.store.file_core import FileCore, utc_now
from referee_desk.store.trust import UntrustedFile
from referee_desk.store.witness import Witness

SQLITE_MAGIC = b"SQLite format 3\x00"


def is_sqlite(path: str | os.PathLike[str]) -> bool:
    """Does the file start like an SQLite database (a tournament file, or a stranger)?"""
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def connect(
    path: Path, *, create: bool, read_only: bool, frozen: bool = False
) -> tuple[sqlite3.Connection, bool, bool]:
    """(connection, new?, read-only?) for ``path``; refuses what is not a tournament file."""
    file = path
    try:
        exists = file.exists()
        if exists and file.is_dir():
            raise NotATournamentFile(key="store.is_a_folder", params={"file": str(file)})
        if exists and not file.is_file():  # a device, pipe or socket (issue 18)
            raise NotATournamentFile(key="store.not_a_regular_file", params={"file": str(file)})
        new = not exists or file.stat().st_size == 0
        header = b""
        if not new:
            with open(file, "rb") as handle:
                header = handle.read(100)
    except OSError as error:
        raise UnreadableFile(
            key="store.unreadable",
            params={"file": str(file), "error": str(error.strerror or error)},
        ) from None
    if new and (not create or read_only):
        raise NotATournamentFile(key="store.no_such_file", params={"file": str(file)})
    if not new and header[:16] != SQLITE_MAGIC:
        raise NotATournamentFile(key="store.not_a_tournament_file", params={"file": str(file)})
    wal = Path(f"{file}-wal")
    folder = file.resolve().parent
    unwritable = frozen or (
        not new and not (os.access(file, os.W_OK) and os.access(folder, os.W_OK))
    )
    if unwritable and wal.exists() and wal.stat().st_size > 0:
        raise UnreadableFile(
            key="store.read_only_with_wal", params={"file": str(file), "wal": wal.name}
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
    return conn, new, read_only


class Preparation:
    """Brings a freshly connected file to a state the desk can show and write."""

    def __init__(self, checks: Checks) -> None:
        # The checks hold the same collaborators of the file; preparation works on them.
        self.checks = checks
        self.core = checks.core
        self.log = checks.log
        self.seals = checks.seals
        self.signatures = checks.signatures
        self.witness = checks.witness

    def run(self, new: bool, tournament_id: str | None, check: bool, backup_keep: int) -> bool:
        """Create or recognize, migrate, check; returns whether the file is new."""
        core, conn = self.core, self.core.connection
        conn.execute("PRAGMA busy_timeout = 10000")
        if not new and not core.read_only:
            # An SQLite file without tables: another desk is creating it right now.
            new = conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
        if new:
            new = self._create_retrying(tournament_id)
        if not new:
            self._recognize()
            if not core.read_only:
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > schema.STORE_SCHEMA_VERSION:
            schema.migrate(conn, str(core.path), version)  # raises NewerFileError
        if version < schema.STORE_SCHEMA_VERSION:
            signed = version >= schema.SIGNED_SINCE  # its guard stays as it was signed
            downgraded = None if signed else legacy_seals.downgrade_problem(conn, core.path)
            if downgraded is not None:
                raise UntrustedFile(
                    key="store.untrusted", params={"path": str(core.path), "problem": downgraded}
                )
            if core.read_only:
                raise NewerFileError(
                    f"{core.path}: made by an older Referee Desk (store schema version "
                    f"{version}); open it for writing once to upgrade it"
                )
            backup.make_backup(conn, core.path, backup_keep)
            schema.migrate(conn, str(core.path), version)
            # A signed file's guard stays as it was signed (the checks below still find
            # any tampering); only a file from before signing is converted and signed.
            if not signed:
                with core.transaction():
                    legacy_seals.convert(conn, self.signatures, keys.desk_signer())
                    self.signatures.sign_guard(keys.desk_signer())
        if check and not new:
            self.checks.damage()
        if not core.read_only:
            self._start_witness(new)
            backup.remove_orphans(core.path)
        return new

    def _create_retrying(self, tournament_id: str | None) -> bool:
        """``_create``, waiting out another desk that is creating the same file.

        Switching a fresh file to WAL needs a lock SQLite's busy timeout does not always
        wait for; a few short retries let the other desk finish, then its tables are found.
        """
        for attempt in range(50):
            try:
                return self._create(tournament_id)
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                time.sleep(0.02 * (attempt + 1))
        return self._create(tournament_id)

    def _create(self, tournament_id: str | None) -> bool:
        """Create the tables of a new file; False when another desk created it first.

        Two desks creating one new file at once: the second one's ``BEGIN IMMEDIATE``
        waits for the first one's commit, then finds the tables and opens the file.
        """
        conn = self.core.connection
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                conn.execute("ROLLBACK")
                return False
            schema.create_current(conn)
            meta = {
                "format": schema.FILE_FORMAT,
                "tournament_id": tournament_id or uuid.uuid4().hex,
                "created_at": utc_now(),
            }
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            self.signatures.sign_guard(keys.desk_signer())
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        keys.pin(meta["tournament_id"], keys.desk_signer().fingerprint)
        self.checks.trust.accept()  # a new file at this place: this computer knows its key
        return True

    def _recognize(self) -> None:
        conn, path = self.core.connection, self.core.path
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            if "malformed" in str(error):
                # An SQLite header whose pages are gone or broken: damage, not a stranger.
                raise DamagedFile(
                    key="store.damaged_sqlite", params={"file": str(path), "error": str(error)}
                ) from None
            raise NotATournamentFile(
                key="store.not_a_tournament_file_sqlite",
                params={"file": str(path), "error": str(error)},
            ) from None
        if app_id == schema.APPLICATION_ID:
            return
        if {"meta", "events"} <= tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is not None and row[0] == schema.FILE_FORMAT:
                return
        raise NotATournamentFile(
            key="store.sqlite_not_a_tournament_file", params={"file": str(path)}
        )

    def _start_witness(self, new: bool) -> None:
        """Start a fresh heads journal for a new file, or one the file has none of.

        A journal left by another tournament (or by a deleted file of the same name)
        is replaced; so is a missing one (a copied file): from here on it witnesses.
        """
        seen = self.witness.read()
        tournament_id = self.core.tournament_id
        if not new and seen is not None and seen.tournament_id == tournament_id:
            return
        heads = {m: self.log.head(m) for m in self.log.match_ids()}
        seals = {m: (s.head_seq, s.head_hash) for m, s in self.seals.all().items()}
        try:
            self.witness.rebuild(tournament_id, heads, seals)
        except OSError:
            self.witness.failed = True


class SessionMarks:
    """Which desk processes have the file open (``sessions``) and how each ended."""

    def __init__(self, core: FileCore, witness: Witness) -> None:
        self.core = core
        self.witness = witness
        self.token: str | None = None

    def start(self) -> None:
        """Record this desk's session; a file that cannot be written opens read-only."""
        core, conn = self.core, self.core.connection
        token = uuid.uuid4().hex
        host = socket.gethostname()
        try:
            with core.transaction():
                # Sessions of dead processes on this host were recovered by this open.
                for other, pid in conn.execute(
                    "SELECT token, pid FROM sessions WHERE host = ? AND token NOT IN "
                    "(SELECT token FROM session_ends)",
                    (host,),
                ).fetchall():
                    if not _alive(pid):
                        conn.execute(
                            "INSERT INTO session_ends (token, ended_at, how) VALUES (?, ?, ?)",
                            (other, utc_now(), "recovered"),
                        )
                conn.execute(
                    "INSERT INTO sessions (token, host, pid, opened_at) VALUES (?, ?, ?, ?)",
                    (token, host, os.getpid(), utc_now()),
                )
        except StoreWriteError:
            # A read-only file or a full disk: the file opens for reading; appends explain.
            core.read_only = True
            return
        self.token = token
        self.witness.token = token
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def end(self) -> None:
        """Mark a clean close and let the last desk out merge the WAL (never waits)."""
        if self.core.read_only or self.token is None:
            return
        with self.core.transaction() as conn:
            conn.execute(
                "INSERT INTO session_ends (token, ended_at, how) VALUES (?, ?, ?)",
                (self.token, utc_now(), "closed"),
            )
        self.core.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")


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
