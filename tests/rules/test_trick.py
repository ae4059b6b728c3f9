"""Who wins a trick: RULES.md section 6, Guilin chapters 5 and 6, and 8.2."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee_desk.rules.cards import DECK, Card, parse_cards, points_of
from referee_desk.rules.errors import IllegalInputError
from referee_desk.rules.trick import competes, trick_result, trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import classify

L9S = TrumpContext.of("9", "S")


def plays(*texts: str) -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in texts]


@pytest.mark.parametrize(
    ("article", "trick", "winner"),
    [
        ("5.1: the higher single of the lead suit wins", ("H3", "HA", "H10", "H4"), 1),
        ("5.1: off-suit card never wins", ("H3", "DA", "CA", "H4"), 3),
        ("5.1: any trump beats a side-suit single", ("HA", "S3", "H4", "H5"), 1),
        ("5.1: higher trump over lower trump", ("HA", "S3", "S4", "H5"), 2),
        ("5.1: BJ > LJ", ("HA", "LJ", "BJ", "H5"), 2),
        ("5.1: LJ > trump-suit level card", ("HA", "S9", "LJ", "H5"), 2),
        ("5.1: trump-suit level > off-suit level", ("HA", "H9", "S9", "H5"), 2),
        ("5.1: off-suit level > trump 2", ("HA", "S2", "D9", "H5"), 2),
        ("5.1: trump 2 > off-suit 2", ("HA", "D2", "S2", "H5"), 2),
        ("5.1: off-suit 2 > trump-suit A", ("HA", "SA", "C2", "H5"), 2),
        ("5.1: 副X 先出牌的就是大的", ("HA", "D9", "C9", "H9"), 1),
        ("5.1: 副2 先出牌的就是大的", ("HA", "C2", "D2", "H2"), 1),
        ("6.1: 同级者先出者为大 (identical singles)", ("HA", "HA", "HA", "HA"), 0),
        ("6.1: identical trump singles, first stays", ("H3", "SA", "SA", "H4"), 1),
        ("4.1: a pair beats only with a pair", ("H3 H3", "HA HK", "H5 H5", "H4 H4"), 2),
        ("4.1: two trumps that are no pair never win", ("H3 H3", "S4 S5", "H4 H4", "C4 C4"), 2),
        (
            "6.1: higher tractor wins",
            ("H3 H3 H4 H4", "HA HA HK HK", "H5 H5 H6 H6", "C3 C4 C5 C6"),
            1,
        ),
        (
            "6.1: tractor length must match",
            ("H3 H3 H4 H4", "HA HA HK HK", "S3 S3 S3 S3", "C3 C3 C4 C4"),
            2,
        ),
        (
            "6.2: 大王小王 is the top trump tractor",
            ("H3 H3 H4 H4", "SA SA SK SK", "BJ BJ LJ LJ", "H5 H5 H6 H6"),
            2,
        ),
        (
            "6.2: AAKK > KKQQ in trump",
            ("H3 H3 H4 H4", "SK SK SQ SQ", "SA SA SK SK", "H5 H5 H6 H6"),
            2,
        ),
        (
            "6.3: 555666 beats AAKKQQ",
            ("HA HA HK HK HQ HQ", "H5 H5 H5 H6 H6 H6", "H7 H7 H8 H8 H10 H10", "C3 C3 C4 C4 C5 C5"),
            1,
        ),
        (
            "6.3: 33334444 beats a four-pair tractor",
            (
                "HA HA HK HK HQ HQ HJ HJ",
                "H3 H3 H3 H3 H4 H4 H4 H4",
                "C3 C3 C4 C4 C5 C5 C6 C6",
                "D3 D3 D4 D4 D5 D5 D6 D6",
            ),
            1,
        ),
        ("6.4: 6666 beats AAKK", ("HA HA HK HK", "H6 H6 H6 H6", "H3 H3 H4 H4", "C3 C3 C4 C4"), 1),
        (
            "6.4: higher bomb beats lower bomb",
            ("HA HA HK HK", "H6 H6 H6 H6", "H7 H7 H7 H7", "C3 C3 C4 C4"),
            2,
        ),
        (
            "6.4: bomb does not beat a three-pair tractor",
            ("HA HA HK HK HQ HQ", "H6 H6 H6 H6 H3 H3", "H3 H3 H4 H4 H5 H5", "C3 C3 C4 C4 C5 C5"),
            0,
        ),
        (
            "6.5: ♥7777 bombs ♥AAKK; a trump tractor cannot ruff it",
            ("HA HA HK HK", "H7 H7 H7 H7", "S3 S3 S4 S4", "C3 C3 C4 C4"),
            1,
        ),
        (
            "6.5: ♥7777 bombs ♥AAKK; a trump bomb ruffs it",
            ("HA HA HK HK", "H7 H7 H7 H7", "S3 S3 S3 S3", "C3 C3 C4 C4"),
            2,
        ),
        (
            "6.5: trump tractor ruffs; ♥7777 after it does not beat it",
            ("HA HA HK HK", "S3 S3 S4 S4", "H7 H7 H7 H7", "C3 C3 C4 C4"),
            1,
        ),
        (
            "6.5: a trump bomb over a trump tractor",
            ("HA HA HK HK", "S3 S3 S4 S4", "S5 S5 S5 S5", "C3 C3 C4 C4"),
            2,
        ),
        (
            "6.5: trump tractor ruffs a side tractor",
            ("HA HA HK HK", "H3 H3 H4 H4", "S3 S3 S4 S4", "C3 C3 C4 C4"),
            2,
        ),
        (
            "6.5: trump bulldozer over side bulldozer",
            ("HA HA HK HK HQ HQ", "H5 H5 H5 H6 H6 H6", "S3 S3 S3 S4 S4 S4", "C3 C3 C4 C4 C5 C5"),
            2,
        ),
        (
            "6.5: trump tractor cannot ruff a side bulldozer",
            ("HA HA HK HK HQ HQ", "H5 H5 H5 H6 H6 H6", "S3 S3 S4 S4 S5 S5", "C3 C3 C4 C4 C5 C5"),
            1,
        ),
        (
            "6: a side bulldozer lead: only same bulldozers compete",
            ("H7 H7 H7 H8 H8 H8", "HA HA HK HK HQ HQ", "SA SA SK SK SQ SQ", "S3 S3 S3 S4 S4 S4"),
            3,
        ),
        (
            "6: a bomb lead is not beaten by a tractor",
            ("H3 H3 H3 H3", "HA HA HK HK", "S3 S3 S4 S4", "H4 H4 H4 H4"),
            3,
        ),
        ("6: a triple lead", ("H3 H3 H3", "HA HA HK", "S3 S3 S3", "SA SA SA"), 3),
    ],
)
def test_trick_winner(article: str, trick: tuple[str, ...], winner: int) -> None:
    assert trick_winner(plays(*trick), L9S) == winner, article


def test_no_trump_jokers_and_levels() -> None:
    """2 / 5.1 in no-trump: BJ > LJ > level cards > 2s > side cards."""
    ctx = TrumpContext.of("5", "NT")
    assert trick_winner(plays("HA", "C2", "D5", "H3"), ctx) == 2
    assert trick_winner(plays("HA", "D5", "LJ", "S5"), ctx) == 2
    assert trick_winner(plays("HA", "SA", "DA", "CA"), ctx) == 0  # other side suits never win


def test_fewer_than_four_plays_give_the_winner_so_far() -> None:
    assert trick_winner(plays("H3"), L9S) == 0
    assert trick_winner(plays("H3", "HA"), L9S) == 1


def test_replacement_plays_cannot_win() -> None:
    """8.2: 换出的牌, 不管其大小究竟有多么大, 全部都作为垫牌 — they cannot win."""
    trick = plays("H3", "BJ", "HA", "H4")
    assert trick_winner(trick, L9S) == 1
    assert trick_winner(trick, L9S, discarded={1}) == 2
    assert trick_winner(trick, L9S, discarded=frozenset({1, 2})) == 3
    result = trick_result(trick, L9S, discarded={1})
    assert result.competing == (True, False, True, True)
    # a replacement lead cannot win: the first competing later play takes over
    assert trick_winner(plays("HA", "H3", "H4", "C4"), L9S, discarded={0}) == 2


def test_trick_points() -> None:
    """7: 5 → 5, 10 → 10, K → 10."""
    trick = plays("H5 H5", "HK HK", "H10 H10", "C3 C4")
    result = trick_result(trick, L9S)
    assert result.points == 5 + 5 + 10 + 10 + 10 + 10
    assert result.winner == 1
    assert result.cards_each == 2


def test_competes() -> None:
    """6: a play competes only as one unit of the lead's suit or trump, matching type."""
    lead = parse_cards("HA HA HK HK")
    assert competes(parse_cards("H3 H3 H4 H4"), lead, L9S)
    assert competes(parse_cards("H6 H6 H6 H6"), lead, L9S)  # 6.4
    assert competes(parse_cards("S3 S3 S4 S4"), lead, L9S)  # ruff
    assert not competes(parse_cards("C3 C3 C4 C4"), lead, L9S)  # another side suit
    assert not competes(parse_cards("H3 H3 H5 H5"), lead, L9S)  # two pairs
    assert not competes(parse_cards("S3 S3 H4 H4"), lead, L9S)  # mixed suits
    assert competes(parse_cards("H5 H5 H5 H6 H6 H6"), parse_cards("HA HA HK HK HQ HQ"), L9S)
    assert not competes(parse_cards("HA HA HK HK"), parse_cards("H3 H3 H3 H3"), L9S)


