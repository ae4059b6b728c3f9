"""Benchmark of the rules core: classify, follow check, trick winner.

Run: ``uv run python tests/bench/bench_follow.py [--seed N] [--rounds N]``.
Not collected by pytest. Prints medians (and worst cases) in milliseconds, with the
profile cache warm (as in a running desk) and cold (cache cleared before each call).
Targets: median follow check < 1 ms; worst adversarial case < 50 ms. Each preset
(RULES 12: qq-four-deck with 52-card hands, three-deck with 39) is reported on its
own: unit follows, throw follows, throw checks and tricks led by a throw.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from referee_desk.rules.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from referee_desk.rules.follow import best_follow, check_follow
from referee_desk.rules.levels import ladder_of
from referee_desk.rules.profile import _run_table
from referee_desk.rules.ruleset import QQ_FOUR_DECK, THREE_DECK, Ruleset
from referee_desk.rules.throws import check_throw
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

SHAPES = [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6)]
SHAPES += [(3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]  # (each, length)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1e6


def random_context(rng: random.Random) -> TrumpContext:
    level = rng.choice([r for r in Rank if 3 <= r <= 14])
    trump = rng.choice([*Suit, None])
    return TrumpContext(level, trump)


def chain_cards(ctx: TrumpContext, suit: str) -> list[Card]:
    """The cards of one effective suit that can chain, in chain order."""
    cards = [c for c in DECK if ctx.effective_suit(c) == suit and ctx.chain_index(c) is not None]
    return sorted(cards, key=lambda c: ctx.chain_index(c))  # type: ignore[arg-type, return-value]


def random_lead(
    rng: random.Random, ctx: TrumpContext, each: int, length: int, suit: str | None = None
) -> tuple[Card, ...]:
    suits = [suit] if suit else ["trump", *(s.value for s in Suit if s != ctx.trump)]
    for _ in range(100):
        chain = chain_cards(ctx, rng.choice(suits))
        runs: list[list[Card]] = []
        for card in chain:
            if runs and ctx.chain_index(card) == ctx.chain_index(runs[-1][-1]) + 1:  # type: ignore[operator]
                runs[-1].append(card)
            else:
                runs.append([card])
        runs = [r for r in runs if len(r) >= length]
        if runs:
            run = rng.choice(runs)
            start = rng.randrange(len(run) - length + 1)
            lead = tuple(c for c in run[start : start + length] for _ in range(each))
            assert classify(lead, ctx) is not None
            return lead
    raise RuntimeError("no lead of that shape")


def deal(rng: random.Random) -> list[tuple[Card, ...]]:
    pack = list(DECK) * 4
    rng.shuffle(pack)
    return [tuple(pack[i * 54 : (i + 1) * 54]) for i in range(4)]


def random_play(rng: random.Random, ctx, lead, hand) -> tuple[Card, ...]:
    """Half the time the suggested legal play, else n random cards of the suit (or hand)."""
    if rng.random() < 0.5:
        return best_follow(lead, hand, ctx)
    suit = ctx.effective_suit(lead[0])
    held = [c for c in hand if ctx.effective_suit(c) == suit]
    pool = held if len(held) >= len(lead) else list(hand)
    return tuple(rng.sample(pool, len(lead)))


def report(name: str, samples: list[float]) -> None:
    samples.sort()
    print(
        f"{name:<46} n={len(samples):>5}  median {statistics.median(samples):7.3f} ms"
        f"  p95 {samples[int(0.95 * (len(samples) - 1))]:7.3f}  max {samples[-1]:7.3f}"
    )


def bench_classify(rng: random.Random, rounds: int) -> None:
    samples = []
    for _ in range(rounds):
        ctx = random_context(rng)
        each, length = rng.choice(SHAPES)
        cards = random_lead(rng, ctx, each, length) if rng.random() < 0.5 else rng.sample(DECK, 4)
        text = format_cards(cards)
        samples.append(timed(lambda text=text, ctx=ctx: classify(parse_cards(text), ctx)))
    report("parse + classify a play", samples)


def bench_random_hands(rng: random.Random, rounds: int, cold: bool) -> None:
    samples = []
    for _ in range(rounds):
        ctx = random_context(rng)
        hands = deal(rng)
        each, length = rng.choice(SHAPES)
        lead = random_lead(rng, ctx, each, length)
        hand = hands[1]
        play = random_play(rng, ctx, lead, hand)
        if cold:
            _run_table.cache_clear()
        samples.append(timed(partial(check_follow, lead, hand, play, ctx)))
    report(f"follow check, random 54-card hands ({'cold' if cold else 'warm'})", samples)


def adversarial_hand(rng: random.Random, ctx: TrumpContext, suit: str) -> tuple[Card, ...]:
    """54 cards: one suit packed with pairs, triples and bombs on every chain rank."""
    hand: list[Card] = []
    for card in chain_cards(ctx, suit):
        hand += [card] * rng.choice([2, 3, 4, 4])
    extras = [c for c in DECK if ctx.effective_suit(c) == suit and c not in hand]
    for card in extras:
        hand += [card] * rng.choice([2, 3, 4])
    others = [c for c in DECK if ctx.effective_suit(c) != suit] * 4
    hand += rng.sample(others, max(0, 54 - len(hand)))
    return tuple(hand[:54])


def bench_adversarial(rng: random.Random, rounds: int) -> None:
    warm: list[float] = []
    cold: list[float] = []
    worst = (0.0, "")
    shapes = [s for s in SHAPES if 2 <= s[0] * s[1] <= 12]
    for _ in range(rounds):
        ctx = random_context(rng)
        suit = rng.choice(["trump", *(s.value for s in Suit if s != ctx.trump)])
        hand = adversarial_hand(rng, ctx, suit)
        each, length = rng.choice(shapes)
        try:
            lead = random_lead(rng, ctx, each, length, suit)
        except RuntimeError:
            continue
        play = random_play(rng, ctx, lead, hand)
        _run_table.cache_clear()
        t = timed(partial(check_follow, lead, hand, play, ctx))
        cold.append(t)
        warm.append(timed(partial(check_follow, lead, hand, play, ctx)))
        if t > worst[0]:
            worst = (
                t,
                f"level {ctx.level.label} trump {ctx.trump_label}, lead {format_cards(lead)}",
            )
    report("follow check, adversarial suit (cold)", cold)
    report("follow check, adversarial suit (warm)", warm)
    print(f"  worst cold case {worst[0]:.3f} ms: {worst[1]}")


def bench_extreme() -> None:
    """Every ♥ chain rank a bomb (44 ♥ cards), 12-card leads of every shape, cold cache."""
    ctx = TrumpContext.of("10", "S")
    hand = parse_cards(" ".join(f"H{r}" for r in "3456789JQKA" for _ in range(4)))
    hand += parse_cards("S3 S4 S5 S6 C3 C4 C5 C6 D3 D4")
    leads = {
        "six-pair tractor": "H3 H3 H4 H4 H5 H5 H6 H6 H7 H7 H8 H8",
        "bulldozer 3x4": "H3 H3 H3 H4 H4 H4 H5 H5 H5 H6 H6 H6",
        "bulldozer 4x3": "H3 H3 H3 H3 H4 H4 H4 H4 H5 H5 H5 H5",
        "four-pair tractor": "H3 H3 H4 H4 H5 H5 H6 H6",
    }
    for name, lead_text in leads.items():
        lead = parse_cards(lead_text)
        play = hand[: len(lead)]
        samples = []
        for _ in range(20):
            _run_table.cache_clear()
            samples.append(timed(lambda lead=lead, play=play: check_follow(lead, hand, play, ctx)))
        report(f"extreme: 44 ♥ bombs, {name} lead (cold)", samples)


def bench_trick(rng: random.Random, rounds: int) -> None:
    samples = []
    for _ in range(rounds):
        ctx = random_context(rng)
        each, length = rng.choice(SHAPES)
        plays = [random_lead(rng, ctx, each, length) for _ in range(4)]
        samples.append(timed(lambda plays=plays, ctx=ctx: trick_winner(plays, ctx)))
    report("trick winner, four plays", samples)


# ------------------------------------------------------------------ the presets (RULES 12)


def preset_context(rng: random.Random, ruleset: Ruleset) -> TrumpContext:
    level = rng.choice(ladder_of(ruleset))
    trump = rng.choice([*Suit, None])
    return TrumpContext.for_ruleset(level, "NT" if trump is None else trump.value, ruleset)


def preset_deal(rng: random.Random, ruleset: Ruleset) -> list[tuple[Card, ...]]:
    """Four hands of ``ruleset.hand_size`` cards (52 / 39), the kitty left out."""
    pack = list(DECK) * ruleset.decks
    rng.shuffle(pack)
    size = ruleset.hand_size
    return [tuple(pack[i * size : (i + 1) * size]) for i in range(4)]


def preset_throw(rng: random.Random, ctx: TrumpContext, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """A throw from the leader's hand: 2 to 8 cards of one suit that are not one unit."""
    by_suit: dict[str, list[Card]] = {}
    for card in hand:
        by_suit.setdefault(ctx.effective_suit(card), []).append(card)
    suits = [s for s, cards in by_suit.items() if len(cards) >= 3]
    for _ in range(50):
        cards = by_suit[rng.choice(suits)]
        lead = tuple(rng.sample(cards, rng.randint(2, min(8, len(cards)))))
        if classify(lead, ctx) is None:
            return lead
    raise RuntimeError("no throw")


