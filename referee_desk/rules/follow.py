"""Following a lead (RULES.md section 5; Guilin chapter 4).

The lead has n cards in effective suit s; H is the follower's cards in s. Short in
s (|H| ≤ n): play all of H plus anything. Otherwise play n cards of H whose key is
the greatest any n cards of H reach. The greatest key comes from the strand DP of
``profile.best_selection``; a play is checked by computing its own key.

``check_follow`` gives a verdict a referee can read; ``is_legal_follow`` and the lazy
``legal_follows`` mirror python-chess's ``is_legal`` beside ``legal_moves``. The
values and their wording live in ``follow_text``, the no-search fast paths in
``follow_fast``; both are re-exported here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from referee_desk.rules.cards import Card, format_cards
from referee_desk.rules.errors import IllegalInputError
from referee_desk.rules.follow_fast import is_top_follow
from referee_desk.rules.follow_fast import quick_verdict as _quick_verdict
from referee_desk.rules.follow_key import key_of
from referee_desk.rules.follow_text import (
    TUPLE_LEADS,
    FollowMode,
    FollowRequirement,
    FollowVerdict,
    Key,
    describe_key,
    describe_profile,
    lead_article,
    suit_label,
)
from referee_desk.rules.follow_text import n_cards as _n_cards
from referee_desk.rules.profile import (
    best_selection,
    chains_of,
    count_cards,
    has_free_pair,
    pair_profile,
)
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.throw_follow import best_throw_follow, check_throw_follow
from referee_desk.rules.throws import as_throw
from referee_desk.rules.trick import lead_unit
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify

__all__ = [
    "GUILIN",
    "FollowMode",
    "FollowRequirement",
    "FollowVerdict",
    "Key",
    "best_follow",
    "check_follow",
    "classify",
    "describe_key",
    "describe_profile",
    "follow_requirement",
    "is_legal_follow",
    "is_top_follow",
    "key_of",
    "lead_article",
    "legal_follows",
    "required_shape",
    "suit_label",
]

#: The default ruleset (Guilin 2009).
GUILIN = GUILIN_2009


def _hand_counter(hand: tuple[Card, ...], ruleset: Ruleset) -> dict[Card, int]:
    counts = count_cards(hand)
    if not counts or max(counts.values()) <= ruleset.decks:
        return counts
    seen: dict[Card, int] = {}  # find the first card over the limit, to name its position
    for position, card in enumerate(hand, start=1):
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > ruleset.decks:
            raise IllegalInputError(
                f"hand: card {position}: {card} appears {seen[card]} times; {ruleset.decks} "
                f"decks hold it only {ruleset.decks} times (1.4)"
            )
    return counts


def _weak_first(cards: Iterable[Card], ctx: TrumpContext) -> list[Card]:
    """Cards a follower most easily gives away: side suits before trumps, low first."""
    return sorted(cards, key=ctx.tables.weak_of.__getitem__)


def _fill(
    base: tuple[Card, ...], pool: dict[Card, int], need: int, ctx: TrumpContext
) -> tuple[Card, ...]:
    rest = _missing(pool, count_cards(base))
    extra = _weak_first(rest, ctx)[:need]
    return tuple(ctx.sorted([*base, *extra]))


def follow_requirement(
    lead: Iterable[Card],
    hand: Iterable[Card],
    ctx: TrumpContext,
    ruleset: Ruleset = GUILIN,
) -> FollowRequirement:
    """What section 5 requires of a follower holding ``hand`` (the whole hand)."""
    lead_cards = tuple(lead)
    hand_cards = tuple(hand)
    unit = lead_unit(lead_cards, ctx)
    hand_counts = _hand_counter(hand_cards, ruleset)
    return _requirement(unit, hand_cards, hand_counts, ctx, ruleset)


#: Alias in the vocabulary of the issue: the shape a follower must play.
required_shape = follow_requirement


def _requirement(
    unit: Unit,
    hand_cards: tuple[Card, ...],
    hand_counts: dict[Card, int],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowRequirement:
    n = unit.size
    rule = lead_article(unit)
    suit_of = ctx.tables.suit_of
    suit = unit.suit
    held = tuple(ctx.sorted([c for c in hand_cards if suit_of[c] == suit]))
    if len(hand_cards) < n:
        raise IllegalInputError(f"the hand holds {len(hand_cards)} cards; the lead has {n}")
    if len(held) <= n:
        example = _fill(held, hand_counts, n - len(held), ctx)
        return FollowRequirement(unit, n, held, FollowMode.ALL_OF_SUIT, None, example, rule)
    held_counts = count_cards(held)
    if unit.kind is UnitKind.SINGLE:
        example = _fill((), held_counts, n, ctx)
        return FollowRequirement(unit, n, held, FollowMode.ANY_OF_SUIT, None, example, rule)
    if unit.kind in TUPLE_LEADS:
        tau = min(max(held_counts.values()), unit.each)
        if (
            unit.kind is UnitKind.TRIPLE
            and ruleset.triple_lead_spares_tractors
            and tau < 3
            and not has_free_pair(held, ctx)
        ):
            example = _fill((), held_counts, n, ctx)
            return FollowRequirement(unit, n, held, FollowMode.ANY_OF_SUIT, None, example, "4.5")
        selection = best_selection(held, ctx, n, tau)
        assert selection is not None  # some rank holds tau ≤ n cards
        key: Key = (tau, selection.profile)
        example = _fill(selection.cards, held_counts, n - len(selection.cards), ctx)
        return FollowRequirement(unit, n, held, FollowMode.SHAPE, key, example, rule)
    if unit.kind is UnitKind.BULLDOZER:
        chains = chains_of(held, ctx, unit.each, unit.length)
        if chains:
            best = chains[-1]
            key = (1, pair_profile(best, ctx))
            return FollowRequirement(
                unit, n, held, FollowMode.SHAPE, key, tuple(ctx.sorted(list(best))), rule
            )
    selection = best_selection(held, ctx, n)
    assert selection is not None
    key = (0, selection.profile)
    example = _fill(selection.cards, held_counts, n - len(selection.cards), ctx)
    return FollowRequirement(unit, n, held, FollowMode.SHAPE, key, example, rule)


def _missing(want: dict[Card, int], have: dict[Card, int]) -> list[Card]:
    """The cards of ``want`` beyond ``have`` (as ``Counter`` subtraction lists them)."""
    get = have.get
    return [c for c, k in want.items() for _ in range(k - get(c, 0))]


def check_follow(
    lead: Iterable[Card],
    hand: Iterable[Card],
    play: Iterable[Card],
    ctx: TrumpContext,
    ruleset: Ruleset = GUILIN,
) -> FollowVerdict:
    """Judge a follow. ``hand`` is the follower's whole hand before the play.

    Raises IllegalInputError when the lead is not one unit (4.7), the play has the
    wrong number of cards, or the hand does not hold the played cards. Chains follow
    ``ctx.bridge_level_gap``: build ``ctx`` with the ruleset's value.
    """
    lead_cards = tuple(lead)
    hand_cards = tuple(hand)
    play_cards = tuple(play)
    if ruleset.throws and classify(lead_cards, ctx) is None:
        return _check_throw_follow(lead_cards, hand_cards, play_cards, ctx, ruleset)
    unit = lead_unit(lead_cards, ctx)
    if len(play_cards) != unit.size:
        raise IllegalInputError(
            f"the play {format_cards(play_cards) or '(no cards)'} has {len(play_cards)} "
            f"cards; the lead {format_cards(lead_cards)} has {unit.size}"
        )
    hand_counts = _hand_counter(hand_cards, ruleset)
    play_counts = count_cards(play_cards)
    missing = _missing(play_counts, hand_counts)
    if missing:
        raise IllegalInputError(
            f"the hand does not hold {format_cards(missing)} of the play {format_cards(play_cards)}"
        )
    quick = _quick_verdict(unit, hand_cards, play_cards, ctx, ruleset)
    if quick is not None:
        return quick
    req = _requirement(unit, hand_cards, hand_counts, ctx, ruleset)
    return _judge(req, play_cards, play_counts, ctx)


def _check_throw_follow(
    lead_cards: tuple[Card, ...],
    hand_cards: tuple[Card, ...],
    play_cards: tuple[Card, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowVerdict:
    """12.4: following a standing throw (same input checks as a unit lead)."""
    throw = as_throw(lead_cards, ctx)
    if len(play_cards) != throw.size:
        raise IllegalInputError(
            f"the play {format_cards(play_cards) or '(no cards)'} has {len(play_cards)} "
            f"cards; the throw {format_cards(lead_cards)} has {throw.size}"
        )
    hand_counts = _hand_counter(hand_cards, ruleset)
    missing = _missing(count_cards(play_cards), hand_counts)
    if missing:
        raise IllegalInputError(
            f"the hand does not hold {format_cards(missing)} of the play {format_cards(play_cards)}"
        )
    if len(hand_cards) < throw.size:
        raise IllegalInputError(
            f"the hand holds {len(hand_cards)} cards; the throw has {throw.size}"
        )
    return check_throw_follow(throw, hand_cards, play_cards, ctx, ruleset)


def _judge(
    req: FollowRequirement,
    play_cards: tuple[Card, ...],
    play_counts: dict[Card, int],
    ctx: TrumpContext,
) -> FollowVerdict:
    suit = suit_label(req.suit)
    n = req.count
    if req.mode is FollowMode.ALL_OF_SUIT:
        left_out = _missing(count_cards(req.held), play_counts)
        if not left_out:
            reason = (
                f"void in {suit}: any {n} cards may be played"
                if not req.held
                else f"plays all {_n_cards(len(req.held), suit)} held"
            )
            return FollowVerdict(True, req.rule, reason)
        return FollowVerdict(
            False,
            req.rule,
            f"holds {_n_cards(len(req.held), suit)} ({format_cards(req.held)}) and must play all "
            f"of them; kept back {format_cards(left_out)}",
            req.example,
        )
    suit_of = ctx.tables.suit_of
    off_suit = [c for c in play_cards if suit_of[c] != req.suit]
    if off_suit:
        shape = ""
        if req.key is not None:
            shape = f" with {describe_key(req.key, req.lead)} (e.g. {format_cards(req.example)})"
        return FollowVerdict(
            False,
            req.rule,
            f"holds {_n_cards(len(req.held), suit)} and must play {n} of them{shape}; "
            f"played {format_cards(off_suit)} from outside {suit}",
            req.example,
        )
    if req.mode is FollowMode.ANY_OF_SUIT:
        reason = f"any {n} {suit} cards follow this lead"
        if req.lead.kind is UnitKind.TRIPLE:
            reason = f"no triple and every {suit} pair is in a tractor: any {n} {suit} cards"
        return FollowVerdict(True, req.rule, reason)
    assert req.key is not None
    key = key_of(play_cards, req.lead, ctx)
    if key == req.key:
        return FollowVerdict(
            True, req.rule, f"plays {describe_key(key, req.lead)}, the best shape held in {suit}"
        )
    return FollowVerdict(
        False,
        req.rule,
        f"must play {describe_key(req.key, req.lead)} in {suit} "
        f"(e.g. {format_cards(req.example)}); played {describe_key(key, req.lead)}",
        req.example,
    )


def is_legal_follow(
    lead: Iterable[Card],
    hand: Iterable[Card],
    play: Iterable[Card],
    ctx: TrumpContext,
    ruleset: Ruleset = GUILIN,
) -> bool:
    return check_follow(lead, hand, play, ctx, ruleset).legal


def best_follow(
    lead: Iterable[Card],
    hand: Iterable[Card],
    ctx: TrumpContext,
    ruleset: Ruleset = GUILIN,
) -> tuple[Card, ...]:
    """One legal follow (the play suggested as ``instead``)."""
    lead_cards = tuple(lead)
    if ruleset.throws and classify(lead_cards, ctx) is None:
        return best_throw_follow(as_throw(lead_cards, ctx), tuple(hand), ctx, ruleset)
    return follow_requirement(lead_cards, hand, ctx, ruleset).example


def _multisubsets(items: list[tuple[Card, int]], size: int) -> Iterator[tuple[Card, ...]]:
    """Distinct sub-multisets of ``size`` cards, lazily (items: card and copies held)."""
    if size == 0:
        yield ()
        return
    if not items:
        return
    remaining = sum(count for _, count in items)
    if remaining < size:
        return
    (card, count), rest = items[0], items[1:]
    for take in range(min(count, size), -1, -1):
        for tail in _multisubsets(rest, size - take):
            yield (card,) * take + tail


def legal_follows(
    lead: Iterable[Card],
    hand: Iterable[Card],
    ctx: TrumpContext,
    ruleset: Ruleset = GUILIN,
) -> Iterator[tuple[Card, ...]]:
    """Every distinct legal follow, lazily (the count can be very large: iterate)."""
    lead_cards = tuple(lead)
    hand_cards = tuple(hand)
    unit = lead_unit(lead_cards, ctx)
    hand_counts = _hand_counter(hand_cards, ruleset)
    req = _requirement(unit, hand_cards, hand_counts, ctx, ruleset)
    n = req.count
    if req.mode is FollowMode.ALL_OF_SUIT:
        rest = Counter(hand_counts) - Counter(req.held)
        items = [(c, rest[c]) for c in ctx.sorted(list(rest))]
        for extra in _multisubsets(items, n - len(req.held)):
            yield tuple(ctx.sorted([*req.held, *extra]))
        return
    held_counts = Counter(req.held)
    items = [(c, held_counts[c]) for c in ctx.sorted(list(held_counts))]
    for candidate in _multisubsets(items, n):
        if req.mode is FollowMode.ANY_OF_SUIT or key_of(candidate, req.lead, ctx) == req.key:
            yield candidate
