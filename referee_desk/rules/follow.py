"""Following a lead (RULES.md section 5; Guilin chapter 4).

The lead has n cards in effective suit s; H is the follower's cards in s. Short in
s (|H| ≤ n): play all of H plus anything. Otherwise play n cards of H whose key is
the greatest any n cards of H reach. The greatest key comes from the strand DP of
``profile.best_selection``; a play is checked by computing its own key.

``check_follow`` gives a verdict a referee can read; ``is_legal_follow`` and the lazy
``legal_follows`` mirror python-chess's ``is_legal`` beside ``legal_moves``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from referee_desk.rules.cards import Card, Suit, format_cards
from referee_desk.rules.errors import IllegalInputError
from referee_desk.rules.profile import (
    best_selection,
    chains_of,
    has_free_pair,
    pair_profile,
    tuple_size,
    unit_value,
)
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.trick import lead_unit
from referee_desk.rules.trump import TRUMP, TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify

#: The default ruleset (Guilin 2009).
GUILIN = GUILIN_2009

Key = tuple[int, tuple[int, ...]]


class FollowMode(StrEnum):
    """What section 5 asks of this follower."""

    ALL_OF_SUIT = "all_of_suit"  # 5.1: |H| ≤ n, play all of H plus any cards
    ANY_OF_SUIT = "any_of_suit"  # single lead, or the 4.5 triple-lead exemption
    SHAPE = "shape"  # the greatest key over n cards of H


def lead_article(lead: Unit) -> str:
    """The Guilin article that governs following this lead."""
    if lead.kind in (UnitKind.SINGLE, UnitKind.PAIR):
        return "4.1"
    if lead.kind is UnitKind.TRACTOR:
        return "4.2" if lead.length == 2 else "4.3"
    if lead.kind is UnitKind.BOMB:
        return "4.4"
    if lead.kind is UnitKind.TRIPLE:
        return "4.5"
    return "4.6"


def suit_label(suit: str) -> str:
    return "trump" if suit == TRUMP else Suit(suit).symbol


def _n_cards(count: int, suit: str) -> str:
    return f"{count} {suit} card" + ("" if count == 1 else "s")


def key_of(cards: tuple[Card, ...], lead: Unit, ctx: TrumpContext) -> Key:
    """The section-5 key of a set F of the lead's suit, by lead type."""
    profile = pair_profile(cards, ctx)
    if lead.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB):
        return (min(tuple_size(cards), lead.each), profile)
    if lead.kind is UnitKind.BULLDOZER:
        unit = classify(cards, ctx)
        same = (
            unit is not None
            and unit.kind is UnitKind.BULLDOZER
            and (unit.each, unit.length) == (lead.each, lead.length)
        )
        return (1 if same else 0, profile)
    return (0, profile)


_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}


def _value_name(value: int, count: int) -> str:
    if value == 1:
        return "a pair" if count == 1 else f"{count} pairs"
    word = _WORDS.get(value, str(value))
    extra = "bomb" if value == 2 else "bulldozer"
    name = f"{word}-pair tractor (or {extra})"
    article = "an" if word[0] == "e" else "a"
    return f"{article} {name}" if count == 1 else f"{count} × {name}"


def describe_profile(profile: tuple[int, ...]) -> str:
    """``(3, 1)`` → ``a three-pair tractor (or bulldozer) + a pair``."""
    counts = Counter(profile)
    names = [_value_name(v, counts[v]) for v in sorted(counts, reverse=True)]
    return " + ".join(names) if names else "no pair"


def describe_key(key: Key, lead: Unit) -> str:
    """English shape of a key for a referee, e.g. ``a triple + 1 card``."""
    first, profile = key
    if lead.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB):
        if first == 4:
            return "a bomb"
        if first == 3:
            return "a triple" if lead.each == 3 else "a triple + 1 card"
        if first == 2:
            text = describe_profile(profile).replace(" (or bomb)", "")
            return text + ("" if sum(profile) * 2 == lead.size else " + other cards")
        return "single cards"
    if lead.kind is UnitKind.BULLDOZER and first == 1:
        return f"the {lead.describe()}"
    text = describe_profile(profile)
    return text if sum(profile) * 2 == lead.size else f"{text} + other cards"