@pytest.mark.parametrize(
    ("trick", "message"),
    [
        (("H3 H5",), "not one unit"),  # 4.7: no throws
        (("H3 H3", "H4"), "has 1 cards"),
        ((), "at least the lead"),
        (("H3", "H4", "H5", "H6", "H7"), "at most four"),
    ],
)
def test_bad_tricks_are_refused(trick: tuple[str, ...], message: str) -> None:
    with pytest.raises(IllegalInputError, match=message):
        trick_winner(plays(*trick), L9S)


# ----------------------------------------------------------------- properties

_SINGLES = st.lists(st.sampled_from(DECK), min_size=1, max_size=4)


@given(_SINGLES)
def test_winner_only_changes_to_the_new_play(cards: list[Card]) -> None:
    """Adding a play either makes it the winner or leaves the winner unchanged."""
    trick = [(c,) for c in cards]
    for k in range(2, len(trick) + 1):
        before = trick_winner(trick[: k - 1], L9S)
        after = trick_winner(trick[:k], L9S)
        assert after in (before, k - 1)


@given(_SINGLES)
def test_winner_is_the_strongest_competing_single_played_first(cards: list[Card]) -> None:
    """5.1 / 6.1: for singles the winner is the first card of the greatest power among
    those that follow the lead's suit or are trump (trump beating the lead's suit)."""
    trick = [(c,) for c in cards]
    lead_suit = L9S.effective_suit(cards[0])

    def strength(card: Card) -> tuple[int, int]:
        suit = L9S.effective_suit(card)
        if suit == "trump":
            return (2, L9S.power(card))
        return (1, L9S.power(card)) if suit == lead_suit else (0, 0)

    best = max(strength(c) for c in cards)
    expected = next(i for i, c in enumerate(cards) if strength(c) == best)
    assert trick_winner(trick, L9S) == expected
    assert trick_result(trick, L9S).points == points_of(cards)


