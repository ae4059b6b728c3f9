"""The public drafting API: new_event / validate / seal / append / Recorder."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_table import Table

from referee_desk.match import (
    EventRefused,
    Replayer,
    append,
    new_event,
    replay,
    seal,
    validate,
    verify_chain,
)
from referee_desk.match.simulate import deal, play_hand
from referee_desk.rules.seats import Seat
from referee_desk.rules.trump import TrumpContext


def test_new_event_fills_the_envelope(table):
    events = table.events
    draft = new_event(events, "note", {"text": "x"}, "陈裁判", "2026-11-29T09:05:00.000Z")
    assert draft.seq == len(events) + 1 and draft.match_id == events[0].match_id
    assert draft.hash == "" and draft.clock_ms == 5 * 60_000 - 60_000 - 0  # started at 09:01
    same_from_state = new_event(
        replay(events), "note", {"text": "x"}, "陈裁判", "2026-11-29T09:05:00.000Z"
    )
    r = Replayer()
    for e in events:
        r.apply(e)
    same_from_replayer = new_event(r, "note", {"text": "x"}, "陈裁判", "2026-11-29T09:05:00.000Z")
    assert draft == same_from_state == same_from_replayer


def test_new_event_refuses_unknown_types_and_needs_a_match_id():
    with pytest.raises(EventRefused, match="unknown event type"):
        new_event([], "shout", {}, "r", match_id="m")
    with pytest.raises(EventRefused, match="match_id"):
        new_event([], "match_opened", {}, "r")


def test_append_validates_seals_and_links():
    t = Table().start()
    events = list(t.events)
    draft = new_event(events, "hand_started", {"dealer": None}, "陈裁判", t.now())
    event = append(events, draft)
    assert events[-1] is event and event.prev_hash == events[-2].hash
    assert verify_chain(events) is None
    bad = new_event(events, "hand_started", {"dealer": None}, "陈裁判", t.now())
    with pytest.raises(EventRefused, match="still in bidding"):
        append(events, bad)
    assert len(events) == 3
    with pytest.raises(EventRefused):
        validate(events, seal(events, bad))


def test_revoke_in_a_detailed_hand_uses_the_points_the_tricks_give():
    """8.3 B on a trick-by-trick record: the points as they stand are derived."""
    t = Table().start()
    t.race_hand("N", "H")
    ctx = TrumpContext.of("3", "H")
    rng = random.Random(3)
    tricks = play_hand(deal(rng), ctx, Seat.N, rng)
    for trick in tricks[:12]:
        t.ev("trick", trick.payload(), after=25)
    points = t.state.current_hand.defenders_points
    assert "differ from" in t.refused(
        "revoke", {"seat": "E", "kind": "wrong_follow", "defenders_points": points + 5}
    )
    assert "not recorded yet" in t.refused(
        "revoke", {"seat": "E", "kind": "wrong_follow", "trick": 13}
    )
    t.ev("revoke", {"seat": "E", "kind": "wrong_follow", "trick": 11})
    t.ev("penalty_choice", {"seat": "S", "choice": "B"})
    assert t.state.hands[-1].result.defenders_final == points - 160


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("NESW"),
            st.sampled_from(["dark", "counter", "reinforce"]),
            st.sampled_from("SHDC"),
            st.integers(min_value=1, max_value=4),
        ),
        max_size=8,
    )
)
def test_accepted_bids_always_follow_2_1(bids):
    """2.1: every accepted counter shows more level cards than the bid it beats and is
    not by the standing bidder; a reinforcement is by the standing bidder."""
    t = Table().start()
    t.ev("hand_started", {"dealer": None})
    standing = None  # (seat, count)
    for seat, kind, suit, n in bids:
        cards = [suit + "3"] * n if kind == "reinforce" else ["LJ"] + [suit + "3"] * n
        try:
            t.ev("bid", {"seat": seat, "kind": kind, "cards": cards}, after=5)
        except EventRefused:
            continue
        if kind == "counter":
            assert standing is not None and seat != standing[0] and n > standing[1]
        if kind == "reinforce":
            assert standing is not None and seat == standing[0]
            n = standing[1] + n
        if kind == "dark":
            assert standing is None
        standing = (seat, n)
    hand = t.state.current_hand
    assert (hand.bids[-1].seat.value, hand.bids[-1].count) == standing if standing else True
