"""Benchmark: follow queries against a qq-four-deck throw, 52-card hands (issue 17).

Run: ``uv run python tests/bench/bench_throw_queries.py [--queries 2000] [--runs 5]``.
Not collected by pytest; no timed assertion. Answers ``follow`` queries through the
rules service in-process (JSON line in, answer out), two kinds interleaved run by run:

- qq-four-deck: a throw (2 to 8 cards of one suit that are not one unit) from one
  52-card hand, followed from another (half the suggested legal play, half random);
- guilin-2009: a unit lead from one 54-card hand, followed from another (the same
  mix), the bare ceiling the throw queries are measured against.

Each run draws fresh queries (so no cache sees a repeat). Prints the median queries
per second of each and the ratio throw / Guilin (goal: ≥ 3,000 throw queries/s).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from referee_desk.rules.cards import DECK, Card, Suit, format_cards
from referee_desk.rules.follow import best_follow
from referee_desk.rules.levels import ladder_of
from referee_desk.rules.ruleset import GUILIN_2009, QQ_FOUR_DECK, Ruleset
from referee_desk.rules.service import RulesService
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify


def _context(rng: random.Random, ruleset: Ruleset) -> tuple[str, str, TrumpContext]:
    level = rng.choice(ladder_of(ruleset)).label
    trump = rng.choice([*(s.value for s in Suit), "NT"])
    return level, trump, TrumpContext.for_ruleset(level, trump, ruleset)


def _deal(rng: random.Random, ruleset: Ruleset) -> list[tuple[Card, ...]]:
    pack = list(DECK) * ruleset.decks
    rng.shuffle(pack)
    size = ruleset.hand_size
    return [tuple(pack[i * size : (i + 1) * size]) for i in range(4)]


def _by_suit(hand: tuple[Card, ...], ctx: TrumpContext) -> dict[str, list[Card]]:
    out: dict[str, list[Card]] = {}
    for card in hand:
        out.setdefault(ctx.effective_suit(card), []).append(card)
    return out


def _throw(rng: random.Random, ctx: TrumpContext, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    suits = {s: c for s, c in _by_suit(hand, ctx).items() if len(c) >= 3}
    while True:
        cards = suits[rng.choice(sorted(suits))]
        lead = tuple(rng.sample(cards, rng.randint(2, min(8, len(cards)))))
        if classify(lead, ctx) is None:
            return lead


def _unit(rng: random.Random, ctx: TrumpContext, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """A pair, triple, bomb or tractor found in the hand, else a single."""
    counts: dict[Card, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    multiples = [c for c, k in counts.items() if k >= 2]
    rng.shuffle(multiples)
    for card in multiples[:6]:
        each = min(counts[card], rng.choice([2, 2, 3, 4]))
        for other in multiples:
            if other is not card and counts[other] >= each:
                unit = (card,) * each + (other,) * each
                if classify(unit, ctx) is not None:
                    return unit
        return (card,) * each
    return (rng.choice(hand),)


def _play(rng, ctx, lead, hand, ruleset) -> tuple[Card, ...]:
    if rng.random() < 0.5:
        return best_follow(lead, hand, ctx, ruleset)
    held = _by_suit(hand, ctx).get(ctx.effective_suit(lead[0]), [])
    pool = held if len(held) >= len(lead) else list(hand)
    return tuple(rng.sample(pool, len(lead)))


def make_queries(n: int, ruleset: Ruleset, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        level, trump, ctx = _context(rng, ruleset)
        hands = _deal(rng, ruleset)
        lead = _throw(rng, ctx, hands[0]) if ruleset.throws else _unit(rng, ctx, hands[0])
        play = _play(rng, ctx, lead, hands[1], ruleset)
        query = {
            "op": "follow",
            "ruleset": ruleset.name,
            "level": level,
            "trump": trump,
            "lead": format_cards(lead),
            "hand": format_cards(hands[1]),
            "play": format_cards(play),
        }
        out.append(json.dumps(query))
    return out


def rate(lines: list[str]) -> float:
    """Queries per second through a fresh service (its parse caches start empty)."""
    service = RulesService()
    start = time.perf_counter()
    for line in lines:
        answer = service.answer_line(line)
        if "error" in answer:
            raise SystemExit(f"query refused: {answer['error']}: {line}")
    return len(lines) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    throw_rates, unit_rates = [], []
    for run in range(args.runs):
        # Fresh queries each run: the rules core's caches must not see a repeat.
        throws = make_queries(args.queries, QQ_FOUR_DECK, args.seed + 2 * run)
        units = make_queries(args.queries, GUILIN_2009, args.seed + 2 * run + 1)
        throw_rates.append(rate(throws))
        unit_rates.append(rate(units))
        print(
            f"run {run + 1}: qq-four-deck throw follows {throw_rates[-1]:7,.0f}/s, "
            f"guilin unit follows {unit_rates[-1]:7,.0f}/s"
        )
    t, u = statistics.median(throw_rates), statistics.median(unit_rates)
    print(f"median of {args.runs} interleaved runs of {args.queries:,} queries each:")
    print(f"  qq-four-deck follows of a throw, 52-card hands: {t:7,.0f} queries/s (goal ≥ 3,000)")
    print(f"  guilin-2009 follows of a unit, 54-card hands:   {u:7,.0f} queries/s")
    print(f"  ratio throw / guilin: {t / u:.2f}")


if __name__ == "__main__":
    main()
