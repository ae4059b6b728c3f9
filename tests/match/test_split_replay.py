"""The replay split into ``referee_desk.match.fold``: same entry points, same answers.

Caches and prepared payloads only save work: a cold replay (caches cleared), a warm
re-replay and an event-by-event fold give the same state, and bad input meets the same
refusal as before the split.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import sys
from pathlib import Path

import pytest
from match_table import Table

import referee_desk.match as match_api
from referee_desk.match import Event, EventRefused, Replayer, replay
from referee_desk.match.replay import clear_caches, replayer_for

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_events").glob("*.jsonl"))
FOLD = ROOT / "referee_desk" / "match" / "fold"


def _events(path: Path) -> list[Event]:
    return [Event.from_dict(json.loads(line)) for line in path.read_text("utf-8").splitlines()]


def test_public_names_of_the_match_layer_are_still_exported():
    for name in ("Replayer", "replay", "replayer_for"):
        assert name in match_api.__all__
        assert getattr(match_api, name) is getattr(sys.modules["referee_desk.match.replay"], name)


def test_each_fold_module_has_one_part_and_stays_small():
    sizes = {p.name: len(p.read_text("utf-8").splitlines()) for p in FOLD.glob("*.py")}
    assert {"replayer.py", "bidding.py", "play.py", "penalties.py", "clock_end.py"} <= set(sizes)
    assert max(sizes.values()) <= 400, sizes


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_cold_warm_and_stepwise_replays_agree(path):
    events = _events(path)
    clear_caches()
    cold = replay(events).to_json()
    warm = replay(events).to_json()
    stepwise = Replayer()
    for event in events:
        stepwise.apply(event)
    assert cold == warm == stepwise.state().to_json()
    assert cold["end"] is not None  # every sample is a complete match


def _detailed_events() -> list[Event]:
    events = _events(ROOT / "sample_events" / "01_pass_a_detailed.jsonl")
    assert any(e.type == "trick" for e in events)
    return events


def _with_trick_payload(events: list[Event], change) -> tuple[list[Event], int]:
    index = next(i for i, e in enumerate(events) if e.type == "trick")
    payload = json.loads(json.dumps(events[index].payload))
    change(payload)
    return [*events[:index], dataclasses.replace(events[index], payload=payload)], index


def test_a_bad_card_in_a_trick_is_refused_naming_it():
    """1: card notation; the prepared trick leaves a bad token to the usual check."""

    def bad_card(payload):
        payload["plays"][1]["cards"][0] = "X9"

    events, index = _with_trick_payload(_detailed_events(), bad_card)
    with pytest.raises(EventRefused) as info:
        replay(events)
    assert info.value.seq == index + 1
    assert "X9" in str(info.value)


def test_a_seat_playing_twice_is_refused_after_the_leader_check():
    def twice(payload):
        payload["plays"][2]["seat"] = payload["plays"][1]["seat"]

    events, _ = _with_trick_payload(_detailed_events(), twice)
    with pytest.raises(EventRefused, match="plays twice in this trick"):
        replay(events)


def test_cycle_collection_is_restored_after_a_refused_replay():
    events, _ = _with_trick_payload(
        _detailed_events(), lambda p: p["plays"][1].__setitem__("cards", ["X9"])
    )
    assert gc.isenabled()
    with pytest.raises(EventRefused):
        replayer_for(events)
    assert gc.isenabled()


def test_table_record_replays_the_same_cold_and_warm():
    """A record built event by event (Recorder) replays to the state it shows."""
    table = Table().start()
    table.race_hand("N", "H")
    table.ev("wrong_play", {"seat": "E", "cards_exposed": 2})
    shown = table.state.to_json()
    clear_caches()
    assert replay(table.events).to_json() == shown
