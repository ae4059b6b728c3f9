"""Reading a tournament file: facts, matches, events, heads, and whole-file checks."""

from __future__ import annotations

import sqlite3

from referee_desk.match.envelope import GENESIS_HASH, Event
from referee_desk.store import keys
from referee_desk.store.errors import DamagedFile
from referee_desk.store.file_core import FileCore
from referee_desk.store.rows import SELECT_COLUMNS, RowError, from_row
from referee_desk.store.verify import Problem, match_problem
from referee_desk.store.witness import compare


class ReadingMixin(FileCore):
    """Read-only queries of ``TournamentFile`` (``verify`` also checks seals)."""

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

    def key_problem(self, expected: str | None = None) -> str | None:
        """The file's key differs from ``expected`` or from the one this computer knew."""
        found = self.signatures.root_key()
        if expected is not None and found != expected:
            return f"the file's key is {found}, not {expected} (re-keyed or another file)"
        known = keys.pinned(self.tournament_id)
        if known is not None and found != known and expected is None:
            return (
                f"the file's key is {found}, but this computer knew tournament "
                f"{self.tournament_id} by key {known} (re-keyed: possibly forged)"
            )
        return None

    def witness_problem(self) -> Problem | None:
        """Events or seals the heads journal saw that the file lacks (or holds changed)."""
        seen = self.witness.read()
        name = self.witness.path.name
        if seen is None or seen.tournament_id != self.tournament_id:
            return None
        if seen.damaged_line is not None:
            return Problem(f"the heads journal {name} is damaged at line {seen.damaged_line}")
        conn = self.connection

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
            found = self.witness_problem()
            if found is not None:
                return found
            guard = self.signatures.guard_problem() or self.key_problem()
            if guard is not None:
                return Problem(guard)
        except sqlite3.DatabaseError as error:
            return Problem(f"SQLite reports: {error}")
        except (UnicodeError, ValueError, LookupError, OverflowError) as error:
            return Problem(f"damaged: unreadable ({error})")
        return None
