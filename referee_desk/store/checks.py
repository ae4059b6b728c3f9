"""Whole-file checks: integrity, every chain and replay, seals, the witness, the guard.

``Checks.verify`` is what ``referee-desk verify`` and ``TournamentFile.verify`` run;
``damage`` is the part ``open`` runs (integrity, chains, witness) before showing a file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from referee_desk.match.envelope import Event
from referee_desk.store.errors import DamagedFile
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore
from referee_desk.store.seals import Seals
from referee_desk.store.signatures import Signatures
from referee_desk.store.trust import Trust
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
        witness: Witness,
        trust: Trust,
    ) -> None:
        self.trust = trust
        self.core = core
        self.log = log
        self.seals = seals
        self.signatures = signatures
        self.witness = witness

    def integrity_problem(self) -> str | None:
        rows = self.core.connection.execute("PRAGMA integrity_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            return "; ".join(str(r[0]) for r in rows[:3])
        return None

    def damage(self) -> None:
        """Raise ``DamagedFile`` for broken pages, a broken chain or lost witnessed events."""
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
        self.trust.refuse_open()  # a tampered guard is never shown nor signed over
        self.trust.remember()  # first sight: this computer now knows the file's key

    def key_problem(self, expected: str | None = None) -> str | None:
        """The file's key differs from ``expected`` or from the one this computer knew."""
        found = self.signatures.root_key()
        if expected is not None and found != expected:
            return f"the file's key is {found}, not {expected} (re-keyed or another file)"
        return self.trust.known_problem()

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

    def verify(self, seal_problem: SealCheck, *, replay: bool = True) -> Problem | None:
        """The first problem of the file: integrity, each match's chain and replay, seals,
        the witness, the guard and the file's key."""
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
            guard = self.signatures.guard_problem() or self.key_problem()
            if guard is not None:
                return Problem(guard)
            self.trust.remember()
        except sqlite3.DatabaseError as error:
            return Problem(f"SQLite reports: {error}")
        except (UnicodeError, ValueError, LookupError, OverflowError) as error:
            return Problem(f"damaged: unreadable ({error})")
        return None
