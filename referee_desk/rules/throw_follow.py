"""Following a standing throw (RULES.md 12.4).

Short in the throw's suit: play everything in it, then anything (as 5.1). Otherwise
the play's key is the vector of section-5 keys, one per component in component
order, of the best split of the play into parts of the components' sizes; the play
must reach the greatest vector the holding allows: "meet the largest component's duty
as well as the holding allows, then the next one's with what is left, and so on".

The holding's duty is computed that way, component by component with what is left
(the strand DP of ``profile.best_selection`` per component). A play's vector is first
taken the same way; only when that falls short is the exact split of the play
searched, so a legal play is never refused for the order in which its parts were
found. A triple component is spared (4.5) when the whole holding has no triple and
every pair of it is in a tractor.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee_desk.rules.cards import Card, format_cards
from referee_desk.rules.follow_key import key_of
from referee_desk.rules.follow_text import TUPLE_LEADS, FollowVerdict, Key, n_cards, suit_label
from referee_desk.rules.profile import (
    best_selection,
    chains_of,
    count_cards,
    has_free_pair,
    pair_profile,
    tuple_size,
)
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.throws import Throw
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import Unit, UnitKind

#: A duty vector: one key per component, None where any cards do (single, 4.5).
Duty = tuple[Key | None, ...]

#: Parts tried at most by the exact search (about 0.3 s); past it the greedy reading.
_SEARCH_LIMIT = 20_000

RULE = "12.4"


def component_key(cards: tuple[Card, ...], component: Unit, ctx: TrumpContext) -> Key | None:
    """The section-5 key of a part played against one component (None for a single)."""
    if component.kind is UnitKind.SINGLE:
        return None
    return key_of(cards, component, ctx)


def _best_part(
    cards: list[Card], component: Unit, ctx: TrumpContext
) -> tuple[Key | None, tuple[Card, ...]]:
    """The greatest key ``component.size`` of these cards reach, and cards reaching it."""
    n = component.size
    if component.kind is UnitKind.SINGLE:
        return None, ()
    counts = count_cards(cards)
    if component.kind in TUPLE_LEADS:
        tau = min(max(counts.values()), component.each)
        selection = best_selection(cards, ctx, n, tau)
        assert selection is not None
        return (tau, selection.profile), selection.cards
    if component.kind is UnitKind.BULLDOZER:
        chains = chains_of(cards, ctx, component.each, component.length)
        if chains:
            return (1, pair_profile(chains[-1], ctx)), chains[-1]
    selection = best_selection(cards, ctx, n)
    assert selection is not None
    return (0, selection.profile), selection.cards


def _take(pool: list[Card], cards: tuple[Card, ...]) -> list[Card]:
    left = list(pool)
    for card in cards:
        left.remove(card)
    return left


def _greedy(
    cards: list[Card], throw: Throw, ctx: TrumpContext, spared: frozenset[int]
) -> tuple[Duty, tuple[Card, ...]]:
    """Component by component with what is left: the duty vector and one play."""
    weak = ctx.tables.weak_of
    pool = list(cards)
    duty: list[Key | None] = []
    chosen: list[Card] = []
    key: Key | None
    part: tuple[Card, ...]
    for i, component in enumerate(throw.components):
        if i in spared:
            key, part = None, ()
        else:
            key, part = _best_part(pool, component, ctx)
        pool = _take(pool, part)
        fill = sorted(pool, key=weak.__getitem__)[: component.size - len(part)]
        pool = _take(pool, tuple(fill))
        duty.append(key)
        chosen.extend(part)
        chosen.extend(fill)
    return tuple(duty), tuple(chosen)


def _reaches(play: Duty, need: Duty) -> bool:
    """Lexicographic ≥, components without a duty skipped."""
    for got, want in zip(play, need, strict=True):
        if want is None or got is None:
            continue
        if got != want:
            return got > want
    return True


def _sub_multisets(items: list[tuple[Card, int]], size: int) -> Iterator[tuple[Card, ...]]:
    if size == 0:
        yield ()
        return
    if not items or sum(k for _, k in items) < size:
        return
    (card, count), rest = items[0], items[1:]
    for take in range(min(count, size), -1, -1):
        for tail in _sub_multisets(rest, size - take):
            yield (card,) * take + tail


#: One part of a plan: the cards taken that are not blanks, and how many blanks.
_Part = tuple[tuple[Card, ...], int]


def _blanks(counts: dict[Card, int], ctx: TrumpContext) -> list[Card]:
    """Cards held once: they join no pair in any part, so any of them serves as any other."""
    weak = ctx.tables.weak_of
    return sorted((c for c, k in counts.items() if k == 1), key=weak.__getitem__)


def _exact(
    cards: tuple[Card, ...] | list[Card],
    throw: Throw,
    ctx: TrumpContext,
    spared: frozenset[int],
) -> tuple[Duty, tuple[Card, ...]] | None:
    """The greatest duty vector over disjoint parts of these cards, one per component of
    the component's size, compared component by component, and cards reaching it (None
    past the search limit).

    Each component keeps only the parts of its greatest key, then the next component is
    judged on what is left: "the next one's with what is left". Cards held once are
    interchangeable blanks, so the parts differ only in the cards held more than once.
    """
    budget = [_SEARCH_LIMIT]
    memo: dict[tuple[tuple[tuple[int, int], ...], int, int], tuple[Duty, tuple[_Part, ...]] | None]
    memo = {}
    components = throw.components

    def search(counts: dict[Card, int], i: int) -> tuple[Duty, tuple[_Part, ...]] | None:
        if i == len(components):
            return (), ()
        rest_components = components[i:]
        blanks = _blanks(counts, ctx)
        if all(u.kind is UnitKind.SINGLE for u in rest_components):
            return (None,) * len(rest_components), ()  # singles carry no duty
        shared = tuple(sorted((c.index, k) for c, k in counts.items() if k > 1))
        memo_key = (shared, len(blanks), i)
        if memo_key in memo:
            return memo[memo_key]
        component = components[i]
        items = sorted(((c, k) for c, k in counts.items() if k > 1), key=lambda ck: ck[0].index)
        options: list[tuple[Key | None, _Part]] = []
        for take in range(min(len(blanks), component.size), -1, -1):
            for part in _sub_multisets(items, component.size - take):
                budget[0] -= 1
                if budget[0] < 0:
                    memo[memo_key] = None
                    return None
                cards_of_part = part + tuple(blanks[:take])
                key = None if i in spared else component_key(cards_of_part, component, ctx)
                options.append((key, (part, take)))
        if not options:  # fewer cards than the components need
            memo[memo_key] = None
            return None
        top = max((k for k, _ in options if k is not None), default=None)
        best: tuple[Duty, tuple[_Part, ...]] | None = None
        for key, (part, take) in options:
            if key != top:
                continue
            left = dict(counts)
            for card in (*part, *blanks[:take]):
                left[card] -= 1
                if not left[card]:
                    del left[card]
            rest = search(left, i + 1)
            if rest is None:
                if budget[0] < 0:
                    memo[memo_key] = None
                    return None
                continue
            candidate: tuple[Duty, tuple[_Part, ...]] = ((key, *rest[0]), ((part, take), *rest[1]))
            if best is None or (_reaches(candidate[0], best[0]) and candidate[0] != best[0]):
                best = candidate
        memo[memo_key] = best
        return best

    found = search(count_cards(cards), 0)
    if found is None:
        return None
    duty, plan = found
    pool = count_cards(cards)
    chosen: list[Card] = []
    for part, take in plan:  # the plan's blanks, as cards of this pool
        blanks = _blanks(pool, ctx)
        for card in (*part, *blanks[:take]):
            pool[card] -= 1
            if not pool[card]:
                del pool[card]
            chosen.append(card)
    weak = ctx.tables.weak_of
    left = sorted((c for c, k in pool.items() for _ in range(k)), key=weak.__getitem__)
    chosen.extend(left[: throw.size - len(chosen)])  # the trailing singles' cards
    return duty, tuple(chosen)


def _duty(
    held: list[Card], throw: Throw, ctx: TrumpContext, spared: frozenset[int]
) -> tuple[Duty, tuple[Card, ...]]:
    """The holding's duty and one play meeting it: the exact search, or past its limit
    the component-by-component greedy reading (never stricter than the exact one)."""
    found = _exact(held, throw, ctx, spared)
    if found is not None:
        return found
    return _greedy(held, throw, ctx, spared)


def _spared(throw: Throw, held: list[Card], ctx: TrumpContext, ruleset: Ruleset) -> frozenset[int]:
    """Triple components spared by 4.5, judged on the whole holding."""
    if not ruleset.triple_lead_spares_tractors:
        return frozenset()
    if tuple_size(held) >= 3 or has_free_pair(held, ctx):
        return frozenset()
    return frozenset(i for i, u in enumerate(throw.components) if u.kind is UnitKind.TRIPLE)


def check_throw_follow(
    throw: Throw,
    hand_cards: tuple[Card, ...],
    play_cards: tuple[Card, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowVerdict:
    """Judge a follow to a standing throw (the hand and play already checked)."""
    suit_of = ctx.tables.suit_of
    suit = throw.suit
    label = suit_label(suit)
    n = throw.size
    held = [c for c in hand_cards if suit_of[c] == suit]
    in_play = [c for c in play_cards if suit_of[c] == suit]
    if len(held) <= n:
        if len(in_play) == len(held):
            if not held:
                return FollowVerdict(True, RULE, f"void in {label}: any {n} cards may be played")
            return FollowVerdict(True, RULE, f"plays all {n_cards(len(held), label)} held")
        weak = ctx.tables.weak_of
        rest = _take(list(hand_cards), tuple(held))
        example = tuple(ctx.sorted([*held, *sorted(rest, key=weak.__getitem__)[: n - len(held)]]))
        return FollowVerdict(
            False,
            RULE,
            f"holds {n_cards(len(held), label)} ({format_cards(ctx.sorted(held))}) and must "
            f"play all of them against the throw",
            example,
        )
    spared = _spared(throw, held, ctx, ruleset)
    need, example = _duty(held, throw, ctx, spared)
    example = tuple(ctx.sorted(list(example)))
    if len(in_play) != n:
        return FollowVerdict(
            False,
            RULE,
            f"holds {n_cards(len(held), label)} and must play {n} of them against the throw; "
            f"played {format_cards([c for c in play_cards if suit_of[c] != suit])} from outside "
            f"{label}",
            example,
        )
    got, _ = _greedy(list(play_cards), throw, ctx, spared)
    if not _reaches(got, need):
        exact = _exact(play_cards, throw, ctx, spared)
        if exact is not None:
            got = exact[0]
    if _reaches(got, need):
        return FollowVerdict(
            True, RULE, f"meets each component of the throw {throw.describe()} as held"
        )
    return FollowVerdict(
        False,
        RULE,
        f"must meet each component of the throw {throw.describe()} as well as the {label} "
        f"cards held allow (e.g. {format_cards(example)})",
        example,
    )


def best_throw_follow(
    throw: Throw, hand_cards: tuple[Card, ...], ctx: TrumpContext, ruleset: Ruleset
) -> tuple[Card, ...]:
    """One legal follow to the throw (the play suggested as ``instead``)."""
    suit_of = ctx.tables.suit_of
    held = [c for c in hand_cards if suit_of[c] == throw.suit]
    if len(held) <= throw.size:
        weak = ctx.tables.weak_of
        rest = _take(list(hand_cards), tuple(held))
        extra = sorted(rest, key=weak.__getitem__)[: throw.size - len(held)]
        return tuple(ctx.sorted([*held, *extra]))
    _need, example = _duty(held, throw, ctx, _spared(throw, held, ctx, ruleset))
    return tuple(ctx.sorted(list(example)))
