"""Importing JSON Lines match records into an open tournament file, all or nothing.

Every line is parsed, every match's chain checked and every event replayed before the
transaction that writes them commits; any refusal names the file, the line and the
reason and leaves the tournament file unchanged. Besides ``Appender``, the only writer
of ``events``. It streams: a record of 10^6 events is never held in memory at once.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee_desk.match.envelope import GENESIS_HASH, Event, chain_fault, event_links
from referee_desk.store import access
from referee_desk.store.checks import Problem, chain_problem
from referee_desk.store.errors import ImportConflict, ImportRefused, StoreError
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore
from referee_desk.store.jsonl import LineEvent, group_by_match, iter_jsonl, read_bounded
from referee_desk.store.match_checks import MatchChecker
from referee_desk.store.people import People
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.seals import Seals
from referee_desk.store.witness import Witness

#: Rows written per ``executemany`` while importing.
BATCH = 2000


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: events added per match, and matches already present."""

    added: dict[str, int] = field(default_factory=dict)
    unchanged: tuple[str, ...] = ()

    @property
    def total_added(self) -> int:
        return sum(self.added.values())


def _refuse(item: LineEvent, reason: str, conflict: bool = False) -> ImportRefused:
    kind = ImportConflict if conflict else ImportRefused
    return kind(item.file, item.line, reason, match_id=item.event.match_id, seq=item.event.seq)


def check_lines(items: Sequence[LineEvent]) -> dict[str, list[LineEvent]]:
    """Group by match, check each chain (in file order) and replay it; refuse the first fault."""
    grouped = group_by_match(items)
    for match_id, group in grouped.items():
        events = [i.event for i in group]
        broken = chain_problem(match_id, events)
        if broken is not None:
            index = next(n for n, i in enumerate(group) if i.event is _event_at(events, broken))
            raise _refuse(group[index], broken.reason)
        checker = MatchChecker()
        for item in group:
            reason = checker.problem(item.event)
            if reason is not None:
                raise _refuse(item, f"not acceptable: {reason}")
            checker.accept()
    return grouped


def _event_at(events: list[Event], problem: Problem) -> Event:
    for event in events:
        if event.seq == problem.seq:
            return event
    return events[0]


@dataclass(slots=True)
class _Match:
    """What the import keeps of one match while it streams (never its events)."""

    order: int
    count: int = 0
    prev: str = GENESIS_HASH
    last: tuple[int, int] = (0, 0)  # (source, line) of its last event
    fault: ImportRefused | None = None  # its chain (first pass) or its replay (second)
    checker: MatchChecker | None = None
    present: int = -1  # events the tournament file holds already (-1: not looked up)
    new: int = 0
    refused: Exception | None = None  # conflict, lock or sign-in (second pass)


def _readable(path: str | os.PathLike[str], spool: Path) -> tuple[str, Path]:
    """(name, a regular file to read): a pipe or a device is read once into ``spool``."""
    name = os.fspath(path)
    if Path(path).is_file():
        return name, Path(path)
    spool.write_bytes(read_bounded(path, name))
    return name, spool


def _first(matches: dict[str, _Match], attribute: str) -> Exception | None:
    """The refusal of the first match (in file order) that has one in ``attribute``."""
    for match in matches.values():  # insertion order is file order
        found = getattr(match, attribute)
        if found is not None:
            return found
    return None


