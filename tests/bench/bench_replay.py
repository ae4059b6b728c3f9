"""Benchmark (not collected by pytest): median time to replay a 5,000-event match.

Run: ``uv run python tests/bench/bench_replay.py [--events 5000] [--runs 15]``.
The match is realistic in shape: hands recorded trick by trick (216 dealt cards,
legal follows from the rules core), bids, a few violations and notes; when a side
nears A a committee ruling (8.11) moves it back so the match runs on.
Target (issue 3): replay of a 5,000-event match under 100 ms; issue 17: the cold replay
in a fresh process, minus a bare interpreter's start, under 100 ms (printed as a ratio,
with bytecode cached as on a desk after its first start, and compiled from source).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee_desk.match import Recorder, format_time, parse_time, replay
from referee_desk.match.replay import clear_caches
from referee_desk.match.simulate import deal, play_hand
from referee_desk.rules.cards import Rank
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.trump import TrumpContext


def build(n_events: int, seed: int = 5000) -> list:
    rng = random.Random(seed)
    ruleset = get_ruleset("guilin-2009", {"match_minutes": 100_000})
    rec = Recorder("BENCH-1", "陈裁判")
    t = parse_time("2026-11-28T01:00:00.000Z")

    def ev(kind: str, payload: dict, after: float = 20) -> None:
        nonlocal t
        t += int(after * 1000)
        rec.record(kind, payload, format_time(t))

    ev(
        "match_opened",
        {
            "tournament": "bench",
            "round": "1",
            "table": "1",
            "pairs": {"NS": "甲", "EW": "乙"},
            "seats": {"N": "n", "E": "e", "S": "s", "W": "w"},
            "referee": "陈裁判",
            "ruleset": ruleset.to_dict(),
        },
        after=0,
    )
    ev("clock_started", {})
    while len(rec.events) < n_events:
        state = rec.state()
        for side, level in state.levels.items():
            if level >= Rank.QUEEN:
                ev(
                    "committee_ruling",
                    {"text": "bench reset", "level_changes": {side.value: -(int(level) - 4)}},
                )
        state = rec.state()
        hands = deal(rng, ruleset)
        if state.next_dealer is None:
            ev("hand_started", {"dealer": None})
            ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
            ev("bidding_closed", {"dealer": "N", "trump": "H"})
        else:
            dealer = state.next_dealer
            ev("hand_started", {"dealer": dealer.value})
            ev("bidding_closed", {"dealer": dealer.value, "trump": "NT"})
        hand = rec.state().current_hand
        ctx = TrumpContext(hand.level, hand.trump)
        if rng.random() < 0.2:
            ev("wrong_play", {"seat": rng.choice("NESW"), "cards_exposed": 1})
        for trick in play_hand(hands, ctx, hand.dealer or Seat.N, rng, ruleset):
            ev("trick", trick.payload())
        if rng.random() < 0.3:
            ev("note", {"text": "bench note"})
    return rec.events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--fresh", type=int, default=5, help="runs in a new interpreter")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    events = build(args.events)
    print(
        f"built {len(events)} events in {time.perf_counter() - started:.1f} s "
        f"({sum(e.type == 'trick' for e in events)} tricks)"
    )

    cases = (
        ("replay, warm (memoised rules calls, as when the desk re-replays)", {}, None, args.runs),
        ("replay, cold (every replay memo cleared first)", {}, clear_caches, args.runs),
        ("replay + JSON Schema per event, warm", {"check_schema": True}, None, 3),
    )
    for label, kwargs, before, runs in cases:
        wall, cpu = [], []
        for _ in range(runs):
            if before is not None:
                before()
            w0, c0 = time.perf_counter(), time.process_time()
            replay(events, **kwargs)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        print(
            f"{label}: median {statistics.median(wall) * 1000:.1f} ms wall, "
            f"{statistics.median(cpu) * 1000:.1f} ms CPU over {runs} runs "
            f"(wall min {min(wall) * 1000:.1f})"
        )
    fresh_process(events, args.fresh)
    return 0


_CHILD = """
import json, sys, time
t0 = time.perf_counter()
from referee_desk.match import Event, replay
t_import = time.perf_counter() - t0
r0 = time.perf_counter()
events = [Event.from_dict(json.loads(line)) for line in open(sys.argv[1], encoding="utf-8")]
t_read = time.perf_counter() - r0
w0, c0 = time.perf_counter(), time.process_time()
replay(events)
print(time.perf_counter() - w0, time.process_time() - c0, t_import, t_read)
"""

#: How the interpreter finds the desk's bytecode: cached in ``__pycache__`` (a desk after
#: its first start), or compiled from source each time (``PYTHONDONTWRITEBYTECODE`` with
#: an empty cache folder, as in an environment that forbids writing ``.pyc`` files).
_BYTECODE = ("bytecode cached", "compiled from source")


def _env(kind: str, empty_cache: str) -> dict[str, str]:
    env = dict(os.environ)
    if kind == _BYTECODE[0]:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = empty_cache
    return env


def fresh_process(events: list, runs: int) -> None:
    """Median replay time in new interpreters (nothing imported or memoised beforehand),
    minus a bare interpreter's start, as the ratio to the 100 ms goal (issue 17)."""
    if runs <= 0:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for event in events:
                out.write(json.dumps(event.to_dict(), ensure_ascii=False) + "\n")
        child = [sys.executable, "-c", _CHILD, str(path)]
        envs = {kind: _env(kind, str(Path(tmp) / "no-cache")) for kind in _BYTECODE}
        subprocess.run(child, env=envs[_BYTECODE[0]], capture_output=True, check=True)  # .pyc
        figures: dict[str, dict[str, list[float]]] = {
            kind: {k: [] for k in ("extra", "wall", "cpu", "import", "read")} for kind in _BYTECODE
        }
        for _ in range(runs):  # interleaved: bare interpreter, then import + read + replay
            for kind in _BYTECODE:
                b0 = time.perf_counter()
                subprocess.run([sys.executable, "-c", "pass"], env=envs[kind], check=True)
                bare = time.perf_counter() - b0
                p0 = time.perf_counter()
                done = subprocess.run(
                    child, env=envs[kind], capture_output=True, text=True, check=True
                )
                whole = time.perf_counter() - p0
                w, c, i, r = (float(x) for x in done.stdout.split())
                for key, value in zip(
                    ("extra", "wall", "cpu", "import", "read"),
                    (whole - bare, w, c, i, r),
                    strict=True,
                ):
                    figures[kind][key].append(value)
    for kind in _BYTECODE:
        f = {key: statistics.median(values) * 1000 for key, values in figures[kind].items()}
        print(
            f"cold replay, fresh process minus bare interpreter ({kind}): median "
            f"{f['extra']:.1f} ms over {runs} runs = import of referee_desk.match "
            f"{f['import']:.1f} + reading the record {f['read']:.1f} + replay {f['wall']:.1f} "
            f"({f['cpu']:.1f} CPU); ratio to the 100 ms goal {f['extra'] / 100:.2f}x"
        )


if __name__ == "__main__":
    sys.exit(main())
