"""Who may change a match: people and PINs, referee assignment, refusals on record.

Sessions are issued by the open file (``login``) and checked by their token, so a
``Session`` built by hand is refused. People and referee assignments need an organizer
session once the file has an organizer; before that (a club's first file, the sample
tournament) a new name may register itself as a referee, and the first committee
member and the first organizer may register themselves, but nobody may re-register
an existing name. Every change is written to the access log; every refusal to the
refusals; repeated wrong PINs lock the name out for a while (``access.lockout_seconds``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.phrasebook import render_action
from referee_desk.store import access, keys
from referee_desk.store.errors import AccessRefused, StoreWriteError
from referee_desk.store.file_core import FileCore, utc_now
from referee_desk.store.signatures import Signatures
from referee_desk.store.trust import Trust

_WRONG_PIN = "wrong name or PIN"
#: Every sign-in attempt is counted first (a refusal row with this reason, not listed).
_ATTEMPT = "PIN attempt (counted before the check)"


class People:
    """People, sign-in, referee assignment and the append authorization of one file."""

    def __init__(self, core: FileCore, signatures: Signatures, trust: Trust) -> None:
        self.core = core
        self.signatures = signatures
        self.trust = trust
        self._issued: dict[str, access.Session] = {}  # token -> session issued by ``login``

    def access_enabled(self) -> bool:
        """Do referees sign in with PINs here (a referee or organizer is registered)?"""
        row = self.core.connection.execute(
            "SELECT 1 FROM people WHERE role != 'committee' LIMIT 1"
        ).fetchone()
        return row is not None

    def is_issued(self, session: Any) -> bool:
        """Was ``session`` issued by ``login`` on this open file?"""
        token = getattr(session, "token", "")
        return bool(token) and self._issued.get(token) == session

    def _refuse(
        self, key: str, by: Any, match_id: str | None, params: dict[str, Any]
    ) -> AccessRefused:
        """The refusal of a change (``params["action"]``, ``STORE_ACTIONS``), recorded.

        Its line is the book's English, "<action>: <reason>"; the refusal log keeps the
        action and the reason apart, as it always did (the English words, byte for byte).
        """
        error = AccessRefused(key=key, params=params)
        action = render_action(params["action"], params)
        line = error.args[0]
        if not line.startswith(f"{action}: "):  # a template not of the form the log needs
            raise KeyError(f"store refusal {key!r} does not begin with its action")
        self.record_refusal(match_id, by, action, line[len(action) + 2 :])
        return error

    def _organizer_needed(self, by: Any, params: dict[str, Any]) -> None:
        """Raise unless ``by`` is an issued organizer session (when the file has one).

        ``params``: the action refused (``STORE_ACTIONS``) and its params.
        """
        if not self.people_with_role("organizer"):
            return
        if by is None:
            raise self._refuse("store.organizer_needed", None, None, params)
        if not self.is_issued(by):
            raise self._refuse("store.sign_in_not_issued", by, None, params)
        if by.role != "organizer":
            raise self._refuse(
                "store.organizer_only", by, None, {**params, "who": by.name, "who_role": by.role}
            )

    def add_person(
        self, name: str, role: str, pin: str, *, by: access.Session | None = None
    ) -> None:
        """Register a referee, committee member or organizer with a PIN (stored hashed).

        Needs ``by`` = an organizer session once the file has an organizer (see module).
        """
        if role not in access.ROLES:
            raise ValueError(f"role {role!r}: expected one of {', '.join(access.ROLES)}")
        refused = {"action": "register", "name": name, "role": role}
        action = render_action("register", refused)
        existing = self.person_role(name)
        if self.people_with_role("organizer"):
            self._organizer_needed(by, refused)
        elif existing is not None:  # nobody re-registers a name (issue 18: not even signed in)
            raise self._refuse("store.already_registered", by, None, refused)
        elif role == "committee" and self.people_with_role("committee") and by is None:
            raise self._refuse("store.first_committee_only", None, None, refused)
        salt, digest, kdf = access.hash_pin(pin)
        with self.core.transaction() as conn:
            self.trust.ready(keys.desk_signer())
            conn.execute(
                "INSERT OR REPLACE INTO people (name, role, pin_salt, pin_hash, kdf) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, role, salt, digest, kdf),
            )
            self._log(by, action)
            self.signatures.sign_guard(keys.desk_signer())
            self.trust.remember_after_commit()

    def _log(self, by: Any, action: str) -> None:
        self.core.connection.execute(
            "INSERT INTO access_log (at, person, action) VALUES (?, ?, ?)",
            (utc_now(), by.name if by is not None else None, action),
        )

    def access_log(self) -> list[dict[str, Any]]:
        """Every change of people and assignments and every sign-in, oldest first."""
        rows = self.core.connection.execute(
            "SELECT at, person, action FROM access_log ORDER BY id"
        ).fetchall()
        return [dict(zip(("at", "person", "action"), r, strict=True)) for r in rows]

    def _failures_since_success(self, name: str) -> tuple[int, str | None]:
        """PIN attempts for ``name`` since its last successful sign-in, and the last one's time."""
        last_ok = self.core.connection.execute(
            "SELECT MAX(at) FROM access_log WHERE action = ?", (f"signed in as {name}",)
        ).fetchone()[0]
        row = self.core.connection.execute(
            "SELECT COUNT(*), MAX(at) FROM refusals WHERE action = ? AND reason = ? AND at > ?",
            (f"sign in as {name}", _ATTEMPT, last_ok or ""),
        ).fetchone()
        return row[0], row[1]

    def _count_attempt(self, name: str, action: str) -> None:
        """Count this attempt before the PIN is checked, in one write transaction.

        Racing desks are serialized by the write lock, so no more than the lockout's
        number of PINs are ever tried; a successful sign-in (logged after the
        attempt) ends the count. A file whose count cannot
        be written (read-only open or filesystem, full disk) refuses sign-in: there,
        guesses could not be counted (issue 18).
        """
        if self.core.read_only:
            raise AccessRefused(key="store.sign_in_needs_writable", params={"name": name})
        locked: tuple[int, int] | None = None
        try:
            with self.core.transaction() as conn:
                failures, last = self._failures_since_success(name)
                wait = access.lockout_seconds(failures)
                if wait and last is not None:
                    since = (datetime.now(UTC) - datetime.fromisoformat(last)).total_seconds()
                    if since < wait:
                        locked = failures, int(wait - since) + 1
                reason = f"locked out for {locked[1]} s" if locked else _ATTEMPT
                conn.execute(
                    "INSERT INTO refusals (at, match_id, person, action, reason) "
                    "VALUES (?, NULL, NULL, ?, ?)",
                    (utc_now(), action, reason),
                )
        except StoreWriteError as error:
            raise AccessRefused(
                key="store.sign_in_not_countable", params={"name": name, "error": str(error)}
            ) from None
        if locked is not None:
            failures, left = locked
            raise AccessRefused(
                key="store.pin_locked_out",
                params={"name": name, "seconds": left, "failures": failures},
            )

    def login(self, name: str, pin: str, *, role: str | None = None) -> access.Session:
        """The signed-in session, or ``AccessRefused`` (the refusal is recorded).

        With ``role`` the person must also hold that role (e.g. committee sign-in).
        After ``access.LOCKOUT_AFTER`` wrong PINs in a row the name is locked out for
        ``access.lockout_seconds`` (even the right PIN is refused meanwhile). The
        attempt is counted before the PIN is checked (``_count_attempt``).
        """
        action = f"sign in as {name}"
        self._count_attempt(name, action)
        row = self.core.connection.execute(
            "SELECT role, pin_salt, pin_hash, kdf FROM people WHERE name = ?", (name,)
        ).fetchone()
        if row is None or not access.pin_matches(pin, row[1], row[2], row[3]):
            self.record_refusal(None, None, action, _WRONG_PIN)
            raise AccessRefused(key="store.wrong_pin", params={"name": name})
        if role is not None and row[0] != role:
            reason = f"{name} is registered as {row[0]}, not {role}"
            self.record_refusal(None, None, f"sign in as {name} ({role})", reason)
            raise AccessRefused(
                key="store.wrong_role", params={"name": name, "role": row[0], "wanted": role}
            )
        session = access.Session(name, row[0], access.new_token())
        self._issued[session.token] = session
        with self.core.transaction():  # ends the count of wrong PINs
            self._log(session, f"signed in as {name}")
        return session

    def person_role(self, name: str) -> str | None:
        """The role ``name`` is registered with, or None."""
        row = self.core.connection.execute(
            "SELECT role FROM people WHERE name = ?", (name,)
        ).fetchone()
        return row[0] if row else None

    def people_with_role(self, role: str) -> list[str]:
        """Names registered with ``role`` (no PIN material)."""
        rows = self.core.connection.execute(
            "SELECT name FROM people WHERE role = ? ORDER BY name", (role,)
        ).fetchall()
        return [r[0] for r in rows]

    def assign_referee(self, match_id: str, name: str, *, by: access.Session | None = None) -> None:
        """Name the referee who alone may enter the match's events.

        Needs ``by`` = an organizer session once the file has an organizer.
        """
        refused = {"action": "assign", "name": name, "match": match_id}
        action = render_action("assign", refused)
        self._organizer_needed(by, refused)
        with self.core.transaction() as conn:
            self.trust.ready(keys.desk_signer())
            conn.execute(
                "INSERT OR REPLACE INTO match_referees (match_id, referee) VALUES (?, ?)",
                (match_id, name),
            )
            self._log(by, action)
            self.signatures.sign_guard(keys.desk_signer())
            self.trust.remember_after_commit()

    def match_referee(self, match_id: str) -> str | None:
        row = self.core.connection.execute(
            "SELECT referee FROM match_referees WHERE match_id = ?", (match_id,)
        ).fetchone()
        if row is not None:
            return row[0]
        first = self.core.connection.execute(
            "SELECT referee FROM events WHERE match_id = ? AND seq = 1", (match_id,)
        ).fetchone()
        return first[0] if first else None

    def authorize(
        self, match_id: str, draft: Event, by: access.Session | None, locked: bool, guarded: bool
    ) -> tuple[str, dict[str, Any]] | None:
        """(key of ``ACCESS_REASONS``, its params) why ``by`` may not append ``draft`` now,
        or None.

        ``locked``: the match has a seal; ``guarded``: PINs are set up in this file. The
        params are all the key's templates name (match, type, name, role, the match's
        referee where it is named), so the desk words the refusal from the key alone;
        ``render_reason`` gives the English the refusal log writes.
        """
        return self._refusal(match_id, draft, by, locked, guarded)

    def _refusal(
        self, match_id: str, draft: Event, by: access.Session | None, locked: bool, guarded: bool
    ) -> tuple[str, dict[str, Any]] | None:
        """(key of ``ACCESS_REASONS``, its params) why ``by`` may not append ``draft``."""
        params: dict[str, Any] = {
            "match": match_id,
            "type": draft.type,
            "name": by.name if by is not None else None,
            "role": by.role if by is not None else None,
        }
        key = self._refusal_key(match_id, draft, by, locked, guarded, params)
        return None if key is None else (key, params)

    def _refusal_key(
        self,
        match_id: str,
        draft: Event,
        by: access.Session | None,
        locked: bool,
        guarded: bool,
        params: dict[str, Any],
    ) -> str | None:
        """The ``ACCESS_REASONS`` key of why not, or None; one that names the match's
        referee adds them to ``params`` (looked up only then: this runs on every append)."""
        if by is not None and not self.is_issued(by):
            return "store.session_forged"
        if locked:
            return self._locked_refusal_key(match_id, draft, by, guarded)
        if draft.type in access.COMMITTEE_ONLY_TYPES and (by is None or by.role != "committee"):
            return "store.committee_needed"
        if not guarded:
            return None
        if by is None:
            return "store.sign_in_needed"
        if by.role == "committee":
            if draft.type in access.COMMITTEE_EVENT_TYPES:
                return None
            return "store.referee_enters_this"
        if by.role != "referee":
            return "store.not_a_referee"
        referee = self.match_referee(match_id)
        if referee is not None and referee != by.name:
            params["referee"] = referee
            return "store.not_the_referee"
        return None

    def authorize_import(self, match_id: str, event: Event, by: access.Session | None) -> None:
        """Raise ``AccessRefused`` unless ``by`` may bring ``event`` in (files with PINs).

        The same rule as entering it at the desk (``authorize``); the organizer, signed
        in, may import whole records into its file.
        """
        if not self.access_enabled():
            return
        if by is not None and by.role == "organizer" and self.is_issued(by):
            return
        refusal = self._refusal(match_id, event, by, False, True)
        if refusal is not None:
            key, params = refusal
            raise AccessRefused(
                key="store.import_refused",
                params={**params, "action": "import", "seq": event.seq, "why": key},
            )

    def authorize_lock(self, match_id: str, by: access.Session | None) -> None:
        """Raise ``AccessRefused`` unless ``by`` may lock the match (files with PINs).

        The match's referee or a committee member, signed in on this file.
        """
        if not self.access_enabled():
            return
        refused = {"action": "lock", "match": match_id}
        if by is None:
            raise self._refuse("store.sign_in_to_lock", None, match_id, refused)
        if not self.is_issued(by):
            raise self._refuse("store.sign_in_not_issued", by, match_id, refused)
        referee = self.match_referee(match_id)
        if by.role != "committee" and not (by.role == "referee" and referee in (None, by.name)):
            raise self._refuse(
                "store.lock_not_the_referee", by, match_id, {**refused, "who": by.name}
            )

    def _locked_refusal_key(
        self, match_id: str, draft: Event, by: access.Session | None, guarded: bool
    ) -> str | None:
        """After locking only notes (the match's referee or the committee) and committee
        rulings and decisions (the committee alone) can follow (issue 4, issue 5)."""
        if draft.type in access.COMMITTEE_ONLY_TYPES:
            if by is None or by.role != "committee":
                return "store.locked_committee_only"
            return None
        if draft.type not in access.AFTER_LOCK_TYPES:
            return "store.locked"
        if by is not None and by.role == "committee":
            return None
        if not guarded:
            return None
        if by is None:
            return "store.sign_in_to_note"
        referee = self.match_referee(match_id)
        if by.role != "referee" or (referee is not None and referee != by.name):
            return "store.locked_not_the_referee"
        return None

    def record_refusal(
        self, match_id: str | None, by: access.Session | None, action: str, reason: str
    ) -> None:
        try:
            with self.core.transaction() as conn:
                conn.execute(
                    "INSERT INTO refusals (at, match_id, person, action, reason) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (utc_now(), match_id, by.name if by else None, action, reason),
                )
        except StoreWriteError:
            pass  # cannot record on a read-only file or a full disk; the refusal still holds

    def refusals(self) -> list[dict[str, Any]]:
        """Every refused attempt (sign-in or append), oldest first."""
        rows = self.core.connection.execute(
            "SELECT at, match_id, person, action, reason FROM refusals WHERE reason != ? "
            "ORDER BY id",
            (_ATTEMPT,),
        ).fetchall()
        keys = ("at", "match_id", "person", "action", "reason")
        return [dict(zip(keys, r, strict=True)) for r in rows]
