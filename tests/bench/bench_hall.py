"""Hall page benchmark (not collected by pytest): ``uv run python tests/bench/bench_hall.py``.

A private PostgreSQL cluster, ``server init`` with 64 tables, a drawn cup of 16 pairs on
it, ``referee-desk hall serve`` in its own process, N page clients (default 500) holding
``/events`` open on loopback, and 64 desks pushing (threads here, each its own file and
connection: one event every ~2 s, hall pace). Printed, never asserted:

- update latency: for each commit, the time until each client's next ``status`` message
  (a read that began before the commit can answer early, so this slightly flatters);
  p50 / p95 / max over every (commit, client);
- errors: clients that failed to connect or whose stream ended;
- the page server's memory (RSS from /proc) before and under load; reads it made.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def client(port: int, arrivals: list[float], errors: list[str], stop: asyncio.Event):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        while not stop.is_set():
            try:
                line = await asyncio.wait_for(reader.readline(), 1.0)
            except TimeoutError:
                continue
            if not line:
                errors.append("stream ended")
                return
            if line.startswith(b"event: status"):
                arrivals.append(time.time())
        writer.close()
    except OSError as error:
        errors.append(str(error))


def desks(urls, folder: Path, seconds: float, commits: list[float], stop: threading.Event):
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.sync import sync_file
    from referee_desk.store.synthetic import record

    def one(n: int, url: str) -> None:
        path = folder / f"desk{n:02d}.sqlite"
        deadline = time.monotonic() + seconds
        time.sleep((n * 0.031) % 2)
        while time.monotonic() < deadline and not stop.is_set():
            with TournamentFile.open(path, tournament_id="bench") as tf:
                record(tf, f"OWN-T{n:02d}", 1)
            sync_file(str(path), url)
            commits.append(time.time())
            time.sleep(2.0)

    threads = [threading.Thread(target=one, args=(n, u)) for n, u in enumerate(urls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--desks", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()

    import psycopg
    from pg_cluster import free_port, start_cluster

    from referee_desk.cli.main import main as cli
    from referee_desk.store.postgres.init import init_server

    cluster = start_cluster()
    folder = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    proc = None
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute('CREATE DATABASE "cup"')
        admin = cluster.url("cup")
        report = init_server(admin, [f"{n}号桌" for n in range(1, args.desks + 1)])
        organizer = report.organizer.url(admin)
        pairs = folder / "pairs.csv"
        pairs.write_text(
            "player1,player2\n" + "".join(f"甲{n},乙{n}\n" for n in range(1, 17)), "utf-8"
        )
        for argv in (
            ["tournament", "create", organizer, "--name", "桂林杯", "--referees", "王磊"],
            ["tournament", "import-pairs", organizer, str(pairs)],
            ["tournament", "draw", organizer, "--seed", "1"],
        ):
            assert cli(argv) == 0, argv
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "referee_desk.cli.main", "hall", "serve", organizer,
             "--host", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(3)
        idle = rss_mb(proc.pid)
        arrivals = [[] for _ in range(args.clients)]
        errors: list[str] = []
        commits: list[float] = []

        async def run() -> float:
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(client(port, arrivals[i], errors, stop))
                for i in range(args.clients)
            ]
            await asyncio.sleep(3)
            done = threading.Event()
            pushing = threading.Thread(
                target=desks,
                args=([d.url(admin) for d in report.desks], folder, args.seconds, commits, done),
            )
            pushing.start()
            peak = 0.0
            while pushing.is_alive():
                await asyncio.sleep(1)
                peak = max(peak, rss_mb(proc.pid))
            await asyncio.sleep(3)
            stop.set()
            await asyncio.gather(*tasks)
            return peak

        peak = asyncio.run(run())
        latencies = []
        for got in arrivals:
            got.sort()
            for c in commits:
                nxt = next((a for a in got if a >= c), None)
                if nxt is not None:
                    latencies.append(nxt - c)
        latencies.sort()
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 2 else [0] * 99
        print(f"clients {args.clients}, desks {args.desks}, {len(commits)} commits in "
              f"{args.seconds:.0f} s ({os.cpu_count()} cores)")  # fmt: skip
        print(f"update latency: p50 {q[49] * 1000:.0f} ms, p95 {q[94] * 1000:.0f} ms, "
              f"max {latencies[-1] * 1000 if latencies else 0:.0f} ms "
              f"over {len(latencies)} (commit, client)")  # fmt: skip
        unanswered = len(commits) * args.clients - len(latencies)
        print(f"errors: {len(errors)} ({sorted(set(errors))[:3]}); unanswered: {unanswered}")
        print(f"page server memory: {idle:.0f} MB idle, {peak:.0f} MB peak under load")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        cluster.stop("immediate")
        cluster.remove()


if __name__ == "__main__":
    main()
