"""One tournament, one SQLite file: the durable, append-only record of every match.

Each event is validated by the match layer, sealed into its match's hash chain and
committed in its own transaction (WAL, ``synchronous=FULL``), then witnessed in the
heads journal, before ``append`` returns. Events are never updated or deleted: the
event log only inserts them, and triggers refuse an UPDATE or DELETE even from SQL.
Other layers keep their own tables in the same file (``ensure_extension``,
``transaction``).

``TournamentFile`` is a facade over small collaborators sharing one connection
(``FileCore``): ``EventLog`` (events, heads), ``Witness`` (the heads journal),
``Signatures`` and ``Seals`` (Ed25519 locks, the signed guard, the file's keys),
``People`` (PINs, sessions, assignments, refusals, access log), ``RollingBackups``,
``Appender`` (``append``), ``Checks`` (``verify``), and ``Preparation`` /
``SessionMarks`` (opening and closing).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from referee_desk.match.envelope import Event
from referee_desk.store import access, backup, keys
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
from referee_desk.store.opening import SQLITE_MAGIC, Preparation, SessionMarks, connect
from referee_desk.store.people import People
from referee_desk.store.postgres.address import is_server_url, redact
from referee_desk.store.seals import Seal, SealInfo, Seals
from referee_desk.store.signatures import KeyInfo, Signatures
from referee_desk.store.trust import Trust
from referee_desk.store.verify import Problem
from referee_desk.store.witness import Witness

if TYPE_CHECKING:
    from referee_desk.store.interchange import ImportReport

#: A heads journal larger than this (bytes) is rewritten as heads only on a clean close.
COMPACT_JOURNAL_AT = 4 * 1024 * 1024


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
        backup_every: int | None = None,
        backup_keep: int = backup.DEFAULT_KEEP,
    ) -> None:
        self.core = FileCore(path, conn, read_only=read_only)
        self.log = EventLog(self.core)
        self.witness = Witness(path)
        self.signatures = Signatures(conn)
        self.trust = Trust(self.core, self.signatures)
        self.seals_ = Seals(self.core, self.log, self.signatures, self.witness, self.trust)
        self.people = People(self.core, self.signatures, self.trust)
        self.backups = backup.RollingBackups(
            conn, path, backup_every, backup_keep, before=self.witness.sync
        )
        self.appender = Appender(
            self.core, self.log, self.people, self.seals_, self.witness, self.backups
        )
        self.checks = Checks(
            self.core, self.log, self.seals_, self.signatures, self.witness, self.trust
        )
        self.session = SessionMarks(self.core, self.witness)
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
                f"{redact(os.fspath(path))}: a server address, not a tournament file"
            ).keyed("store.not_a_tournament_file", file=redact(os.fspath(path)))
        file = Path(path)
        existed = file.exists() and file.stat().st_size > 0
        conn, new, read_only = connect(file, create=create, read_only=read_only, frozen=_frozen)
        try:
            opened = cls(
                file, conn, read_only=read_only, backup_every=backup_every, backup_keep=backup_keep
            )
            Preparation(opened.checks).run(new, tournament_id, check, backup_keep)
            if not opened.core.read_only:
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
                        f"not saved: the disk was full when {file} was opened; free some "
                        "space and open it again"
                    ).keyed("store.not_saved_disk_full", file=str(file), detail=str(error))
                    return reading
                for suffix in ("", "-wal", "-shm", "-journal", ".heads"):
                    Path(f"{file}{suffix}").unlink(missing_ok=True)  # nothing half-made
                raise StoreWriteError(f"not created: the disk is full: {file}").keyed(
                    "store.not_saved_disk_full", file=str(file), detail=str(error)
                ) from None
            if isinstance(error, sqlite3.Error):
                raise DamagedFile(f"{file}: damaged: SQLite reports: {error}").keyed(
                    "store.damaged", file=file.name
                ) from None
            if isinstance(error, UnicodeError | ValueError | LookupError | OverflowError):
                # e.g. SQLite's report quotes damaged schema bytes that are not UTF-8
                raise DamagedFile(f"{file}: damaged: unreadable ({error})").keyed(
                    "store.damaged", file=file.name
                ) from None
            raise
        return opened

    def close(self) -> None:
        """Make the rolling backup (if on), mark a clean close, checkpoint, close."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self.core.read_only and self.session.token is not None:
                self.backups.on_close()
                self._compact_journal()
                self.session.end()
        except (sqlite3.Error, StoreWriteError, OSError):
            pass  # the events are committed already; a missed mark only costs a check
        finally:
            self.witness.close()
            self.core.connection.close()

    def _compact_journal(self) -> None:
        """Rewrite a large heads journal as just the heads, when it is safe to.

        Only when the journal agrees with the file (nothing is compacted away that it
        still has to name) and no other desk has the file open (its journal descriptor
        would keep writing to the old file), inside the write lock so none opens meanwhile.
        """
        if self.witness.size() < COMPACT_JOURNAL_AT or self.witness.failed:
            return
        with self.core.transaction() as conn:
            others = conn.execute(
                "SELECT COUNT(*) FROM sessions WHERE token != ? AND token NOT IN "
                "(SELECT token FROM session_ends)",
                (self.session.token,),
            ).fetchone()[0]
            if others or self.checks.witness_problem() is not None:
                return
            heads = {m: self.log.head(m) for m in self.log.match_ids()}
            seals = {m: (s.head_seq, s.head_hash) for m, s in self.seals_.all().items()}
            self.witness.rebuild(self.core.tournament_id, heads, seals)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- the handle

    @property
    def path(self) -> Path:
        return self.core.path

    @property
    def connection(self) -> sqlite3.Connection:
        return self.core.connection

    @property
    def read_only(self) -> bool:
        return self.core.read_only

    @property
    def backup_every(self) -> int | None:
        return self.backups.every

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` for other layers' tables (``StoreWriteError``)."""
        return self.core.transaction()

    def ensure_extension(
        self, name: str, version: int, migrate: Callable[[sqlite3.Connection, int], None]
    ) -> None:
        """Create or upgrade another layer's tables (see ``FileCore.ensure_extension``)."""
        self.core.ensure_extension(name, version, migrate)

    def make_backup(self) -> Path:
        """Write a rolling backup now (SQLite online backup); returns its path."""
        return self.backups.make()

    def meta(self) -> dict[str, str]:
        """The file's key/value facts (format, tournament_id, created_at …), no secret."""
        return self.core.meta()

    @property
    def tournament_id(self) -> str:
        return self.core.tournament_id

    # ------------------------------------------------------------------ events

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

    def match_ids(self) -> list[str]:
        """Every match with at least one event, in the order they were first recorded."""
        return self.log.match_ids()

    def events(self, match_id: str) -> list[Event]:
        """The match's events in sequence order (empty list for an unknown match)."""
        return self.log.events(match_id)

    def all_events(self) -> list[Event]:
        """Every event of the file, match by match (order of ``match_ids``)."""
        return [event for match_id in self.match_ids() for event in self.events(match_id)]

    def head(self, match_id: str) -> tuple[int, str]:
        """(last seq, last hash) of a match; (0, GENESIS_HASH) when it has no event."""
        return self.log.head(match_id)

    def heads(self) -> dict[str, tuple[int, str]]:
        """match id -> (number of events, hash of the last one)."""
        return self.log.heads()

    def count(self) -> int:
        return self.log.count()

    def import_jsonl(
        self, paths: Sequence[str | os.PathLike[str]], *, by: access.Session | None = None
    ) -> ImportReport:
        """Import JSON Lines records, all or nothing (``interchange.import_jsonl``);
        in a file with PINs ``by`` is checked as at the desk."""
        from referee_desk.store.interchange import import_jsonl

        return import_jsonl(self, paths, by=by)

    # ------------------------------------------------------------------- locks

    def lock_match(
        self, match_id: str, by: str = "", *, session: access.Session | None = None
    ) -> Seal:
        """Lock a match: sign its head with this desk's key (no passphrase needed).

        In a file with PINs it needs ``session``: the match's referee or the committee,
        signed in (issue 18: nobody freezes a live match without a sign-in).
        """
        self.people.authorize_lock(match_id, session)
        return self.seals_.lock(match_id, by or (session.name if session else ""))

    def seal(self, match_id: str) -> Seal | None:
        """The latest seal of a match (None when it is not locked)."""
        return self.seals_.latest(match_id)

    def seals(self) -> dict[str, Seal]:
        return self.seals_.all()

    def import_seal(self, source: TournamentFile, match_id: str) -> bool:
        """Keep the desk file ``source``'s lock of ``match_id`` here (issue 20 item 3).

        Only a lock that verifies in ``source`` (its guard, its key policy) is taken, and
        only over the same record here; False when there is none or it is already kept.
        """
        seal, info = source.seal(match_id), source.seal_info(match_id)
        if seal is None or info is None:
            return False
        if not info.valid:
            raise StoreError(
                f"{source.path}: match {match_id}: the desk's lock does not verify ({info.reason})"
            ).keyed("store.imported_seal_refused", match=match_id, reason=info.reason or "")
        origin = seal.origin_tournament or source.tournament_id
        if seal.origin_tournament is None:
            public_key = source.signatures.public_key(seal.key_fingerprint or "") or ""
            label = info.signer
        else:
            kept = source.signatures.imported_signer(origin, seal.key_fingerprint) or ("", "")
            public_key, label = kept
        return self.seals_.keep_imported(seal, origin, public_key, label)

    def seal_info(self, match_id: str) -> SealInfo | None:
        """The latest lock as a report prints it: key, head, time, valid (None: unlocked)."""
        return self.seals_.seal_info(match_id)

    def seal_problem(self, match_id: str, events: list[Event]) -> Problem | None:
        """Does the match record agree with its signed seal? (None when not locked.)"""
        return self.seals_.seal_problem(match_id, events)

    @property
    def key_fingerprint(self) -> str | None:
        """The file's key: the organizer's when adopted, else the first key that signed."""
        return self.seals_.key_fingerprint

    def signers(self) -> list[KeyInfo]:
        """Every key registered in the file, with whether the file's key vouches for it."""
        return self.seals_.signers()

    def adopt_organizer_key(
        self, organizer: keys.Signer, *, previous: keys.Signer | None = None
    ) -> None:
        """Make the organizer's key the file's key (see ``Seals.adopt_organizer_key``)."""
        self.seals_.adopt_organizer_key(organizer, previous=previous)

    def endorse_desk_key(self, organizer: keys.Signer, fingerprint: str) -> None:
        """The file's key vouches for another desk's key."""
        self.seals_.endorse_desk_key(organizer, fingerprint)

    def accept_key(self) -> str:
        """Accept the file's current key and guard on this computer, on purpose.

        For ``keys trust`` (after comparing the fingerprint with the match reports) and
        a restored backup; the guard itself must still verify (``StoreError`` if not).
        """
        state = self.trust.state()
        key = self.key_fingerprint
        if key is None:
            raise StoreError(f"{self.path}: nothing is signed in it yet").keyed(
                "store.nothing_signed", file=self.path.name
            )
        if state.problem is not None and not state.pending:
            raise StoreError(f"{self.path}: cannot be trusted: {state.problem}").keyed(
                "store.untrusted", file=self.path.name, detail=state.problem
            )
        keys.pin(self.tournament_id, key)
        self.trust.accept()
        return key

    def register_desk_key(self) -> str:
        """Put this desk's public key into the file (to be endorsed); its fingerprint."""
        return self.seals_.register_desk_key()

    # ------------------------------------------------------------------ people

    def access_enabled(self) -> bool:
        return self.people.access_enabled()

    def add_person(
        self, name: str, role: str, pin: str, *, by: access.Session | None = None
    ) -> None:
        """Register a person with a PIN; an organizer session once the file has one."""
        self.people.add_person(name, role, pin, by=by)

    def login(self, name: str, pin: str, *, role: str | None = None) -> access.Session:
        """A session issued by this file, or ``AccessRefused`` (recorded; lockout)."""
        return self.people.login(name, pin, role=role)

    def is_issued(self, session: Any) -> bool:
        return self.people.is_issued(session)

    def person_role(self, name: str) -> str | None:
        return self.people.person_role(name)

    def people_with_role(self, role: str) -> list[str]:
        return self.people.people_with_role(role)

    def assign_referee(self, match_id: str, name: str, *, by: access.Session | None = None) -> None:
        """Name the match's referee; an organizer session once the file has one."""
        self.people.assign_referee(match_id, name, by=by)

    def match_referee(self, match_id: str) -> str | None:
        return self.people.match_referee(match_id)

    def refusals(self) -> list[dict[str, Any]]:
        """Every refused attempt (sign-in or append), oldest first."""
        return self.people.refusals()

    def access_log(self) -> list[dict[str, Any]]:
        """Every sign-in and every change of people, assignments and keys, oldest first."""
        return self.people.access_log()

    # ---------------------------------------------------------------- checking

    def chain_problem(self) -> Problem | None:
        """The first broken hash chain (or stored-row damage) in the file, or None."""
        return self.log.chain_problem()

    def verify(self, *, replay: bool = True) -> Problem | None:
        """The first problem: integrity, chains and replay, seals, witness, guard, key."""
        return self.checks.verify(self.seal_problem, replay=replay)

    def witness_problem(self) -> Problem | None:
        return self.checks.witness_problem()

    def key_problem(self, expected: str | None = None) -> str | None:
        return self.checks.key_problem(expected)


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
