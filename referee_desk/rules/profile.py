"""Pair profile P(F), tuple size T(F) and the best n-card selection (RULES.md section 5).

P(F) splits F into units and lists their pair-units, greatest list first. Every unit
is a *strand*: ``k`` consecutive ranks of ``t`` identical cards (t = 2, 3, 4; k = 1
gives pair, triple, bomb) worth ⌊t·k/2⌋ pair-units. Lists compare lexicographically
with an extension greater, which is exactly the order of sums of BASE**value when
BASE exceeds the number of units; so the greatest profile is a maximum-weight
packing of strands and is found by dynamic programming over each run of
consecutive ranks holding two or more cards (never by trying subsets).

Per run the DP walks the ranks in chain order; its state is the set of open strands
(at most two, since a rank holds at most four identical cards), the cards used so far
and whether the required tuple (T(F) ≥ τ) is in. States that use more cards for no
more weight are dropped. Runs are then combined by a knapsack over cards used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Literal, TypeAlias

from referee_desk.rules.cards import Card
from referee_desk.rules.trump import TrumpContext

#: Radix of the profile weight; greater than the number of units in any card set.
BASE = 1 << 8

#: A strand of a run: ``(start, each, length)``.
Strand: TypeAlias = tuple[int, int, int]
#: The cards of one rank taken to make the required tuple: ``("tuple", position, take)``.
TupleTake: TypeAlias = tuple[Literal["tuple"], int, int]
#: The cards taken from each card of a hub position: ``("load", position, loads)``.
HubLoad: TypeAlias = tuple[Literal["load"], int, tuple[int, ...]]
PlanItem: TypeAlias = Strand | TupleTake | HubLoad
#: One run's plan, a linked list (cheap to extend in the DP): (item, previous plan) or None.
Plan: TypeAlias = "tuple[PlanItem, Plan] | None"
#: The plan of several runs: ((run index, its plan), previous) or None.
RunsPlan: TypeAlias = "tuple[tuple[int, Plan], RunsPlan] | None"
_TableValue: TypeAlias = tuple[int, Plan]
#: Open strands of the DP: ``(each, start)``, sorted.
_Config: TypeAlias = tuple[tuple[int, int], ...]
_State: TypeAlias = tuple[_Config, int, bool]


def unit_value(each: int, length: int) -> int:
    """Pair-units of one unit: tractor k → k, bomb → 2, bulldozer → ⌊t·k/2⌋, pair/triple → 1."""
    return each * length // 2


def profile_of_score(score: int) -> tuple[int, ...]:
    """Decode a weight (sum of BASE**value) into the descending profile list."""
    out: list[int] = []
    value = 0
    while score:
        score, digit = divmod(score, BASE)
        out.extend([value] * digit)
        value += 1
    out.reverse()
    return tuple(out)


def count_cards(cards: Iterable[Card]) -> dict[Card, int]:
    """Copies of each card, in first-seen order (a plain dict: cheaper than Counter)."""
    counts: dict[Card, int] = {}
    get = counts.get
    for card in cards:
        counts[card] = get(card, 0) + 1
    return counts


def tuple_size(cards: Iterable[Card]) -> int:
    """T(F): the largest number of identical cards in F (0 for no cards)."""
    return max(count_cards(cards).values(), default=0)


# --------------------------------------------------------------------------- runs


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive ranks (chain order) each holding ≥ 2 identical cards of one suit.

    ``hub`` is set when some position holds several distinct cards of equal chain
    index (12.2: off-suit level pairs of different suits; each links to both
    neighbours but not to each other): then ``hub[i]`` lists position i's cards and
    ``hub_counts[i]`` their copies, and ``cards``/``counts`` give each position's
    first card and the position's total.
    """

    cards: tuple[Card, ...]
    counts: tuple[int, ...]
    hub: tuple[tuple[Card, ...], ...] | None = None
    hub_counts: tuple[tuple[int, ...], ...] | None = None

    @property
    def most(self) -> int:
        """The most identical cards any card of the run has."""
        if self.hub_counts is None:
            return max(self.counts)
        return max(max(k) for k in self.hub_counts)


