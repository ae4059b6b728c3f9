"""The presets against an independent model of RULES.md 12 (twins of test_review's).

The model re-states 12.1-12.4 from the text and shares nothing with the engine but the
Card value type: its own trump order, its own chain positions (12.2's link list), units
by definition, pair profiles and keys by exhaustive splitting, throw components by
trying every split, throw failure by every sub-unit of the shown cards, the follow
duty to a throw as the greatest key vector over every n cards of the holding, and who
wins against a throw by every split of a ruff.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import pairwise

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from multisets import sub_multisets

from referee_desk.rules.cards import Card, Rank, Suit, format_cards, parse_cards
from referee_desk.rules.follow import check_follow
from referee_desk.rules.ruleset import QQ_FOUR_DECK, THREE_DECK, Ruleset
from referee_desk.rules.throws import as_throw, check_throw
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

P = parse_cards
JOKERS = (Rank.LITTLE_JOKER, Rank.BIG_JOKER)


class PresetModel:
    """RULES.md 12.1-12.4 for qq-four-deck (fixed: none) and three-deck (fixed: 10)."""

    def __init__(self, level: Rank, trump: Suit | None, three_deck: bool) -> None:
        self.level, self.trump, self.three_deck = level, trump, three_deck
        self.fixed = (Rank.TEN,) if three_deck and level != Rank.TEN else ()
        self.decks = 3 if three_deck else 4
        # 12.1 side suits rank A K … 2 without the level rank and the fixed ranks;
        # 12.2 bridge_level_gap=true: the ranks either side are consecutive.
        self.plain = [
            Rank(v) for v in range(2, 15) if Rank(v) != level and Rank(v) not in self.fixed
        ]
        # 12.2: … trump-suit A → off-suit level → trump-suit level → (off-suit 10 →
        # trump-suit 10) → LJ → BJ; links whose rank is absent are skipped.
        links: list[tuple[str, Rank]] = [("off", level)]
        if trump is not None:
            links.append(("on", level))
        for rank in self.fixed:
            links.append(("off", rank))
            if trump is not None:
                links.append(("on", rank))
        links += [("joker", Rank.LITTLE_JOKER), ("joker", Rank.BIG_JOKER)]
        self.links = links

    def is_trump(self, c: Card) -> bool:
        return (
            c.suit is None or c.rank == self.level or c.rank in self.fixed or c.suit == self.trump
        )

    def suit(self, c: Card) -> str:
        return "trump" if self.is_trump(c) else c.suit.value

    def power(self, c: Card) -> tuple[int, int]:
        """BJ > LJ > 主10 > 副10 > 主级 > 副级 > the trump suit's A K …"""
        on = self.trump is not None and c.suit == self.trump
        if c.rank == Rank.BIG_JOKER:
            return (9, 0)
        if c.rank == Rank.LITTLE_JOKER:
            return (8, 0)
        if c.rank in self.fixed:
            return (7 if on else 6, 0)
        if c.rank == self.level:
            return (5 if on else 4, 0)
        return (0, int(c.rank))

    def position(self, c: Card) -> int:
        if self.is_trump(c) and (c.suit is None or c.rank in (self.level, *self.fixed)):
            on = self.trump is not None and c.suit == self.trump
            tag = "joker" if c.suit is None else ("on" if on else "off")
            return 100 + self.links.index((tag, c.rank))
        return self.plain.index(c.rank)

    def top_plain(self) -> int:
        return len(self.plain) - 1

    def chain_pos(self, c: Card) -> int:
        """Plain ranks 0…; the links follow the trump suit's top plain rank."""
        p = self.position(c)
        return p if p < 100 else self.top_plain() + 1 + (p - 100)

    def unit(self, cards) -> tuple | None:
        cards = list(cards)
        if not cards or len({self.suit(c) for c in cards}) != 1:
            return None
        counts = Counter(cards)
        if len(set(counts.values())) != 1:
            return None
        each, length = next(iter(counts.values())), len(counts)
        if each > self.decks:
            return None
        top = max(self.power(c) for c in cards)
        suit = self.suit(cards[0])
        if length == 1:
            kind = {1: "single", 2: "pair", 3: "triple", 4: "bomb"}.get(each)
            return None if kind is None else (kind, 1, each, suit, top)
        if each < 2:
            return None
        pos = sorted(self.chain_pos(c) for c in counts)
        if any(b - a != 1 for a, b in pairwise(pos)):
            return None
        return ("tractor" if each == 2 else "bulldozer", length, each, suit, top)

    # -- section 5 keys by exhaustive splitting (as test_review's model) --------------
    def profile(self, cards) -> tuple[int, ...]:
        return _profile(self, tuple(sorted(cards)))

    def key(self, play, lead) -> tuple:
        kind, each = lead[0], lead[2]
        if kind in ("pair", "triple", "bomb"):
            return (min(max(Counter(play).values()), each), self.profile(play))
        if kind == "bulldozer":
            u = self.unit(play)
            return (int(u is not None and u[:3] == lead[:3]), self.profile(play))
        return (0, self.profile(play))

    def exempt(self, held) -> bool:
        """4.5: no triple and every pair of the holding in a tractor."""
        counts = Counter(held)
        if max(counts.values()) >= 3:
            return False
        in_chain = {
            c
            for sub in sub_multisets(sorted(counts.items()))
            if (u := self.unit(sub)) is not None and u[1] > 1
            for c in sub
        }
        return not any(k >= 2 and c not in in_chain for c, k in counts.items())

    # -- 12.4 throws ---------------------------------------------------------------
    def components(self, cards) -> list[tuple]:
        """The split into units whose (count, rank) list, greatest first, is greatest."""
        best: list = []

        def search(rest: Counter, acc: list) -> None:
            nonlocal best
            if not +rest:
                keyed = sorted(acc, key=lambda u: (u[1] * u[2], u[4]), reverse=True)
                if [(u[1] * u[2], u[4]) for u in keyed] > [(u[1] * u[2], u[4]) for u in best]:
                    best = keyed
                return
            first = min(c for c in rest if rest[c] > 0)
            for sub in sub_multisets(sorted((+rest).items())):
                if first in sub and (u := self.unit(sub)) is not None:
                    search(rest - Counter(sub), [*acc, u])

        search(Counter(cards), [])
        return best

    def fails(self, comps: list, shown) -> list[tuple]:
        held = [c for c in shown if self.suit(c) == comps[0][3]]
        out = []
        for comp in comps:
            for sub in sub_multisets(sorted(Counter(held).items())):
                u = self.unit(sub)
                if u is not None and u[1:3] == comp[1:3] and u[4] > comp[4]:
                    out.append(comp)
                    break
        return out

    def vector(self, play, comps, spared: bool) -> tuple:
        """The greatest key vector over splits of the play into the components' sizes."""
        best = None

        def search(rest: Counter, i: int, acc: tuple) -> None:
            nonlocal best
            if i == len(comps):
                if best is None or acc > best:
                    best = acc
                return
            comp = comps[i]
            size = comp[1] * comp[2]
            for sub in sub_multisets(sorted((+rest).items()), size):
                if comp[0] == "single" or (comp[0] == "triple" and spared):
                    key: tuple = ()
                else:
                    key = self.key(sub, comp)
                search(rest - Counter(sub), i + 1, (*acc, key))

        search(Counter(play), 0, ())
        return best

    def throw_legal(self, throw, hand, play) -> bool:
        comps = self.components(throw)
        n = len(throw)
        held = [c for c in hand if self.suit(c) == comps[0][3]]
        if len(held) <= n:
            return not (Counter(held) - Counter(play))
        if any(self.suit(c) != comps[0][3] for c in play):
            return False
        spared = self.exempt(held)
        top = _throw_top(self, tuple(sorted(throw)), tuple(sorted(held)))
        return self.vector(play, comps, spared) == top

    def ruff(self, play, comps) -> tuple | None:
        """An all-trump play splitting into one unit per component shape: the highest
        unit of the largest shape, else None."""
        if any(self.suit(c) != "trump" for c in play) or comps[0][3] == "trump":
            return None
        best = None

        def search(rest: Counter, i: int, first) -> None:
            nonlocal best
            if i == len(comps):
                if best is None or first > best:
                    best = first
                return
            shape = comps[i][1:3]
            for sub in sub_multisets(sorted((+rest).items()), shape[0] * shape[1]):
                u = self.unit(sub)
                if u is not None and u[1:3] == shape:
                    search(rest - Counter(sub), i + 1, u[4] if i == 0 else first)

        search(Counter(play), 0, None)
        return best

    def throw_winner(self, plays) -> int:
        comps = self.components(plays[0])
        winner, best = 0, None
        for i, play in enumerate(plays[1:], start=1):
            top = self.ruff(play, comps)
            if top is not None and (best is None or top > best):
                winner, best = i, top
        return winner


