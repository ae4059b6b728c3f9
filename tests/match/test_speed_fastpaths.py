"""The fast paths added for replay speed give exactly the answers of the full rules.

Each fast path is compared with the general judgement it short-cuts, on seeded random
cases over every level, trump (and no-trump) and both values of the rule variants.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee_desk.rules import follow, trick
from referee_desk.rules.cards import DECK, Card, Rank, Suit
from referee_desk.rules.errors import RulesError
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.trump import TrumpContext

LEVELS = [Rank(v) for v in range(3, 15)]
RULESETS = [
    get_ruleset("guilin-2009", {"triple_lead_spares_tractors": flag}) for flag in (False, True)
]


def _ctx(rng: random.Random) -> TrumpContext:
    return TrumpContext(rng.choice(LEVELS), rng.choice([None, *Suit]), rng.random() < 0.3)


def _four_decks(rng: random.Random) -> list[Card]:
    pool = list(DECK) * 4
    rng.shuffle(pool)
    return pool


def _lead(rng: random.Random, ctx: TrumpContext, pool: list[Card]) -> tuple[Card, ...]:
    """A single, pair, triple, bomb, tractor or bulldozer of one suit (often, not always)."""
    card = rng.choice(pool)
    suit = ctx.effective_suit(card)
    if rng.random() < 0.5 or ctx.chain_index(card) is None:
        return (card,) * rng.choice([1, 1, 2, 2, 3, 4])
    start = ctx.chain_index(card)
    length = rng.choice([2, 2, 3])
    chain = [
        c
        for c in DECK
        if ctx.effective_suit(c) == suit
        and c.suit == card.suit
        and (i := ctx.chain_index(c)) is not None
        and 0 <= i - start < length
    ]
    return tuple(c for c in chain for _ in range(rng.choice([2, 2, 3])))


def _hand(rng: random.Random, ctx: TrumpContext, lead: tuple[Card, ...], pool: list[Card]):
    suit = ctx.effective_suit(lead[0])
    of_suit = [c for c in DECK if ctx.effective_suit(c) == suit]
    cards = pool[: rng.randint(2, 25)] + [
        c for c in rng.sample(of_suit, min(len(of_suit), rng.randint(0, 8))) for _ in range(2)
    ]
    counts = Counter(cards)
    return [c for c, n in counts.items() for _ in range(min(n, 4))]


def _play(rng, ctx, lead, hand, ruleset):
    n = len(lead)
    if len(hand) < n:
        return None
    roll = rng.random()
    if roll < 0.35:
        try:
            return list(follow.best_follow(lead, hand, ctx, ruleset))
        except RulesError:
            return None
    suit = ctx.effective_suit(lead[0])
    of_suit = [c for c in hand if ctx.effective_suit(c) == suit]
    if roll < 0.7 and len(of_suit) >= n:
        return rng.sample(of_suit, n)
    return rng.sample(hand, n)


@pytest.mark.parametrize("seed", range(4))
def test_quick_follow_verdict_is_the_full_judgement(seed):
    """Section 5 (4.1-4.6): a short-cut verdict equals ``_judge(_requirement(...))``.

    5.1: 短门 (|H| ≤ n) plays all of H; a single lead takes any card of the suit; a play
    whose key is the greatest any n cards reach; a suit without two identical cards
    (and 4.5's exemption for a triple lead when it is in force).
    """
    rng = random.Random(seed)
    answered = Counter()
    for _ in range(1500):
        ctx = _ctx(rng)
        pool = _four_decks(rng)
        lead = _lead(rng, ctx, pool)
        unit = follow.classify(lead, ctx)
        if unit is None:
            continue
        hand = _hand(rng, ctx, lead, pool)
        for ruleset in RULESETS:
            play = _play(rng, ctx, lead, hand, ruleset)
            if play is None:
                continue
            quick = follow._quick_verdict(unit, tuple(hand), tuple(play), ctx, ruleset)
            if quick is None:
                continue
            counts = follow._hand_counter(tuple(hand), ruleset)
            req = follow._requirement(unit, tuple(hand), counts, ctx, ruleset)
            full = follow._judge(req, tuple(play), Counter(play), ctx)
            assert quick == full, (lead, hand, play, ctx)
            answered[quick.reason.split(" ")[0]] += 1
    # The sample reaches every kind of short cut.
    assert {"plays", "any", "void", "no"} <= set(answered)


@pytest.mark.parametrize("seed", range(3))
def test_top_follow_is_legal_whatever_else_is_held(seed):
    """5: a play of the lead's suit with the greatest possible key is never wrong."""
    rng = random.Random(100 + seed)
    tops = 0
    for _ in range(1500):
        ctx = _ctx(rng)
        pool = _four_decks(rng)
        lead = _lead(rng, ctx, pool)
        if follow.classify(lead, ctx) is None:
            continue
        hand = _hand(rng, ctx, lead, pool)
        play = _play(rng, ctx, lead, hand, RULESETS[0])
        if play is None or not follow.is_top_follow(lead, play, ctx):
            continue
        tops += 1
        for ruleset in RULESETS:
            assert follow.check_follow(lead, hand, play, ctx, ruleset).legal, (lead, hand, play)
    assert tops > 50


@pytest.mark.parametrize("seed", range(3))
def test_follow_verdict_needs_only_the_suit_when_long_in_it(seed):
    """5: holding more than n cards of the suit, the verdict depends on those cards and
    the play only (the replay's audit judges with the cards the record proves)."""
    rng = random.Random(200 + seed)
    compared = 0
    for _ in range(1500):
        ctx = _ctx(rng)
        pool = _four_decks(rng)
        lead = _lead(rng, ctx, pool)
        if follow.classify(lead, ctx) is None:
            continue
        hand = _hand(rng, ctx, lead, pool)
        suit = ctx.effective_suit(lead[0])
        of_suit = [c for c in hand if ctx.effective_suit(c) == suit]
        if len(of_suit) <= len(lead):
            continue
        play = _play(rng, ctx, lead, hand, RULESETS[1])
        if play is None:
            continue
        known = of_suit + [c for c in play if ctx.effective_suit(c) != suit]
        for ruleset in RULESETS:
            whole = follow.check_follow(lead, hand, play, ctx, ruleset)
            part = follow.check_follow(lead, known, play, ctx, ruleset)
            assert whole == part, (lead, hand, play)
            compared += 1
    assert compared > 500


@pytest.mark.parametrize("seed", range(3))
def test_small_trick_is_the_unit_judgement(seed):
    """6.1 (equal cards: the earlier play stays), 6.5 (a trump beats the side suit) and
    8.2 (a replacement play is a discard): single and pair tricks judged without units
    agree with the general path, which also refuses what the short cut leaves to it."""
    rng = random.Random(300 + seed)
    quick_answers = 0
    for _ in range(3000):
        ctx = _ctx(rng)
        pool = _four_decks(rng)
        size = rng.choice([1, 2])
        lead = [rng.choice(pool)] * size if rng.random() < 0.8 else rng.sample(pool, size)
        suit_cards = [c for c in DECK if ctx.effective_suit(c) == ctx.effective_suit(lead[0])]
        plays = [lead]
        for _ in range(rng.randint(0, 3)):
            source = suit_cards if rng.random() < 0.5 else pool[:60]
            card = rng.choice(source)
            if size == 2 and rng.random() < 0.7:
                plays.append([card, card])
            else:
                plays.append(rng.sample(source, size))
        skip = frozenset(i for i in range(len(plays)) if rng.random() < 0.1)
        cards = [tuple(p) for p in plays]
        quick = trick._small_trick(cards, ctx, skip)
        try:
            full = trick._general_trick(cards, ctx, skip)
        except RulesError:
            assert quick is None
            continue
        if quick is not None:
            quick_answers += 1
            assert quick == full, (plays, ctx, skip)
    assert quick_answers > 2000
