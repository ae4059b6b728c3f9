"""Every check of a match record, in one place: what ``open`` and ``verify`` run.

One report type, ``Problem`` (which file, line, match, event, and why). Record-level:
``chain_problem`` (the match layer's one chain checker, ``envelope.chain_fault``, over
events or over stored rows) and ``match_problem`` (chain, then every event through the
match layer: schema and replay). File-level, ``Checks``: SQLite's integrity, every
match's chain and replay, its signed seal, locks without events, the heads journal, the
guard and the file's key. ``damage`` is the part ``open`` runs before showing a file.

Stored rows are checked as they are read (``row_links``): the canonical JSON the hash
covers must be the one of the stored fields, so the events replayed are the hashed ones.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from referee_desk.match.envelope import Event, Link, canonical_dumps, chain_fault, event_links
from referee_desk.store.errors import DamagedFile, StoreError
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore
from referee_desk.store.match_checks import collection_paused, first_problem
from referee_desk.store.seals import Seals
from referee_desk.store.signatures import Signatures
from referee_desk.store.trust import Trust
from referee_desk.store.witness import Witness, compare


@dataclass(frozen=True, slots=True)
class Problem:
    """The first problem found: which match, which event, which line, and why."""

    reason: str
    match_id: str | None = None
    seq: int | None = None
    line: int | None = None
    file: str | None = None

    def __str__(self) -> str:
        where: list[str] = []
        if self.file is not None:
            where.append(f"{self.file}:{self.line}" if self.line is not None else self.file)
        elif self.line is not None:
            where.append(f"line {self.line}")
        if self.match_id is not None:
            where.append(f"match {self.match_id}")
        if self.seq is not None:
            where.append(f"event {self.seq}")
        reason = " ".join(self.reason.split())
        return f"{', '.join(where)}: {reason}" if where else reason


# ------------------------------------------------------------------ one record


def _found(
    fault: tuple[int, str] | None, match_id: str, seqs: Sequence[Any], lines: Sequence[int] | None
) -> Problem | None:
    if fault is None:
        return None
    index, reason = fault
    return Problem(reason, match_id, seqs[index], lines[index] if lines is not None else None)


def chain_problem(
    match_id: str, events: Sequence[Event], lines: Sequence[int] | None = None
) -> Problem | None:
    """The first broken link of one match's chain (in record order), or None."""
    fault = chain_fault(event_links(events), match_id)
    return _found(fault, match_id, [e.seq for e in events], lines)


def match_problem(
    match_id: str,
    events: Sequence[Event],
    lines: Sequence[int] | None = None,
    *,
    replay: bool = True,
) -> Problem | None:
    """Chain first, then schema and replay: the first problem of one match, or None."""
    found = chain_problem(match_id, events, lines)
    if found is not None or not replay:
        return found
    return _replay_problem(match_id, events, lines)


def _replay_problem(
    match_id: str, events: Sequence[Event], lines: Sequence[int] | None = None
) -> Problem | None:
    refused = first_problem(events, chained=True)  # only ever called once the chain passed
    if refused is None:
        return None
    index, reason = refused
    line = lines[index] if lines is not None else None
    return Problem(f"not acceptable: {reason}", match_id, events[index].seq, line)


# ------------------------------------------------------------------ stored rows


#: The decoder's scanner (C): typeshed leaves the attribute out, the module has it.
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _loads(text: Any) -> Any:
    """``json.loads`` (the same objects and errors), without its wrappers for a plain text."""
    if type(text) is str:
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            return json.loads(text)  # raises json.loads's own error
        if end == len(text):
            return value
    return json.loads(text)