@dataclass(frozen=True, slots=True)
class FollowRequirement:
    """What the follower must play: mode, greatest key and one play that reaches it."""

    lead: Unit
    count: int
    held: tuple[Card, ...]
    mode: FollowMode
    key: Key | None
    example: tuple[Card, ...]
    rule: str

    @property
    def suit(self) -> str:
        return self.lead.suit

    def describe(self) -> str:
        suit = suit_label(self.suit)
        if self.mode is FollowMode.ALL_OF_SUIT:
            if not self.held:
                return f"void in {suit}: any {self.count} cards"
            text = f"all {_n_cards(len(self.held), suit)} held ({format_cards(self.held)})"
            extra = self.count - len(self.held)
            return f"{text} + any {extra} other cards" if extra else text
        if self.mode is FollowMode.ANY_OF_SUIT:
            return f"any {self.count} {suit} cards"
        assert self.key is not None
        return (
            f"{self.count} {suit} cards with {describe_key(self.key, self.lead)}, "
            f"e.g. {format_cards(self.example)}"
        )


@dataclass(frozen=True, slots=True)
class FollowVerdict:
    """Is the follow legal, under which article, why, and one legal play if not."""

    legal: bool
    rule: str
    reason: str
    instead: tuple[Card, ...] | None = None


def _hand_counter(hand: tuple[Card, ...], ruleset: Ruleset) -> Counter[Card]:
    counts: Counter[Card] = Counter(hand)
    if not counts or max(counts.values()) <= ruleset.decks:
        return counts
    counts = Counter()  # find the first card over the limit, to name its position
    for position, card in enumerate(hand, start=1):
        counts[card] += 1
        if counts[card] > ruleset.decks:
            raise IllegalInputError(
                f"hand: card {position}: {card} appears {counts[card]} times; {ruleset.decks} "
                f"decks hold it only {ruleset.decks} times (1.4)"
            )
    return counts


def _weak_first(cards: Iterable[Card], ctx: TrumpContext) -> list[Card]:
    """Cards a follower most easily gives away: side suits before trumps, low first."""
    return sorted(
        cards,
        key=lambda c: (ctx.is_trump(c), c.points > 0, ctx.power(c), ctx.sort_key(c)),
    )


def _fill(
    base: tuple[Card, ...], pool: Counter[Card], need: int, ctx: TrumpContext
) -> tuple[Card, ...]:
    rest = pool - Counter(base)
    extra = _weak_first(rest.elements(), ctx)[:need]
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
    hand_counts: Counter[Card],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowRequirement:
    n = unit.size
    rule = lead_article(unit)
    held = tuple(ctx.sorted([c for c in hand_cards if ctx.effective_suit(c) == unit.suit]))
    if len(hand_cards) < n:
        raise IllegalInputError(f"the hand holds {len(hand_cards)} cards; the lead has {n}")
    if len(held) <= n:
        example = _fill(held, hand_counts, n - len(held), ctx)
        return FollowRequirement(unit, n, held, FollowMode.ALL_OF_SUIT, None, example, rule)
    held_counts = Counter(held)
    if unit.kind is UnitKind.SINGLE:
        example = _fill((), held_counts, n, ctx)
        return FollowRequirement(unit, n, held, FollowMode.ANY_OF_SUIT, None, example, rule)
    if unit.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB):
        tau = min(tuple_size(held), unit.each)
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


def _missing(want: Counter[Card], have: Counter[Card]) -> list[Card]:
    return list((want - have).elements())


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
    unit = lead_unit(lead_cards, ctx)
    if len(play_cards) != unit.size:
        raise IllegalInputError(
            f"the play {format_cards(play_cards) or '(no cards)'} has {len(play_cards)} "
            f"cards; the lead {format_cards(lead_cards)} has {unit.size}"
        )
    hand_counts = _hand_counter(hand_cards, ruleset)
    play_counts = Counter(play_cards)
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


