"""Who may change a match: people and PINs, referee assignment, refusals on record."""

from __future__ import annotations

from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.store import access
from referee_desk.store.errors import AccessRefused, StoreWriteError
from referee_desk.store.file_core import FileCore, utc_now


class AccessMixin(FileCore):
    """People, sign-in and the append authorization of ``TournamentFile``."""

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
