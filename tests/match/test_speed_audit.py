"""The replay's follow audit skips only follows whose verdict cannot be "illegal".

The audit (``FollowAudit``, run trick by trick; ``follow_findings`` over a whole hand)
settles most follows by counting (5.1, single leads), by the greatest possible key, or
because the suit held has no two identical cards; every other follow goes to
``check_follow``. Here the findings are compared with judging every follow of a hand
(and of every prefix of it) by ``check_follow`` against the cards the record proves the
seat held, on seeded random hands with deliberate revokes.
"""

from __future__ import annotations

import random

import pytest

from referee_desk.match.fold.audit import follow_findings
from referee_desk.match.fold.memo import card_of, cards_of
from referee_desk.match.simulate import deal
from referee_desk.rules.cards import Card, Rank, Suit, format_card
from referee_desk.rules.errors import RulesError
from referee_desk.rules.follow import best_follow, check_follow
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

RULESETS = [
    get_ruleset("guilin-2009", {"triple_lead_spares_tractors": flag}) for flag in (False, True)
]


def _lead(hand: list[Card], ctx: TrumpContext, rng: random.Random) -> tuple[Card, ...]:
    """A single, pair, triple or bomb (often with more of the suit left to follow)."""
    card = rng.choice(hand)
    for size in (4, 3, 2):
        if hand.count(card) >= size and rng.random() < 0.5:
            cards = (card,) * size
            if classify(cards, ctx) is not None:
                return cards
    return (card,)


def _follow(lead, hand, ctx, ruleset, rng) -> tuple[Card, ...]:
    """A legal follow, or (one time in four) any cards, often a revoke."""
    if rng.random() < 0.25:
        return tuple(rng.sample(hand, len(lead)))
    return best_follow(lead, hand, ctx, ruleset)


def _record(seed: int, ruleset):
    rng = random.Random(seed)
    ctx = TrumpContext(
        Rank(rng.randint(3, 14)), rng.choice([None, *Suit]), ruleset.bridge_level_gap
    )
    held = {seat: list(cards) for seat, cards in deal(rng, ruleset).items()}
    leader = rng.choice(list(Seat))
    tricks = []
    while held[leader]:
        lead = _lead(held[leader], ctx, rng)
        plays = [(leader, lead)]
        for seat in leader.play_order_from()[1:]:
            if len(held[seat]) < len(lead):
                return ctx, tuple(tricks)
            plays.append((seat, _follow(lead, held[seat], ctx, ruleset, rng)))
        for seat, cards in plays:
            for card in cards:
                held[seat].remove(card)
        tokens = tuple((seat, tuple(format_card(c) for c in cards)) for seat, cards in plays)
        tricks.append(_trick_cards(tokens, 100 + len(tricks)))
        leader = plays[trick_winner([cards for _, cards in plays], ctx)][0]
    return ctx, tuple(tricks)


def _trick_cards(plays, seq):
    """The fold's form of a detailed trick: seats in play order, tokens per play, seq."""
    return tuple(seat for seat, _ in plays), tuple(cards for _, cards in plays), seq


def _every_follow_judged(trick_cards, ctx, ruleset):
    """Section 5 applied to every follow, with no short cut (the reference)."""

    later: dict[Seat, list[str]] = {s: [] for s in Seat}
    found = []
    for number in range(len(trick_cards), 0, -1):
        seats, tokens, seq = trick_cards[number - 1]
        plays = list(zip(seats, tokens, strict=True))
        for seat, cards in plays:
            later[seat].extend(cards)
        lead = cards_of(plays[0][1])
        suit = ctx.effective_suit(lead[0])
        for seat, cards in plays[1:]:
            hand = cards_of(later[seat])
            play = cards_of(cards)
            of_suit = [c for c in hand if ctx.effective_suit(c) == suit]
            if len(of_suit) > len(lead):
                hand = (*of_suit, *(c for c in play if ctx.effective_suit(c) != suit))
            try:
                verdict = check_follow(lead, hand, play, ctx, ruleset)
            except RulesError:
                continue
            if not verdict.legal:
                found.append(
                    (seq, verdict.rule, f"{seat.value} in trick {number}: {verdict.reason}")
                )
    return tuple(sorted(found, key=lambda f: f[0]))


def _left_suit(trick_cards, number, seat, ctx) -> str | None:
    """The lead's suit when ``seat``'s follow in trick ``number`` left it, else None."""
    seats, tokens, _ = trick_cards[number - 1]
    suit = ctx.effective_suit(card_of(tokens[0][0]))
    cards = tokens[seats.index(Seat(seat))]
    return suit if any(ctx.effective_suit(card_of(c)) != suit for c in cards) else None