@given(st.sampled_from(DECK), st.integers(1, 4), st.integers(1, 4))
def test_identical_plays_first_stays(card: Card, each: int, n_plays: int) -> None:
    """6.1 先出者为大: identical plays never displace the first."""
    trick = [(card,) * each] * n_plays
    assert trick_winner(trick, L9S) == 0
    assert classify(trick[0], L9S) is not None


def test_nothing_can_win_names_the_lead() -> None:
    """8.2 edge: a replacement lead and no competing play — the lead takes the cards."""
    assert trick_winner(plays("HA", "C3", "D4", "C5"), L9S, discarded={0}) == 0


_TRUMP_OR_HEARTS = [c for c in DECK if L9S.effective_suit(c) in ("H", "trump")]


@given(
    st.lists(st.sampled_from(_TRUMP_OR_HEARTS), min_size=2, max_size=4),
    st.sets(st.integers(0, 3)),
)
def test_discarded_plays_never_win_when_another_competes(
    cards: list[Card], discarded: set[int]
) -> None:
    """8.2: a replacement play wins only if no other play can (the fallback lead)."""
    trick = [(c,) for c in cards]
    discarded = {i for i in discarded if i < len(trick)}
    result = trick_result(trick, L9S, discarded=discarded)
    if any(result.competing):
        assert result.winner not in discarded
        assert result.competing[result.winner]