@lru_cache(maxsize=1 << 10)
def _throw_top(model: PresetModel, throw: tuple[Card, ...], held: tuple[Card, ...]) -> tuple:
    """The greatest key vector over every n cards of the holding (one per situation)."""
    comps, spared = model.components(throw), model.exempt(held)
    return max(
        model.vector(s, comps, spared)
        for s in sub_multisets(sorted(Counter(held).items()), len(throw))
    )


@lru_cache(maxsize=1 << 14)
def _profile(model: PresetModel, cards: tuple[Card, ...]) -> tuple[int, ...]:
    counts = Counter(cards)
    candidates = []
    for sub in sub_multisets(sorted(counts.items())):
        u = model.unit(sub)
        if u is None or u[0] == "single":
            continue
        value = {"pair": 1, "triple": 1, "bomb": 2}.get(u[0], u[1] * u[2] // 2)
        candidates.append((Counter(sub), value))
    best: tuple[int, ...] = ()

    def search(rest: Counter, start: int, acc: tuple[int, ...]) -> None:
        nonlocal best
        best = max(best, tuple(sorted(acc, reverse=True)))
        for j in range(start, len(candidates)):
            need, value = candidates[j]
            if all(rest[c] >= k for c, k in need.items()):
                search(rest - need, j, (*acc, value))

    search(counts, 0, ())
    return best


SETTINGS = [
    (Rank.TWO, Suit.H, False),
    (Rank.TWO, None, False),
    (Rank.EIGHT, Suit.S, False),
    (Rank.ACE, Suit.H, False),
    (Rank.FIVE, Suit.H, True),
    (Rank.TEN, Suit.S, True),
    (Rank.FIVE, None, True),
    (Rank.TWO, Suit.D, True),
]


def engine(setting) -> tuple[PresetModel, TrumpContext, Ruleset]:
    level, trump, three = setting
    ruleset = THREE_DECK if three else QQ_FOUR_DECK
    label = "NT" if trump is None else trump.value
    return (
        PresetModel(level, trump, three),
        TrumpContext.for_ruleset(level, label, ruleset),
        ruleset,
    )


#: Trumps around every link of 12.2's chain, and side cards around the level gaps.
TRUMP_POOL = P("HA HK S2 D2 H2 S5 H5 S10 H10 D10 LJ BJ SA SK D5")
SIDE_POOL = P("C2 C3 C4 C5 C7 C8 C9 C10 CJ CA")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SETTINGS), st.lists(st.integers(0, 4), min_size=15, max_size=15))
def test_units_agree_with_the_model(setting, counts) -> None:
    model, c, _ = engine(setting)
    cards = [
        card for card, k in zip(TRUMP_POOL, counts, strict=True) for _ in range(min(k, model.decks))
    ]
    for sub in list(sub_multisets(sorted(Counter(cards[:9]).items())))[:200]:
        u, m = classify(sub, c), model.unit(sub)
        assert (None if u is None else (str(u.kind), u.length, u.each, u.suit)) == (
            None if m is None else m[:4]
        ), format_cards(sub)


