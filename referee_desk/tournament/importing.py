"""Importing match records from the tables' desks into the tournament file.

Each desk keeps its own file; the organizer brings in JSON Lines records or a
desk's SQLite file. The store does the writing (``interchange.import_jsonl``):
an identical record is skipped, a longer one extends the match, a different one
is a conflict. Matches are imported one by one, so a conflict on one match is
reported and the others still come in; nothing is guessed.

A desk may record a match under its own id (``GL2026-R1-T1``). Such a record is
linked to its drawn match (``Tournament.link(..., by="import")``) when the pairs it
names (``#<pair id>`` in ``match_opened.pairs``, else the seated players, else the
pair name, as ``outcomes.side_pairs`` reads them) are registered pairs that meet in
exactly one drawn match still without a record, and no other unlinked record names
the same match, and (on the server, which knows which desk pushed it) it was recorded
at the table the match was given to (``deciding.wrong_table``). Otherwise it stays
"not in the draw", with the reason, for the organizer to link by hand.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee_desk.match.envelope import Event
from referee_desk.match.state import MatchInfo
from referee_desk.rules.seats import Seat, Side
from referee_desk.store.access import Session
from referee_desk.store.errors import ImportConflict, ImportRefused, StoreError
from referee_desk.store.interchange import is_sqlite
from referee_desk.store.jsonl import read_jsonl, write_jsonl
from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.deciding import LINKED_BY_IMPORT, wrong_table
from referee_desk.tournament.errors import OutcomeError
from referee_desk.tournament.model import Pair
from referee_desk.tournament.outcomes import _ID, _norm, side_pairs
from referee_desk.tournament.repository import Tournament


@dataclass(frozen=True, slots=True)
class Conflict:
    match_id: str
    source: str
    reason: str

    def __str__(self) -> str:
        return f"match {self.match_id} from {self.source}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Linked:
    """A record kept under a desk's own id, found to be the record of a drawn match."""

    record_id: str
    match_id: str
    pair_a: int
    pair_b: int

    def __str__(self) -> str:
        return (
            f"record {self.record_id} counts for {self.match_id} "
            f"(pairs #{self.pair_a} and #{self.pair_b})"
        )


@dataclass(slots=True)
class ImportResult:
    added: dict[str, int] = field(default_factory=dict)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    not_in_draw: list[str] = field(default_factory=list)
    #: Records under a desk's own id linked to their drawn match on this import.
    linked: list[Linked] = field(default_factory=list)
    #: record id -> why it could not be linked (for ``not_in_draw``).
    why_not_linked: dict[str, str] = field(default_factory=dict)

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
        out += [str(link) for link in self.linked]
        for m in self.not_in_draw:
            why = self.why_not_linked.get(m)
            out.append(f"not in the draw (imported, not used): {m}" + (f": {why}" if why else ""))
        return out


def _read_source(path: Path) -> tuple[dict[str, list[Event]], list[str]]:
    """Events per match from a JSON Lines file or a desk's tournament file, and the
    refusals: a match the desk locked whose lock does not verify there is not taken."""
    grouped: dict[str, list[Event]] = {}
    refused: list[str] = []
    if is_sqlite(path):
        with TournamentFile.open(path, create=False, read_only=True) as tf:
            for mid in tf.match_ids():
                seal = tf.seal_info(mid)
                if seal is not None and not seal.valid:
                    refused.append(
                        f"{path}: match {mid}: the desk's lock does not verify ({seal.reason}); "
                        "not imported"
                    )
                    continue
                grouped[mid] = tf.events(mid)
        return grouped, refused
    for item in read_jsonl(path):
        grouped.setdefault(item.event.match_id, []).append(item.event)
    return grouped, refused


def import_records(
    t: Tournament, paths: Sequence[str | Path], by: Session | None = None
) -> ImportResult:
    """Import every match record found in ``paths`` (``.jsonl`` or SQLite), match by match.

    JSON Lines files are first tried in one store import (one transaction); if that
    is refused, every match is imported on its own so the conflicts can be named. In a
    file with PINs the store takes the records only from ``by``, a signed-in organizer
    (the store owns who may append what).
    """
    drawn = {m.match_id for m in t.draw_table.matches()} | set(t.record_links.all().values())
    if paths and not any(is_sqlite(p) for p in paths):
        try:
            report = _store_import(t, list(paths), by)
        except (ImportConflict, ImportRefused):
            pass  # find out match by match below
        else:
            t.invalidate()
            ids = set(report.added) | set(report.unchanged)
            result = ImportResult(
                added=dict(report.added),
                unchanged=[m for m in report.unchanged if m not in report.added],
                not_in_draw=sorted(m for m in ids if m not in drawn),
            )
            return _link_found(t, result)
    return _link_found(t, _import_each(t, paths, drawn, by))


