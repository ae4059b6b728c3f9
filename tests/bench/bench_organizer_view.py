"""Organizer view benchmark (not collected by pytest):
``uv run python tests/bench/bench_organizer_view.py``.

A private PostgreSQL cluster (as the tests start it), a drawn group tournament on it
(16 pairs, 4 groups, 24 group matches), and the real desk window (offscreen) opened on
the organizer's address. A thread plays the desks: each group match's whole record is
committed to the server from another connection, one every ``--pace`` seconds, then a
burst of the knockout's first round all at once. Printed:

1. the view's refresh latency: a record committed -> the standings on the screen
   count it (LISTEN/NOTIFY, the debounce, the re-read and the repaint; p50/p95,
   target < 1 s);
2. one repaint's cost on the interface thread (p50/p95): the time the window is busy;
3. the burst: records, events heard, repaints made (the debounce folds them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
SERVER_TESTS = Path(__file__).resolve().parents[1] / "server"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pace", type=float, default=0.6, help="seconds between records")
    args = parser.parse_args()
    sys.path.insert(0, str(SERVER_TESTS))
    os.environ.setdefault("REFEREE_DESK_CONFIG_DIR", tempfile.mkdtemp(prefix="rd-bench-"))
    import psycopg
    from pg_cluster import find_bin_dir, start_cluster
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.store.postgres.init import init_server
    from referee_desk.tournament.model import Format, Settings, TournamentInfo
    from referee_desk.tournament.repository import Tournament
    from referee_desk.tournament.simulate import simulate_match
    from referee_desk.ui.main_window import MainWindow
    from referee_desk.ui.organizer.on_server import open_organizer_on_server
    from referee_desk.ui.settings import DeskSettings

    bin_dir = find_bin_dir()
    if bin_dir is None:
        print("no PostgreSQL server binaries: nothing measured")
        return 1
    cluster = start_cluster(bin_dir)
    folder = Path(tempfile.mkdtemp(prefix="rd-bench-view-"))
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE cup")
        tables = [f"{n}号桌" for n in range(1, 9)]
        report = init_server(cluster.url("cup"), tables)
        url = report.organizer.url(cluster.url("cup"))
        settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=4, advance_per_group=2)
        info = TournamentInfo(name="桂林杯", tables=tuple(tables), referees=("王磊", "李娜"))
        with Tournament.create(url, info, settings) as t:
            t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, 17)])
            t.draw(7)
            group_ids = [m.match_id for m in t.draw_table.matches() if m.group is not None]
            records = []
            for k, match_id in enumerate(group_ids):
                path = folder / f"{match_id}.jsonl"
                winner = "NS" if k % 3 else "EW"
                write_jsonl(simulate_match(match_id, t.opening_payload(match_id), winner), path)
                records.append(path)

        app = QApplication.instance() or QApplication([])
        window = MainWindow(DeskSettings(folder / "desk.ini"))
        window.resize(1280, 860)
        window.show()
        owner = open_organizer_on_server(window, url)
        view = window.organizer
        deadline = time.monotonic() + 60
        while (owner.live is None or not owner.live.connected) and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.01)

        live = owner.live
        assert live is not None, "the server's tournament did not open"

        def decided_on_screen() -> int:
            return sum(
                int(m.index(r, 3).data())
                for m in view.display.standings_models.values()
                for r in range(m.rowCount())
            )

        committed: dict[int, float] = {}  # records committed so far -> when
        shown: dict[int, float] = {}  # records counted on screen -> when first
        repaint_ms: list[float] = []
        real_refresh = view.refresh

        def timed_refresh() -> None:
            began = time.perf_counter()
            real_refresh()
            repaint_ms.append((time.perf_counter() - began) * 1000)
            now = time.time()
            count = decided_on_screen()
            for n in range(1, count + 1):
                shown.setdefault(n, now)

        view.refresh = timed_refresh  # type: ignore[method-assign]
        burst: dict[str, int] = {}

        def desks() -> None:
            with Tournament.open(url) as importer:
                for n, path in enumerate(records, start=1):
                    importer.file.import_jsonl([path])
                    committed[n] = time.time()
                    time.sleep(args.pace)
                # The burst: the knockout's first round, every record at once.
                ko = [
                    m.match_id
                    for m in importer.draw_table.matches()
                    if m.group is None and m.round == 1
                ]
                paths = []
                for match_id in ko:
                    path = folder / f"{match_id}.jsonl"
                    write_jsonl(simulate_match(match_id, importer.opening_payload(match_id)), path)
                    paths.append(path)
                burst["heard_before"] = live.heard
                burst["repaints_before"] = live.repaints
                for path in paths:
                    importer.file.import_jsonl([path])
                burst["records"] = len(paths)
                burst["done_at"] = int(time.time() * 1000)

        worker = threading.Thread(target=desks, daemon=True)
        worker.start()
        stop = QTimer()
        stop.setInterval(200)

        def maybe_stop() -> None:
            settled = "done_at" in burst and time.time() * 1000 - burst["done_at"] > 3000
            if settled or time.monotonic() > deadline + 600:
                app.quit()

        stop.timeout.connect(maybe_stop)
        stop.start()
        app.exec()  # quit() closes the window too: ``live`` keeps the figures
        latencies = [(shown[n] - committed[n]) * 1000 for n in committed if n in shown]
        missing = [n for n in committed if n not in shown]
        print(f"records committed one by one: {len(committed)} (every {args.pace} s)")
        if latencies:
            print(
                f"refresh latency, commit -> on screen: p50 {statistics.median(latencies):.0f} ms,"
                f" p95 {pct(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms (target < 1 s)"
            )
        print(f"records never shown: {len(missing)}")
        print(
            f"one repaint on the interface thread: p50 {statistics.median(repaint_ms):.0f} ms, "
            f"p95 {pct(repaint_ms, 0.95):.0f} ms ({len(repaint_ms)} repaints)"
        )
        heard = live.heard - burst.get("heard_before", 0)
        repaints = live.repaints - burst.get("repaints_before", 0)
        print(
            f"burst: {burst.get('records', 0)} records at once, {heard} events heard, "
            f"{repaints} repaints"
        )
        window.close()
        return 0 if not missing else 1
    finally:
        cluster.stop("immediate")
        cluster.remove()


if __name__ == "__main__":
    sys.exit(main())
