"""``TournamentServer``: one connection to a tournament server, as a desk or the organizer.

Reads give back ``Event`` values rebuilt from the stored canonical text, so an event read
from the server is byte-identical to the one in the desk's file (same canonical JSON,
same hash). What a desk role sees is limited by row-level security to its own matches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Self

import psycopg

from referee_desk.match.envelope import GENESIS_HASH, Event, canonical_dumps
from referee_desk.store.postgres.connection import connect, redact
from referee_desk.store.postgres.errors import ServerError, ServerRefused

EVENT_COLUMNS = "seq, hash, canonical"


@dataclass(frozen=True, slots=True)
class Desk:
    role: str
    table_label: str


@dataclass(frozen=True, slots=True)
class MatchAssignment:
    match_id: str
    desk_role: str | None
    opening: dict[str, Any] | None
    claimed: bool


@dataclass(frozen=True, slots=True)
class ServerConflict:
    """A conflict a desk reported to the server (what the organizer sees)."""

    match_id: str
    seq: int
    kind: str
    server_hash: str | None
    desk_hash: str
    detail: str
    reported_by: str
    reported_at: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """A desk's latest report: which laptop (its key), what it holds back, when heard."""

    desk_role: str
    desk_key: str
    waiting: int
    behind: tuple[str, ...]
    restored: tuple[str, ...]
    client: str
    first_heard: str
    last_heard: str
    seconds_ago: float


@dataclass(frozen=True, slots=True)
class Settlement:
    """The organizer's decision on a match's fork; the other branch is archived."""

    id: int
    match_id: str
    kept: str  # "server" | "desk"
    fork_seq: int
    desk_role: str
    archived: int
    settled_by: str
    settled_at: str


@dataclass(frozen=True, slots=True)
class ForkBranch:
    """A desk's events from the fork on, as it reported them."""

    match_id: str
    fork_seq: int
    desk_role: str
    events: tuple[Event, ...]
    reported_at: str


_TIME = "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"


def event_from_stored(canonical: str, hash_: str) -> Event:
    """The event whose canonical JSON is ``canonical`` (as the desk hashed it)."""
    data = json.loads(canonical)
    data["hash"] = hash_
    return Event.from_dict(data)