def link_waiting(t: Tournament) -> ImportResult:
    """Link the records already in the store that are kept under a desk's own id.

    For a tournament on the server, where desks push their records themselves: the
    same linking an import does, over every record not yet counted for a drawn match.
    """
    drawn = {m.match_id for m in t.draw_table.matches()} | set(t.record_links.all().values())
    waiting = [m for m in t.file.match_ids() if m not in drawn]
    return _link_found(t, ImportResult(unchanged=[], not_in_draw=waiting))


def _store_import(t: Tournament, paths: list[Path | str], by: Session | None):
    """The store's import (a server's records take no sign-in: ``by`` is for a file)."""
    if by is None:
        return t.file.import_jsonl(paths)
    file = t.file
    assert isinstance(file, TournamentFile), "a sign-in is a file's (the server takes none)"
    return file.import_jsonl(paths, by=by)


def _import_each(
    t: Tournament, paths: Sequence[str | Path], drawn: set[str], by: Session | None
) -> ImportResult:
    result = ImportResult()
    with tempfile.TemporaryDirectory(prefix="refdesk-import-") as tmp:
        for n, raw in enumerate(paths):
            path = Path(raw)
            try:
                grouped, refused = _read_source(path)
            except (StoreError, OSError) as error:
                result.refused.append(f"{path}: {error}")
                continue
            result.refused.extend(refused)
            taken: list[str] = []
            for k, (mid, events) in enumerate(grouped.items()):
                part = Path(tmp) / f"{n}-{k}.jsonl"
                write_jsonl(events, part)
                try:
                    report = _store_import(t, [part], by)
                except ImportConflict as error:
                    result.conflicts.append(Conflict(mid, str(path), error.reason))
                    continue
                except ImportRefused as error:
                    result.refused.append(f"{path}: match {mid}: {error.reason}")
                    continue
                taken.append(mid)
                if report.added:
                    result.added[mid] = result.added.get(mid, 0) + report.total_added
                elif mid not in result.added and mid not in result.unchanged:
                    result.unchanged.append(mid)
                if mid not in drawn and mid not in result.not_in_draw:
                    result.not_in_draw.append(mid)
            if taken and is_sqlite(path):
                _keep_seals(t, path, taken, result)
    t.invalidate()
    return result


def _keep_seals(t: Tournament, path: Path, mids: list[str], result: ImportResult) -> None:
    """The desk's locks of the matches taken from its file come along (the store checks
    each, in the desk's file and over the record here: ``Seals.import_from``)."""
    kept = t.file
    if not isinstance(kept, TournamentFile):
        result.refused.append(
            f"{path}: locks not kept: a server takes a desk's locks from its push"
        )
        return
    try:
        with TournamentFile.open(path, create=False, read_only=True) as source:
            for mid in mids:
                try:
                    kept.seals.import_from(source.seals, mid)
                except StoreError as error:
                    result.refused.append(f"{path}: match {mid}: lock not kept: {error}")
    except (StoreError, OSError) as error:
        result.refused.append(f"{path}: locks not kept: {error}")


# -- records under a desk's own id ------------------------------------------------------


def _side_text(side: str) -> str:
    return {"NS": "N–S", "EW": "E–W"}.get(side, side)


def opening_info(events: Sequence[Event]) -> MatchInfo | None:
    """Pairs and seats from a record's ``match_opened`` (without replaying the record)."""
    if not events or events[0].type != "match_opened":
        return None
    p = events[0].payload
    try:
        return MatchInfo(
            tournament=str(p.get("tournament", "")),
            round=str(p.get("round", "")),
            table=str(p.get("table", "")),
            pairs={Side(k): str(v) for k, v in (p.get("pairs") or {}).items()},
            seats={Seat(k): str(v) for k, v in (p.get("seats") or {}).items()},
            referee=str(p.get("referee", "")),
        )
    except ValueError:
        return None


def record_ruleset_name(events: Sequence[Event]) -> str:
    """The preset a record was opened with (``guilin-2009`` when the opening names none)."""
    ruleset = events[0].payload.get("ruleset") if events else None
    name = ruleset.get("name") if isinstance(ruleset, dict) else None
    return str(name or "guilin-2009")


def identify_pairs(info: MatchInfo, pairs: Sequence[Pair]) -> tuple[int, int] | str:
    """The registered pairs (N–S, E–W) a record names, or why they cannot be told.

    Each side is read as ``outcomes.side_pairs`` reads it: ``#<pair id>`` in its label,
    else the two players seated on that side, else the pair's name. A side matching no
    pair, or two pairs (same names), is not guessed.
    """
    by_id = {p.pair_id for p in pairs}
    found: dict[str, int] = {}
    for side in (Side.NS, Side.EW):
        label = info.pairs.get(side, "")
        seated = sorted(name for seat, name in info.seats.items() if seat.side is side)
        said = f"{_side_text(side.value)} “{label}” ({', '.join(seated) or 'no players'})"
        m = _ID.match(label or "")
        if m and int(m.group(1)) in by_id:
            found[side.value] = int(m.group(1))
            continue
        matches = [pair.pair_id for pair in pairs if _reads_as(seated, label, pair)]
        if not matches:
            return f"{said} is no registered pair"
        if len(matches) > 1:
            return f"{said} could be pair " + " or ".join(f"#{x}" for x in matches)
        found[side.value] = matches[0]
    if found["NS"] == found["EW"]:
        return f"both sides read as pair #{found['NS']}"
    return found["NS"], found["EW"]


