"""Pushing a desk's file to the server, and the desk's sync state.

The desk's file is written first and stays the journal; ``push`` sends each match's
events beyond what the server holds, in order, in one transaction per batch.
Idempotent: an event the server holds with the same (match_id, seq, hash) is not sent
again. An event that differs from the server's at the same seq is a fork: refused,
never merged, reported in the result and recorded on the server (``conflicts``) for
the organizer; the desk's file remembers it until a later push of that match succeeds.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import psycopg

from referee_desk.match import new_event
from referee_desk.match.envelope import Event
from referee_desk.store import TournamentFile
from referee_desk.store.postgres import marks
from referee_desk.store.postgres.connection import redact
from referee_desk.store.postgres.errors import ServerError, ServerUnreachable
from referee_desk.store.postgres.marks import Conflict
from referee_desk.store.postgres.seals import push_seal
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.seals import Seal
from referee_desk.store.signatures import SCHEME

#: Events per transaction when a desk catches up.
BATCH = 500

INSERT_SQL = (
    "INSERT INTO referee_desk.events (match_id, seq, prev_hash, hash, canonical) "
    "VALUES (%s, %s, %s, %s, %s)"
)


@dataclass(frozen=True, slots=True)
class PushReport:
    """What one push did: events sent per match, matches already there, conflicts."""

    pushed: dict[str, int] = field(default_factory=dict)
    unchanged: tuple[str, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    seals: int = 0  # locks sent (each checked by the server on insert)

    @property
    def total_pushed(self) -> int:
        return sum(self.pushed.values())


SyncStatus = Literal["never", "synced", "waiting", "conflict"]


@dataclass(frozen=True, slots=True)
class SyncState:
    """What the desk shows: synced, N events waiting, or conflict (with the conflicts).

    ``status`` is ``conflict`` when any match is in conflict (``waiting`` then counts the
    other matches' events), ``waiting`` when events are not yet on the server,
    ``synced`` when the server holds everything, ``never`` when never pushed.
    """

    status: SyncStatus
    waiting: int
    conflicts: tuple[Conflict, ...] = ()
    server: str = ""
    last_push_at: str = ""


def sync_state(tf: TournamentFile) -> SyncState:
    """The file's sync state with the server it was last pushed to; no network needed."""
    latest = marks.latest_server(tf)
    match_ids = tf.match_ids()
    if latest is None:
        total = sum(tf.head(m)[0] for m in match_ids)
        return SyncState("never" if total else "synced", total)
    server_id, address, last_push_at = latest
    pushed = marks.pushed_heads(tf, server_id)
    found = tuple(marks.conflicts(tf, server_id))
    in_conflict = {c.match_id for c in found}
    waiting = 0
    for match_id in match_ids:
        if match_id in in_conflict:
            continue
        held_seq = pushed.get(match_id, (0, ""))[0]
        waiting += max(tf.head(match_id)[0] - held_seq, 0)
    status: SyncStatus = "conflict" if found else ("waiting" if waiting else "synced")
    return SyncState(status, waiting, found, address, last_push_at)


def push(tf: TournamentFile, server: TournamentServer, *, batch: int = BATCH) -> PushReport:
    """Send what the server lacks; returns the report (conflicts included, never raised).

    Raises ``ServerUnreachable`` when the connection fails (nothing is lost: the next
    push resends whatever the server did not commit).
    """
    pushed_before = marks.pushed_heads(tf, server.server_id)
    open_conflicts = {c.match_id for c in marks.conflicts(tf, server.server_id)}
    # A settled fork may have changed the server's record under this desk's marks: those
    # matches are compared again (settlements are rare; one query per push).
    open_conflicts |= _settled_matches(server)
    pushed: dict[str, int] = {}
    unchanged: list[str] = []
    found: list[Conflict] = []
    heads: dict[str, tuple[int, str]] = {}
    cleared: list[str] = []
    seals_taken: dict[str, str] = {}
    seals_sent = 0
    locks = tf.seals.all()
    inline: dict[str, bool | Conflict] = {}
    try:
        for match_id in tf.match_ids():
            local_head = tf.head(match_id)
            if pushed_before.get(match_id) == local_head and match_id not in open_conflicts:
                unchanged.append(match_id)
                continue
            lock = _lock_of_head(locks.get(match_id), local_head)
            outcome = _push_match(tf, server, match_id, batch, lock, inline)
            if isinstance(outcome, Conflict):
                found.append(outcome)
                _report(server, tf, outcome)
                continue
            heads[match_id] = local_head
            cleared.append(match_id)
            if outcome:
                pushed[match_id] = outcome
            else:
                unchanged.append(match_id)
        for match_id, taken in inline.items():  # locks sent with their matches' last events
            if isinstance(taken, Conflict):
                found.append(taken)
                _report(server, tf, taken)
                continue
            seals_taken[match_id] = locks[match_id].signature
            seals_sent += int(taken)
        blocked = {c.match_id for c in found} | set(inline)
        seals_sent += _push_seals(tf, server, blocked, open_conflicts, seals_taken, found)
    except (psycopg.OperationalError, psycopg.InterfaceError) as error:
        raise ServerUnreachable(f"{redact(server.url)}: lost the server: {_line(error)}") from None
    finally:
        known = marks.latest_server(tf)
        if (
            heads
            or found
            or cleared
            or seals_taken
            or known is None
            or known[0] != server.server_id
        ):
            marks.record_push(
                tf, server.server_id, server.shown, heads, found, cleared, seals_taken
            )
    return PushReport(pushed, tuple(unchanged), tuple(found), seals_sent)


def _push_seals(
    tf: TournamentFile,
    server: TournamentServer,
    blocked: set[str],
    open_conflicts: set[str],
    taken: dict[str, str],
    found: list[Conflict],
) -> int:
    """Send each match's latest lock the server has not taken yet; the number sent.

    A refused lock (key not registered, forged, another head) is a ``seal`` conflict:
    the events stay on the server, the organizer sees why. Old keyed (HMAC) seals are
    not sent: no server can check them.
    """
    before = marks.pushed_seals(tf, server.server_id)
    sent = 0
    for match_id, seal in tf.seals.all().items():
        if match_id in blocked or seal.scheme != SCHEME:
            continue
        if before.get(match_id) == seal.signature and match_id not in open_conflicts:
            continue
        fingerprint = seal.key_fingerprint or ""
        public_key = tf.signatures.public_key(fingerprint)
        label = tf.signatures.key_info(fingerprint).label
        outcome = push_seal(server, tf.tournament_id, seal, public_key, label)
        if isinstance(outcome, Conflict):
            found.append(outcome)
            _report(server, tf, outcome)
            continue
        taken[match_id] = seal.signature
        sent += int(outcome)
    return sent


def _lock_of_head(seal: Seal | None, head: tuple[int, str]) -> Seal | None:
    """The match's lock when it locks the file's head (an Ed25519 one): sent in the same
    transaction as the match's last events, so the server counts a locked end the moment
    it lands (issue 18 item 12) and no view shows it uncounted in between."""
    if seal is None or seal.scheme != SCHEME or (seal.head_seq, seal.head_hash) != head:
        return None
    return seal


def _push_match(
    tf: TournamentFile,
    server: TournamentServer,
    match_id: str,
    batch: int,
    lock: Seal | None = None,
    inline: dict[str, bool | Conflict] | None = None,
) -> int | Conflict:
    """Events sent for one match, or the conflict that stopped it; ``lock`` goes with the
    last batch (its outcome into ``inline``)."""
    send_lock = None
    if lock is not None and inline is not None:
        fingerprint = lock.key_fingerprint or ""
        public_key = tf.signatures.public_key(fingerprint)
        label = tf.signatures.key_info(fingerprint).label
        send_lock = functools.partial(push_seal, server, tf.tournament_id, lock, public_key, label)
    for _attempt in range(3):
        if server.is_desk:
            holder = server.claim(match_id)
            if holder is None:
                return Conflict(
                    match_id,
                    1,
                    "claimed",
                    f"the organizer has not given match {match_id} to {server.role}: the "
                    "tournament's draw keeps its matches for their tables (or is not made "
                    "yet); nothing sent (check the match id, or ask for server publish)",
                )
            if holder != server.role:
                return Conflict(
                    match_id,
                    1,
                    "claimed",
                    f"the match belongs to desk {holder} on the server, not to {server.role}; "
                    "nothing sent (the organizer reassigns it or the desk records another match)",
                )
        events = tf.events(match_id)
        server_seq, _ = server.head(match_id)
        fork = _first_difference(server, match_id, events, server_seq)
        if fork is not None:
            return fork
        if server_seq >= len(events):
            return 0
        try:
            sent, taken = _send(server, events[server_seq:], batch, send_lock)
            if taken is not None and inline is not None:
                inline[match_id] = taken
        except psycopg.errors.UniqueViolation:
            continue  # another push of this desk got there first: compare again
        except psycopg.errors.InsufficientPrivilege as error:
            return Conflict(match_id, server_seq + 1, "refused", _line(error))
        except psycopg.errors.RaiseException as error:
            return Conflict(match_id, server_seq + 1, "refused", _line(error))
        return sent
    return Conflict(match_id, 0, "refused", "the server's record kept moving; try again")


def _first_difference(
    server: TournamentServer, match_id: str, events: list[Event], server_seq: int
) -> Conflict | None:
    """The fork between the desk's events and the server's, or None when one extends the other.

    Hashes chain, so equal hashes at the last common seq mean equal records up to it.
    """
    common = min(server_seq, len(events))
    if common == 0:
        return None
    at_common = server.hash_at(match_id, common)
    if at_common == events[common - 1].hash:
        if server_seq > len(events):
            return Conflict(
                match_id,
                len(events) + 1,
                "behind",
                f"the server holds {server_seq} events, this file {len(events)}: the file "
                "lacks later events (restored from a backup?); nothing sent",
            )
        return None
    server_hashes = server.hashes(match_id)
    for index in range(common):
        if server_hashes[index] != events[index].hash:
            settled = _settled_for(server, match_id, index + 1)
            if settled is not None:
                return Conflict(
                    match_id,
                    index + 1,
                    "fork",
                    f"settled: the organizer kept the server's record of match {match_id} "
                    f"(this desk's branch from event {settled.fork_seq} is archived on the "
                    "server); take the server's record: referee-desk sync FILE URL "
                    f"--take-server {match_id}",
                )
            return Conflict(
                match_id,
                index + 1,
                "fork",
                f"fork: this desk's event {index + 1} differs from the server's "
                f"(server {server_hashes[index][:12]}…, desk {events[index].hash[:12]}…); "
                "refused, never merged: the organizer decides which record stands",
            )
    return None


def _settled_matches(server: TournamentServer) -> set[str]:
    try:
        return {s.match_id for s in server.settlements()}
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedTable):
        return set()


