"""A several-event entry checked whole by the store before any of it is written
(``MatchChecker.check_ahead``): each event is folded once, and what was checked ahead
never outlives the entry (another event, a failed write, or giving up drop it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee_desk.match import EventRefused, Replayer, replay
from referee_desk.match.envelope import Event
from referee_desk.store import TournamentFile
from referee_desk.store.synthetic import draft, record

MATCH = "r1-t1"


@pytest.fixture
def tf(tmp_path: Path) -> Iterator[TournamentFile]:
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        record(tf, MATCH, 10)
        yield tf


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = Replayer.apply

    def counting(self: Replayer, event: Event) -> None:
        calls.append(event.seq)
        original(self, event)

    monkeypatch.setattr(Replayer, "apply", counting)
    return calls


def ahead(tf: TournamentFile, count: int) -> list[Event]:
    """The next ``count`` synthetic events, sealed after the record, checked ahead."""
    chain = tf.events(MATCH)
    fold = tf.appender.fold(MATCH)
    events = []
    for index in range(len(chain), len(chain) + count):
        item = draft(MATCH, index)
        event = Event(
            MATCH, index + 1, item.type, item.recorded_at, item.clock_ms, item.referee,
            item.payload,
        ).sealed(chain[-1].hash)  # fmt: skip
        fold.check_ahead(event)
        chain.append(event)
        events.append(event)
    return events


def test_the_appends_take_the_events_checked_ahead(tf: TournamentFile, applies: list[int]) -> None:
    tf.appender.fold(MATCH)
    events = ahead(tf, 2)
    assert applies == [11, 12]
    for event in events:
        tf.append(event)
    assert applies == [11, 12]  # not folded again
    at = events[-1].recorded_at
    assert tf.appender.fold(MATCH).state(at) == replay(tf.events(MATCH), now=at)


def test_another_event_drops_what_was_checked_ahead(tf: TournamentFile) -> None:
    ahead(tf, 2)
    other = draft(MATCH, 10, text="另一条")
    stored = tf.append(other)
    assert stored.payload == {"text": "另一条"}
    at = stored.recorded_at
    assert tf.appender.fold(MATCH).state(at) == replay(tf.events(MATCH), now=at)


def test_giving_up_drops_it(tf: TournamentFile) -> None:
    before = tf.appender.fold(MATCH).state()
    ahead(tf, 2)
    tf.appender.fold(MATCH).drop_ahead()
    assert tf.appender.fold(MATCH).state() == before


def test_a_refusal_ahead_drops_all_of_it(tf: TournamentFile) -> None:
    before = tf.appender.fold(MATCH).state()
    ahead(tf, 1)
    last = tf.events(MATCH)[-1]
    again = Event(MATCH, 12, "clock_started", last.recorded_at, 0, last.referee, {})
    with pytest.raises(EventRefused):
        tf.appender.fold(MATCH).check_ahead(again.sealed(last.hash))
    assert tf.appender.fold(MATCH).state() == before