class Importer:
    """``import_jsonl`` of one open file: checked like ``append``, written in one transaction.

    Two passes over the files. The first parses every line (schema included) and checks
    each match's chain; the second replays every match and writes its new events inside
    one transaction. Neither holds the records: a match's replayed state lives from its
    first line to its last. The refusal is the one reading them all at once finds first:
    any unreadable line; else the first match (in file order) whose chain or replay
    fails; else the first whose new events conflict, are locked or need a sign-in. The
    files must not change between the passes (their SHA-256 is compared before commit).
    """

    def __init__(
        self, core: FileCore, log: EventLog, people: People, seals: Seals, witness: Witness
    ) -> None:
        self.core = core
        self.log = log
        self.people = people
        self.seals = seals
        self.witness = witness

    def import_jsonl(
        self, paths: Sequence[str | os.PathLike[str]], *, by: access.Session | None = None
    ) -> ImportReport:
        """Import JSON Lines files, all or nothing.

        Events already present identically are skipped (importing twice is a no-op); a
        match recorded differently raises ``ImportConflict``; a locked match refuses
        new events. Raises ``ImportRefused`` (file, line, reason) or ``StoreWriteError``.
        In a file with PINs every new event needs ``by`` as the desk would
        (``AccessRefused``; ``People.authorize_import``).
        """
        with tempfile.TemporaryDirectory(prefix="referee-desk-import-") as spool:
            sources = [_readable(p, Path(spool) / f"{n}.jsonl") for n, p in enumerate(paths)]
            matches, digests = self._parse_and_chain(sources)
            return self._replay_and_write(sources, matches, digests, by)

    def _parse_and_chain(
        self, sources: list[tuple[str, Path]]
    ) -> tuple[dict[str, _Match], list[bytes]]:
        """Parse every line (raising the first unreadable one); note each chain's fault."""
        matches: dict[str, _Match] = {}
        digests: list[bytes] = []
        for index, (name, real) in enumerate(sources):
            digest = hashlib.sha256()
            found = False
            for item in iter_jsonl(real, name=name, digest=digest):
                found = True
                event = item.event
                match = matches.get(event.match_id)
                if match is None:
                    match = matches[event.match_id] = _Match(len(matches))
                match.last = (index, item.line)
                if match.fault is None:
                    after = (match.count, match.prev)
                    fault = chain_fault(event_links([event]), event.match_id, after=after)
                    if fault is not None:
                        match.fault = _refuse(item, fault[1])
                match.count += 1
                match.prev = event.hash
            if not found:
                raise ImportRefused(name, None, "no events in the file")
            digests.append(digest.digest())
        return matches, digests

    def _replay_and_write(
        self,
        sources: list[tuple[str, Path]],
        matches: dict[str, _Match],
        digests: list[bytes],
        by: access.Session | None,
    ) -> ImportReport:
        """Replay each match (stopping at the first broken chain's match) and, when every
        chain holds, write the new events; commit only when nothing was refused."""
        broken = next((m for m in matches.values() if m.fault is not None), None)
        limit = broken.order if broken is not None else len(matches)
        writing = broken is None
        rows: list[tuple[object, ...]] = []
        items: list[LineEvent] = []
        with self.core.transaction() as conn:
            for index, (name, real) in enumerate(sources):
                digest = hashlib.sha256()
                for item in iter_jsonl(real, name=name, check_schema=False, digest=digest):
                    match = matches[item.event.match_id]
                    if match.order >= limit:
                        continue
                    self._replay(item, match)
                    if writing and match.fault is None and match.refused is None:
                        self._write(item, match, by, rows, items)
                        if len(rows) >= BATCH:
                            self._insert(conn, rows, items)
                    if match.last == (index, item.line):
                        match.checker = None  # its last event: its state is done with
                if digest.digest() != digests[index]:
                    raise StoreError(f"{name}: changed while it was being imported")
            refused = _first(matches, "fault") or _first(matches, "refused")
            if refused is not None:
                raise refused
            self._insert(conn, rows, items)
        added = {m: match.new for m, match in matches.items() if match.new}
        unchanged = tuple(m for m, match in matches.items() if not match.new)
        self.witness.write([("E", m, *self.log.head(m)) for m in added])
        return ImportReport(added, unchanged)

    def _replay(self, item: LineEvent, match: _Match) -> None:
        """The match layer's verdict on the event (its schema was checked when parsed)."""
        if match.fault is not None:
            return
        if match.checker is None:
            match.checker = MatchChecker()
        reason = match.checker.problem(item.event, schema_checked=True)
        if reason is not None:
            match.fault = _refuse(item, f"not acceptable: {reason}")
            match.checker = None
        else:
            match.checker.accept()

    def _write(
        self,
        item: LineEvent,
        match: _Match,
        by: access.Session | None,
        rows: list[tuple[object, ...]],
        items: list[LineEvent],
    ) -> None:
        """Skip an event the file holds identically, refuse a different one, queue a new one."""
        event = item.event
        if match.present < 0:
            match.present = self.log.head(event.match_id)[0]
        if event.seq <= match.present:
            if self.log.hash_at(event.match_id, event.seq) != event.hash:
                match.refused = _refuse(
                    item,
                    "the tournament file records this match differently from here on "
                    "(conflict; nothing imported)",
                    conflict=True,
                )
            return
        if match.new == 0 and self.seals.latest(event.match_id) is not None:
            match.refused = _refuse(
                item, "the match is locked in the tournament file", conflict=True
            )
            return
        try:
            self.people.authorize_import(event.match_id, event, by)
        except StoreError as refused:
            match.refused = refused
            return
        rows.append(to_row(event))
        items.append(item)
        match.new += 1

    def _insert(
        self, conn: sqlite3.Connection, rows: list[tuple[object, ...]], items: list[LineEvent]
    ) -> None:
        if not rows:
            return
        try:
            conn.executemany(INSERT_SQL, rows)
        except sqlite3.IntegrityError as error:
            raise _refuse(items[0], f"cannot be stored ({error})", conflict=True) from None
        rows.clear()
        items.clear()
