"""Organizer's live view benchmark (not collected by pytest):
``uv run python tests/bench/bench_server_view.py [--desks 64] [--pace 1.0]``.

A private PostgreSQL cluster, ``server init`` with N tables, a tournament of 2N pairs
created, drawn and published ON the server. N desk processes each play their drawn
first-round match (a ``simulate_match`` record, appended event by event into the desk's
own file at about one event per ``--pace`` seconds) while a ``BackgroundPusher`` pushes
it. The organizer, in this process, listens (LISTEN/NOTIFY) and on every burst refreshes
its view the way the desk's Tournament tab and ``tournament standings --follow`` do:
``Tournament.invalidate()`` and a new snapshot (standings, places, every match's state).

Printed: the view's refresh latency (a desk's append to the organizer's refreshed
snapshot that includes it; p50/p95, target < 1 s), the notification latency alone, the
median time of one refresh, and the check that every match is decided on the server.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from queue import Empty

SERVER_TESTS = Path(__file__).resolve().parents[1] / "server"


def desk(n: int, url: str, match_id: str, folder: str, pace: float, queue, go) -> None:
    """One table: play the drawn match into the desk's file, the pusher sends it."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.pusher import BackgroundPusher
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.tournament.simulate import simulate_match

    with TournamentServer.open(url) as server:
        opening = server.opening(match_id)
    assert opening is not None, f"{match_id}: not published to desk {n}"
    events = simulate_match(match_id, opening, winner="NS" if n % 2 else "EW")
    path = Path(folder) / f"desk{n:02d}.sqlite"
    stamps: list[tuple[int, float]] = []
    with TournamentFile.open(path) as tf, BackgroundPusher(path, url, interval=0.5) as pusher:
        queue.put("ready")
        go.wait()
        for index, event in enumerate(events):
            stored = tf.append(replace(event, seq=0, prev_hash="", hash=""))
            stamps.append((stored.seq, time.time()))
            pusher.wake()
            if pace and index + 1 < len(events):
                time.sleep(pace * (0.5 + (n * 7919 + index) % 100 / 100))
        synced = pusher.wait_until(lambda s: s.status == "synced", timeout=600)
        queue.put((match_id, stamps, synced, pusher.last_error))


def _collect(queue, procs, expected: int, refresh) -> list:
    got: list = []
    while len(got) < expected:
        refresh()
        try:
            got.append(queue.get(timeout=0.05))
        except Empty:
            dead = [p.name for p in procs if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"desk processes failed: {', '.join(dead)}") from None
    return got


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--desks", type=int, default=64)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a desk's events")
    args = parser.parse_args()

    sys.path.insert(0, str(SERVER_TESTS))
    import psycopg
    from pg_cluster import find_bin_dir, missing_reason, start_cluster

    from referee_desk.exports.snapshot import take_snapshot
    from referee_desk.store.postgres.init import init_server
    from referee_desk.store.postgres.listener import EventListener
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.tournament.model import TournamentInfo
    from referee_desk.tournament.publishing import publish
    from referee_desk.tournament.repository import Tournament

    bin_dir = find_bin_dir()
    if bin_dir is None:
        print(f"skipped: {missing_reason()}")
        return 1
    cluster = start_cluster(bin_dir)
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute('CREATE DATABASE "viewbench"')
        admin = cluster.url("viewbench")
        labels = [f"{n}号桌" for n in range(1, args.desks + 1)]
        report = init_server(admin, labels)
        organizer_url = report.organizer.url(admin)
        desk_urls = [d.url(admin) for d in report.desks]
        info = TournamentInfo("基准杯", tables=tuple(labels), referees=("王磊",))
        with Tournament.create(organizer_url, info) as t:
            t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, 2 * args.desks + 1)])
            t.draw(draw_seed=2026)
            first_round = [m for m in t.draw_table.matches() if m.round == 1]
            with TournamentServer.open(organizer_url) as server:
                publish(t, server)
        by_table = {m.table: m.match_id for m in first_round}

        ctx = multiprocessing.get_context("spawn")
        queue = ctx.Queue()
        go = ctx.Event()
        with tempfile.TemporaryDirectory() as folder:
            procs = [
                ctx.Process(
                    target=desk,
                    args=(n, desk_urls[n], by_table[labels[n]], folder, args.pace, queue, go),
                )
                for n in range(args.desks)
            ]
            for proc in procs:
                proc.start()
            view = Tournament.open(organizer_url)
            listener = EventListener(organizer_url)
            heard: dict[tuple[str, int], float] = {}
            shown: dict[tuple[str, int], float] = {}
            refreshes: list[float] = []

            def refresh() -> None:
                landed = listener.wait(timeout=0.0)
                if not landed:
                    return
                began = time.time()
                view.invalidate()
                view.file.refresh()
                take_snapshot(view)
                done = time.time()
                refreshes.append(done - began)
                for item in landed:
                    heard[(item.match_id, item.seq)] = item.heard_at
                    shown[(item.match_id, item.seq)] = done

            assert _collect(queue, procs, len(procs), refresh) == ["ready"] * len(procs)
            started = time.time()
            go.set()
            results = _collect(queue, procs, len(procs), refresh)
            deadline = time.time() + 10
            expected = sum(len(stamps) for _, stamps, _, _ in results)
            while len(shown) < expected and time.time() < deadline:
                refresh()
            for proc in procs:
                proc.join()
            elapsed = time.time() - started
            latency, notify = [], []
            for match_id, stamps, synced, error in results:
                assert synced, f"{match_id} never synced: {error}"
                for seq, appended in stamps:
                    shown_at = shown.get((match_id, seq))
                    if shown_at is not None:
                        latency.append(shown_at - appended)
                        notify.append(heard[(match_id, seq)] - appended)
            view.invalidate()
            decided = [s for s in view.state().matches if s.winner is not None]
            listener.close()
            view.close()
        print(f"{args.desks} desks, {expected} events in {elapsed:.1f} s, pace {args.pace} s")
        print(
            f"organizer's view refresh latency (append -> refreshed snapshot): "
            f"p50 {statistics.median(latency) * 1000:.0f} ms, "
            f"p95 {percentile(latency, 95) * 1000:.0f} ms (target < 1000 ms)"
        )
        print(
            f"notification alone: p50 {statistics.median(notify) * 1000:.0f} ms, "
            f"p95 {percentile(notify, 95) * 1000:.0f} ms"
        )
        print(
            f"one refresh (invalidate + snapshot): median {statistics.median(refreshes) * 1000:.0f}"
            f" ms over {len(refreshes)} refreshes"
        )
        missing = expected - len(latency)
        print(
            f"check: {len(latency)}/{expected} events seen in the view ({missing} missing); "
            f"{len(decided)}/{len(first_round)} first-round matches decided"
        )
        return 0 if missing == 0 and len(decided) >= len(first_round) else 1
    finally:
        cluster.stop("immediate")
        cluster.remove()


if __name__ == "__main__":
    raise SystemExit(main())
