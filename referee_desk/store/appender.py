"""Appending one event: the only writer of the ``events`` table besides import.

Append-only: this module only INSERTs events; nothing in the store updates or deletes
one, and the schema's triggers refuse it even from SQL. Each event is checked against
the caller's expected seq, authorized, sealed onto its match's hash chain, validated by
the match layer and committed in its own ``BEGIN IMMEDIATE`` transaction.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import Any

from referee_desk.match.envelope import GENESIS_HASH, Event, compute_hash
from referee_desk.phrasebook import render_reason
from referee_desk.store import access
from referee_desk.store.backup import RollingBackups
from referee_desk.store.errors import (
    AccessRefused,
    AppendConflict,
    AppendRefused,
)
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore, write_error
from referee_desk.store.match_checks import CheckedFold, MatchChecker
from referee_desk.store.people import People
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.seals import Seals
from referee_desk.store.witness import Witness

#: One read inside the append transaction: head seq, head hash, locked?, referee PINs set
#: up? (A committee member alone, registered at the first committee sign-in of a club's
#: file, does not make the referees sign in.)
_APPEND_STATE_SQL = (
    "SELECT (SELECT seq FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1),"
    " (SELECT hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1),"
    " EXISTS (SELECT 1 FROM match_seals WHERE match_id = ?),"
    " EXISTS (SELECT 1 FROM people WHERE role != 'committee')"
)


class Appender:
    """``append``: the one writer of new events, with its cache of replayed matches."""

    def __init__(
        self,
        core: FileCore,
        log: EventLog,
        people: People,
        seals: Seals,
        witness: Witness,
        backups: RollingBackups,
    ) -> None:
        self.core = core
        self.log = log
        self.people = people
        self.seals = seals
        self.witness = witness
        self.backups = backups
        self._checkers: dict[str, MatchChecker] = {}

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
        Raises ``AppendRefused``, ``AppendConflict``, ``AccessRefused`` or
        ``StoreWriteError`` (disk full, read-only); the file is unchanged on any error.
        """
        if self.core.read_only:
            raise self.core.read_only_error()
        match_id = draft.match_id
        if not isinstance(match_id, str) or not match_id:
            raise AppendRefused(str(match_id), draft.seq, "an event needs a match id")
        if expected_seq is None and draft.seq:
            expected_seq = draft.seq
        conn = self.core.connection
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise write_error(self.core.path, error) from None
        checker: MatchChecker | None = None
        refusal: tuple[str, dict[str, Any]] | None = None
        try:
            row = conn.execute(_APPEND_STATE_SQL, (match_id,) * 3).fetchone()
            head_seq, head_hash, locked, guarded = row
            head_seq = head_seq or 0
            head_hash = head_hash or GENESIS_HASH
            if expected_seq is not None and expected_seq != head_seq + 1:
                raise AppendConflict(match_id, expected_seq, head_seq + 1)
            refusal = self.people.authorize(match_id, draft, by, bool(locked), bool(guarded))
            if refusal is not None:
                key, params = refusal
                raise AccessRefused(key=key, params=params)
            # ``Event.sealed`` in one step, keeping the canonical JSON for the row.
            linked = replace(
                draft,
                seq=head_seq + 1,
                prev_hash=head_hash,
                hash="",
                referee=by.name if by is not None else draft.referee,
            )
            canonical = linked.canonical_json()
            event = replace(linked, hash=compute_hash(head_hash, canonical))
            checker = self._checker(match_id, head_seq, head_hash)
            problem = checker.problem(event)
            if problem is not None:
                # the match layer's refusal as the cause: the desk words it by its key
                raise AppendRefused(match_id, event.seq, problem) from checker.refusal
            conn.execute(INSERT_SQL, to_row(event, canonical.decode("utf-8")))
            if locked or lock:
                # authorized above, with the event: the one lock that is not ``Seals.lock``
                self.seals._insert(match_id, event.seq, event.hash, event.referee or "")
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if checker is not None:
                checker.reject()
            if refusal is not None:
                reason = render_reason(*refusal)
                self.people.record_refusal(match_id, by, f"append {draft.type}", reason)
            if isinstance(error, sqlite3.IntegrityError):
                raise AppendConflict(match_id, head_seq + 1, head_seq + 2) from None
            if isinstance(error, sqlite3.OperationalError):
                raise write_error(self.core.path, error) from None
            raise
        # Committed: from here on nothing may raise (the event is saved).
        checker.accept()
        # Acknowledged only once the heads journal holds its line too (in the kernel, so
        # a killed desk cannot lose it; fsynced in groups, a seal at once: ``witness``).
        witnessed = [("E", match_id, event.seq, event.hash)]
        if locked or lock:
            witnessed.append(("S", match_id, event.seq, event.hash))
        self.witness.write(witnessed, grouped=not (locked or lock))
        self.backups.after_append()
        return event

    def fold(self, match_id: str) -> CheckedFold:
        """The match as stored, seen through the fold ``append`` checks with (kept warm
        between appends, so a desk entry folds once: here). Read-only; it follows this
        file's appends, and another writer's once asked again (or at the next append)."""
        head_seq, head_hash = self.log.head(match_id)
        self._checker(match_id, head_seq, head_hash)
        return CheckedFold(self._checkers, match_id)

    def _checker(self, match_id: str, head_seq: int, head_hash: str) -> MatchChecker:
        """The match's replayed state as of the stored head (cached between appends)."""
        checker = self._checkers.get(match_id)
        if checker is not None:
            known = checker.events
            last = (known[-1].seq, known[-1].hash) if known else (0, GENESIS_HASH)
            if last == (head_seq, head_hash):
                return checker
            if known and last[0] < head_seq and self._is_prefix(match_id, known):
                checker.extend([e for e, _ in self.log.rows(match_id, last[0])])
                return checker
        checker = MatchChecker(self.log.events(match_id))
        self._checkers[match_id] = checker
        return checker

    def _is_prefix(self, match_id: str, known: list[Event]) -> bool:
        return self.log.hash_at(match_id, known[-1].seq) == known[-1].hash