def _named(finding) -> tuple[str, int, str]:
    """(seat, trick, article) of a finding ``(seq, article, "X in trick k: …")``."""
    seat, rest = finding[2].split(" in trick ", 1)
    return seat, int(rest.split(":", 1)[0]), finding[1]


@pytest.mark.parametrize("seed", range(12))
def test_audit_findings_equal_judging_every_follow(seed):
    """4.1–4.5 and 5: at the hand's end the trick-by-trick audit has flagged every follow
    that judging each one against the whole record finds illegal, with the same article;
    a follow that left the suit is left to the void flag (8.3), which the seat's later
    play of that suit raises."""
    flagged = 0
    for ruleset in RULESETS:
        ctx, trick_cards = _record(seed, ruleset)
        fast = follow_findings(trick_cards, ctx, ruleset)
        reference = _every_follow_judged(trick_cards, ctx, ruleset)
        in_suit = sorted(
            _named(f)
            for f in reference
            if not _left_suit(trick_cards, _named(f)[1], _named(f)[0], ctx)
        )
        assert sorted(_named(f) for f in fast) == in_suit
        for f in reference:
            seat, number, _ = _named(f)
            suit = _left_suit(trick_cards, number, seat, ctx)
            if suit is not None:  # the void flag's proof: the seat plays the suit later
                assert any(
                    ctx.effective_suit(card_of(c)) == suit
                    for seats, tokens, _ in trick_cards[number:]
                    for c in tokens[list(seats).index(Seat(seat))]
                )
        flagged += len(reference)
    assert flagged > 0  # the sample does contain revokes


#: Seeds whose hands hold wrong follows inside the lead's suit (the rest leave the suit).
IN_SUIT_SEEDS = (3, 4, 8, 9, 11, 12, 16, 18, 20, 22)


@pytest.mark.parametrize("seed", IN_SUIT_SEEDS)
def test_each_follow_is_flagged_at_the_trick_that_first_proves_it(seed):
    """8.3 / 4.x: a follow is flagged once, at the first trick after which the cards the
    seat has shown make it illegal (judged afresh on every prefix of the hand), with the
    reason as it reads then; 4.5's exemption off, so every verdict is final at once."""
    ruleset = RULESETS[0]
    assert not ruleset.triple_lead_spares_tractors
    ctx, trick_cards = _record(seed, ruleset)
    fast = follow_findings(trick_cards, ctx, ruleset)
    assert fast and len(set(map(_named, fast))) == len(fast)  # each once
    seq_of = [seq for _, _, seq in trick_cards]
    for finding in fast:
        seat, number, article = _named(finding)
        m = seq_of.index(finding[0]) + 1
        through_m = {_named(f): f for f in _every_follow_judged(trick_cards[:m], ctx, ruleset)}
        before = {_named(f) for f in _every_follow_judged(trick_cards[: m - 1], ctx, ruleset)}
        assert (seat, number, article) in through_m and (seat, number, article) not in before
        assert through_m[seat, number, article][2] == finding[2]


def test_audit_flags_a_kept_back_pair():
    """4.1: 出对子时，有对子必须跟对子 — a follower holding a pair who breaks it is flagged."""
    ruleset = RULESETS[0]
    ctx = TrumpContext(Rank.NINE, Suit.S)
    # N leads ♥K♥K; E plays ♥3 ♥5 though it holds ♥7♥7 (played in trick 2).
    trick_cards = (
        _trick_cards(
            (
                (Seat.N, ("HK", "HK")),
                (Seat.E, ("H3", "H5")),
                (Seat.S, ("HA", "HA")),
                (Seat.W, ("D3", "D4")),
            ),
            10,
        ),
        _trick_cards(
            ((Seat.S, ("C3",)), (Seat.W, ("C4",)), (Seat.N, ("C5",)), (Seat.E, ("H7",))),
            11,
        ),
        _trick_cards(
            ((Seat.S, ("C6",)), (Seat.W, ("C7",)), (Seat.N, ("C8",)), (Seat.E, ("H7",))),
            12,
        ),
    )
    found = follow_findings(trick_cards, ctx, ruleset)
    # Provable at trick 3 (seq 12), when E shows the second ♥7.
    assert [(seq, rule) for seq, rule, _ in found] == [(12, "4.1")]
    assert found[0][2].startswith("E in trick 1: ")
