"""Store benchmark (not collected by pytest): ``uv run python tests/bench/bench_store.py``.

Each measure beside its bare ceiling, interleaved run by run (same disk, same load),
medians and ratios printed, never asserted (issue 17's performance rows):

- **append**: 10,000 events one transaction each through ``TournamentFile.append``
  (validation, sealing, commit, heads-journal line) vs bare sqlite3 inserts of the same
  rows with the same durability (WAL, synchronous=FULL, one transaction per row).
  Goal: at least 0.5 of bare.
- **open**: ``TournamentFile.open`` of a 100,000-event file (100 matches, each locked)
  vs bare ``PRAGMA integrity_check`` + ``SELECT`` of every event + one sha256 and one
  ``json.loads`` per event. Goal: at most 1.5x bare.
- **verify**: ``referee-desk verify``'s check (``verify_report``) of the same file vs
  that bare read plus one Ed25519 check per seal. Goal: at most 1.5x bare. (Verify
  checks more than bare does: every event's schema and replay; bare is the floor.)
- **import**: importing a JSON Lines record of ``--import-events`` events into a new
  file, in a fresh process: seconds and peak memory (ru_maxrss). Goal for 10^6
  events: streams, < 300 MB.

The heads journal (``store/witness.py``) costs no second fsync per event: its line is
written before ``append`` returns and fsynced in groups on a background thread.
``--only append,open,verify,import`` picks measures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from referee_desk.store import TournamentFile
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


def build_big(folder: Path, matches: int, per_match: int) -> Path:
    """A file of ``matches`` x ``per_match`` events, every match locked (one seal each)."""
    path = folder / "big.sqlite"
    with TournamentFile.open(path) as tf:
        with tf.transaction() as conn:
            for m in range(matches):
                rows = [to_row(e) for e in sealed_match(f"r{m // 8}-t{m}", per_match)]
                conn.executemany(INSERT_SQL, rows)
        tf.witness.rebuild(tf.tournament_id, tf.heads(), {})
        for match_id in tf.match_ids():
            _lock(tf, match_id)
    return path


def _lock(tf: TournamentFile, match_id: str) -> None:
    locker = getattr(tf, "lock_match", None)
    if locker is not None:
        locker(match_id, "王裁判")
    else:
        tf.seals.lock(match_id, "王裁判")


def bare_read(path: Path) -> int:
    """The floor of opening: integrity check, every event read, hashed and its payload parsed."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    count = 0
    for prev, canonical, digest, payload in conn.execute(
        "SELECT prev_hash, canonical, hash, payload FROM events ORDER BY match_id, seq"
    ):
        assert hashlib.sha256((prev + canonical).encode()).hexdigest() == digest
        json.loads(payload)
        count += 1
    conn.close()
    return count


def bare_verify(path: Path) -> int:
    """``bare_read`` plus one Ed25519 signature check per seal."""
    count = bare_read(path)
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    keys = dict(conn.execute("SELECT fingerprint, public_key FROM signers"))
    tid = conn.execute("SELECT value FROM meta WHERE key = 'tournament_id'").fetchone()[0]
    for match_id, seq, head, signature, at, by, fingerprint in conn.execute(
        "SELECT match_id, head_seq, head_hash, signature, sealed_at, sealed_by, key_fingerprint"
        " FROM match_seals"
    ):
        message = f"referee-desk seal v2\n{tid}\n{match_id}\n{seq}\n{head}\n{at}\n{by}".encode()
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(keys[fingerprint]))
        key.verify(bytes.fromhex(signature), message)
    conn.close()
    return count


def run_verify(path: Path) -> None:
    try:
        from referee_desk.store.verify import verify_report
    except ImportError:  # before issue 17: three opens (verify, summary, heads)
        from referee_desk.store.interchange import heads, signing_summary, verify_path

        assert verify_path(path) is None
        signing_summary(path)
        heads(path)
        return
    report = verify_report(path)
    assert report.problem is None, report.problem