def _settled_for(server: TournamentServer, match_id: str, fork_seq: int):
    """The organizer's settlement of this very fork: the server's record is the one kept
    (the desk's own branch archived, or another branch put in place of the one it had)."""
    if not server.is_desk:
        return None
    try:
        found = [
            s for s in server.settlements() if s.match_id == match_id and s.fork_seq == fork_seq
        ]
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedTable):
        return None
    return found[-1] if found else None


def _send(
    server: TournamentServer,
    events: list[Event],
    batch: int,
    last: Callable[[], bool | Conflict] | None = None,
) -> tuple[int, bool | Conflict | None]:
    """(events sent, what ``last`` answered): ``last`` runs in the last batch's
    transaction (a refused lock rolls back to its own savepoint, never the events)."""
    conn = server.connection
    sent = 0
    answer: bool | Conflict | None = None
    for start in range(0, len(events), batch):
        rows = [
            (e.match_id, e.seq, e.prev_hash, e.hash, e.canonical_json().decode("utf-8"))
            for e in events[start : start + batch]
        ]
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(INSERT_SQL, rows)
            if last is not None and start + batch >= len(events):
                answer = last()
        sent += len(rows)
    return sent, answer


def _report(server: TournamentServer, tf: TournamentFile, conflict: Conflict) -> None:
    """Record the conflict on the server so the organizer sees it (not for ``behind``)."""
    if conflict.kind == "behind":
        return
    events = tf.events(conflict.match_id)
    event = events[conflict.seq - 1] if 0 < conflict.seq <= len(events) else None
    # The admin or a foreign role may not report: the desk's own report still names it.
    with contextlib.suppress(psycopg.errors.InsufficientPrivilege):
        server.report_conflict(
            conflict.match_id,
            conflict.seq,
            conflict.kind,
            event.hash if event else "",
            event.canonical_json().decode("utf-8") if event else "",
            conflict.reason,
        )
    if conflict.kind == "fork" and server.is_desk:
        # Its branch, so the organizer compares both (server resolve); a huge one is cut.
        with contextlib.suppress(psycopg.errors.IntegrityError, psycopg.errors.RaiseException):
            server.report_branch(conflict.match_id, conflict.seq, events[conflict.seq - 1 :][:2000])


