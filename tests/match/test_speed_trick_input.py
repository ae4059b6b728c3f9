"""The trick fast path reads the raw payload dict; it must read it as ``parse_payload`` does.

The fold no longer builds a ``TrickPayload``/``Play`` tree per trick (fewer objects
for the replay to allocate and for the collector to walk). These tests hold the raw
reading to the typed one on every trick of the sample records, and check that bad
payloads are still refused with the same reasons.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from referee_desk.match import Event, EventRefused, parse_payload, replay
from referee_desk.match.fold.memo import canon
from referee_desk.match.fold.trick_input import prepare_payload, prepared_trick
from referee_desk.rules.seats import Seat

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"


def _events(path: Path) -> list[Event]:
    with path.open(encoding="utf-8") as lines:
        return [Event.from_dict(json.loads(line)) for line in lines]


def _trick_events() -> list[Event]:
    found = [e for p in sorted(SAMPLES.glob("*.jsonl")) for e in _events(p) if e.type == "trick"]
    assert found  # the samples do record hands trick by trick
    return found


def test_prepared_trick_reads_every_sample_trick_as_parse_payload():
    """Leader, seats, canonical cards, discards (8.2) and ``last`` as the typed payload has them."""
    for event in _trick_events():
        typed = parse_payload("trick", event.payload)
        prepared = prepared_trick(event)
        assert prepared.leader == typed.leader
        assert prepared.last == typed.last
        assert prepared.seats == tuple(Seat(p.seat) for p in typed.plays)
        assert prepared.plays == tuple(tuple(map(canon, p.cards)) for p in typed.plays)
        assert prepared.discarded == tuple(i for i, p in enumerate(typed.plays) if p.discarded)
        assert prepared.as_recorded == tuple(
            (Seat(p.seat), p.cards, p.discarded) for p in typed.plays
        )
        assert prepared.even == (len({len(p.cards) for p in typed.plays}) == 1)
        assert prepared_trick(event) is prepared  # memoised for the same payload object


def test_other_spellings_are_kept_as_recorded_and_counted_canonically():
    payload = {
        "leader": "N",
        "plays": [
            {"seat": "N", "cards": ["♥10"]},
            {"seat": "E", "cards": ["H10"]},
            {"seat": "S", "cards": ["C3"], "discarded": True},
            {"seat": "W", "cards": ["C4"]},
        ],
    }
    prepared = prepare_payload(payload)
    assert prepared.plays == (("H10",), ("H10",), ("C3",), ("C4",))
    assert prepared.as_recorded[0] == (Seat.N, ("♥10",), False)
    assert prepared.discarded == (2,)
    assert prepared.last is False


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ({"leader": "N"}, KeyError),
        ({"plays": []}, KeyError),
        ({"leader": "N", "plays": [{"cards": ["H3"]}]}, KeyError),
        ({"leader": "N", "plays": [{"seat": "N"}]}, KeyError),
        ({"leader": "N", "plays": [{"seat": "N", "cards": 3}]}, TypeError),
    ],
)
def test_malformed_payloads_fail_as_parse_payload_fails(payload, error):
    with pytest.raises(error) as typed:
        parse_payload("trick", payload)
    with pytest.raises(error) as raw:
        prepare_payload(payload)
    assert str(raw.value) == str(typed.value)


def _first_trick(events: list[Event]) -> int:
    return next(i for i, e in enumerate(events) if e.type == "trick")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda p: p["plays"][1].update(seat="X"),
            "payload/plays/1/seat: 'X' is not one of ['N', 'E', 'S', 'W']",
        ),
        (lambda p: p["plays"][1].update(cards=["H99"]), None),
        (
            lambda p: p.update(leader="Q"),
            "payload/leader: 'Q' is not one of ['N', 'E', 'S', 'W']",
        ),
    ],
)
def test_bad_seats_and_cards_are_refused(change, reason):
    """An unknown seat or card in a trick is refused at that trick, by the schema's words
    (a replay without the schema check meets it as a KeyError: a refusal, not a failure)."""
    events = _events(SAMPLES / "01_pass_a_detailed.jsonl")
    i = _first_trick(events)
    payload = json.loads(json.dumps(events[i].payload))
    change(payload)
    bad = Event.from_dict({**events[i].to_dict(), "payload": payload, "hash": ""})
    with pytest.raises(EventRefused) as refused:
        replay([*events[:i], bad])
    assert refused.value.seq == bad.seq
    if reason is not None:
        assert refused.value.reason == reason


def test_replay_leaves_few_objects_per_trick_for_the_collector():
    """Few containers outlive a replay: each is walked by the next cyclic collection."""
    events = _events(SAMPLES / "01_pass_a_detailed.jsonl")
    tricks = sum(e.type == "trick" for e in events)
    gc.collect()
    before = len(gc.get_objects())
    state = replay(events)
    after = len(gc.get_objects())
    assert state.hands  # keeps the state alive while counting
    assert (after - before) / tricks < 20  # 26 when each trick kept a typed payload tree
