"""Importing match records from the tables' desks into the tournament file.

Each desk keeps its own file; the organizer brings in JSON Lines records or a
desk's SQLite file. The store does the writing (``interchange.import_jsonl``):
an identical record is skipped, a longer one extends the match, a different one
is a conflict. Matches are imported one by one, so a conflict on one match is
reported and the others still come in; nothing is guessed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee_desk.match.envelope import Event
from referee_desk.store.errors import ImportConflict, ImportRefused, StoreError
from referee_desk.store.interchange import import_jsonl, is_sqlite
from referee_desk.store.jsonl import read_jsonl, write_jsonl
from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.repository import Tournament


@dataclass(frozen=True, slots=True)
class Conflict:
    match_id: str
    source: str
    reason: str

    def __str__(self) -> str:
        return f"match {self.match_id} from {self.source}: {self.reason}"


@dataclass(slots=True)
class ImportResult:
    added: dict[str, int] = field(default_factory=dict)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    not_in_draw: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.refused

    def lines(self) -> list[str]:
        out = [
            f"added {sum(self.added.values())} events in {len(self.added)} matches; "
            f"{len(self.unchanged)} matches unchanged"
        ]
        out += [f"CONFLICT {c}" for c in self.conflicts]
        out += [f"REFUSED {r}" for r in self.refused]
        out += [f"not in the draw (imported, not used): {m}" for m in self.not_in_draw]
        return out


def _read_source(path: Path) -> dict[str, list[Event]]:
    """Events per match from a JSON Lines file or a desk's tournament file."""
    grouped: dict[str, list[Event]] = {}
    if is_sqlite(path):
        with TournamentFile.open(path, create=False, read_only=True) as tf:
            for mid in tf.match_ids():
                grouped[mid] = tf.events(mid)
        return grouped
    for item in read_jsonl(path):
        grouped.setdefault(item.event.match_id, []).append(item.event)
    return grouped


def import_records(t: Tournament, paths: Sequence[str | Path]) -> ImportResult:
    """Import every match record found in ``paths`` (``.jsonl`` or SQLite), match by match.

    JSON Lines files are first tried in one store import (one transaction); if that
    is refused, every match is imported on its own so the conflicts can be named.
    """
    drawn = {m.match_id for m in t.matches()} | set(t.links().values())
    if paths and not any(is_sqlite(p) for p in paths):
        try:
            report = import_jsonl(t.file, list(paths))
        except (ImportConflict, ImportRefused):
            pass  # find out match by match below
        else:
            t.invalidate()
            ids = set(report.added) | set(report.unchanged)
            return ImportResult(
                added=dict(report.added),
                unchanged=[m for m in report.unchanged if m not in report.added],
                not_in_draw=sorted(m for m in ids if m not in drawn),
            )
    return _import_each(t, paths, drawn)


def _import_each(t: Tournament, paths: Sequence[str | Path], drawn: set[str]) -> ImportResult:
    result = ImportResult()
    with tempfile.TemporaryDirectory(prefix="refdesk-import-") as tmp:
        for n, raw in enumerate(paths):
            path = Path(raw)
            try:
                grouped = _read_source(path)
            except (StoreError, OSError) as error:
                result.refused.append(f"{path}: {error}")
                continue
            for k, (mid, events) in enumerate(grouped.items()):
                part = Path(tmp) / f"{n}-{k}.jsonl"
                write_jsonl(events, part)
                try:
                    report = import_jsonl(t.file, [part])
                except ImportConflict as error:
                    result.conflicts.append(Conflict(mid, str(path), error.reason))
                    continue
                except ImportRefused as error:
                    result.refused.append(f"{path}: match {mid}: {error.reason}")
                    continue
                if report.added:
                    result.added[mid] = result.added.get(mid, 0) + report.total_added
                elif mid not in result.added and mid not in result.unchanged:
                    result.unchanged.append(mid)
                if mid not in drawn and mid not in result.not_in_draw:
                    result.not_in_draw.append(mid)
    t.invalidate()
    return result
