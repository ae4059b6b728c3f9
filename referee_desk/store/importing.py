"""Importing JSON Lines match records into an open tournament file, all or nothing.

Every line is parsed, every match's chain checked and every event replayed before one
transaction writes them; any refusal names the file, the line and the reason and leaves
the tournament file unchanged. Besides ``Appender``, the only writer of ``events``.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee_desk.match.envelope import Event
from referee_desk.store import access
from referee_desk.store.checks import Problem, chain_problem
from referee_desk.store.errors import ImportConflict, ImportRefused
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore
from referee_desk.store.jsonl import LineEvent, group_by_match, read_jsonl
from referee_desk.store.match_checks import MatchChecker
from referee_desk.store.people import People
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.seals import Seals
from referee_desk.store.witness import Witness


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


class Importer:
    """``import_jsonl`` of one open file: checked like ``append``, written in one transaction."""

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
        items: list[LineEvent] = []
        for path in paths:
            items.extend(read_jsonl(path))
        grouped = check_lines(items)
        added: dict[str, int] = {}
        unchanged: list[str] = []
        with self.core.transaction() as conn:
            for match_id, group in grouped.items():
                present = self.log.events(match_id)
                for item, old in zip(group, present, strict=False):
                    if item.event.hash != old.hash:
                        raise _refuse(
                            item,
                            "the tournament file records this match differently from here on "
                            "(conflict; nothing imported)",
                            conflict=True,
                        )
                new = group[len(present) :]
                if not new:
                    unchanged.append(match_id)
                    continue
                if self.seals.latest(match_id) is not None:
                    raise _refuse(
                        new[0], "the match is locked in the tournament file", conflict=True
                    )
                for item in new:
                    self.people.authorize_import(match_id, item.event, by)
                try:
                    conn.executemany(INSERT_SQL, [to_row(i.event) for i in new])
                except sqlite3.IntegrityError as error:
                    raise _refuse(new[0], f"cannot be stored ({error})", conflict=True) from None
                added[match_id] = len(new)
        self.witness.write([("E", m, *self.log.head(m)) for m in added])
        return ImportReport(added, tuple(unchanged))
