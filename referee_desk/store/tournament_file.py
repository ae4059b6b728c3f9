"""One tournament, one SQLite file: the durable, append-only record of every match.

Each event is validated by the match layer, sealed into its match's hash chain and
committed in its own transaction (WAL, ``synchronous=FULL``) before ``append``
returns. Events are never updated or deleted: triggers refuse it even from SQL.
Other layers keep their own tables in the same file through ``ensure_extension``
and ``transaction``.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee_desk.match.envelope import GENESIS_HASH, Event
from referee_desk.store import access, backup, schema, signing
from referee_desk.store.errors import (
    AccessRefused,
    AppendConflict,
    DamagedFile,
    EventRejected,
    NewerFileError,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
    UnreadableFile,
)
from referee_desk.store.match_checks import MatchChecker
from referee_desk.store.rows import INSERT_SQL, SELECT_COLUMNS, RowError, from_row, to_row
from referee_desk.store.verify import Problem, match_problem

SQLITE_MAGIC = b"SQLite format 3\x00"

#: One read inside the append transaction: head seq, head hash, locked?, PINs set up?
_APPEND_STATE_SQL = (
    "SELECT (SELECT seq FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1),"
    " (SELECT hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1),"
    " EXISTS (SELECT 1 FROM match_seals WHERE match_id = ?),"
    " EXISTS (SELECT 1 FROM people)"
)


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Seal:
    """A locked match: its head at locking time and the keyed signature over it."""

    match_id: str
    head_seq: int
    head_hash: str
    signature: str
    sealed_at: str
    sealed_by: str


def _write_error(path: Path, error: sqlite3.Error) -> StoreWriteError:
    text = str(error)
    if "full" in text:
        why = "the disk is full"
    elif "readonly" in text or "read-only" in text:
        why = "the file is read-only"
    else:
        why = f"the file could not be written ({text})"
    return StoreWriteError(f"not saved: {why}: {path}; the record is unchanged")


class TournamentFile:
    """An open tournament file. Use ``TournamentFile.open(path)``; close it when done.

    ``connection`` is the underlying ``sqlite3.Connection`` (autocommit mode): other
    layers read it freely and write inside ``with tf.transaction():``. They must
    never write the ``events`` table, which only ``append`` and ``import`` fill.
    """

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

    # ----------------------------------------------------------------- opening

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
    ) -> TournamentFile:
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
        wal_mode = False
        if not new:
            if header[:16] != SQLITE_MAGIC:
                raise NotATournamentFile(f"{file}: not a Referee Desk tournament file")
            wal_mode = header[18:20] == b"\x02\x02"
        # A missing WAL matters only for a file in WAL mode (backups are not).
        wal = Path(f"{file}-wal")
        wal_present = not wal_mode or wal.exists()
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
            opened._prepare(new, wal_present, tournament_id, check)
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

    def _prepare(
        self, new: bool, wal_present: bool, tournament_id: str | None, check: bool
    ) -> None:
        conn = self.connection
        conn.execute("PRAGMA busy_timeout = 10000")
        if new:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                schema.create_current(conn)
                now = utc_now()
                meta = {
                    "format": schema.FILE_FORMAT,
                    "tournament_id": tournament_id or uuid.uuid4().hex,
                    "created_at": now,
                }
                conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        else:
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
        if not new:
            self._check_wal(wal_present)
        if check and not new:
            self._check_damage()
        if not self.read_only:
            self._start_session()

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

    def _check_wal(self, wal_present: bool) -> None:
        """Refuse a file whose write-ahead log went missing while a desk had it open."""
        if wal_present:
            return
        tables = {r[0] for r in self.connection.execute("SELECT name FROM sqlite_master")}
        if "sessions" not in tables:
            return
        unclosed = self.connection.execute(
            "SELECT COUNT(*) FROM sessions WHERE token NOT IN (SELECT token FROM session_ends)"
        ).fetchone()[0]
        if unclosed:
            raise DamagedFile(
                f"{self.path}: damaged: its write-ahead log ({self.path.name}-wal) is missing "
                "although a desk had the file open; the latest events may be lost. Restore "
                "a backup, or put the -wal file back beside it"
            )

    def _check_damage(self) -> None:
        rows = self.connection.execute("PRAGMA integrity_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            detail = "; ".join(str(r[0]) for r in rows[:3])
            raise DamagedFile(f"{self.path}: damaged: SQLite integrity check: {detail}")
        problem = self.chain_problem()
        if problem is not None:
            raise DamagedFile(f"{self.path}: damaged: {problem}")

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
            self.connection.close()

    def __enter__(self) -> TournamentFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
            raise _write_error(self.path, error) from None
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.OperationalError):
                raise _write_error(self.path, error) from None
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

    # ------------------------------------------------------------------ reading

    def meta(self) -> dict[str, str]:
        """The file's key/value facts (format, tournament_id, created_at …), no secret."""
        rows = self.connection.execute("SELECT key, value FROM meta").fetchall()
        facts = {k: v for k, v in rows if k != "seal_secret"}
        facts["store_schema_version"] = str(
            self.connection.execute("PRAGMA user_version").fetchone()[0]
        )
        return facts

    @property
    def tournament_id(self) -> str:
        return self.meta().get("tournament_id", "")

    def match_ids(self) -> list[str]:
        """Every match with at least one event, in the order they were first recorded."""
        rows = self.connection.execute(
            "SELECT match_id FROM events GROUP BY match_id ORDER BY MIN(id)"
        ).fetchall()
        return [r[0] for r in rows]

    def _rows(self, match_id: str, after_seq: int = 0) -> list[tuple[Event, str]]:
        rows = self.connection.execute(
            f"SELECT {SELECT_COLUMNS} FROM events WHERE match_id = ? AND seq > ? ORDER BY seq",
            (match_id, after_seq),
        ).fetchall()
        try:
            return [from_row(r) for r in rows]
        except RowError as error:
            raise DamagedFile(f"{self.path}: damaged: match {match_id}: {error}") from None

    def events(self, match_id: str) -> list[Event]:
        """The match's events in sequence order (empty list for an unknown match)."""
        return [event for event, _ in self._rows(match_id)]

    def all_events(self) -> list[Event]:
        """Every event of the file, match by match (order of ``match_ids``)."""
        return [event for match_id in self.match_ids() for event in self.events(match_id)]

    def head(self, match_id: str) -> tuple[int, str]:
        """(last seq, last hash) of a match; (0, GENESIS_HASH) when it has no event."""
        row = self.connection.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS_HASH)

    def count(self) -> int:
        return self.connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    # ---------------------------------------------------------------- appending

    def append(
        self,
        draft: Event,
        *,
        expected_seq: int | None = None,
        by: access.Session | None = None,
        lock: bool = False,
    ) -> Event:
        """Validate, seal and commit one event; returns the stored event.

        The event's ``seq`` is assigned here. ``expected_seq`` (or a non-zero
        ``draft.seq``) is the seq the caller believes comes next: if another writer
        recorded since, ``AppendConflict`` is raised and nothing is written.
        ``by`` is the signed-in person (required once PINs are set up).
        ``lock`` locks the match with this event in the same transaction (the desk passes
        it with ``match_ended``), so an ended match is never left unsealed by a crash.
        Raises ``EventRejected``, ``AppendConflict``, ``AccessRefused`` or
        ``StoreWriteError`` (disk full, read-only); the file is unchanged on any error.
        """
        if self.read_only:
            raise StoreWriteError(f"not saved: the file is read-only: {self.path}")
        match_id = draft.match_id
        if not isinstance(match_id, str) or not match_id:
            raise EventRejected(str(match_id), draft.seq, "an event needs a match id")
        if expected_seq is None and draft.seq:
            expected_seq = draft.seq
        conn = self.connection
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise _write_error(self.path, error) from None
        checker: MatchChecker | None = None
        refusal: str | None = None
        try:
            row = conn.execute(_APPEND_STATE_SQL, (match_id,) * 3).fetchone()
            head_seq, head_hash, locked, guarded = row
            head_seq = head_seq or 0
            head_hash = head_hash or GENESIS_HASH
            if expected_seq is not None and expected_seq != head_seq + 1:
                raise AppendConflict(match_id, expected_seq, head_seq + 1)
            refusal = self._authorize(match_id, draft, by, bool(locked), bool(guarded))
            if refusal is not None:
                raise AccessRefused(f"match {match_id}: {refusal}")
            if by is not None:
                draft = replace(draft, referee=by.name)
            event = replace(draft, seq=head_seq + 1).sealed(head_hash)
            checker = self._checker(match_id, head_seq, head_hash)
            reason = checker.problem(event)
            if reason is not None:
                raise EventRejected(match_id, event.seq, reason)
            conn.execute(INSERT_SQL, to_row(event))
            if locked or lock:
                self._insert_seal(match_id, event.seq, event.hash, event.referee or "")
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if checker is not None:
                checker.reject()
            if refusal is not None:
                self._record_refusal(match_id, by, f"append {draft.type}", refusal)
            if isinstance(error, sqlite3.IntegrityError):
                raise AppendConflict(match_id, head_seq + 1, head_seq + 2) from None
            if isinstance(error, sqlite3.OperationalError):
                raise _write_error(self.path, error) from None
            raise
        checker.accept()
        self._appended_since_backup += 1
        if self.backup_every and self._appended_since_backup >= self.backup_every:
            self.make_backup()
        return event

    def _checker(self, match_id: str, head_seq: int, head_hash: str) -> MatchChecker:
        """The match's replayed state as of the stored head (cached between appends)."""
        checker = self._checkers.get(match_id)
        if checker is not None:
            known = checker.events
            last = (known[-1].seq, known[-1].hash) if known else (0, GENESIS_HASH)
            if last == (head_seq, head_hash):
                return checker
            if known and last[0] < head_seq and self._is_prefix(match_id, known):
                checker.extend([e for e, _ in self._rows(match_id, last[0])])
                return checker
        checker = MatchChecker(self.events(match_id))
        self._checkers[match_id] = checker
        return checker

    def _is_prefix(self, match_id: str, known: list[Event]) -> bool:
        row = self.connection.execute(
            "SELECT hash FROM events WHERE match_id = ? AND seq = ?", (match_id, known[-1].seq)
        ).fetchone()
        return row is not None and row[0] == known[-1].hash

    # ------------------------------------------------------------- who may change

    def access_enabled(self) -> bool:
        return self.connection.execute("SELECT 1 FROM people LIMIT 1").fetchone() is not None

    def add_person(self, name: str, role: str, pin: str) -> None:
        """Register a referee, committee member or organizer with a PIN (stored hashed)."""
        if role not in access.ROLES:
            raise ValueError(f"role {role!r}: expected one of {', '.join(access.ROLES)}")
        salt, digest, kdf = access.hash_pin(pin)
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO people (name, role, pin_salt, pin_hash, kdf) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, role, salt, digest, kdf),
            )

    def login(self, name: str, pin: str, *, role: str | None = None) -> access.Session:
        """The signed-in session, or ``AccessRefused`` (the refusal is recorded).

        With ``role`` the person must also hold that role (e.g. committee sign-in).
        """
        row = self.connection.execute(
            "SELECT role, pin_salt, pin_hash, kdf FROM people WHERE name = ?", (name,)
        ).fetchone()
        if row is None or not access.pin_matches(pin, row[1], row[2], row[3]):
            self._record_refusal(None, None, f"sign in as {name}", "wrong name or PIN")
            raise AccessRefused(f"sign in as {name}: wrong name or PIN")
        if role is not None and row[0] != role:
            reason = f"{name} is registered as {row[0]}, not {role}"
            self._record_refusal(None, None, f"sign in as {name} ({role})", reason)
            raise AccessRefused(f"sign in as {name}: {reason}")
        return access.Session(name, row[0])

    def person_role(self, name: str) -> str | None:
        """The role ``name`` is registered with, or None."""
        row = self.connection.execute("SELECT role FROM people WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    def people_with_role(self, role: str) -> list[str]:
        """Names registered with ``role`` (no PIN material)."""
        rows = self.connection.execute(
            "SELECT name FROM people WHERE role = ? ORDER BY name", (role,)
        ).fetchall()
        return [r[0] for r in rows]

    def assign_referee(self, match_id: str, name: str) -> None:
        """Name the referee who alone may enter the match's events."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO match_referees (match_id, referee) VALUES (?, ?)",
                (match_id, name),
            )

    def match_referee(self, match_id: str) -> str | None:
        row = self.connection.execute(
            "SELECT referee FROM match_referees WHERE match_id = ?", (match_id,)
        ).fetchone()
        if row is not None:
            return row[0]
        first = self.connection.execute(
            "SELECT referee FROM events WHERE match_id = ? AND seq = 1", (match_id,)
        ).fetchone()
        return first[0] if first else None

    def _authorize(
        self, match_id: str, draft: Event, by: access.Session | None, locked: bool, guarded: bool
    ) -> str | None:
        """Why ``by`` may not append ``draft`` to the match now, or None.

        ``locked``: the match has a seal; ``guarded``: PINs are set up in this file.
        """
        if locked:
            return self._authorize_locked(match_id, draft, by, guarded)
        if not guarded:
            return None
        if by is None:
            return "sign in with your PIN to enter events"
        if by.role == "committee":
            if draft.type in access.COMMITTEE_EVENT_TYPES:
                return None
            return f"the committee does not enter {draft.type} events; the referee does"
        if by.role != "referee":
            return f"{by.name} ({by.role}) may not enter match events"
        referee = self.match_referee(match_id)
        if referee is not None and referee != by.name:
            return f"{by.name} is not this match's referee ({referee} is)"
        return None

    def _authorize_locked(
        self, match_id: str, draft: Event, by: access.Session | None, guarded: bool
    ) -> str | None:
        """After locking only notes (the match's referee or the committee) and committee
        rulings and decisions (the committee alone) can follow (issue 4, issue 5)."""
        if draft.type in access.COMMITTEE_ONLY_TYPES:
            if by is None or by.role != "committee":
                return "the match is locked; only the arbitration committee can add a ruling"
            return None
        if draft.type not in access.AFTER_LOCK_TYPES:
            return (
                f"the match is locked; only notes and committee rulings can follow, "
                f"not {draft.type}"
            )
        if by is not None and by.role == "committee":
            return None
        if not guarded:
            return None
        if by is None:
            return "sign in with your PIN to add a note"
        referee = self.match_referee(match_id)
        if by.role != "referee" or (referee is not None and referee != by.name):
            return f"the match is locked; {by.name} is not this match's referee"
        return None

    def _record_refusal(
        self, match_id: str | None, by: access.Session | None, action: str, reason: str
    ) -> None:
        try:
            with self.transaction() as conn:
                conn.execute(
                    "INSERT INTO refusals (at, match_id, person, action, reason) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (utc_now(), match_id, by.name if by else None, action, reason),
                )
        except StoreWriteError:
            pass  # cannot record on a read-only file or a full disk; the refusal still holds

    def refusals(self) -> list[dict[str, Any]]:
        """Every refused attempt (sign-in or append), oldest first."""
        rows = self.connection.execute(
            "SELECT at, match_id, person, action, reason FROM refusals ORDER BY id"
        ).fetchall()
        keys = ("at", "match_id", "person", "action", "reason")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    # --------------------------------------------------------------- locking

    def _secret(self) -> str:
        row = self.connection.execute("SELECT value FROM meta WHERE key = 'seal_secret'").fetchone()
        if row is None:
            raise DamagedFile(f"{self.path}: the tournament's seal secret is missing")
        return row[0]

    def _insert_seal(self, match_id: str, head_seq: int, head_hash: str, by: str) -> Seal:
        signature = signing.sign(self._secret(), match_id, head_seq, head_hash)
        seal = Seal(match_id, head_seq, head_hash, signature, utc_now(), by)
        self.connection.execute(
            "INSERT INTO match_seals (match_id, head_seq, head_hash, signature, sealed_at, "
            "sealed_by) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, head_seq, head_hash, signature, seal.sealed_at, by),
        )
        return seal

    def lock_match(self, match_id: str, by: str = "") -> Seal:
        """Lock a match: sign its head hash with the tournament's secret.

        After this only the committee can add a ruling (which re-seals the new head).
        """
        with self.transaction():
            head_seq, head_hash = self.head(match_id)
            if head_seq == 0:
                raise StoreError(f"match {match_id}: no events to lock")
            return self._insert_seal(match_id, head_seq, head_hash, by)

    def seal(self, match_id: str) -> Seal | None:
        """The latest seal of a match (None when it is not locked)."""
        row = self.connection.execute(
            "SELECT match_id, head_seq, head_hash, signature, sealed_at, sealed_by "
            "FROM match_seals WHERE match_id = ? ORDER BY id DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        return Seal(*row) if row else None

    def seals(self) -> dict[str, Seal]:
        return {m: s for m in self._sealed_ids() if (s := self.seal(m)) is not None}

    def _sealed_ids(self) -> list[str]:
        return [r[0] for r in self.connection.execute("SELECT DISTINCT match_id FROM match_seals")]

    def seal_problem(self, match_id: str, events: list[Event]) -> Problem | None:
        """Does the match record agree with its keyed seal? (None when not locked.)"""
        seal = self.seal(match_id)
        if seal is None:
            return None
        if not signing.signature_ok(
            self._secret(), match_id, seal.head_seq, seal.head_hash, seal.signature
        ):
            return Problem("the lock's signature is not valid (seal forged)", match_id)
        if len(events) < seal.head_seq:
            return Problem(
                f"missing: the match was locked at event {seal.head_seq} but the record ends "
                f"at event {len(events)} (events deleted)",
                match_id,
                len(events) + 1,
            )
        at = events[seal.head_seq - 1]
        if at.hash != seal.head_hash:
            return Problem(
                "differs from the locked record: head hash at locking was "
                f"{seal.head_hash[:16]}…, the record has {at.hash[:16]}… (rewritten)",
                match_id,
                at.seq,
            )
        if len(events) > seal.head_seq:
            extra = events[seal.head_seq]
            return Problem("event added after the match was locked", match_id, extra.seq)
        return None

    # ---------------------------------------------------------------- checking

    def chain_problem(self) -> Problem | None:
        """The first broken hash chain (or stored-row damage) in the file, or None."""
        for match_id in self.match_ids():
            rows = self._rows(match_id)
            events = [e for e, _ in rows]
            found = match_problem(
                match_id, events, stored_canonical=[c for _, c in rows], replay=False
            )
            if found is not None:
                return found
        return None

    def verify(self, *, replay: bool = True) -> Problem | None:
        """The first problem of the file: integrity, each match's chain and replay, seals."""
        try:
            rows = self.connection.execute("PRAGMA integrity_check").fetchall()
            if [r[0] for r in rows] != ["ok"]:
                return Problem(f"SQLite integrity check: {'; '.join(str(r[0]) for r in rows[:3])}")
            for match_id in self.match_ids():
                pairs = self._rows(match_id)
                events = [e for e, _ in pairs]
                found = match_problem(
                    match_id, events, stored_canonical=[c for _, c in pairs], replay=replay
                ) or self.seal_problem(match_id, events)
                if found is not None:
                    return found
            for match_id in self._sealed_ids():
                if not self.head(match_id)[0]:
                    return Problem("locked match has no events (deleted)", match_id)
        except sqlite3.DatabaseError as error:
            return Problem(f"SQLite reports: {error}")
        except (UnicodeError, ValueError, LookupError, OverflowError) as error:
            return Problem(f"damaged: unreadable ({error})")
        return None

    # --------------------------------------------------------------- backups

    def make_backup(self) -> Path:
        """Write a rolling backup now (SQLite online backup); returns its path."""
        self._appended_since_backup = 0
        return backup.make_backup(self.connection, self.path, self.backup_keep)


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


def open_tournament(path: str | os.PathLike[str], **options: Any) -> TournamentFile:
    """Shorthand for ``TournamentFile.open``."""
    return TournamentFile.open(path, **options)


__all__ = ["Seal", "TournamentFile", "open_tournament", "utc_now"]
