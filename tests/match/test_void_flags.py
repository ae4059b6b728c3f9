"""8.3 / 12.8 void flags: the single-card path reads as the general one (same flags, same voids).

``play._void_flags`` checks a trick of single cards with one suit per play and no sets
(most tricks of a record); a trick of pairs and more takes the general path. Random
single-card tricks through both give the same flags and the same voids noted.
"""

from __future__ import annotations

import random

from referee_desk.match.fold import play
from referee_desk.match.fold.hand import HandBook
from referee_desk.match.values import Flag
from referee_desk.rules.cards import DECK, Rank, Suit, format_card
from referee_desk.rules.ruleset import GUILIN_2009
from referee_desk.rules.seats import Seat

TOKENS = [format_card(c) for c in DECK]


def _hand() -> HandBook:
    hand = HandBook(number=1, seq=1, race=False, dealer=Seat.N, level=Rank.FIVE, trump=Suit.S)
    hand.ctx(GUILIN_2009)
    return hand


def _general(flags: list[Flag], hand: HandBook, seq: int, number: int, seats, plays) -> None:
    """The general path of ``_void_flags`` (sets of suits per play), written out."""
    suits = hand.suits
    assert suits is not None
    lead_suit = suits[plays[0][0]]
    void_in = hand.void_in
    if void_in:
        for seat, cards in zip(seats, plays, strict=True):
            voids = void_in.get(seat)
            if not voids:
                continue
            for suit in sorted({suits[c] for c in cards} & voids):
                flags.append(Flag(seq, hand.number, "8.3", play._void_text(seat, suit, number)))
                voids.discard(suit)
    for i in range(1, len(plays)):
        for c in plays[i]:
            if suits[c] != lead_suit:
                void_in.setdefault(seats[i], set()).add(lead_suit)
                break


def test_single_card_tricks_flag_as_the_general_path_does() -> None:
    rng = random.Random(17)
    flagged = 0
    for _ in range(200):
        fast, slow = _hand(), _hand()
        fast_flags: list[Flag] = []
        slow_flags: list[Flag] = []
        for number in range(1, 30):
            seats = rng.choice(list(Seat)).play_order_from()
            plays = tuple((rng.choice(TOKENS),) for _ in seats)
            play._void_flags(fast_flags, "8.3", fast, number, number, seats, plays)
            _general(slow_flags, slow, number, number, seats, plays)
        assert fast_flags == slow_flags
        assert fast.void_in == slow.void_in
        flagged += len(fast_flags)
    assert flagged  # the random tricks did flag plays after shown voids
