"""Import and export between tournament files and JSON Lines, and ``verify`` of either.

Import is all-or-nothing: every line is parsed, every match's chain checked and
every event replayed before one transaction writes them; any refusal names the
file, the line and the reason and leaves the tournament file unchanged.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee_desk.match.envelope import Event
from referee_desk.store import access
from referee_desk.store.errors import (
    ImportConflict,
    ImportRefused,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
)
from referee_desk.store.jsonl import LineEvent, group_by_match, read_jsonl, write_jsonl
from referee_desk.store.match_checks import MatchChecker
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.tournament_file import SQLITE_MAGIC, TournamentFile
from referee_desk.store.verify import Problem, chain_problem


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: events added per match, and matches already present."""

    added: dict[str, int] = field(default_factory=dict)
    unchanged: tuple[str, ...] = ()

    @property
    def total_added(self) -> int:
        return sum(self.added.values())


def is_sqlite(path: str | os.PathLike[str]) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == SQLITE_MAGIC
    except OSError:
        return False


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


def import_jsonl(
    tf: TournamentFile,
    paths: Sequence[str | os.PathLike[str]],
    *,
    by: access.Session | None = None,
) -> ImportReport:
    """Import JSON Lines files into an open tournament file, all or nothing.

    Events already present identically are skipped (importing twice is a no-op); a
    match recorded differently raises ``ImportConflict``; a locked match refuses
    new events. Raises ``ImportRefused`` (file, line, reason) or ``StoreWriteError``.
    In a file with PINs every new event needs ``by`` as the desk would (``AccessRefused``;
    ``People.authorize_import``).
    """
    items: list[LineEvent] = []
    for path in paths:
        items.extend(read_jsonl(path))
    grouped = check_lines(items)
    added: dict[str, int] = {}
    unchanged: list[str] = []
    with tf.transaction() as conn:
        for match_id, group in grouped.items():
            present = tf.events(match_id)
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
            seal = tf.seal(match_id)
            if seal is not None:
                raise _refuse(new[0], "the match is locked in the tournament file", conflict=True)
            for item in new:
                tf.people.authorize_import(match_id, item.event, by)
            try:
                conn.executemany(INSERT_SQL, [to_row(i.event) for i in new])
            except sqlite3.IntegrityError as error:
                raise _refuse(new[0], f"cannot be stored ({error})", conflict=True) from None
            added[match_id] = len(new)
    tf.witness.write([("E", m, *tf.head(m)) for m in added])
    return ImportReport(added, tuple(unchanged))


def export_events(
    source: str | os.PathLike[str], output: str | os.PathLike[str], match_id: str | None = None
) -> int:
    """Write a tournament file's (or one match's) events as JSON Lines; returns the count."""
    with TournamentFile.open(source, create=False, read_only=True, check=False) as tf:
        if match_id is not None:
            events = tf.events(match_id)
            if not events:
                raise StoreError(f"{source}: no match {match_id!r} (matches: {_names(tf)})")
        else:
            events = tf.all_events()
            if not events:
                raise StoreError(f"{source}: the tournament file holds no events")
    return write_jsonl(events, output)


def _names(tf: TournamentFile) -> str:
    ids = tf.match_ids()
    return ", ".join(ids[:10]) + (" …" if len(ids) > 10 else "") if ids else "none"


def _looks_like_jsonl(path: str | os.PathLike[str]) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"{") or Path(path).suffix.lower() in (".jsonl", ".ndjson")


def verify_path(
    path: str | os.PathLike[str],
    *,
    against: str | os.PathLike[str] | None = None,
    key: str | None = None,
) -> Problem | None:
    """The first problem of a ``.jsonl`` record or a tournament file, or None when intact.

    Checks, per match: the hash chain, that every event is acceptable (replay) and,
    for a tournament file, SQLite's integrity and the keyed seals of locked matches.
    ``against`` (a tournament file) also compares each locked match's head hash, so
    a log rewritten with a recomputed chain is exposed. ``key`` (a fingerprint, as on
    the match report) must be the tournament file's key.
    """
    name = os.fspath(path)
    if not Path(path).exists():
        return Problem("no such file", file=name)
    if not is_sqlite(path) and not _looks_like_jsonl(path):
        return Problem(
            "neither a Referee Desk tournament file (SQLite) nor a JSON Lines match record",
            file=name,
        )
    if is_sqlite(path):
        try:
            with TournamentFile.open(path, create=False, read_only=True, check=False) as tf:
                found = tf.verify()
                if found is None and key is not None:
                    wrong = tf.key_problem(key)
                    found = Problem(wrong) if wrong else None
                events = {m: tf.events(m) for m in tf.match_ids()} if against else {}
        except (StoreError, StoreWriteError, sqlite3.Error) as error:
            return Problem(str(error))
        if found is not None:
            return found
        lines: dict[str, list[int] | None] = {m: None for m in events}
    else:
        try:
            items = read_jsonl(path)
        except ImportRefused as error:
            return Problem(
                error.reason, error.match_id, error.seq, file=error.file, line=error.line
            )
        grouped = group_by_match(items)
        for match_id, group in grouped.items():
            evs = [i.event for i in group]
            from referee_desk.store.verify import match_problem

            found = match_problem(match_id, evs, [i.line for i in group])
            if found is not None:
                return Problem(found.reason, found.match_id, found.seq, found.line, name)
        events = {m: [i.event for i in g] for m, g in grouped.items()}
        lines = {m: [i.line for i in g] for m, g in grouped.items()}
    if against is not None:
        return _against(name, events, lines, against)
    return None


