"""Benchmark (not collected by pytest): one desk entry on a 2,000-event match.

Run: ``uv run python tests/bench/bench_desk_entry.py [--events 2000] [--entries 30]``.

Issue 17's row: "one desk entry on a 2,000-event match: 144–325 ms, 4 full replays →
one fold + one insert (≤ 1.5× a bare durable insert + a fold)". The entry is the
desk's own path (``MatchSession.submit``: draft, fold into the kept replayer, the
store's acceptance check, the durable append). The bare ceiling is, for the same
event: one ``Replayer.apply`` + ``state()`` and one sqlite3 INSERT in its own
transaction with the store's durability (WAL, synchronous=FULL). Entries and bare
runs are interleaved; medians are printed with their ratio.

The preview line (what an entry dialog does on every keystroke, ``MatchSession.preview``)
compares, interleaved, the old preview (the whole record replayed, then the draft
folded) with the session's (the draft folded into a fork of its preview base); the
first preview of each round, which catches the base up with the entries written, is
shown apart. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_replay import build

from referee_desk.match import new_event, replayer_for, seal, validate_schema
from referee_desk.match.envelope import Event
from referee_desk.store import TournamentFile
from referee_desk.ui.record import StoreMatchRecord
from referee_desk.ui.session import MatchSession

REFEREE = "陈裁判"


class Clock:
    """Event times after the built match's last one, 5 s apart."""

    def __init__(self, after: str) -> None:
        self.at = datetime.fromisoformat(after.replace("Z", "+00:00")).astimezone(UTC)

    def now(self) -> datetime:
        self.at += timedelta(seconds=5)
        return self.at


def bare_ceiling(events: list[Event], folder: Path, n: int) -> list[float]:
    """One fold (apply + state) and one durable sqlite3 insert per entry."""
    folder.mkdir()
    fold = replayer_for(events)
    conn = sqlite3.connect(folder / "bare.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE events (match_id TEXT, seq INTEGER, body TEXT)")
    last = events[-1]
    times = []
    for i in range(n):
        draft = Event(
            last.match_id, last.seq + 1, "note", last.recorded_at, last.clock_ms,
            last.referee, {"text": f"bench {i}"},
        ).sealed(last.hash)  # fmt: skip
        t0 = time.perf_counter()
        fold.apply(draft)
        fold.state(datetime.now(UTC))
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO events VALUES (?, ?, ?)",
            (draft.match_id, draft.seq, json.dumps(draft.to_dict(), ensure_ascii=False)),
        )
        conn.execute("COMMIT")
        times.append(time.perf_counter() - t0)
        last = draft
    conn.close()
    return times


def desk_entries(session: MatchSession, n: int) -> list[float]:
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        session.submit("note", {"text": f"备注 {i}"})
        times.append(time.perf_counter() - t0)
    return times


def old_preview(session: MatchSession, kind: str, payload: dict[str, str]) -> None:
    """The preview before the fork: the whole record replayed, then the draft folded."""
    chain = list(session.events)
    fold = replayer_for(chain)
    now = session.now()
    draft = new_event(fold, kind, payload, session.referee, now=now, match_id=session.match_id)
    validate_schema(draft.to_dict())
    fold.apply(seal(chain, draft))
    fold.state(now)


def previews(session: MatchSession, n: int) -> tuple[float, list[float], list[float]]:
    """The first preview (catching the base up), then ``n`` old and new, interleaved."""
    t0 = time.perf_counter()
    session.preview("note", {"text": "预览"})
    first = time.perf_counter() - t0
    old, new = [], []
    for i in range(n):
        t0 = time.perf_counter()
        old_preview(session, "note", {"text": f"预览 {i}"})
        t1 = time.perf_counter()
        session.preview("note", {"text": f"预览 {i}"})
        t2 = time.perf_counter()
        old.append(t1 - t0)
        new.append(t2 - t1)
    return first, old, new


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--entries", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance() or QCoreApplication([])  # the session is a QObject
    events = build(args.events)
    print(f"built {len(events)} events ({sum(e.type == 'trick' for e in events)} tricks)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        jsonl = folder / "match.jsonl"
        with jsonl.open("w", encoding="utf-8") as out:
            for event in events:
                out.write(json.dumps(event.to_dict(), ensure_ascii=False) + "\n")
        desk, bare = [], []
        firsts: list[float] = []
        old: list[float] = []
        new: list[float] = []
        with TournamentFile.open(folder / "desk.sqlite") as tf:
            tf.import_jsonl([jsonl])
            t0 = time.perf_counter()
            session = MatchSession(
                StoreMatchRecord(tf, events[0].match_id),
                REFEREE,
                clock=Clock(events[-1].recorded_at).now,
            )
            print(f"open the match at the desk: {(time.perf_counter() - t0) * 1000:.1f} ms")
            for round_ in range(args.rounds):  # interleaved
                desk += desk_entries(session, args.entries)
                bare += bare_ceiling(events, folder / f"r{round_}", args.entries)
                first, o, n = previews(session, args.entries)
                firsts.append(first)
                old += o
                new += n
    d, b = statistics.median(desk), statistics.median(bare)
    print(
        f"desk entry (note) on a {len(events)}-event match: median {d * 1000:.2f} ms "
        f"over {len(desk)} entries (max {max(desk) * 1000:.1f})"
    )
    print(f"bare fold + durable insert: median {b * 1000:.2f} ms over {len(bare)}")
    print(f"ratio desk / bare: {d / b:.2f}x (goal <= 1.5x)")
    o, n = statistics.median(old), statistics.median(new)
    print(
        f"preview (note): before (full replay) median {o * 1000:.2f} ms, after (fork) "
        f"median {n * 1000:.3f} ms over {len(new)}: {o / n:.0f}x faster; first preview of "
        f"a round (base caught up with {args.entries} entries) median "
        f"{statistics.median(firsts[1:] or firsts) * 1000:.2f} ms; the very first (base "
        f"replayed) {firsts[0] * 1000:.1f} ms"
    )
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
