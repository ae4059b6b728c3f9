"""Whole-file checks: integrity, every chain and replay, seals, the witness, the guard.

``Checks.verify`` is what ``referee-desk verify`` and ``TournamentFile.verify`` run;
``damage`` is the part ``open`` runs (integrity, chains, witness) before showing a file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from referee_desk.match.envelope import Event
from referee_desk.store import keys
from referee_desk.store.errors import DamagedFile
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore
from referee_desk.store.guard import Guard
from referee_desk.store.seals import Seals
from referee_desk.store.signatures import Signatures
from referee_desk.store.verify import Problem, match_problem
from referee_desk.store.witness import Witness, compare

#: ``(match_id, events) -> Problem | None``: how a match is checked against its seal.
SealCheck = Callable[[str, list[Event]], Problem | None]


class Checks:
    """The checks of one open file (read-only: they never write)."""

    def __init__(
        self,
        core: FileCore,
        log: EventLog,
        seals: Seals,
        signatures: Signatures,
        guard: Guard,
        witness: Witness,
    ) -> None:
        self.core = core
        self.log = log
        self.seals = seals
        self.signatures = signatures
        self.guard = guard
        self.witness = witness

    def integrity_problem(self) -> str | None:
        rows = self.core.connection.execute("PRAGMA integrity_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            return "; ".join(str(r[0]) for r in rows[:3])
        return None

    def damage(self) -> None:
        """Raise ``DamagedFile`` for broken pages, a broken chain, lost witnessed events or
        a guard that does not hold (``guard_damage``)."""
        path = self.core.path
        integrity = self.integrity_problem()
        if integrity is not None:
            raise DamagedFile(f"{path}: damaged: SQLite integrity check: {integrity}").keyed(
                "store.damaged", file=path.name, detail=integrity
            )
        problem = self.log.chain_problem()
        if problem is not None:
            raise DamagedFile(f"{path}: damaged: {problem}").keyed(
                "store.damaged", file=path.name, match=problem.match_id, seq=problem.seq
            )
        problem = self.witness_problem()
        if problem is not None:
            raise DamagedFile(f"{path}: damaged: {problem}").keyed(
                "store.events_missing", file=path.name, match=problem.match_id, seq=problem.seq
            )
        self.guard_damage()

    def guard_damage(self) -> None:
        """Refuse a file whose guard does not hold, before anything re-signs over it.

        At opening, a guard signed by a registered key the file's key has not endorsed
        yet (a desk that ran ``keys register``) is let through: ``verify`` names it, and
        ``Guard.changing`` signs over it only for that key or the organizer endorsing it.
        A read-only open does not apply this computer's rollback and key checks (backups
        are older by nature; ``keys trust`` reads a re-keyed file); ``verify`` does, and
        a writable open does.
        """
        path = self.core.path
        why = self.guard.problem(registered_ok=True, older_ok=self.core.read_only)
        if why is not None:
            raise DamagedFile(f"{path}: damaged: {why}").keyed(
                "store.damaged", file=path.name, detail=why
            )
        if not self.core.read_only:
            rekeyed = self.key_problem()
            if rekeyed is not None:
                raise DamagedFile(f"{path}: damaged: {rekeyed}").keyed(
                    "store.damaged", file=path.name, detail=rekeyed
                )
            self.guard.remember()

    def key_problem(self, expected: str | None = None) -> str | None:
        """The file's key differs from ``expected`` or from the one this computer knew.

        This computer knows a file's key by its tournament id and by its place (path):
        a file re-keyed under a new tournament id in place is still caught. A file seen
        for the first time (on any computer) is remembered by both now.
        """
        found = self.signatures.root_key()
        if expected is not None and found != expected:
            return f"the file's key is {found}, not {expected} (re-keyed or another file)"
        if found is None or expected is not None:
            return None
        tournament_id, path = self.core.tournament_id, self.core.path
        for how, known in keys.file_pins(tournament_id, path):
            if found != known and not self.signatures.handed_over(known, found):
                return (
                    f"the file's key is {found}, but this computer knew {how} by key "
                    f"{known} (re-keyed: possibly forged)"
                )
        keys.pin_file(tournament_id, path, found)  # first sight (or the known key again)
        return None

    def witness_problem(self) -> Problem | None:
        """Events or seals the heads journal saw that the file lacks (or holds changed)."""
        seen = self.witness.read()
        name = self.witness.path.name
        if seen is None or seen.tournament_id != self.core.tournament_id:
            return None
        if seen.damaged_line is not None:
            return Problem(f"the heads journal {name} is damaged at line {seen.damaged_line}")
        conn = self.core.connection

        def head(match_id: str, seq: int) -> tuple[int, str]:
            row = conn.execute(
                "SELECT (SELECT MAX(seq) FROM events WHERE match_id = ?),"
                " (SELECT hash FROM events WHERE match_id = ? AND seq = ?)",
                (match_id, match_id, seq),
            ).fetchone()
            return row[0] or 0, row[1] or ""

        def seal_head(match_id: str, seq: int) -> tuple[int, str]:
            row = conn.execute(
                "SELECT MAX(head_seq) FROM match_seals WHERE match_id = ?", (match_id,)
            ).fetchone()
            return row[0] or 0, ""

        missing = compare(seen, head, seal_head, name)
        if missing is None:
            return None
        return Problem(missing.reason, missing.match_id, missing.seq)

    def verify(
        self, seal_problem: SealCheck, *, replay: bool = True, backup: bool = False
    ) -> Problem | None:
        """The first problem of the file: integrity, each match's chain and replay, seals,
        the witness, the guard and the file's key. ``backup``: the file is a backup being
        checked for a restore, so a guard older than this computer saw is expected."""
        try:
            integrity = self.integrity_problem()
            if integrity is not None:
                return Problem(f"SQLite integrity check: {integrity}")
            for match_id in self.log.match_ids():
                pairs = self.log.rows(match_id)
                events = [e for e, _ in pairs]
                found = match_problem(
                    match_id, events, stored_canonical=[c for _, c in pairs], replay=replay
                ) or seal_problem(match_id, events)
                if found is not None:
                    return found
            for match_id in self.seals.sealed_ids():
                if not self.log.head(match_id)[0]:
                    return Problem("locked match has no events (deleted)", match_id)
            found = self.witness_problem()
            if found is not None:
                return found
            guard = self.guard.problem(older_ok=backup) or self.key_problem()
            if guard is not None:
                return Problem(guard)
            if not backup:
                self.guard.remember()
        except sqlite3.DatabaseError as error:
            return Problem(f"SQLite reports: {error}")
        except (UnicodeError, ValueError, LookupError, OverflowError) as error:
            return Problem(f"damaged: unreadable ({error})")
        return None