IMPORTER = """
import resource, sys, time
from referee_desk.store import TournamentFile
from referee_desk.store.interchange import import_jsonl
start = time.perf_counter()
with TournamentFile.open(sys.argv[1]) as tf:
    report = import_jsonl(tf, sys.argv[2:])
assert report.total_added > 0
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

#: Events per JSON Lines file (a file holds at most 256 MB: 10^6 events are 10 files).
PER_FILE = 100_000


def bench_import(folder: Path, events: int, per_match: int) -> tuple[float, float]:
    """(seconds, peak MB) of importing ``events`` events into a new file, fresh process."""
    sources = []
    for part in range((events + PER_FILE - 1) // PER_FILE):
        source = folder / f"import-{events}-{part}.jsonl"
        sources.append(source)
        if source.exists():
            continue
        first = part * PER_FILE // per_match
        with open(source, "w", encoding="utf-8") as out:
            for m in range(first, first + min(PER_FILE, events - part * PER_FILE) // per_match):
                for event in sealed_match(f"r{m // 8}-t{m}", per_match):
                    out.write(json.dumps(event.to_dict(), ensure_ascii=False) + "\n")
    target = folder / f"imported-{time.monotonic_ns()}.sqlite"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", IMPORTER, str(target), *map(str, sources)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    seconds, peak_kb = done.stdout.split()
    target.unlink()
    return float(seconds), int(peak_kb) / 1024


def timed(work, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process): on a shared machine the CPU ratio
    is the steadier one; both are printed."""
    start, cpu = time.perf_counter(), time.process_time()
    work(*args)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--per-match", type=int, default=250)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--verify-events", type=int, default=100_000)
    parser.add_argument("--import-events", type=int, default=100_000)
    parser.add_argument("--import-runs", type=int, default=0, help="default: --runs")
    parser.add_argument("--only", default="append,open,verify,import")
    args = parser.parse_args()
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["REFEREE_DESK_CONFIG_DIR"] = str(folder / "config")  # a throwaway desk key
        if "append" in only:
            appended, bare = [], []
            for _ in range(args.runs):
                bare.append(bench_bare(folder, args.events, args.per_match))
                appended.append(bench_append(folder, args.events, args.per_match))
            a, b = statistics.median(appended), statistics.median(bare)
            print(f"append {args.events} events, one transaction each ({args.per_match}/match)")
            print(f"  TournamentFile.append : median {a:8.0f} events/s ({1000 / a:.3f} ms/event)")
            print(f"  bare sqlite3 INSERT   : median {b:8.0f} events/s ({1000 / b:.3f} ms/event)")
            print(f"  ratio                 : {a / b:.2f} of bare (goal >= 0.50)")
        if only & {"open", "verify"}:
            per_match = 1000
            big = build_big(folder, args.verify_events // per_match, per_match)
            opens, bare_opens, verifies, bare_verifies = [], [], [], []
            for _ in range(args.runs):
                if "open" in only:
                    bare_opens.append(timed(bare_read, big))
                    opens.append(timed(lambda: TournamentFile.open(big, create=False).close()))
                if "verify" in only:
                    bare_verifies.append(timed(bare_verify, big))
                    verifies.append(timed(run_verify, big))
            for name, mine, bare_, goal in (
                ("open", opens, bare_opens, "integrity + SELECT + sha256 + json"),
                ("verify", verifies, bare_verifies, "bare read + one Ed25519 check per seal"),
            ):
                if mine:
                    m, b = (statistics.median(t[0] for t in x) for x in (mine, bare_))
                    mc, bc = (statistics.median(t[1] for t in x) for x in (mine, bare_))
                    print(
                        f"{name} a {args.verify_events}-event file"
                        f" ({args.verify_events // per_match} matches, all locked)"
                    )
                    print(f"  desk : median {m:.2f} s   bare ({goal}): median {b:.2f} s")
                    print(f"  ratio: {m / b:.2f}x bare wall, {mc / bc:.2f}x CPU (goal <= 1.5x)")
        if "import" in only:
            runs = args.import_runs or args.runs
            results = [bench_import(folder, args.import_events, 1000) for _ in range(runs)]
            seconds = statistics.median(r[0] for r in results)
            peak = max(r[1] for r in results)
            print(f"import {args.import_events} events (JSON Lines, fresh process)")
            print(f"  median {seconds:.1f} s, peak memory {peak:.0f} MB (goal < 300 MB at 10^6)")


if __name__ == "__main__":
    main()