def signing_summary(path: str | os.PathLike[str]) -> list[str]:
    """Which key signed what in a tournament file that verified (lines for ``verify``)."""
    if not is_sqlite(path):
        return []
    with TournamentFile.open(path, create=False, read_only=True, check=False) as tf:
        lines = [f"file key {tf.key_fingerprint or 'none (nothing signed yet)'}"]
        sealed: dict[str, list[str]] = {}
        imported: dict[tuple[str, str], list[str]] = {}
        for match_id, seal in tf.seals().items():
            if seal.origin_tournament is None:
                sealed.setdefault(seal.key_fingerprint or "?", []).append(match_id)
            else:
                where = (seal.origin_tournament, seal.key_fingerprint or "?")
                imported.setdefault(where, []).append(match_id)
        for info in tf.signers():
            matches = sealed.get(info.fingerprint, [])
            what = f"locked {', '.join(matches)}" if matches else "no locks"
            trust = "the file's key" if info.fingerprint == tf.key_fingerprint else "endorsed"
            lines.append(f"key {info.fingerprint} ({info.label}, {trust}): {what}")
        for (origin, fingerprint), matches in sorted(imported.items()):
            kept = tf.signatures.imported_signer(origin, fingerprint)
            label = kept[1] if kept else "?"
            lines.append(
                f"key {fingerprint} ({label}, imported with desk file {origin}): "
                f"locked {', '.join(matches)}"
            )
        if not tf.witness.exists():
            lines.append(f"note: no heads journal ({tf.witness.path.name}) beside the file")
        return lines


def heads(path: str | os.PathLike[str]) -> list[tuple[str, int, str, bool]]:
    """(match, events, head hash, locked?) per match of a record that verified intact."""
    if is_sqlite(path):
        with TournamentFile.open(path, create=False, read_only=True, check=False) as tf:
            return [(m, *tf.head(m), tf.seal(m) is not None) for m in tf.match_ids()]
    grouped = group_by_match(read_jsonl(path))
    return [(m, len(g), g[-1].event.hash, False) for m, g in grouped.items()]


def _against(
    name: str,
    events: dict[str, list[Event]],
    lines: dict[str, list[int] | None],
    against: str | os.PathLike[str],
) -> Problem | None:
    if not is_sqlite(against):
        return Problem("--against needs a tournament file", file=os.fspath(against))
    try:
        with TournamentFile.open(against, create=False, read_only=True) as tf:
            own = tf.verify(replay=False)
            if own is not None:
                return Problem(f"the tournament file itself is not intact: {own}")
            for match_id, evs in events.items():
                if tf.seal(match_id) is None:
                    if tf.head(match_id)[0] == 0:
                        continue
                    mine = tf.events(match_id)
                    for n, (a, b) in enumerate(zip(evs, mine, strict=False)):
                        if a.hash != b.hash:
                            line = (lines.get(match_id) or [None] * len(evs))[n]
                            return Problem(
                                "differs from the tournament file's record",
                                match_id,
                                a.seq,
                                line,
                                name,
                            )
                    continue
                found = tf.seal_problem(match_id, evs)
                if found is not None:
                    line = None
                    known = lines.get(match_id) or []
                    if found.seq is not None and 0 < found.seq <= len(known):
                        line = known[found.seq - 1]
                    return Problem(found.reason, match_id, found.seq, line, name)
    except (StoreError, StoreWriteError) as error:
        return Problem(str(error))
    return None


__all__ = [
    "ImportReport",
    "NotATournamentFile",
    "export_events",
    "import_jsonl",
    "is_sqlite",
    "verify_path",
]