def open_from_server(
    tf: TournamentFile,
    server: TournamentServer,
    match_id: str,
    *,
    referee: str | None = None,
    now: str | None = None,
    by: Any = None,
) -> Event:
    """Pull: record the server's drawn opening of ``match_id`` as the match's first event.

    The payload is the organizer's, unchanged (``server publish``); ``referee`` defaults
    to the one it names. Raises ``ServerError`` when this desk has no opening for the
    match, ``AppendConflict`` when the file already holds the match.
    """
    opening = server.opening(match_id)
    if opening is None:
        raise ServerError(
            f"{server.shown}: no drawn opening of match {match_id} for {server.role} "
            "(the organizer runs: referee-desk server publish)"
        )
    who = referee or str(opening.get("referee") or "")
    draft = new_event([], "match_opened", opening, referee=who, now=now, match_id=match_id)
    return tf.append(draft, expected_seq=1, by=by)


def pull_openings(tf: TournamentFile, server: TournamentServer) -> list[str]:
    """Pull every drawn match given to this desk that the file does not hold yet.

    A match the server has no event of yet becomes the drawn opening as its
    ``match_opened`` (``open_from_server``); one the server already holds a record of
    (recorded before, at another desk or imported by the organizer) is pulled whole, so
    the desk goes on with that record instead of forking it. Returns the match ids
    pulled, in the server's order. Matches the file already has are left alone.
    """
    held = set(tf.match_ids())
    pulled = []
    for assignment in server.assignments():
        if assignment.match_id in held or assignment.opening is None:
            continue
        if server.is_desk and assignment.desk_role != server.role:
            continue
        open_or_pull(tf, server, assignment.match_id)
        pulled.append(assignment.match_id)
    return pulled