def payloads(path: Path, match_id: str, rows: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Each row's payload; ``DamagedFile`` for the first that is not a JSON object."""
    loads = _loads
    found: list[dict[str, Any]] = []
    for row in rows:
        try:
            payload = loads(row[6])
        except (TypeError, ValueError) as error:
            raise _damaged(path, match_id, f"payload is not JSON ({error})") from None
        if type(payload) is not dict:
            raise _damaged(path, match_id, "payload is not a JSON object")
        found.append(payload)
    return found


def _damaged(path: Path, match_id: str, why: str) -> StoreError:
    return DamagedFile(
        key="store.damaged_match", params={"path": path, "match": match_id, "detail": why}
    )


def row_links(
    match_id: str,
    rows: Sequence[tuple[Any, ...]],
    parsed: Sequence[dict[str, Any]],
    events: list[Event] | None = None,
) -> Iterator[Link]:
    """The links of one match's stored rows: the stored canonical JSON and the fields'.

    The fields' canonical JSON is ``canonical_dumps`` of the envelope; for the usual
    column types it is put together here around the payload's (the same text: the
    envelope's keys are in sorted order already), any other goes through the encoder.
    ``chain_fault`` compares it only once the match id, seq and previous hash passed, so
    the match's quoted id and the bare previous hash (hex digits) stand for those.
    ``events``: each row's ``Event`` is added to it as its link is made (the rows are
    read once; an event whose link breaks the chain is the last one added).
    """
    dumps, quote = canonical_dumps, encode_basestring
    quoted: dict[str, str] = {}
    own = quote(match_id)
    add = None if events is None else events.append
    for r, payload in zip(rows, parsed, strict=True):
        owner, seq, kind, at, clock, referee, _, prev, digest, version, stored = r
        if add is not None:
            add(Event(owner, seq, kind, at, clock, referee, payload, prev, digest, version))
        if (
            type(seq) is int
            and type(kind) is str
            and type(at) is str
            and (clock is None or type(clock) is int)
            and type(referee) is str
            and type(version) is int
        ):
            who = quoted.get(referee) or quoted.setdefault(referee, quote(referee))
            what = quoted.get(kind) or quoted.setdefault(kind, quote(kind))
            fields = (
                f'{{"clock_ms":{"null" if clock is None else clock},"match_id":{own},'
                f'"payload":{dumps(payload)},"prev_hash":"{prev}","recorded_at":{quote(at)},'
                f'"referee":{who},"schema_version":{version},"seq":{seq},"type":{what}}}'
            )
        else:
            fields = dumps(
                {
                    "clock_ms": clock,
                    "match_id": owner,
                    "payload": payload,
                    "prev_hash": prev,
                    "recorded_at": at,
                    "referee": referee,
                    "schema_version": version,
                    "seq": seq,
                    "type": kind,
                }
            )
        yield owner, seq, prev, digest, stored, fields


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

    def _match(
        self, match_id: str, *, replay: bool, events: bool
    ) -> tuple[Problem | None, list[Event]]:
        """One match as stored: its first problem (chain, then replay) and its events."""
        rows = self.log.raw_rows(match_id)
        parsed = payloads(self.core.path, match_id, rows)
        stored: list[Event] = []
        links = row_links(match_id, rows, parsed, stored if replay or events else None)
        fault = chain_fault(links, match_id)
        if fault is not None:
            return _found(fault, match_id, [r[1] for r in rows], None), []
        return (_replay_problem(match_id, stored) if replay else None), stored

    def chains(self) -> Problem | None:
        """The first broken hash chain (or stored-row damage) in the file, or None."""
        with collection_paused():
            for match_id in self.log.match_ids():
                found, _ = self._match(match_id, replay=False, events=False)
                if found is not None:
                    return found
        return None

    def damage(self) -> None:
        """Raise ``DamagedFile`` for broken pages, a broken chain or lost witnessed events."""
        path = self.core.path
        integrity = self.integrity_problem()
        if integrity is not None:
            raise DamagedFile(
                key="store.damaged_integrity", params={"path": path, "detail": integrity}
            )
        problem = self.chains()
        if problem is not None:
            raise DamagedFile(
                key="store.damaged_chain",
                # the match and event too, so a caller can name the match by them
                params={
                    "path": path,
                    "problem": problem,
                    "match": problem.match_id,
                    "seq": problem.seq,
                },
            )
        problem = self.witness_problem()
        if problem is not None:
            raise DamagedFile(
                key="store.events_missing",
                # the match and event too, so a caller can name the match by them
                params={
                    "path": path,
                    "problem": problem,
                    "match": problem.match_id,
                    "seq": problem.seq,
                },
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

    def seal_problem(self, match_id: str, events: Sequence[Event]) -> Problem | None:
        """Does the match record agree with its signed seal? (None when not locked.)"""
        seal = self.seals.latest(match_id)
        if seal is None:
            return None
        reason = self.seals.seal_reason(seal)
        if reason is not None:
            return Problem(reason, match_id)
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

    def verify(
        self, *, replay: bool = True, keep: dict[str, list[Event]] | None = None
    ) -> Problem | None:
        """The first problem of the file: integrity, each match's chain and replay, seals,
        the witness, the guard and the file's key. ``keep`` receives each match's events
        as they were read and checked (so a caller needs no second read)."""
        try:
            integrity = self.integrity_problem()
            if integrity is not None:
                return Problem(f"SQLite integrity check: {integrity}")
            with collection_paused():
                for match_id in self.log.match_ids():
                    found, events = self._match(match_id, replay=replay, events=True)
                    found = found or self.seal_problem(match_id, events)
                    if keep is not None:
                        keep[match_id] = events
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
