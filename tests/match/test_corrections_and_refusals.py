"""Corrections, notes, the after-end lock and the refusals of issue 3."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from match_table import Table

from referee_desk.match import EventRefused, replay, validate
from referee_desk.rules.cards import Rank
from referee_desk.rules.seats import Side


def test_correction_replaces_a_hand_summary(table):
    table.race_hand("N", "H")
    table.summary(100)  # NS +2 → 5 (typo: it was 130)
    wrong_seq = table.events[-1].seq
    assert table.state.levels[Side.NS] == Rank.FIVE
    table.ev(
        "correction",
        {
            "target_seq": wrong_seq,
            "action": "replace",
            "reason": "记分错误, 实为130分",
            "payload": {
                "defenders_points_before_last": 130,
                "last_trick_points": 0,
                "last_trick_cards_per_player": 1,
                "last_trick_side": "NS",
            },
        },
    )
    state = table.state
    assert state.levels[Side.NS] == Rank.FOUR
    assert state.hands[-1].result.defenders_final == 130
    assert [c.target_seq for c in state.corrections] == [wrong_seq]
    # Nothing was deleted: the original event is still in the record.
    assert table.events[wrong_seq - 1].payload["defenders_points_before_last"] == 100


def test_correction_voids_an_event_and_refuses_an_impossible_record(table):
    table.race_hand("N", "H")
    table.ev("conduct_warning", {"seat": "E", "text": "交谈"})
    warn = table.events[-1].seq
    table.ev("correction", {"target_seq": warn, "action": "void", "reason": "误判"})
    assert table.state.warnings[Side.EW] == 0
    assert warn in table.state.voided_seqs
    assert "already voided" in table.refused(
        "correction", {"target_seq": warn, "action": "void", "reason": "x"}
    )
    # Voiding the bid that made N dealer would make bidding_closed impossible.
    bid = next(e.seq for e in table.events if e.type == "bid")
    msg = table.refused("correction", {"target_seq": bid, "action": "void", "reason": "x"})
    assert "would be refused" in msg
    assert "cannot be voided" in table.refused(
        "correction", {"target_seq": 1, "action": "void", "reason": "x"}
    )
    assert "not an earlier event" in table.refused(
        "correction", {"target_seq": 999, "action": "void", "reason": "x"}
    )


def test_hand_result_before_a_hand_starts_is_refused(table):
    msg = table.refused(
        "hand_summary",
        {
            "defenders_points_before_last": 100,
            "last_trick_points": 0,
            "last_trick_cards_per_player": 1,
            "last_trick_side": "NS",
        },
    )
    assert "no hand is in progress" in msg
    table.ev("hand_started", {"dealer": None})
    assert "bidding" in table.refused("penalty_choice", {"seat": "N", "choice": "A"})


def test_clock_must_run_before_play():
    t = Table().open()
    assert "clock is not started" in t.refused("hand_started", {"dealer": None})
    assert "not paused" in t.refused("clock_resumed")
    t.ev("clock_started")
    assert "already started" in t.refused("clock_started")


def test_first_event_must_open_the_match():
    t = Table()
    assert "must open it" in t.refused("note", {"text": "x"})


def test_validate_does_not_change_the_record(table):
    table.race_hand("N", "H")
    draft = table.rec.draft(
        "bid", {"seat": "E", "kind": "dark", "cards": ["LJ", "S3"]}, table.now()
    )
    before = replay(table.events).to_json()
    try:
        validate(table.events, draft)
    except EventRefused as exc:
        assert "bidding" in str(exc)
    assert replay(table.events).to_json() == before


def test_notes_attach_to_earlier_events(table):
    table.ev("note", {"text": "东家申诉", "about_seq": 2})
    assert table.state.notes[0].about_seq == 2
    assert "not an earlier event" in table.refused("note", {"text": "x", "about_seq": 99})


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=300).map(lambda x: x - x % 5), max_size=6))
def test_replay_is_deterministic_and_schema_clean(points):
    """Replaying the same record twice (and after a JSON round trip) gives the same state."""
    from referee_desk.match.envelope import Event

    t = Table().start()
    t.race_hand("N", "H")
    for p in points:
        if t.state.end is not None:
            break
        t.summary(min(p, 400))
        if t.state.end is None and t.state.next_dealer is not None:
            t.next_hand()
    first = replay(t.events).to_json()
    lines = [json.dumps(e.to_dict(), ensure_ascii=False) for e in t.events]
    again = [Event.from_dict(json.loads(line)) for line in lines]
    assert replay(again, check_schema=True).to_json() == first
    assert json.loads(json.dumps(first)) == first


def test_replayer_keeps_checking_the_schema_after_a_correction(table):
    table.ev("note", {"text": "x"})
    table.ev("correction", {"target_seq": 3, "action": "void", "reason": "重复"})
    assert table.rec.replayer.check_schema
    assert "payload" in table.refused("note", {"text": "y", "bogus": 1})


def test_match_opened_freezes_every_parameter():
    """RULES.md: every printed result states the values in force, so all are recorded."""
    t = Table()
    payload = {
        "tournament": "t",
        "round": "1",
        "table": "1",
        "pairs": {"NS": "a", "EW": "b"},
        "seats": {"N": "n", "E": "e", "S": "s", "W": "w"},
        "referee": "r",
        "ruleset": {"name": "guilin-2009", "params": {"match_minutes": 90}},
    }
    assert "lacks parameters: at_time_out" in t.refused("match_opened", payload, after=0)
    payload["ruleset"] = {"name": "guilin-2009", "params": {"match_minuets": 90}}
    assert "unknown parameter" in t.refused("match_opened", payload, after=0)
    payload["ruleset"] = t.ruleset.to_dict()
    t.ev("match_opened", payload, after=0)
    assert t.state.ruleset == t.ruleset
