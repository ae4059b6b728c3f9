"""Preset twins of test_follow's brute-force oracle (RULES.md 12.2: the follow duty of
section 5 is unchanged in every preset), on the presets' card systems: trump chains
through the level and 10 pairs (12.2), off-suit level pairs as equal hub positions,
levels from 2, three decks."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from multisets import sub_multisets
from test_follow import brute_key, brute_legal, brute_profile

from referee_desk.rules.cards import parse_cards
from referee_desk.rules.follow import FollowMode, check_follow, follow_requirement, legal_follows
from referee_desk.rules.profile import pair_profile
from referee_desk.rules.ruleset import QQ_FOUR_DECK, THREE_DECK
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

CONTEXTS = [
    (TrumpContext.for_ruleset("2", "H", QQ_FOUR_DECK), QQ_FOUR_DECK),
    (TrumpContext.for_ruleset("2", "NT", QQ_FOUR_DECK), QQ_FOUR_DECK),
    (TrumpContext.for_ruleset("A", "H", QQ_FOUR_DECK), QQ_FOUR_DECK),
    (TrumpContext.for_ruleset("5", "H", THREE_DECK), THREE_DECK),
    (TrumpContext.for_ruleset("5", "NT", THREE_DECK), THREE_DECK),
]
#: Trumps on every link of 12.2's chain (A, off-suit and trump-suit level and 10, jokers).
POOL = parse_cards("HA HK S2 D2 H2 S5 H5 S10 H10 LJ BJ")
LEADS = ["BJ", "BJ BJ", "BJ BJ BJ", "LJ LJ BJ BJ", "H10 H10 LJ LJ BJ BJ", "HA HA HK HK"]


@st.composite
def situations(draw, max_cards: int = 11):
    ctx, ruleset = draw(st.sampled_from(CONTEXTS))
    lead = classify(parse_cards(draw(st.sampled_from(LEADS))), ctx)
    if lead is None or lead.suit != "trump":
        lead = classify(parse_cards("BJ BJ"), ctx)
    assert lead is not None
    counts = draw(st.lists(st.integers(0, ruleset.decks), min_size=len(POOL), max_size=len(POOL)))
    hand = [c for c, k in zip(POOL, counts, strict=True) for _ in range(k)][:max_cards]
    filler = parse_cards("D3 D4 D6 D7 D8 D9 D9 D4 D3 D8")
    hand = tuple(hand) + filler[: max(0, lead.size - len(hand) + 1)]
    play = tuple(draw(st.permutations(hand))[: lead.size])
    return ctx, ruleset, lead, hand, play


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_verdict_matches_brute_force(situation) -> None:
    """5 (12.2 unchanged): legal iff the play's key is the greatest key of any n cards."""
    ctx, ruleset, lead, hand, play = situation
    result = check_follow(lead.cards, hand, play, ctx, ruleset)
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    assert result.legal is brute_legal(lead, held, play, ctx), result.reason
    if not result.legal:
        assert check_follow(lead.cards, hand, result.instead, ctx, ruleset).legal


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_max_key_matches_brute_force(situation) -> None:
    ctx, ruleset, lead, hand, _play = situation
    req = follow_requirement(lead.cards, hand, ctx, ruleset)
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    if req.mode is not FollowMode.SHAPE:
        return
    subsets = sub_multisets(sorted(Counter(held).items()), lead.size)
    assert req.key == max(brute_key(s, lead, ctx) for s in subsets)
    assert brute_key(req.example, lead, ctx) == req.key


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CONTEXTS), st.lists(st.integers(0, 4), min_size=11, max_size=11))
def test_pair_profile_matches_brute_force(setting, counts: list[int]) -> None:
    """5 with 12.2's hubs: P(F) is the greatest list over all splits."""
    ctx, ruleset = setting
    cards = tuple(
        c for c, k in zip(POOL, counts, strict=True) for _ in range(min(k, ruleset.decks))
    )[:10]
    assert pair_profile(cards, ctx) == brute_profile(cards, ctx)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(max_cards=8))
def test_legal_follows_are_exactly_the_brute_force_legal_plays(situation) -> None:
    ctx, ruleset, lead, hand, _ = situation
    held = tuple(c for c in hand if ctx.effective_suit(c) == lead.suit)
    produced = [tuple(sorted(p)) for p in legal_follows(lead.cards, hand, ctx, ruleset)]
    assert len(produced) == len(set(produced))
    everything = sub_multisets(sorted(Counter(hand).items()), lead.size)
    expected = {tuple(sorted(p)) for p in everything if brute_legal(lead, held, p, ctx)}
    assert set(produced) == expected