def open_or_pull(
    tf: TournamentFile, server: TournamentServer, match_id: str, *, referee: str | None = None
) -> Event | int:
    """Start a match the file lacks: the server's record when it holds one, else the opening.

    A match begun already (at this table before, or imported by the organizer) goes on
    with the server's record (``pull_record``: the events added); one nobody has
    recorded starts from the drawn opening (``open_from_server``: the event).
    """
    if server.head(match_id)[0] > 0 and not tf.events(match_id):
        return pull_record(tf, server, match_id)
    return open_from_server(tf, server, match_id, referee=referee)


def pull_record(tf: TournamentFile, server: TournamentServer, match_id: str) -> int:
    """The server's record of ``match_id`` into the file (checked and replayed on import).

    Returns the events added. The events are the server's, byte for byte, so the next
    push finds nothing new; a file holding the match differently is refused
    (``ImportConflict``) and keeps what it had.
    """
    import tempfile

    from referee_desk.store.jsonl import write_jsonl

    events = server.events(match_id)
    if not events:
        return 0
    with tempfile.TemporaryDirectory(prefix="referee-desk-pull-") as folder:
        part = Path(folder) / "record.jsonl"
        write_jsonl(events, part)
        return tf.import_jsonl([part]).total_added


def journal_path(url: str, folder: str | Path) -> Path:
    """The desk's own journal file for a server address: one per server, database, desk.

    ``referee-desk URL`` records into it (the desk's offline journal) and pushes it.
    """
    parts = urlsplit(url)
    name = "-".join(
        [
            parts.hostname or "localhost",
            str(parts.port or 5432),
            parts.path.strip("/") or "db",
            parts.username or "desk",
        ]
    )
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return Path(folder) / f"{safe}.sqlite"


def sync_file(path: str, url: str) -> PushReport:
    """Open the desk's file and the server, push, close both."""
    with TournamentServer.open(url) as server, TournamentFile.open(path, create=False) as tf:
        return push(tf, server)


def _line(error: BaseException) -> str:
    return " ".join(str(error).split())