@st.composite
def unit_follows(draw):
    setting = draw(st.sampled_from(SETTINGS))
    model, c, ruleset = engine(setting)
    pool = draw(st.sampled_from([TRUMP_POOL, SIDE_POOL]))
    counts = draw(st.lists(st.integers(0, model.decks), min_size=len(pool), max_size=len(pool)))
    held = [card for card, k in zip(pool, counts, strict=True) for _ in range(k)][:9]
    lead_pool = [x for x in held if model.unit((x, x)) is not None] or list(pool[:1])
    first = draw(st.sampled_from(lead_pool))
    each = draw(st.integers(1, min(3, model.decks)))
    lead = (first,) * each
    hand = tuple(held + list(P("D3 D4 C6 S6"))[: max(0, each - len(held) + 1)])
    return model, c, ruleset, lead, hand


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unit_follows())
def test_unit_follow_agrees_with_the_model(case) -> None:
    """Section 5 is unchanged in the presets (12.2), on 12.1's trump order and chain."""
    model, c, ruleset, lead, hand = case
    unit = model.unit(lead)
    if unit is None:
        return
    n = len(lead)
    held = [x for x in hand if model.suit(x) == unit[3]]
    for play in list(sub_multisets(sorted(Counter(hand).items()), n))[:120]:
        verdict = check_follow(lead, hand, play, c, ruleset)
        if len(held) <= n:
            expected = not (Counter(held) - Counter(play))
        elif any(model.suit(x) != unit[3] for x in play):
            expected = False
        elif unit[0] == "single" or (unit[0] == "triple" and model.exempt(held)):
            expected = True
        else:
            top = max(model.key(s, unit) for s in sub_multisets(sorted(Counter(held).items()), n))
            expected = model.key(play, unit) == top
        assert verdict.legal is expected, (
            format_cards(lead),
            format_cards(hand),
            format_cards(play),
        )


