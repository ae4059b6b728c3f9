"""Store benchmark (not collected by pytest): ``uv run python tests/bench/bench_store.py``.

Prints medians for: appending 10,000 events one transaction each through
``TournamentFile.append`` (validation, sealing, commit, heads-journal line) beside bare
sqlite3 inserts of the same rows with the same durability (WAL, synchronous=FULL, one
transaction per row: each event is on disk when its call returns); and verifying a
100,000-event tournament file. Target (issue 9): append at least half the bare rate.

The heads journal (``store/witness.py``) costs no second fsync per event: its line is
written (into the kernel, which a killed process cannot lose) before ``append`` returns
and fsynced in groups on a background thread (at most 0.5 s / 64 lines later; those
fsyncs run during the timed loop and are counted). For reference the previous design is
printed too: bare inserts plus one fsynced journal line each (two fsyncs per event).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from referee_desk.store import TournamentFile
from referee_desk.store.interchange import verify_path
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.schema import SCHEMA_V0
from referee_desk.store.synthetic import draft, sealed_match


def bench_append(folder: Path, events: int, per_match: int) -> float:
    path = folder / f"append-{time.monotonic_ns()}.sqlite"
    drafts = [draft(f"r1-t{m}", i) for m in range(events // per_match) for i in range(per_match)]
    with TournamentFile.open(path) as tf:
        start = time.perf_counter()
        for item in drafts:
            tf.append(item)
        elapsed = time.perf_counter() - start
    return events / elapsed


def bench_bare(folder: Path, events: int, per_match: int) -> float:
    path = folder / f"bare-{time.monotonic_ns()}.sqlite"
    rows = [
        to_row(e) for m in range(events // per_match) for e in sealed_match(f"r1-t{m}", per_match)
    ]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.executescript(SCHEMA_V0)
    start = time.perf_counter()
    for row in rows:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(INSERT_SQL, row)
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return events / elapsed


def bench_bare_witnessed(folder: Path, events: int, per_match: int) -> float:
    """Bare inserts plus one fsynced journal line each (the previous design, for reference)."""
    path = folder / f"barew-{time.monotonic_ns()}.sqlite"
    rows = [
        to_row(e) for m in range(events // per_match) for e in sealed_match(f"r1-t{m}", per_match)
    ]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.executescript(SCHEMA_V0)
    fd = os.open(f"{path}.heads", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    start = time.perf_counter()
    for row in rows:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(INSERT_SQL, row)
        conn.execute("COMMIT")
        os.write(fd, f"E\t{row[1]}\t{row[8]}\t{row[0]}\n".encode())
        os.fdatasync(fd)
    elapsed = time.perf_counter() - start
    os.close(fd)
    conn.close()
    return events / elapsed


def build_big(folder: Path, matches: int, per_match: int) -> Path:
    path = folder / "big.sqlite"
    with TournamentFile.open(path) as tf, tf.transaction() as conn:
        for m in range(matches):
            conn.executemany(
                INSERT_SQL, [to_row(e) for e in sealed_match(f"r{m // 8}-t{m}", per_match)]
            )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--per-match", type=int, default=250)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--verify-events", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        appended, bare, witnessed = [], [], []
        for _ in range(args.runs):  # interleaved, so all see the same disk conditions
            bare.append(bench_bare(folder, args.events, args.per_match))
            witnessed.append(bench_bare_witnessed(folder, args.events, args.per_match))
            appended.append(bench_append(folder, args.events, args.per_match))
        a, b = statistics.median(appended), statistics.median(bare)
        w = statistics.median(witnessed)
        print(f"append {args.events} events, one transaction each ({args.per_match}/match)")
        print(f"  TournamentFile.append : median {a:8.0f} events/s  ({1000 / a:.3f} ms/event)")
        print(f"  bare sqlite3 INSERT   : median {b:8.0f} events/s  ({1000 / b:.3f} ms/event)")
        print(
            f"  bare + fsynced journal: median {w:8.0f} events/s  ({1000 / w:.3f} ms/event)"
            "  (two fsyncs per event: the previous design)"
        )
        print(f"  ratio                 : {a / b:.2f} of bare (target >= 0.50)")
        print(f"  vs bare + journal     : {a / w:.2f} of bare + fsynced journal")
        per_match = 1000
        big = build_big(folder, args.verify_events // per_match, per_match)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            problem = verify_path(big)
            times.append(time.perf_counter() - start)
            assert problem is None, problem
        print(
            f"verify a {args.verify_events}-event tournament file (chains + replay + integrity):"
            f" median {statistics.median(times):.2f} s"
        )
        opens = []
        for _ in range(args.runs):
            start = time.perf_counter()
            TournamentFile.open(big, create=False).close()
            opens.append(time.perf_counter() - start)
        print(
            f"open the same file (integrity check + every chain, as the desk does):"
            f" median {statistics.median(opens):.2f} s"
        )


if __name__ == "__main__":
    main()