def runs_of(cards: Iterable[Card], ctx: TrumpContext) -> list[Run]:
    """Split cards into runs; level cards, 2s and lone joker ranks are runs of one."""
    counts = count_cards(cards)
    by_suit: dict[str, list[tuple[int, Card, int]]] = {}
    runs: list[Run] = []
    tables = ctx.tables
    chain = tables.chain
    suit = tables.suit
    for card, count in counts.items():
        if count < 2:
            continue
        index = chain[card.index]
        if index is None:
            runs.append(Run((card,), (count,)))
        else:
            by_suit.setdefault(suit[card.index], []).append((index, card, count))
    for items in by_suit.values():
        items.sort(key=lambda item: (item[0], item[1].index))
        groups: list[list[tuple[int, Card, int]]] = []
        previous = None
        for item in items:
            if previous is not None and item[0] == previous:
                groups[-1].append(item)
            else:
                groups.append([item])
            previous = item[0]
        current: list[list[tuple[int, Card, int]]] = []
        for group in groups:
            if current and group[0][0] != current[-1][0][0] + 1:
                runs.append(_run_of(current))
                current = []
            current.append(group)
        if current:
            runs.append(_run_of(current))
    return runs


def _run_of(groups: list[list[tuple[int, Card, int]]]) -> Run:
    cards = tuple(g[0][1] for g in groups)
    if all(len(g) == 1 for g in groups):
        return Run(cards, tuple(g[0][2] for g in groups))
    return Run(
        cards,
        tuple(sum(item[2] for item in g) for g in groups),
        tuple(tuple(item[1] for item in g) for g in groups),
        tuple(tuple(item[2] for item in g) for g in groups),
    )


# ------------------------------------------------------------------- the run DP


@cache
def _opening_options(free: int) -> tuple[tuple[int, ...], ...]:
    """Multisets of new strand widths (2, 3, 4) that fit in ``free`` cards."""
    options: list[tuple[int, ...]] = [()]

    def extend(prefix: tuple[int, ...], smallest: int, left: int) -> None:
        for width in (2, 3, 4):
            if width >= smallest and width <= left:
                item = (*prefix, width)
                options.append(item)
                extend(item, width, left - width)

    extend((), 2, free)
    return tuple(options)


def _prune(states: dict[_State, _TableValue]) -> dict[_State, _TableValue]:
    """Keep, per (open strands, tuple flag), only states that buy weight with cards."""
    groups: dict[tuple[_Config, bool], list[tuple[int, _TableValue]]] = {}
    for (config, used, flag), value in states.items():
        groups.setdefault((config, flag), []).append((used, value))
    out: dict[_State, _TableValue] = {}
    for (config, flag), items in groups.items():
        items.sort(key=lambda item: item[0])
        best = -1
        for used, value in items:
            if value[0] > best:
                out[(config, used, flag)] = value
                best = value[0]
    return out


@lru_cache(maxsize=65536)
def _run_table(counts: tuple[int, ...], cap: int, tau: int) -> dict[tuple[int, bool], _TableValue]:
    """Best (weight, plan) per (cards used ≤ cap, tuple flag) for one run.

    Plan items: ``(start, each, length)`` strands and ``("tuple", position, take)``
    where ``take`` cards of that rank are in F (strand cards included) to reach τ.
    """
    states: dict[_State, _TableValue] = {((), 0, False): (0, None)}
    size = len(counts)
    for i in range(size + 1):
        have = counts[i] if i < size else 0
        new: dict[_State, _TableValue] = {}
        for (config, used, flag), (score, plan) in states.items():
            n_open = len(config)
            for mask in range(1 << n_open):
                load = 0
                kept: list[tuple[int, int]] = []
                s, p = score, plan
                for j, (each, start) in enumerate(config):
                    if mask >> j & 1:
                        kept.append((each, start))
                        load += each
                    else:
                        s += BASE ** unit_value(each, i - start)
                        p = ((start, each, i - start), p)
                if load > have:
                    continue
                for opening in _opening_options(have - load):
                    here = load + sum(opening)
                    cfg = tuple(sorted(kept + [(w, i) for w in opening]))
                    u = used + here
                    if u <= cap:
                        key = (cfg, u, flag)
                        old = new.get(key)
                        if old is None or old[0] < s:
                            new[key] = (s, p)
                    if tau >= 2 and not flag and have >= tau:
                        take = max(tau, here)
                        u = used + take
                        if u <= cap:
                            key = (cfg, u, True)
                            old = new.get(key)
                            if old is None or old[0] < s:
                                new[key] = (s, (("tuple", i, take), p))
        states = _prune(new)
    table: dict[tuple[int, bool], _TableValue] = {}
    for (_config, used, flag), value in states.items():
        table[(used, flag)] = value
    return table