def preset_play(rng: random.Random, ctx, lead, hand, ruleset) -> tuple[Card, ...]:
    if rng.random() < 0.5:
        return best_follow(lead, hand, ctx, ruleset)
    suit = ctx.effective_suit(lead[0])
    held = [c for c in hand if ctx.effective_suit(c) == suit]
    pool = held if len(held) >= len(lead) else list(hand)
    return tuple(rng.sample(pool, len(lead)))


def bench_preset(rng: random.Random, rounds: int, ruleset: Ruleset) -> None:
    unit_follow: list[float] = []
    throw_follow: list[float] = []
    throw_check: list[float] = []
    throw_trick: list[float] = []
    worst = (0.0, "")
    shapes = [s for s in SHAPES if s[0] <= ruleset.decks]
    for _ in range(rounds):
        ctx = preset_context(rng, ruleset)
        hands = preset_deal(rng, ruleset)
        each, length = rng.choice(shapes)
        try:
            lead = random_lead(rng, ctx, each, length)
        except (RuntimeError, AssertionError):
            lead = None
        if lead is not None:
            play = preset_play(rng, ctx, lead, hands[1], ruleset)
            unit_follow.append(timed(partial(check_follow, lead, hands[1], play, ctx, ruleset)))
        throw = preset_throw(rng, ctx, hands[0])
        play = preset_play(rng, ctx, throw, hands[1], ruleset)
        t = timed(partial(check_follow, throw, hands[1], play, ctx, ruleset))
        throw_follow.append(t)
        if t > worst[0]:
            worst = (
                t,
                f"level {ctx.level.label} trump {ctx.trump_label}, throw {format_cards(throw)}",
            )
        throw_check.append(timed(partial(check_throw, throw, hands[2], ctx)))
        plays = [throw, *(preset_play(rng, ctx, throw, h, ruleset) for h in hands[1:])]
        throw_trick.append(timed(partial(trick_winner, plays, ctx, ruleset=ruleset)))
    size = ruleset.hand_size
    report(f"{ruleset.name}: follow a unit, {size}-card hands", unit_follow)
    report(f"{ruleset.name}: follow a throw, {size}-card hands", throw_follow)
    print(f"  worst throw follow {worst[0]:.3f} ms: {worst[1]}")
    report(f"{ruleset.name}: throw check against a {size}-card hand", throw_check)
    report(f"{ruleset.name}: trick winner against a throw", throw_trick)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"seed {args.seed}, rounds {args.rounds}")
    bench_classify(rng, args.rounds)
    bench_random_hands(rng, args.rounds, cold=False)
    bench_random_hands(rng, args.rounds, cold=True)
    bench_adversarial(rng, max(200, args.rounds // 4))
    bench_extreme()
    bench_trick(rng, args.rounds)
    for ruleset in (QQ_FOUR_DECK, THREE_DECK):
        bench_preset(rng, max(200, args.rounds // 2), ruleset)


if __name__ == "__main__":
    main()