class TournamentServer:
    """An open connection; use ``TournamentServer.open(url)`` and close it (or ``with``)."""

    def __init__(self, url: str, conn: psycopg.Connection) -> None:
        self.url = url
        self.shown = redact(url)
        self.connection = conn
        self.role: str = self._one("SELECT current_user")
        self.server_id: str = self._meta("server_id")
        self.is_desk: bool = bool(
            self._one("SELECT EXISTS (SELECT 1 FROM referee_desk.desks WHERE role = current_user)")
        )

    @classmethod
    def open(cls, url: str) -> Self:
        """Connect and check the schema; raises a one-line ``ServerError``."""
        return cls(url, connect(url, autocommit=True))

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ reading

    def _one(self, query: str, params: tuple[Any, ...] = ()) -> Any:
        row = self.connection.execute(query, params).fetchone()
        return row[0] if row else None

    def _meta(self, key: str) -> str:
        return self._one("SELECT value FROM referee_desk.meta WHERE key = %s", (key,)) or ""

    def meta(self) -> dict[str, str]:
        return dict(self.connection.execute("SELECT key, value FROM referee_desk.meta").fetchall())

    def desks(self) -> list[Desk]:
        rows = self.connection.execute(
            "SELECT role, table_label FROM referee_desk.desks ORDER BY role"
        ).fetchall()
        return [Desk(*r) for r in rows]

    def match_ids(self) -> list[str]:
        """Every match with events (that this role may see), first received first."""
        rows = self.connection.execute(
            "SELECT match_id FROM referee_desk.events GROUP BY match_id ORDER BY MIN(id)"
        ).fetchall()
        return [r[0] for r in rows]

    def events(self, match_id: str, after_seq: int = 0) -> list[Event]:
        rows = self.connection.execute(
            f"SELECT {EVENT_COLUMNS} FROM referee_desk.events "
            "WHERE match_id = %s AND seq > %s ORDER BY seq",
            (match_id, after_seq),
        ).fetchall()
        return [event_from_stored(canonical, hash_) for _, hash_, canonical in rows]

    def canonical_texts(self, match_id: str) -> list[str]:
        rows = self.connection.execute(
            "SELECT canonical FROM referee_desk.events WHERE match_id = %s ORDER BY seq",
            (match_id,),
        ).fetchall()
        return [r[0] for r in rows]

    def all_events(self) -> list[Event]:
        return [e for m in self.match_ids() for e in self.events(m)]

    def head(self, match_id: str) -> tuple[int, str]:
        row = self.connection.execute(
            "SELECT seq, hash FROM referee_desk.events WHERE match_id = %s "
            "ORDER BY seq DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS_HASH)

    def heads(self) -> dict[str, tuple[int, str]]:
        rows = self.connection.execute(
            "SELECT DISTINCT ON (match_id) match_id, seq, hash FROM referee_desk.events "
            "ORDER BY match_id, seq DESC"
        ).fetchall()
        return {m: (s, h) for m, s, h in rows}

    def hashes(self, match_id: str) -> list[str]:
        rows = self.connection.execute(
            "SELECT hash FROM referee_desk.events WHERE match_id = %s ORDER BY seq", (match_id,)
        ).fetchall()
        return [r[0] for r in rows]

    def hash_at(self, match_id: str, seq: int) -> str | None:
        return self._one(
            "SELECT hash FROM referee_desk.events WHERE match_id = %s AND seq = %s",
            (match_id, seq),
        )

    def claim(self, match_id: str) -> str | None:
        """Desk: take the match if nobody holds it; returns the role that holds it."""
        return self._one("SELECT referee_desk.claim_match(%s)", (match_id,))

    def report_conflict(
        self, match_id: str, seq: int, kind: str, desk_hash: str, desk_text: str, detail: str
    ) -> None:
        """Record a desk's conflict for the organizer (the server adds its own hash)."""
        self.connection.execute(
            "SELECT referee_desk.report_conflict(%s, %s, %s, %s, %s, %s)",
            (match_id, seq, kind, desk_hash, desk_text, detail),
        )

    def count(self) -> int:
        return int(self._one("SELECT COUNT(*) FROM referee_desk.events"))

    def conflicts(self) -> list[ServerConflict]:
        """Every conflict desks reported (organizer only), oldest first."""
        rows = self.connection.execute(
            "SELECT match_id, seq, kind, server_hash, desk_hash, detail, reported_by, "
            "to_char(reported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') "
            "FROM referee_desk.conflicts ORDER BY id"
        ).fetchall()
        return [ServerConflict(*r) for r in rows]

    # -------------------------------------------------------------- the board

    def heartbeat(
        self, desk_key: str, waiting: int, behind: list[str], restored: list[str], client: str
    ) -> None:
        """Desk: say this laptop (its key) is alive and what it still holds back."""
        self.connection.execute(
            "SELECT referee_desk.heartbeat(%s, %s, %s, %s, %s)",
            (desk_key, waiting, behind, restored, client),
        )

    def heartbeats(self) -> list[Heartbeat]:
        """Organizer: every desk laptop heard, per table role and desk key."""
        rows = self.connection.execute(
            "SELECT desk_role, desk_key, waiting, behind, restored, client, "
            f"{_TIME.format('first_heard')}, {_TIME.format('last_heard')}, "
            "extract(epoch FROM clock_timestamp() - last_heard)::float8 "
            "FROM referee_desk.heartbeats ORDER BY desk_role, last_heard DESC"
        ).fetchall()
        return [
            Heartbeat(r[0], r[1], r[2], tuple(r[3]), tuple(r[4]), r[5], r[6], r[7], r[8])
            for r in rows
        ]

    def report_branch(self, match_id: str, fork_seq: int, events: list[Event]) -> None:
        """Desk: send its events from the fork on, for the organizer to compare."""
        self.connection.execute(
            "SELECT referee_desk.report_branch(%s, %s, %s, %s)",
            (
                match_id,
                fork_seq,
                [e.hash for e in events],
                [e.canonical_json().decode("utf-8") for e in events],
            ),
        )

    def fork_branches(self, match_id: str) -> list[ForkBranch]:
        """Organizer: each desk's latest branch of a forked match."""
        rows = self.connection.execute(
            "SELECT match_id, fork_seq, desk_role, hashes, texts, "
            f"{_TIME.format('reported_at')} FROM referee_desk.fork_branches "
            "WHERE match_id = %s ORDER BY id",
            (match_id,),
        ).fetchall()
        return [
            ForkBranch(m, seq, role, tuple(map(event_from_stored, ts, hs)), at)
            for m, seq, role, hs, ts, at in rows
        ]

    def settlements(self) -> list[Settlement]:
        """Every fork the organizer settled (a desk sees those of its matches' ids)."""
        rows = self.connection.execute(
            "SELECT id, match_id, kept, fork_seq, desk_role, archived, settled_by, "
            f"{_TIME.format('settled_at')} FROM referee_desk.settlements ORDER BY id"
        ).fetchall()
        return [Settlement(*r) for r in rows]

    def settle_fork(self, match_id: str, kept: str, desk: str) -> Settlement:
        """Organizer: keep the server's record or desk's branch; the other is archived."""
        role = self._desk_role(desk)
        try:
            settled = self._one(
                "SELECT referee_desk.settle_fork(%s, %s, %s)", (match_id, kept, role)
            )
        except psycopg.errors.InsufficientPrivilege as error:
            raise ServerRefused(
                f"{self.shown}: only the organizer settles forks ({error})"
            ) from None
        except (psycopg.errors.RaiseException, psycopg.errors.IntegrityError) as error:
            raise ServerRefused(f"{self.shown}: {' '.join(str(error).split())}") from None
        return next(s for s in self.settlements() if s.id == settled)

    def ended_matches(self) -> set[str]:
        """Matches whose record holds their ``match_ended`` (this role may see)."""
        rows = self.connection.execute(
            "SELECT DISTINCT match_id FROM referee_desk.events WHERE type = 'match_ended'"
        ).fetchall()
        return {r[0] for r in rows}

    def seal_times(self) -> dict[str, str]:
        """When the server last took a lock of each match (UTC, as conflicts' times)."""
        rows = self.connection.execute(
            f"SELECT match_id, {_TIME.format('max(received_at)')} FROM referee_desk.seals "
            "GROUP BY match_id"
        ).fetchall()
        return dict(rows)

    def archived_events(self, settlement_id: int) -> list[Event]:
        """The branch a settlement did not keep, event by event."""
        rows = self.connection.execute(
            "SELECT hash, canonical FROM referee_desk.archived_events "
            "WHERE settlement_id = %s ORDER BY seq",
            (settlement_id,),
        ).fetchall()
        return [event_from_stored(t, h) for h, t in rows]

    # ------------------------------------------------------------ vouching

    def last_desk_events(self) -> dict[str, int]:
        """Per match, the last event a role other than the organizer's pushed (the server
        stamps ``pushed_by`` itself): what a desk's seal or the organizer must vouch for."""
        organizer = self._meta("organizer_role")
        rows = self.connection.execute(
            "SELECT match_id, max(seq) FROM referee_desk.events WHERE pushed_by <> %s "
            "GROUP BY match_id",
            (organizer,),
        ).fetchall()
        return dict(rows)

    def recorded_by(self) -> dict[str, str]:
        """Per match, the role that pushed its first event (stamped by the server)."""
        rows = self.connection.execute(
            "SELECT match_id, pushed_by FROM referee_desk.events WHERE seq = 1"
        ).fetchall()
        return dict(rows)

    def vouched_heads(self) -> dict[str, int]:
        """Per match, the furthest head a seal (checked on insert) or the organizer's
        acceptance covers (``referee_desk.vouched_heads``; organizer and hall page)."""
        rows = self.connection.execute("SELECT * FROM referee_desk.vouched_heads()").fetchall()
        return dict(rows)

    def acceptances(self) -> dict[str, list[tuple[int, str]]]:
        """Organizer: the heads it accepted by name, per match (``accept``)."""
        rows = self.connection.execute(
            "SELECT match_id, head_seq, head_hash FROM referee_desk.acceptances ORDER BY id"
        ).fetchall()
        out: dict[str, list[tuple[int, str]]] = {}
        for match_id, seq, hash_ in rows:
            out.setdefault(match_id, []).append((seq, hash_))
        return out

    def accept(self, match_id: str) -> tuple[int, str]:
        """Organizer: let a record no registered desk key sealed count, up to its head now.

        The head named is the one the server holds at this moment; events added later
        are not accepted with it. Returns it.
        """
        seq, hash_ = self.head(match_id)
        if seq == 0:
            raise ServerRefused(f"{self.shown}: no record of match {match_id} on the server")
        try:
            self.connection.execute(
                "INSERT INTO referee_desk.acceptances (match_id, head_seq, head_hash) "
                "VALUES (%s, %s, %s) ON CONFLICT (match_id, head_seq) DO NOTHING",
                (match_id, seq, hash_),
            )
        except psycopg.errors.InsufficientPrivilege as error:
            raise ServerRefused(
                f"{self.shown}: only the organizer accepts records ({error})"
            ) from None
        except psycopg.errors.RaiseException as error:
            raise ServerRefused(f"{self.shown}: {' '.join(str(error).split())}") from None
        return seq, hash_

    # ------------------------------------------------------------- assignments

    def assignment(self, match_id: str) -> MatchAssignment | None:
        row = self.connection.execute(
            "SELECT match_id, desk_role, opening, claimed FROM referee_desk.matches "
            "WHERE match_id = %s",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        opening = json.loads(row[2]) if row[2] is not None else None
        return MatchAssignment(row[0], row[1], opening, row[3])

    def assignments(self) -> list[MatchAssignment]:
        rows = self.connection.execute(
            "SELECT match_id, desk_role, opening, claimed FROM referee_desk.matches "
            "ORDER BY match_id"
        ).fetchall()
        return [
            MatchAssignment(m, d, json.loads(o) if o is not None else None, c)
            for m, d, o, c in rows
        ]

    def opening(self, match_id: str) -> dict[str, Any] | None:
        """Pull: the drawn opening (``match_opened`` payload) of a match, or None."""
        found = self.assignment(match_id)
        return found.opening if found is not None else None

    def assign(self, match_id: str, desk: str | None, opening: dict[str, Any] | None) -> None:
        """Organizer: give a match (and its drawn opening) to a desk (role or table label)."""
        role = self._desk_role(desk) if desk else None
        text = canonical_dumps(opening) if opening is not None else None
        try:
            self.connection.execute(
                "INSERT INTO referee_desk.matches (match_id, desk_role, opening, claimed) "
                "VALUES (%s, %s, %s, false) ON CONFLICT (match_id) DO UPDATE SET "
                "desk_role = EXCLUDED.desk_role, opening = COALESCE(EXCLUDED.opening, "
                "referee_desk.matches.opening), claimed = false, assigned_at = now()",
                (match_id, role, text),
            )
        except psycopg.errors.InsufficientPrivilege as error:
            raise ServerRefused(
                f"{self.shown}: only the organizer assigns matches ({error})"
            ) from None

    def reserve(self, match_ids: list[str]) -> None:
        """Organizer: keep these matches from any desk's claim until they are assigned."""
        try:
            with self.connection.transaction(), self.connection.cursor() as cur:
                cur.executemany(
                    "INSERT INTO referee_desk.matches (match_id, desk_role, claimed) "
                    "VALUES (%s, NULL, false) ON CONFLICT (match_id) DO NOTHING",
                    [(m,) for m in match_ids],
                )
        except psycopg.errors.InsufficientPrivilege as error:
            raise ServerRefused(
                f"{self.shown}: only the organizer keeps matches ({error})"
            ) from None

    def set_claims(self, open_: bool) -> None:
        """Organizer: whether a desk may take a match nobody holds by recording it."""
        try:
            self.connection.execute(
                "INSERT INTO referee_desk.claims (id, open) VALUES (1, %s) ON CONFLICT (id) "
                "DO UPDATE SET open = EXCLUDED.open, changed_by = session_user, changed_at = now()",
                (open_,),
            )
        except psycopg.errors.InsufficientPrivilege as error:
            raise ServerRefused(
                f"{self.shown}: only the organizer opens claims ({error})"
            ) from None

    def claims_open(self) -> bool:
        found = self._one("SELECT open FROM referee_desk.claims WHERE id = 1")
        return True if found is None else bool(found)

    def _desk_role(self, desk: str) -> str:
        for known in self.desks():
            if desk in (known.role, known.table_label):
                return known.role
        raise ServerError(f"{self.shown}: no desk {desk!r} on this server")
