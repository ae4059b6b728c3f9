"""``verify``: is a tournament file or a JSON Lines record intact? One open, one report.

``verify_report(path)`` opens the record once and returns a ``VerifyReport``: the first
``Problem`` (or None), and for an intact tournament file which key signed what and each
match's head, so ``referee-desk verify`` never opens the file again. Every check itself
is in ``checks.py``; ``against`` (a tournament file whose locked matches the record must
agree with) is the one other file opened.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee_desk.match.envelope import Event
from referee_desk.store.checks import Problem, chain_problem, match_problem
from referee_desk.store.errors import ImportRefused, StoreError, StoreWriteError
from referee_desk.store.jsonl import group_by_match, read_jsonl
from referee_desk.store.opening import is_sqlite
from referee_desk.store.tournament_file import TournamentFile

#: (match, events, head hash, locked?) of one match.
Head = tuple[str, int, str, bool]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify`` found: the first problem, or (intact) who signed what and the heads."""

    problem: Problem | None
    signing: tuple[str, ...] = ()
    heads: tuple[Head, ...] = ()

    @property
    def intact(self) -> bool:
        return self.problem is None


def _looks_like_jsonl(path: str | os.PathLike[str]) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"{") or Path(path).suffix.lower() in (".jsonl", ".ndjson")


def verify_report(
    path: str | os.PathLike[str],
    *,
    against: str | os.PathLike[str] | None = None,
    key: str | None = None,
) -> VerifyReport:
    """Check a ``.jsonl`` record or a tournament file, opening it once.

    Per match: the hash chain and that every event is acceptable (schema and replay);
    for a tournament file also SQLite's integrity, the signed seals of locked matches,
    the heads journal and the guard. ``against`` (a tournament file) also compares each
    locked match's head hash, so a log rewritten with a recomputed chain is exposed.
    ``key`` (a fingerprint, as on the match report) must be the tournament file's key.
    """
    name = os.fspath(path)
    if not Path(path).exists():
        return VerifyReport(Problem("no such file", file=name))
    sqlite = is_sqlite(path)
    if not sqlite and not _looks_like_jsonl(path):
        return VerifyReport(
            Problem(
                "neither a Referee Desk tournament file (SQLite) nor a JSON Lines match record",
                file=name,
            )
        )
    signing: tuple[str, ...] = ()
    heads: tuple[Head, ...] = ()
    lines: dict[str, list[int] | None]
    events: dict[str, list[Event]]
    if sqlite:
        try:
            with TournamentFile.open(path, create=False, read_only=True, check=False) as tf:
                events = {}
                found = tf.checks.verify(keep=events if against else None)
                if found is None and key is not None:
                    wrong = tf.checks.key_problem(key)
                    found = Problem(wrong) if wrong else None
                if found is not None:
                    return VerifyReport(found)
                signing = tuple(signing_lines(tf))
                heads = tuple(
                    (m, *tf.head(m), tf.seals.latest(m) is not None) for m in tf.match_ids()
                )
        except (StoreError, StoreWriteError, sqlite3.Error) as error:
            return VerifyReport(Problem(str(error)))
        lines = {m: None for m in events}
    else:
        try:
            items = read_jsonl(path)
        except ImportRefused as error:
            return VerifyReport(
                Problem(error.reason, error.match_id, error.seq, file=error.file, line=error.line)
            )
        grouped = group_by_match(items)
        for match_id, group in grouped.items():
            evs = [i.event for i in group]
            found = match_problem(match_id, evs, [i.line for i in group])
            if found is not None:
                return VerifyReport(
                    Problem(found.reason, found.match_id, found.seq, found.line, name)
                )
        events = {m: [i.event for i in g] for m, g in grouped.items()}
        lines = {m: [i.line for i in g] for m, g in grouped.items()}
        heads = tuple((m, len(g), g[-1].event.hash, False) for m, g in grouped.items())
    if against is not None:
        problem = _against(name, events, lines, against)
        if problem is not None:
            return VerifyReport(problem)
    return VerifyReport(None, signing, heads)


def verify_path(
    path: str | os.PathLike[str],
    *,
    against: str | os.PathLike[str] | None = None,
    key: str | None = None,
) -> Problem | None:
    """The first problem of a ``.jsonl`` record or a tournament file, or None when intact."""
    return verify_report(path, against=against, key=key).problem


def signing_lines(tf: TournamentFile) -> list[str]:
    """Which key signed what in an open tournament file (lines for ``verify``)."""
    fingerprint = tf.key_fingerprint
    lines = [f"file key {fingerprint or 'none (nothing signed yet)'}"]
    sealed: dict[str, list[str]] = {}
    imported: dict[tuple[str, str], list[str]] = {}
    for match_id, seal in tf.seals.all().items():
        if seal.origin_tournament is None:
            sealed.setdefault(seal.key_fingerprint or "?", []).append(match_id)
        else:
            where = (seal.origin_tournament, seal.key_fingerprint or "?")
            imported.setdefault(where, []).append(match_id)
    for info in tf.seals.signers():
        matches = sealed.get(info.fingerprint, [])
        what = f"locked {', '.join(matches)}" if matches else "no locks"
        trust = "the file's key" if info.fingerprint == fingerprint else "endorsed"
        lines.append(f"key {info.fingerprint} ({info.label}, {trust}): {what}")
    for (origin, key), matches in sorted(imported.items()):
        kept = tf.signatures.imported_signer(origin, key)
        label = kept[1] if kept else "?"
        lines.append(
            f"key {key} ({label}, imported with desk file {origin}): locked {', '.join(matches)}"
        )
    if not tf.witness.exists():
        lines.append(f"note: no heads journal ({tf.witness.path.name}) beside the file")
    return lines


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
            own = tf.checks.verify(replay=False)
            if own is not None:
                return Problem(f"the tournament file itself is not intact: {own}")
            for match_id, evs in events.items():
                if tf.seals.latest(match_id) is None:
                    if tf.head(match_id)[0] == 0:
                        continue
                    mine = tf.events(match_id)
                    for n, (a, b) in enumerate(zip(evs, mine, strict=False)):
                        if a.hash != b.hash:
                            known_lines = lines.get(match_id)
                            line: int | None = known_lines[n] if known_lines else None
                            return Problem(
                                "differs from the tournament file's record",
                                match_id,
                                a.seq,
                                line,
                                name,
                            )
                    continue
                found = tf.checks.seal_problem(match_id, evs)
                if found is not None:
                    line = None
                    known: Sequence[int] = lines.get(match_id) or []
                    if found.seq is not None and 0 < found.seq <= len(known):
                        line = known[found.seq - 1]
                    return Problem(found.reason, match_id, found.seq, line, name)
    except (StoreError, StoreWriteError) as error:
        return Problem(str(error))
    return None


__all__ = ["Problem", "VerifyReport", "chain_problem", "verify_path", "verify_report"]