def _assignments(widths: tuple[int, ...], have: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Per-card loads of strands of these widths, each placed on one card of a hub."""
    out: set[tuple[int, ...]] = set()

    def place(k: int, loads: tuple[int, ...]) -> None:
        if k == len(widths):
            out.add(loads)
            return
        for j, cap in enumerate(have):
            if loads[j] + widths[k] <= cap:
                place(k + 1, (*loads[:j], loads[j] + widths[k], *loads[j + 1 :]))

    place(0, (0,) * len(have))
    return out


@lru_cache(maxsize=16384)
def _hub_run_table(
    slots: tuple[tuple[int, ...], ...], cap: int, tau: int
) -> dict[tuple[int, bool], _TableValue]:
    """``_run_table`` for a run with hub positions (several cards of one chain index).

    A strand through a hub position uses one of its cards; different strands may use
    different cards. Plan items: strands as in ``_run_table`` and ``("load", i, loads)``
    with the cards taken from each card of position i (tuple cards included).
    """
    states: dict[_State, _TableValue] = {((), 0, False): (0, None)}
    size = len(slots)
    for i in range(size + 1):
        have = slots[i] if i < size else ()
        new: dict[_State, _TableValue] = {}
        for (config, used, flag), (score, plan) in states.items():
            n_open = len(config)
            for mask in range(1 << n_open):
                kept: list[tuple[int, int]] = []
                s, p = score, plan
                for j, (each, start) in enumerate(config):
                    if mask >> j & 1:
                        kept.append((each, start))
                    else:
                        s += BASE ** unit_value(each, i - start)
                        p = ((start, each, i - start), p)
                if kept and not have:
                    continue
                for loads in _assignments(tuple(e for e, _ in kept), have):
                    per_slot = [
                        _opening_options(h - load) for h, load in zip(have, loads, strict=True)
                    ]
                    for opens in product(*per_slot):
                        slot_loads = tuple(
                            load + sum(o) for load, o in zip(loads, opens, strict=True)
                        )
                        here = sum(slot_loads)
                        cfg = tuple(sorted(kept + [(w, i) for o in opens for w in o]))
                        u = used + here
                        if u <= cap:
                            key = (cfg, u, flag)
                            old = new.get(key)
                            if old is None or old[0] < s:
                                new[key] = (s, (("load", i, slot_loads), p) if here else p)
                        if tau >= 2 and not flag:
                            for j, h in enumerate(have):
                                if h < tau:
                                    continue
                                take = max(tau, slot_loads[j])
                                u2 = used + here - slot_loads[j] + take
                                if u2 > cap:
                                    continue
                                loads2 = (*slot_loads[:j], take, *slot_loads[j + 1 :])
                                key = (cfg, u2, True)
                                old = new.get(key)
                                if old is None or old[0] < s:
                                    new[key] = (s, (("load", i, loads2), p))
        states = _prune(new)
    table: dict[tuple[int, bool], _TableValue] = {}
    for (_config, used, flag), value in states.items():
        table[(used, flag)] = value
    return table


def _combine(
    tables: list[tuple[int, dict[tuple[int, bool], _TableValue]]], cap: int
) -> dict[tuple[int, bool], tuple[int, RunsPlan]]:
    """Knapsack over runs: best (weight, [(run, plan)]) per (cards used, flag)."""
    best: dict[tuple[int, bool], tuple[int, RunsPlan]] = {(0, False): (0, None)}
    for run_id, table in tables:
        new: dict[tuple[int, bool], tuple[int, RunsPlan]] = {}
        for (u1, f1), (s1, p1) in best.items():
            for (u2, f2), (s2, p2) in table.items():
                u = u1 + u2
                if u > cap:
                    continue
                key = (u, f1 or f2)
                s = s1 + s2
                old = new.get(key)
                if old is None or old[0] < s:
                    new[key] = (s, ((run_id, p2), p1) if p2 is not None else p1)
        # prune: per flag keep entries whose weight grows with cards used
        pruned: dict[tuple[int, bool], tuple[int, RunsPlan]] = {}
        for flag in (False, True):
            top = -1
            for used in sorted(u for (u, f) in new if f is flag):
                value = new[(used, flag)]
                if value[0] > top:
                    pruned[(used, flag)] = value
                    top = value[0]
        best = pruned
    return best


# ------------------------------------------------------------------ public API


@dataclass(frozen=True, slots=True)
class Selection:
    """The best units found within a card budget.

    ``cards`` are the unit cards (and the cards that make the required tuple);
    any other cards may be added to reach the budget without lowering the profile.
    """

    profile: tuple[int, ...]
    cards: tuple[Card, ...]


def best_selection(
    cards: Iterable[Card], ctx: TrumpContext, capacity: int, tuple_needed: int = 0
) -> Selection | None:
    """The greatest P(F) over sets F of at most ``capacity`` of these cards.

    With ``tuple_needed`` = τ ≥ 2, only sets holding τ identical cards count; None
    when no such set exists within the budget.
    """
    runs = runs_of(cards, ctx)
    need = tuple_needed if tuple_needed >= 2 else 0
    tables = []
    for run_id, run in enumerate(runs):
        cap = min(capacity, sum(run.counts))
        tau = need if need and run.most >= need else 0
        if run.hub_counts is None:
            tables.append((run_id, _run_table(run.counts, cap, tau)))
        else:
            tables.append((run_id, _hub_run_table(run.hub_counts, cap, tau)))
    combined = _combine(tables, capacity)
    candidates = [
        (value[0], used, value[1]) for (used, flag), value in combined.items() if flag or not need
    ]
    if not candidates:
        return None
    score, _used, plan = max(candidates, key=lambda item: (item[0], -item[1]))
    return Selection(profile_of_score(score), _plan_cards(runs, plan))


def _plan_cards(runs: list[Run], plan: RunsPlan) -> tuple[Card, ...]:
    taken: dict[Card, int] = {}
    while plan is not None:
        (run_id, run_plan), plan = plan
        run = runs[run_id]
        if run.hub is not None:
            while run_plan is not None:
                item, run_plan = run_plan
                if item[0] == "load":
                    for card, k in zip(run.hub[item[1]], item[2], strict=True):
                        if k:
                            taken[card] = taken.get(card, 0) + k
            continue
        load: Counter[int] = Counter()
        tuple_take: dict[int, int] = {}
        while run_plan is not None:
            item, run_plan = run_plan
            if item[0] == "tuple":
                tuple_take[item[1]] = item[2]
            elif item[0] != "load":  # loads are only in hub runs: this is a strand
                start, each, length = item
                for pos in range(start, start + length):
                    load[pos] += each
        for pos in set(load) | set(tuple_take):
            card = run.cards[pos]
            taken[card] = taken.get(card, 0) + max(load[pos], tuple_take.get(pos, 0))
    return tuple(card for card, count in taken.items() for _ in range(count))


def _hub_chains(run: Run, each: int, length: int) -> list[tuple[Card, ...]]:
    """``chains_of`` inside a hub run: one card per position, low to high."""
    assert run.hub is not None and run.hub_counts is not None
    out: list[tuple[Card, ...]] = []
    for start in range(len(run.hub) - length + 1):
        paths: list[tuple[Card, ...]] = [()]
        for pos in range(start, start + length):
            options = [
                c for c, k in zip(run.hub[pos], run.hub_counts[pos], strict=True) if k >= each
            ]
            paths = [(*path, c) for path in paths for c in options]
        out.extend(tuple(c for c in path for _ in range(each)) for path in paths)
    return out


def pair_profile(cards: Iterable[Card], ctx: TrumpContext) -> tuple[int, ...]:
    """P(F): the greatest descending list of pair-units over all splits of F into units."""
    cards = tuple(cards)
    selection = best_selection(cards, ctx, len(cards))
    assert selection is not None
    return selection.profile


def has_free_pair(cards: Iterable[Card], ctx: TrumpContext) -> bool:
    """Does a rank hold a pair that is not part of a tractor or bulldozer (4.5)?"""
    return any(len(run.counts) == 1 for run in runs_of(cards, ctx))


def chains_of(
    cards: Iterable[Card], ctx: TrumpContext, each: int, length: int
) -> list[tuple[Card, ...]]:
    """Every way to take ``length`` consecutive ranks of ``each`` identical cards."""
    out: list[tuple[Card, ...]] = []
    for run in runs_of(cards, ctx):
        if run.hub is not None:
            out.extend(_hub_chains(run, each, length))
            continue
        for start in range(len(run.counts) - length + 1):
            window = run.counts[start : start + length]
            if min(window) >= each:
                out.append(tuple(c for c in run.cards[start : start + length] for _ in range(each)))
    return out