@st.composite
def throws(draw):
    setting = draw(st.sampled_from(SETTINGS))
    model, c, ruleset = engine(setting)
    pool = draw(st.sampled_from([SIDE_POOL, SIDE_POOL, TRUMP_POOL]))
    suit = model.suit(pool[0]) if pool is SIDE_POOL else "trump"
    cards = [x for x in pool if model.suit(x) == suit]
    counts = draw(st.lists(st.integers(0, 2), min_size=len(cards), max_size=len(cards)))
    throw = tuple(x for x, k in zip(cards, counts, strict=True) for _ in range(k))[:6]
    counts2 = draw(st.lists(st.integers(0, model.decks), min_size=len(cards), max_size=len(cards)))
    other = [x for x, k in zip(cards, counts2, strict=True) for _ in range(k)][:8]
    extra = draw(st.lists(st.sampled_from(TRUMP_POOL + P("D3 D4 S6")), min_size=6, max_size=6))
    return model, c, ruleset, throw, tuple(other), tuple(extra)


def _is_throw(model: PresetModel, throw) -> bool:
    return len(throw) >= 2 and model.unit(throw) is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(throws())
def test_throw_components_and_failure_agree_with_the_model(case) -> None:
    model, c, _ruleset, throw, other, _extra = case
    if not _is_throw(model, throw):
        return
    comps = model.components(throw)
    engine_comps = as_throw(throw, c).components
    assert [(u.size, u.each, u.length) for u in engine_comps] == [
        (m[1] * m[2], m[2], m[1]) for m in comps
    ], format_cards(throw)
    check = check_throw(throw, other, c)
    beaten = model.fails(comps, other)
    assert [(u.size, u.each) for u in check.beaten] == [(m[1] * m[2], m[2]) for m in beaten]
    if beaten:
        smallest = min(m[1] * m[2] for m in beaten)
        assert check.forced is not None and check.forced.size == smallest


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(throws())
def test_throw_follow_agrees_with_the_model(case) -> None:
    model, c, ruleset, throw, other, extra = case
    if not _is_throw(model, throw) or len(throw) > 5:
        return
    hand = other[:7] + extra
    hand = tuple(x for x, k in Counter(hand).items() for _ in range(min(k, model.decks)))
    if len(hand) < len(throw):
        return
    for play in list(sub_multisets(sorted(Counter(hand).items()), len(throw)))[:60]:
        verdict = check_follow(throw, hand, play, c, ruleset)
        expected = model.throw_legal(throw, hand, play)
        assert verdict.legal is expected, (
            format_cards(throw),
            format_cards(hand),
            format_cards(play),
            verdict.reason,
        )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(throws(), st.data())
