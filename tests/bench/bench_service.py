"""Benchmark of ``referee-desk rules`` (not collected by pytest).

Runs the real service in a subprocess on 10,000 mixed queries (unit; follow with
25-54 card hands; winner; result) and prints the median queries per second over
several runs, the subprocess start included.

    uv run python tests/bench/bench_service.py [--runs 5] [--queries 10000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter

from referee_desk.rules.cards import DECK, Card, format_cards
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

LEVELS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
TRUMPS = ["S", "H", "D", "C", "NT"]


def _unit_from(cards: list[Card], ctx: TrumpContext, rng: random.Random) -> list[Card]:
    """A unit found in ``cards``: a tractor or tuple when there is one, else a single."""
    counts = Counter(cards)
    multiples = [c for c, n in counts.items() if n >= 2]
    rng.shuffle(multiples)
    for card in multiples[:6]:
        each = min(counts[card], rng.choice([2, 2, 3, 4]))
        base = [card] * each
        nxt = [c for c in multiples if c is not card and counts[c] >= each]
        for other in nxt:
            if classify([*base, *[other] * each], ctx) is not None:
                return [*base, *[other] * each]
        if classify(base, ctx) is not None:
            return base
    return [rng.choice(cards)]


def make_queries(n: int, seed: int = 2009) -> list[bytes]:
    rng = random.Random(seed)
    deck = list(DECK) * 4
    out: list[bytes] = []
    for i in range(n):
        level, trump = rng.choice(LEVELS), rng.choice(TRUMPS)
        ctx = TrumpContext.of(level, trump)
        kind = i % 4
        if kind == 3:
            out.append(
                json.dumps(
                    {
                        "op": "result",
                        "level": level,
                        "trump": trump,
                        "defenders_points": 5 * rng.randint(0, 60),
                        "last_trick_points": 5 * rng.randint(0, 8),
                        "last_trick_cards": rng.randint(2, 8),
                        "last_trick_winner": rng.choice(["declarers", "defenders"]),
                        "declarer_level": level,
                        "defender_level": rng.choice(LEVELS),
                    }
                ).encode()
            )
            continue
        rng.shuffle(deck)
        hands = [deck[k * 54 : (k + 1) * 54] for k in range(4)]
        if kind == 0:
            cards = _unit_from(hands[0], ctx, rng) if rng.random() < 0.7 else hands[0][:4]
            query = {"op": "unit", "level": level, "trump": trump, "cards": format_cards(cards)}
        elif kind == 1:
            lead = _unit_from(hands[0], ctx, rng)
            hand = hands[1][: rng.randint(25, 54)]
            suit = ctx.effective_suit(lead[0])
            same = [c for c in hand if ctx.effective_suit(c) == suit]
            if rng.random() < 0.5 and len(same) >= len(lead):
                play = same[: len(lead)]
            else:
                play = rng.sample(hand, len(lead))
            query = {
                "op": "follow",
                "level": level,
                "trump": trump,
                "lead": format_cards(lead),
                "hand": format_cards(hand),
                "play": format_cards(play),
            }
        else:
            lead = _unit_from(hands[0], ctx, rng)
            plays = [lead] + [rng.sample(h, len(lead)) for h in hands[1:]]
            query = {
                "op": "winner",
                "level": level,
                "trump": trump,
                "plays": [format_cards(p) for p in plays],
            }
        out.append(json.dumps(query).encode())
    return out


def run_once(data: bytes, expected_lines: int) -> tuple[float, Counter[str]]:
    cmd = [sys.executable, "-m", "referee_desk.cli.main", "rules"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=data, capture_output=True, check=True)
    elapsed = time.perf_counter() - start
    lines = proc.stdout.splitlines()
    if len(lines) != expected_lines:
        raise SystemExit(f"expected {expected_lines} answers, got {len(lines)}")
    kinds: Counter[str] = Counter()
    for line in lines:
        answer = json.loads(line)
        kinds["error" if "error" in answer else "answered"] += 1
    return elapsed, kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", type=int, default=10_000)
    args = parser.parse_args()
    queries = make_queries(args.queries)
    data = b"".join(q + b"\n" for q in queries)
    rates = []
    kinds: Counter[str] = Counter()
    for run in range(args.runs):
        elapsed, kinds = run_once(data, len(queries))
        rates.append(len(queries) / elapsed)
        print(f"run {run + 1}: {elapsed:.2f} s, {rates[-1]:,.0f} queries/s")
    print(f"answers per run: {dict(kinds)}")
    print(
        f"median: {statistics.median(rates):,.0f} queries/s over {args.runs} runs "
        f"of {len(queries):,} mixed queries"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