def _top_key(lead: Unit) -> Key:
    """The greatest key any n cards can have against this lead (an upper bound).

    n cards hold at most ⌊n/2⌋ pair-units, all in one strand at best; the first item
    is at most the lead's tuple (pair, triple, bomb) or 1 for a same-shape bulldozer.
    """
    if lead.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB):
        first = lead.each
    else:
        first = 1 if lead.kind is UnitKind.BULLDOZER else 0
    return (first, (lead.size // 2,))


def _reaches_top(play: Unit | None, lead: Unit) -> bool:
    """Is the play one unit whose key is ``_top_key(lead)``?

    One unit of n cards worth ⌊n/2⌋ pair-units has the profile (⌊n/2⌋,); the first
    item then needs as many identical cards as the lead's tuple, or the lead's exact
    bulldozer shape (6.3).
    """
    if play is None or play.suit != lead.suit or play.size != lead.size:
        return False
    if unit_value(play.each, play.length) != lead.size // 2:
        return False
    if lead.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB):
        return play.each >= lead.each
    if lead.kind is UnitKind.BULLDOZER:
        return play.kind is UnitKind.BULLDOZER and (play.each, play.length) == (
            lead.each,
            lead.length,
        )
    return True


def is_top_follow(lead: Iterable[Card], play: Iterable[Card], ctx: TrumpContext) -> bool:
    """Is ``play`` a follow no hand can better: all of the lead's suit, greatest key?

    Such a follow is legal whatever else the follower holds (section 5), so a caller
    that knows only part of the hand needs no more. False when the lead is not one
    unit or the counts differ (``check_follow`` then explains).
    """
    lead_cards = tuple(lead)
    play_cards = tuple(play)
    if len(lead_cards) == 2 and len(play_cards) == 2:
        # Pair lead (3.2): only an identical pair of the lead's suit reaches (2, (1,)).
        a, b = lead_cards
        return (
            a == b
            and play_cards[0] == play_cards[1]
            and ctx.effective_suit(play_cards[0]) == ctx.effective_suit(a)
        )
    unit = classify(lead_cards, ctx)
    if unit is None or len(play_cards) != unit.size:
        return False
    if unit.kind is UnitKind.SINGLE:
        return ctx.effective_suit(play_cards[0]) == unit.suit
    return _reaches_top(classify(play_cards, ctx), unit)


def _all_distinct(cards: tuple[Card, ...], suit: str, ctx: TrumpContext) -> bool:
    """No two identical cards among ``cards`` of effective suit ``suit``."""
    of_suit = [c for c in cards if ctx.effective_suit(c) == suit]
    return len(set(of_suit)) == len(of_suit)


def _quick_verdict(
    unit: Unit,
    hand_cards: tuple[Card, ...],
    play_cards: tuple[Card, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowVerdict | None:
    """The verdict of a legal follow that needs no search, else None (then judge fully).

    Same verdicts as ``_judge``: a short follower that plays all its cards of the suit
    (5.1), any cards of the suit to a single lead, or a play whose key reaches the
    upper bound ``_top_key`` (so no n cards of the suit can do better).
    """
    suit = unit.suit
    n = unit.size
    eff = ctx.effective_suit
    held = sum(1 for c in hand_cards if eff(c) == suit)
    in_suit = sum(1 for c in play_cards if eff(c) == suit)
    label = suit_label(suit)
    rule = lead_article(unit)
    if held <= n:
        if in_suit != held:
            return None  # kept back a card of the suit: the full judgement explains it
        if not held:
            return FollowVerdict(True, rule, f"void in {label}: any {n} cards may be played")
        return FollowVerdict(True, rule, f"plays all {_n_cards(held, label)} held")
    if in_suit != n:
        return None
    if unit.kind is UnitKind.SINGLE:
        return FollowVerdict(True, rule, f"any {n} {label} cards follow this lead")
    if _reaches_top(classify(play_cards, ctx), unit):
        key = _top_key(unit)
    elif _all_distinct(hand_cards, suit, ctx):
        # No two identical cards of the suit: every n of them have the same key, no
        # pair-units and a tuple of 1; to a triple lead no triple and no free pair (4.5).
        if unit.kind is UnitKind.TRIPLE and ruleset.triple_lead_spares_tractors:
            return FollowVerdict(
                True,
                "4.5",
                f"no triple and every {label} pair is in a tractor: any {n} {label} cards",
            )
        key = (1 if unit.kind in (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB) else 0, ())
    else:
        return None
    return FollowVerdict(
        True, rule, f"plays {describe_key(key, unit)}, the best shape held in {label}"
    )


def _judge(
    req: FollowRequirement,
    play_cards: tuple[Card, ...],
    play_counts: Counter[Card],
    ctx: TrumpContext,
) -> FollowVerdict:
    suit = suit_label(req.suit)
    n = req.count
    held_counts = Counter(req.held)
    if req.mode is FollowMode.ALL_OF_SUIT:
        left_out = _missing(held_counts, play_counts)
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
    off_suit = [c for c in play_cards if ctx.effective_suit(c) != req.suit]
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
    return follow_requirement(lead, hand, ctx, ruleset).example


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
        rest = hand_counts - Counter(req.held)
        items = [(c, rest[c]) for c in ctx.sorted(list(rest))]
        for extra in _multisubsets(items, n - len(req.held)):
            yield tuple(ctx.sorted([*req.held, *extra]))
        return
    held_counts = Counter(req.held)
    items = [(c, held_counts[c]) for c in ctx.sorted(list(held_counts))]
    for candidate in _multisubsets(items, n):
        if req.mode is FollowMode.ANY_OF_SUIT or key_of(candidate, req.lead, ctx) == req.key:
            yield candidate
