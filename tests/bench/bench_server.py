"""Server benchmark (not collected by pytest): ``uv run python tests/bench/bench_server.py``.

A private PostgreSQL cluster (as the tests start it), ``server init`` with 64 tables, and
64 desk *processes*, each appending to its own SQLite file while a ``BackgroundPusher``
pushes to the server, and the organizer listening (LISTEN/NOTIFY) in this process:

1. load: each desk appends 500 events as fast as it can while its pusher sends them:
   events/s into the server (first to last event committed; on a small machine the
   desks' own appends, validated and fsynced, are the limit);
2. hall pace: each desk appends 20 more events about one every 2 s: the organizer's
   refresh latency, a desk's append to the listener hearing it (p50/p95; target < 1 s);
3. catch-up: 64 more desks each recorded a 500-event match offline, then all sync at
   once: the server's own intake in events/s.
Then the check: 0 lost, 0 duplicated (server rows, distinct (match, seq), every match's
events equal to the desk's file, every event of (1) and (2) heard once by the listener).
Under load (1) the refresh latency is printed too (queueing included).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty

SERVER_TESTS = Path(__file__).resolve().parents[1] / "server"


def desk(n: int, url: str, folder: str, start: int, count: int, pace: float, queue, go) -> None:
    """One desk process: append ``count`` events to its file, the pusher sends them."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.pusher import BackgroundPusher
    from referee_desk.store.synthetic import draft

    path = Path(folder) / f"desk{n:02d}.sqlite"
    match_id = f"R1-T{n:02d}"
    stamps: list[tuple[int, float]] = []
    with TournamentFile.open(path) as tf, BackgroundPusher(path, url, interval=0.5) as pusher:
        queue.put("ready")
        go.wait()
        for index in range(start, start + count):
            event = tf.append(draft(match_id, index))
            stamps.append((event.seq, time.time()))
            pusher.wake()
            if pace:
                time.sleep(pace * (0.5 + (n * 7919 + index) % 100 / 100))
        synced = pusher.wait_until(lambda s: s.status == "synced", timeout=900)
        queue.put((n, match_id, stamps, synced, pusher.last_error, tf.head(match_id)))


def run_phase(ctx, urls, folder, start, count, pace, heard) -> tuple[float, list[float], list]:
    queue = ctx.Queue()
    go = ctx.Event()
    procs = [
        ctx.Process(target=desk, args=(n, urls[n], folder, start, count, pace, queue, go))
        for n in range(len(urls))
    ]
    for proc in procs:
        proc.start()
    # every desk has opened its file and started its pusher
    assert _collect(queue, procs) == ["ready"] * len(procs)
    began = time.time()
    go.set()
    results = _collect(queue, procs)
    for proc in procs:
        proc.join()
    latencies = []
    for _n, match_id, stamps, synced, error, _head in results:
        assert synced, f"desk {match_id} never synced: {error}"
        for seq, appended in stamps:
            latencies.append(heard[(match_id, seq)] - appended)
    return began, latencies, results


def _collect(queue, procs) -> list:
    """One message from each desk process; fails at once when a desk process died."""
    got: list = []
    while len(got) < len(procs):
        try:
            got.append(queue.get(timeout=1.0))
        except Empty:
            dead = [p.name for p in procs if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"desk processes failed: {', '.join(dead)}") from None
    return got


