"""Hands recorded trick by trick: winners, points and what the record proves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from match_table import Table

from referee_desk.match.simulate import deal, play_hand
from referee_desk.rules.cards import parse_cards, points_of
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.trump import TrumpContext


def _detailed_table(seed: int = 11):
    t = Table().start()
    t.race_hand("N", "H")
    ctx = TrumpContext.of("3", "H")
    rng = random.Random(seed)
    tricks = play_hand(deal(rng), ctx, Seat.N, rng)
    return t, ctx, tricks


def test_whole_hand_trick_by_trick_derives_points_and_last_trick():
    """7.3: defenders' points are counted from their tricks; the last trick is dug × c."""
    t, _ctx, tricks = _detailed_table()
    for trick in tricks:
        t.ev("trick", trick.payload(), after=20)
    hand = t.state.hands[-1]
    assert hand.status == "finished" and hand.form == "detailed"
    assert hand.cards_played == dict.fromkeys(Seat, 54)
    # Independent arithmetic from the simulated tricks.
    before = sum(
        points_of(c for _, cards in tr.plays for c in cards)
        for tr in tricks[:-1]
        if tr.winner.side == Side.EW
    )
    last = tricks[-1]
    last_points = points_of(c for _, cards in last.plays for c in cards)
    c = len(last.plays[0][1])
    expected = before + last_points * c if last.winner.side == Side.EW else before - last_points * c
    assert hand.result.defenders_final == expected
    assert [tr.winner for tr in hand.tricks] == [tr.winner for tr in tricks]
    assert not t.state.flags  # legal follows, 54 cards each


def test_leader_must_be_the_previous_winner_and_seats_play_once():
    t, _ctx, tricks = _detailed_table()
    wrong = tricks[0].payload()
    wrong["leader"] = "E"
    assert "leader must be N" in t.refused("trick", wrong)
    twice = tricks[0].payload()
    twice["plays"][2]["seat"] = "W"
    assert "W plays twice in this trick" in t.refused("trick", twice)
    t.ev("trick", tricks[0].payload())
    assert t.state.current_hand.tricks[0].winner == tricks[0].winner


def test_fifth_copy_of_a_card_in_play_is_refused(table):
    """RULES 1: a record that puts a fifth copy in play is a data-entry error."""
    table.race_hand("N", "H")
    four = {"leader": "N", "plays": [{"seat": s, "cards": ["SA"]} for s in ("N", "W", "S", "E")]}
    table.ev("trick", four)
    winner = table.state.current_hand.tricks[-1].winner.value
    order = {"N": "NWSE", "W": "WSEN", "S": "SENW", "E": "ENWS"}[winner]
    fifth = {
        "leader": winner,
        "plays": [{"seat": s, "cards": ["SA" if i == 1 else "D5"]} for i, s in enumerate(order)],
    }
    assert "5th copy of SA" in table.refused("trick", fifth)


def test_unequal_play_and_throw_lead_are_refused(table):
    """4.7: a lead must be exactly one unit; every seat plays as many cards as the lead."""
    table.race_hand("N", "H")
    throw = {
        "leader": "N",
        "plays": [
            {"seat": "N", "cards": ["SA", "SK"]},
            {"seat": "W", "cards": ["S4", "S5"]},
            {"seat": "S", "cards": ["S6", "S7"]},
            {"seat": "E", "cards": ["S8", "S9"]},
        ],
    }
    assert "4.7" in table.refused("trick", throw)
    short = {
        "leader": "N",
        "plays": [
            {"seat": "N", "cards": ["SA", "SA"]},
            {"seat": "W", "cards": ["S4", "S5"]},
            {"seat": "S", "cards": ["S6"]},
            {"seat": "E", "cards": ["S8", "S9"]},
        ],
    }
    assert "S plays 1 cards to a lead of 2" in table.refused("trick", short)


def test_record_proves_void_then_played_and_illegal_follow_and_card_count(table):
    """8.3: having a card and not playing it, or too many / too few cards: the record shows it."""
    table.race_hand("N", "H")
    # Trick 1: W shows void in spades (plays a club) ...
    table.ev(
        "trick",
        {
            "leader": "N",
            "plays": [
                {"seat": "N", "cards": ["SA"]},
                {"seat": "W", "cards": ["C4"]},
                {"seat": "S", "cards": ["S6"]},
                {"seat": "E", "cards": ["S8"]},
            ],
        },
    )
    assert table.state.current_hand.tricks[0].winner == Seat.N
    # ... and trick 2: W plays a spade after all; the hand is closed early (last).
    table.ev(
        "trick",
        {
            "leader": "N",
            "plays": [
                {"seat": "N", "cards": ["SK"]},
                {"seat": "W", "cards": ["S9"]},
                {"seat": "S", "cards": ["S7"]},
                {"seat": "E", "cards": ["D8"]},
            ],
            "last": True,
        },
    )
    flags = [str(f) for f in table.state.flags]
    assert any("W plays S in trick 2 after showing void" in f for f in flags)
    assert any("N played 2 cards in hand 1, not 54" in f for f in flags)
    # W held S9 when following trick 1 with a club: that wrong follow is flagged once,
    # by the void flag (8.3) at trick 2, not a second time as "W in trick 1" (4.1).
    about_w = [f for f in flags if f.split(": ", 1)[1].startswith("W ")]
    assert about_w == [
        "8.3: W plays S in trick 2 after showing void in it",
        "8.3: W played 2 cards in hand 1, not 54",
    ], flags
    assert parse_cards("S9")  # notation sanity


def test_wrong_play_replacement_is_a_discard_that_cannot_win(table):
    """8.2: 在出现出错牌这种情况之后，而后再拿来换出的牌 … 全部都作为垫牌进行处理操作."""
    table.race_hand("N", "H")
    table.ev("wrong_play", {"seat": "S", "cards_exposed": 1, "cards": ["SQ"]})
    table.ev(
        "trick",
        {
            "leader": "N",
            "plays": [
                {"seat": "N", "cards": ["S4"]},
                {"seat": "W", "cards": ["S5"]},
                {"seat": "S", "cards": ["SA"], "discarded": True},
                {"seat": "E", "cards": ["S8"]},
            ],
        },
    )
    assert table.state.current_hand.tricks[0].winner == Seat.E


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.sampled_from(["S", "H", "D", "C"]))
def test_any_legal_simulated_hand_replays_without_flags(seed, suit):
    """Legal play (follows chosen through rules.follow) never raises a flag, and the
    defenders' points before the last trick equal their captured points (7)."""
    t = Table().start()
    t.race_hand("E", suit)
    ctx = TrumpContext.of("3", suit)
    rng = random.Random(seed)
    tricks = play_hand(deal(rng), ctx, Seat.E, rng)
    for trick in tricks:
        t.ev("trick", trick.payload(), after=20)
    hand = t.state.hands[-1]
    assert not t.state.flags
    captured = sum(
        points_of(c for _, cards in tr.plays for c in cards)
        for tr in tricks[:-1]
        if tr.winner.side == Side.NS
    )
    assert hand.defenders_points == captured