def test_throw_winner_agrees_with_the_model(case, data) -> None:
    model, c, ruleset, throw, _other, _extra = case
    if not _is_throw(model, throw):
        return
    n = len(throw)
    plays = [throw]
    for _ in range(data.draw(st.integers(1, 3))):
        pairs = data.draw(st.lists(st.sampled_from(TRUMP_POOL), min_size=n, max_size=n))
        doubled = [x for x in pairs[: (n + 1) // 2] for _ in range(2)][:n]
        play = tuple(data.draw(st.sampled_from([pairs, doubled])))
        if max(Counter(play).values()) > model.decks:
            continue
        plays.append(play)
    assert trick_winner(plays, c, ruleset=ruleset) == model.throw_winner(plays), [
        format_cards(p) for p in plays
    ]


def _unit_winner(model: PresetModel, plays) -> int:
    """12.2 bombs_beat_tractors=false: only the lead's exact shape competes; a trump play
    of that shape ruffs a side lead; higher rank wins, first among equals (6.1)."""
    lead = model.unit(plays[0])
    best, w = 0, lead
    for i, play in enumerate(plays[1:], start=1):
        u = model.unit(play)
        if u is None or u[3] not in (lead[3], "trump") or u[1:3] != lead[1:3]:
            continue
        if (u[3] == w[3] and u[4] > w[4]) or (u[3] == "trump" and w[3] != "trump"):
            best, w = i, u
    return best


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETTINGS), st.data())
def test_unit_trick_winner_agrees_with_the_model(setting, data) -> None:
    model, c, ruleset = engine(setting)
    shape = data.draw(st.sampled_from([(1, 1), (2, 1), (3, 1), (2, 2), (2, 3)]))
    pool = TRUMP_POOL + SIDE_POOL

    def a_play() -> tuple[Card, ...]:
        start = data.draw(st.integers(0, len(pool) - shape[1]))
        return tuple(x for x in pool[start : start + shape[1]] for _ in range(shape[0]))

    plays = [a_play() for _ in range(data.draw(st.integers(2, 4)))]
    if model.unit(plays[0]) is None:
        return
    assert trick_winner(plays, c, ruleset=ruleset) == _unit_winner(model, plays), [
        format_cards(p) for p in plays
    ]


@st.composite
def tuple_throws(draw):
    """A throw holding a triple or pairs, and a holding of that suit with pairs and
    triples to spare: the duty of a later component depends on what the earlier
    components' parts leave (12.4 "then the next one's with what is left")."""
    setting = draw(st.sampled_from(SETTINGS))
    model, c, ruleset = engine(setting)
    pool = draw(st.sampled_from([SIDE_POOL, TRUMP_POOL]))
    suit = model.suit(pool[0]) if pool is SIDE_POOL else "trump"
    cards = [x for x in pool if model.suit(x) == suit]
    counts = draw(st.lists(st.integers(0, 3), min_size=len(cards), max_size=len(cards)))
    throw = tuple(x for x, k in zip(cards, counts, strict=True) for _ in range(k))[:6]
    each = st.sampled_from([0, 1, 1, 1, 2, 2, 3])
    counts2 = draw(st.lists(each, min_size=len(cards), max_size=len(cards)))
    held = [x for x, k in zip(cards, counts2, strict=True) for _ in range(k)][:10]
    return model, c, ruleset, throw, (*held, *P("D3 S6")[: max(0, len(throw) - len(held))])


def _issue_19_case():
    """Issue 19's follow, as 12.4 reads it: qq-four-deck, level 5, NT, lead DA DA D10
    D10 D10; the triple's pair + 1 must leave the pair D3 D3 for the pair component."""
    model, c, ruleset = engine((Rank.FIVE, None, False))
    return model, c, ruleset, P("DA DA D10 D10 D10"), P("D3 D3 DJ DJ D6 D7 D8 D10 DQ")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tuple_throws())
@example(_issue_19_case())
def test_throw_follow_with_what_is_left_agrees_with_the_model(case) -> None:
    """12.4: the play must reach the greatest key vector over every n cards of the
    holding; each component's duty is judged on what the larger ones leave."""
    model, c, ruleset, throw, hand = case
    if not _is_throw(model, throw):
        return
    hand = tuple(x for x, k in Counter(hand).items() for _ in range(min(k, model.decks)))
    if len(hand) < len(throw):
        return
    for play in list(sub_multisets(sorted(Counter(hand).items()), len(throw)))[:300]:
        verdict = check_follow(throw, hand, play, c, ruleset)
        expected = model.throw_legal(throw, hand, play)
        assert verdict.legal is expected, (
            format_cards(throw),
            format_cards(hand),
            format_cards(play),
            verdict.reason,
        )
