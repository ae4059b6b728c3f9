"""What deciding which records count costs the organizer's view (issue 18 items 9, 12).

Not collected by pytest: ``uv run python tests/bench/bench_vouch.py [--matches 64]``.

A private cluster, ``server init`` with 3 tables, claims open, N records of 200 events
each pushed by the desks (raw, as a desk's push inserts them), half of them locked by a
registered key. Then, median of 7 each: ``ServerRecords.heads()`` + ``vouched`` for every
match (what ``deciding.decide`` adds to each refresh) against ``heads()`` alone (what
was read before), and the ratio. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

SERVER_TESTS = Path(__file__).resolve().parents[1] / "server"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--events", type=int, default=200)
    args = parser.parse_args()
    sys.path.insert(0, str(SERVER_TESTS))
    import psycopg
    from pg_cluster import start_cluster

    from referee_desk.store.postgres.init import init_server
    from referee_desk.store.postgres.seals import push_seal, register_signer
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import INSERT_SQL
    from referee_desk.store.postgres.tournament_records import ServerRecords
    from referee_desk.store.synthetic import sealed_match

    cluster = start_cluster()
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute('CREATE DATABASE "vouch"')
        admin = cluster.url("vouch")
        report = init_server(admin, ["1号桌", "2号桌", "3号桌"])
        organizer_url = report.organizer.url(admin)
        desk_url = report.desks[0].url(admin)
        with TournamentServer.open(organizer_url) as organizer:
            organizer.set_claims(True)
        with psycopg.connect(desk_url, autocommit=True) as desk:
            for n in range(args.matches):
                events = sealed_match(f"R1-T{n:03d}", args.events)
                desk.execute("SELECT referee_desk.claim_match(%s)", (events[0].match_id,))
                with desk.transaction(), desk.cursor() as cur:
                    cur.executemany(
                        INSERT_SQL,
                        [
                            (e.match_id, e.seq, e.prev_hash, e.hash, e.canonical_json().decode())
                            for e in events
                        ],
                    )
        _lock_half(organizer_url, desk_url, args.matches, push_seal, register_signer)
        with TournamentServer.open(organizer_url) as organizer:
            records = ServerRecords(organizer)
            plain, vouching = [], []
            for _ in range(7):
                start = time.perf_counter()
                organizer.heads()
                plain.append(time.perf_counter() - start)
                start = time.perf_counter()
                records.heads()
                held = [records.vouched(m) for m in organizer.match_ids()]
                vouching.append(time.perf_counter() - start)
        counted = sum(1 for v in held if v.length is None)
        p, v = statistics.median(plain) * 1000, statistics.median(vouching) * 1000
        print(f"{args.matches} records x {args.events} events, {counted} wholly vouched for")
        print(f"heads() alone: median {p:.1f} ms")
        print(f"heads() + vouched for every match: median {v:.1f} ms (ratio {v / p:.1f}x)")
    finally:
        cluster.stop("immediate")
        cluster.remove()


def _lock_half(organizer_url, desk_url, matches, push_seal, register_signer) -> None:
    """Lock every second record with a registered key, as a desk's push sends seals."""
    import tempfile

    from referee_desk.store import TournamentFile, keys
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.synthetic import sealed_match

    signer = keys.desk_signer()
    with TournamentServer.open(organizer_url) as organizer:
        register_signer(organizer, signer.public_key, "bench", "desk")
    with tempfile.TemporaryDirectory() as folder, TournamentServer.open(desk_url) as desk:
        path = Path(folder) / "desk.sqlite"
        with TournamentFile.open(path) as tf:
            for n in range(0, matches, 2):
                events = sealed_match(f"R1-T{n:03d}", 200)
                part = Path(folder) / f"{n}.jsonl"
                from referee_desk.store.jsonl import write_jsonl

                write_jsonl(events, part)
                tf.import_jsonl([part])
                seal = tf.seals.lock(events[0].match_id, by="bench")
                push_seal(desk, tf.tournament_id, seal, signer.public_key, "bench")


if __name__ == "__main__":
    main()