def offline_desk(n: int, url: str, folder: str, count: int, queue, go) -> None:
    """A desk that recorded a whole match offline, then syncs it in one go."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.sync import sync_file
    from referee_desk.store.synthetic import record

    path = Path(folder) / f"offline{n:02d}.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, f"R2-T{n:02d}", count)
    queue.put("ready")
    go.wait()
    report = sync_file(str(path), url)
    queue.put((report.total_pushed, len(report.conflicts), time.time()))


def run_catch_up(ctx, urls, folder, count) -> tuple[float, int]:
    """Seconds from the go to the last desk synced, and the events the server took."""
    queue = ctx.Queue()
    go = ctx.Event()
    procs = [
        ctx.Process(target=offline_desk, args=(n, urls[n], folder, count, queue, go))
        for n in range(len(urls))
    ]
    for proc in procs:
        proc.start()
    assert _collect(queue, procs) == ["ready"] * len(procs)
    began = time.time()
    go.set()
    results = _collect(queue, procs)
    for proc in procs:
        proc.join()
    assert not any(conflicts for _, conflicts, _ in results)
    return max(at for _, _, at in results) - began, sum(sent for sent, _, _ in results)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--desks", type=int, default=64)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--paced", type=int, default=20, help="events per desk at hall pace")
    args = parser.parse_args()

    sys.path.insert(0, str(SERVER_TESTS))
    import psycopg
    from pg_cluster import start_cluster

    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.init import init_server
    from referee_desk.store.postgres.listener import ListenerThread
    from referee_desk.store.postgres.server import TournamentServer

    cluster = start_cluster()
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE cup")
        admin = cluster.url("cup")
        report = init_server(admin, [f"{n}号桌" for n in range(1, args.desks + 1)])
        from referee_desk.store.postgres.server import TournamentServer

        with TournamentServer.open(report.organizer.url(admin)) as organizer:
            organizer.set_claims(True)  # a published hall: desks record their own ids
        urls = [d.url(admin) for d in report.desks]
        heard: dict[tuple[str, int], float] = {}
        heard_twice: list[tuple[str, int]] = []
        landed_at: list[float] = []

        def on_event(landed) -> None:
            key = (landed.match_id, landed.seq)
            if key in heard:
                heard_twice.append(key)
            heard[key] = landed.heard_at
            landed_at.append(landed.heard_at)

        ctx = multiprocessing.get_context("spawn")
        with (
            tempfile.TemporaryDirectory() as folder,
            ListenerThread(report.organizer.url(admin), on_event) as listener,
        ):
            assert listener.wait_ready()
            began, load_latency, _ = run_phase(ctx, urls, folder, 0, args.events, 0.0, heard)
            total = args.desks * args.events
            first, last = min(landed_at), max(landed_at)
            _, paced_latency, _ = run_phase(ctx, urls, folder, args.events, args.paced, 2.0, heard)
            catch_up_seconds, caught_up = run_catch_up(ctx, urls, folder, args.events)
            expected = args.desks * (2 * args.events + args.paced)
            with TournamentServer.open(report.organizer.url(admin)) as organizer:
                rows = organizer.count()
                distinct = organizer.connection.execute(
                    "SELECT COUNT(DISTINCT (match_id, seq)) FROM referee_desk.events"
                ).fetchone()[0]
                differing = 0
                for n in range(args.desks):
                    for name, match_id in (
                        (f"desk{n:02d}", f"R1-T{n:02d}"),
                        (f"offline{n:02d}", f"R2-T{n:02d}"),
                    ):
                        with TournamentFile.open(Path(folder) / f"{name}.sqlite") as tf:
                            if organizer.events(match_id) != tf.events(match_id):
                                differing += 1
        lost = expected - distinct
        print(f"desks: {args.desks} processes, {args.events} events each (+{args.paced} paced)")
        print(
            f"load: {total} events into the server in {last - first:.1f} s "
            f"(first to last committed): {total / (last - first):.0f} events/s; "
            f"{last - began:.1f} s from the first append to the last event on the server"
        )
        print(
            f"catch-up: {args.desks} desks that recorded {args.events} events each offline "
            f"sync at once: {caught_up} events in {catch_up_seconds:.1f} s: "
            f"{caught_up / catch_up_seconds:.0f} events/s into the server"
        )
        print(
            f"check: server rows {rows}, distinct (match, seq) {distinct}, expected {expected}: "
            f"{lost} lost, {rows - distinct} duplicated, {len(heard_twice)} heard twice, "
            f"{differing} matches differing from the desk's file"
        )
        for name, values in (("under load", load_latency), ("hall pace", paced_latency)):
            print(
                f"refresh latency ({name}, append -> organizer notified, {len(values)} events): "
                f"p50 {percentile(values, 50) * 1000:.0f} ms, "
                f"p95 {percentile(values, 95) * 1000:.0f} ms, "
                f"median {statistics.median(values) * 1000:.0f} ms"
            )
        return 0 if lost == 0 and rows == distinct == expected and not differing else 1
    finally:
        cluster.stop("immediate")
        cluster.remove()


if __name__ == "__main__":
    sys.exit(main())
