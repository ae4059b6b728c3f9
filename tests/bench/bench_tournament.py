"""Benchmark (not collected by pytest): medians for a 256-pair single elimination and a
64-pair group stage: draw, importing all match records, working out results, each export.

Run: ``uv run python tests/bench/bench_tournament.py [--repeat 3]``.
Target (issues 6 and 11): every export of the 256-pair tournament under 3 seconds, the
round pack of its first round (128 matches: pairings, player index, 128 table cards and
128 pre-filled scoresheets) included. Peak memory is stated per tournament
(tracemalloc's peak of Python allocations during the exports, and the process's
maximum resident set size from ``resource.getrusage``).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from referee_desk.exports.pdf_match_report import export_match_report_pdf
from referee_desk.exports.pdf_player_index import export_player_index_pdf
from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.pdf_round_pack import export_round_pack_pdf
from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf
from referee_desk.exports.snapshot import take_snapshot
from referee_desk.exports.xlsx_bracket import export_bracket_xlsx
from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status

INFO = TournamentInfo(
    "桂林市2026年拖拉机公开赛",
    "2026-11-28",
    "2026-11-29",
    "桂林理工大学体育馆",
    "桂林市总工会",
    tables=tuple(f"{i}号桌" for i in range(1, 33)),
    referees=tuple(f"裁判{i}" for i in range(1, 17)),
)
SURNAMES = "张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗"


def new_tournament(path: Path, n: int, settings: Settings) -> Tournament:
    t = Tournament.create(path, INFO, settings)
    for i in range(1, n + 1):
        s = SURNAMES[i % len(SURNAMES)]
        t.add_pair(f"{s}甲{i}", f"{s}乙{i}", f"俱乐部{i % 12}", i if i <= 16 else None)
    return t


def play_all(t: Tournament, folder: Path) -> list[Path]:
    """Simulate every match wave by wave (imported as they come); one JSONL per match."""
    files: list[Path] = []
    while True:
        ready = [s for s in t.state().matches if s.status is Status.READY]
        if not ready:
            return files
        batch = []
        for k, s in enumerate(ready):
            mid = s.match.match_id
            way = ("passed_a", "time_out", "passed_a", "forfeit")[k % 4]
            side = "NS" if (s.pair_a < s.pair_b) != (k % 9 == 4) else "EW"
            path = folder / f"{mid}.jsonl"
            write_jsonl(simulate_match(mid, t.opening_payload(mid), side, way, k % 3), path)
            batch.append(path)
        result = import_records(t, batch)
        assert result.ok, result.lines()
        files += batch


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench(label: str, n: int, settings: Settings, repeat: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-tournament-") as tmp:
        root = Path(tmp)
        records = root / "records"
        records.mkdir()
        source = new_tournament(root / "source.sqlite", n, settings)
        source.draw(draw_seed=11, when="2026-11-28T08:00:00.000Z")
        files = play_all(source, records)
        source.close()
        rows: dict[str, list[float]] = {}
        peak = 0
        for run in range(repeat):
            t = new_tournament(root / f"run{run}.sqlite", n, settings)
            rows.setdefault("draw", []).append(
                timed(lambda t=t: t.draw(draw_seed=11, when="2026-11-28T08:00:00.000Z"))
            )
            rows.setdefault(f"import {len(files)} match records", []).append(
                timed(lambda t=t: import_records(t, files))
            )
            rows.setdefault("results from records (replay all)", []).append(
                timed(lambda t=t: t.state())
            )
            t.invalidate()
            rows.setdefault("results again (cached outcomes)", []).append(
                timed(lambda t=t: t.state())
            )
            holder: list = []
            rows.setdefault("snapshot for exports", []).append(
                timed(lambda t=t, holder=holder: holder.append(take_snapshot(t)))
            )
            snap = holder[0]
            assert snap.state.finished, snap.problems
            rows.setdefault("export bracket xlsx", []).append(
                timed(lambda snap=snap: export_bracket_xlsx(snap, root / "b.xlsx"))
            )
            rows.setdefault("export results PDF", []).append(
                timed(lambda snap=snap: export_results_pdf(snap, root / "r.pdf"))
            )
            final = max(
                (s for s in snap.state.matches if s.match.stage == "KO"),
                key=lambda s: (s.match.round, not s.match.third_place),
            )
            events = t.file.events(final.match.match_id)
            rows.setdefault("export match report PDF (final)", []).append(
                timed(lambda events=events: export_match_report_pdf(events, root / "m.pdf"))
            )
            rows.setdefault("export scoresheet PDF", []).append(
                timed(lambda: export_scoresheet_pdf(root / "s.pdf"))
            )
            number, count = _largest_round(snap)
            rows.setdefault(f"export round pack PDF (round {number}, {count} matches)", []).append(
                timed(lambda snap=snap, n=number: export_round_pack_pdf(snap, root / "p.pdf", n))
            )
            rows.setdefault("export player index PDF", []).append(
                timed(lambda snap=snap: export_player_index_pdf(snap, root / "i.pdf"))
            )
            if run == 0:
                peak = _peak_memory(snap, root, number, events)
            t.close()
        print(f"\n{label}: {n} pairs, {len(files)} played matches, median of {repeat}")
        for name, values in rows.items():
            print(f"  {name:<48} {statistics.median(values) * 1000:9.1f} ms")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  peak Python memory of one export (tracemalloc)      {peak / 2**20:8.1f} MB")
        print(f"  maximum resident set size so far (getrusage)        {rss:8.1f} MB")


def _peak_memory(snap, root: Path, round_number: int, events) -> int:
    """Peak traced Python memory of each export in turn (a pass of its own: tracing slows
    the code down many times, so it never runs inside a timed export)."""
    peak = 0
    for work in (
        lambda: export_bracket_xlsx(snap, root / "b.xlsx"),
        lambda: export_results_pdf(snap, root / "r.pdf"),
        lambda: export_match_report_pdf(events, root / "m.pdf"),
        lambda: export_round_pack_pdf(snap, root / "p.pdf", round_number),
        lambda: export_player_index_pdf(snap, root / "i.pdf"),
    ):
        tracemalloc.start()
        work()
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return peak


def _largest_round(snap) -> tuple[int, int]:
    """(round number in the order of play, matches) of the round with most matches."""
    from referee_desk.tournament.rounds import play_rounds

    rounds = play_rounds(snap.state.matches)
    best = max(rounds, key=lambda r: len(r.matches))
    return best.number, len(best.matches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bench("single elimination", 256, Settings(third_place=True), args.repeat)
    bench(
        "group stage + knockout",
        64,
        Settings(format=Format.GROUPS_KNOCKOUT, group_count=16, advance_per_group=2),
        args.repeat,
    )


if __name__ == "__main__":
    main()