def _reads_as(seated: Sequence[str], label: str, pair: Pair) -> bool:
    """``side_pairs`` applied to one side and one pair (seated players, else the name)."""
    players = {_norm(name) for name in seated}
    return players == {_norm(pair.player1), _norm(pair.player2)} or _norm(label) == _norm(pair.name)


def _waiting_matches(t: Tournament) -> dict[frozenset[int], list[tuple[str, int, int]]]:
    """Drawn matches whose two pairs are known and which have no record, by their pairs."""
    recorded = set(t.file.match_ids()) | set(t.record_links.all())
    out: dict[frozenset[int], list[tuple[str, int, int]]] = {}
    for s in t.state().matches:
        mid = s.match.match_id
        if s.pair_a is None or s.pair_b is None or mid in recorded:
            continue
        out.setdefault(frozenset((s.pair_a, s.pair_b)), []).append((mid, s.pair_a, s.pair_b))
    return out


def _link_found(t: Tournament, result: ImportResult) -> ImportResult:
    """Link the records under a desk's own id whose drawn match is certain (see module doc).

    Every unlinked record of the file is considered, not only this import's, so the
    answer does not depend on the order of imports; linking decides matches, which may
    make later matches' pairs known, so this runs in passes until nothing more links.
    """
    if not t.drawn or t.file.read_only:
        for m in result.not_in_draw:
            result.why_not_linked[m] = "no draw yet" if not t.drawn else "the file is read-only"
        return result
    drawn = {m.match_id for m in t.draw_table.matches()}
    pairs = t.pairs.all()
    pm = {p.pair_id: p for p in pairs}
    named: dict[str, tuple[int, int] | str] = {}
    infos: dict[str, MatchInfo] = {}
    wrong_rules: dict[str, str] = {}
    while True:
        linked_records = set(t.record_links.all().values())
        waiting = [m for m in t.file.match_ids() if m not in drawn and m not in linked_records]
        if not waiting:
            break
        open_matches = _waiting_matches(t)
        claims: dict[str, list[str]] = {}
        why: dict[str, str] = {}
        who: dict[str, str] = {}
        for rid in waiting:
            if rid not in named:
                first = t.file.events(rid)[:1]
                info = opening_info(first)
                played = record_ruleset_name(first)
                if info is None:
                    named[rid] = "the record has no readable match_opened event"
                elif played != t.ruleset.name:
                    named[rid] = ""
                    wrong_rules[rid] = (
                        f"it was played under the ruleset {played}, the tournament's is "
                        f"{t.ruleset.name} (frozen at the draw)"
                    )
                else:
                    infos[rid] = info
                    named[rid] = identify_pairs(info, pairs)
            ident = named[rid]
            if isinstance(ident, str):
                why[rid] = wrong_rules.get(rid) or f"cannot tell its pairs: {ident}"
                continue
            found = open_matches.get(frozenset(ident), [])
            low, high = sorted(ident)
            who[rid] = f"pairs #{low} and #{high}"
            if not found:
                why[rid] = f"{who[rid]} meet in no drawn match still without a record"
            elif len(found) > 1:
                why[rid] = f"{who[rid]} meet in " + " and ".join(m for m, _, _ in found)
            elif (
                elsewhere := wrong_table(t.file, rid, found[0][0], t.draw_table.matches())
            ) is not None:
                why[rid] = elsewhere  # issue 18 item 9: one table never decides another's
            else:
                claims.setdefault(found[0][0], []).append(rid)
        progressed = False
        for mid, rids in claims.items():
            _, a, b = next(x for xs in open_matches.values() for x in xs if x[0] == mid)
            if len(rids) > 1:
                for rid in rids:
                    others = ", ".join(r for r in rids if r != rid)
                    why[rid] = f"{who[rid]} of {mid} are also named by record {others}"
                continue
            rid = rids[0]
            try:
                side_pairs(infos[rid], pm[a], pm[b])  # the outcome will read it
            except OutcomeError as error:
                why[rid] = str(error)
                continue
            t.link(rid, mid, by=LINKED_BY_IMPORT)
            result.linked.append(Linked(rid, mid, a, b))
            progressed = True
        if not progressed:
            for m in result.not_in_draw:
                if m in why:
                    result.why_not_linked[m] = why[m]
            break
    done = {x.record_id for x in result.linked}
    result.not_in_draw = [m for m in result.not_in_draw if m not in done]
    t.invalidate()
    return result
