"""Issue 17, item 8: one desk entry folds once, incrementally.

Measured before: on a 60-event match one note made 248-304 ``Replayer.apply`` calls
(``new_event``, ``validate`` and the state each replayed the whole record, then the
refresh once more). Then the session kept a fold of its own warm: one ``apply`` in the
desk and one more in the store's own acceptance check. Now the store's check
(``store.match_checks``) is the entry's one fold, and the session reads the state from
it: one ``apply`` per entry. A preview (each keystroke of an entry dialog) replayed the
whole record too; now it forks a base fold kept for previews, which folds only the
entry's own events (and, after an entry, the events written since).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from referee_desk.match import EventRefused, MatchState, Replayer, replay, replayer_for
from referee_desk.store import TournamentFile
from referee_desk.store.synthetic import opening_payload
from referee_desk.ui.record import StoreMatchRecord, start_match
from referee_desk.ui.session import MatchSession, Preview

REFEREE = "王裁判"


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 11, 29, 6, 0, 0, tzinfo=UTC)

    def now(self) -> datetime:
        self.at += timedelta(seconds=5)
        return self.at


@pytest.fixture
def session(tmp_path: Path, qapp: object) -> Iterator[MatchSession]:
    clock = Clock()
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        record = start_match(tf, opening_payload("m-1", REFEREE), REFEREE, now=clock.now())
        session = MatchSession(record, REFEREE, clock=clock.now)
        session.submit("clock_started", {})
        for i in range(58):
            session.submit("note", {"text": f"备注 {i}"})
        yield session


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = Replayer.apply

    def counting(self: Replayer, event: object) -> None:
        calls.append(getattr(event, "seq", 0))
        original(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(Replayer, "apply", counting)
    return calls


def test_one_entry_is_one_fold_the_store_s_acceptance_check(
    session: MatchSession, applies: list[int]
) -> None:
    assert len(session.events) == 60
    event = session.submit("note", {"text": "一条备注"})
    assert applies == [61]  # the store's acceptance check, which the desk reads
    assert event.seq == 61
    assert session.state == replay(session.events, now=session.state.clock.read_at_ms)


def test_a_refused_entry_leaves_the_fold_as_the_record_is(
    session: MatchSession, applies: list[int]
) -> None:
    before = session.state
    with pytest.raises(EventRefused):
        session.submit("clock_started", {})  # already started
    assert len(session.events) == 60
    session.submit("note", {"text": "之后"})
    assert session.state.notes[-1].text == "之后"
    assert session.state.notes[:-1] == before.notes
    assert session.state == replay(session.events, now=session.state.clock.read_at_ms)


def test_the_state_shown_is_the_store_s_own_fold(session: MatchSession) -> None:
    session.submit("note", {"text": "一条备注"})
    at = session.state.clock.read_at_ms
    assert session.state == session.record.fold().state(at)


def test_the_store_s_refusal_comes_back_worded_by_the_match_layer(
    session: MatchSession,
) -> None:
    with pytest.raises(EventRefused) as refused:
        session.submit("clock_started", {})
    assert refused.value.key == "clock.already_started"  # the phrasebook key, not a string


def test_a_refused_second_entry_writes_neither(session: MatchSession) -> None:
    before = session.state
    with pytest.raises(EventRefused):
        session.submit_many([("note", {"text": "第一"}), ("clock_started", {})])
    assert len(session.events) == 60
    assert len(session.record.load()) == 60
    assert session.record.fold().state(before.clock.read_at_ms) == before


def test_opening_the_match_replays_it_once_by_the_store(
    session: MatchSession, applies: list[int]
) -> None:
    path = session.record.tf.path  # type: ignore[attr-defined]
    with TournamentFile.open(path) as tf:
        fresh = MatchSession(StoreMatchRecord(tf, session.match_id), REFEREE)
        assert applies == list(range(1, 61))  # one replay (the store's), no second read
        assert fresh.events == session.events
        assert fresh.state == replay(fresh.events, now=fresh.state.clock.read_at_ms)
        applies.clear()
        MatchSession(StoreMatchRecord(tf, session.match_id), REFEREE)
        assert applies == []  # the store's fold is warm: a second view replays nothing


def test_a_several_event_entry_folds_each_event_once(
    session: MatchSession, applies: list[int]
) -> None:
    written = session.submit_many([("note", {"text": "第一"}), ("note", {"text": "第二"})])
    assert applies == [61, 62]  # checked whole by the store first; the appends take them
    assert [e.seq for e in written] == [61, 62]
    assert session.state == replay(session.events, now=session.state.clock.read_at_ms)
    assert session.record.fold().state(session.state.clock.read_at_ms) == session.state


def test_a_several_event_entry_refused_late_leaves_the_fold_as_the_record_is(
    session: MatchSession,
) -> None:
    with pytest.raises(EventRefused):
        session.submit_many([("note", {"text": "第一"}), ("clock_started", {})])
    session.submit("note", {"text": "之后"})
    assert [e.seq for e in session.events[-2:]] == [60, 61]
    assert session.state == replay(session.events, now=session.state.clock.read_at_ms)


def test_a_preview_folds_only_its_entry_after_the_first(
    session: MatchSession, applies: list[int]
) -> None:
    """Previews (each keystroke of an entry dialog) fork a base fold of the record: the
    first replays it once, every later one folds only the entry's own events."""
    at = session.state.clock.read_at_ms
    store_state = session.record.fold().state(at)
    session.preview("note", {"text": "第"})
    assert applies == [*range(1, 61), 61]  # the base, once; then the draft, in a fork
    for text in ("第一", "第一条"):
        applies.clear()
        assert session.preview("note", {"text": text}).state.notes[-1].text == text
        assert applies == [61]
    applies.clear()
    session.preview_many([("note", {"text": "一"}), ("note", {"text": "二"})])
    assert applies == [61, 62]
    applies.clear()
    with pytest.raises(EventRefused):
        session.preview("clock_started", {})
    assert applies == [61]  # a refusal in the fork leaves the base as it was
    applies.clear()
    session.preview("note", {"text": "再"})
    assert applies == [61]
    assert session.record.fold().state(at) == store_state  # the store's fold untouched
    assert session.state == store_state


def test_after_an_entry_the_preview_folds_the_new_event_and_its_own(
    session: MatchSession, applies: list[int]
) -> None:
    session.preview("note", {"text": "第"})
    session.submit("note", {"text": "写入"})
    applies.clear()
    preview = session.preview("note", {"text": "下一条"})
    assert applies == [61, 62]  # the base catches up with the entry written, then the draft
    assert preview.event.seq == 62
    applies.clear()
    session.undo([session.events[-1]], "撤销")  # a correction: the store refolds
    applies.clear()
    preview = session.preview("note", {"text": "撤销之后"})
    assert applies == [62, 63]  # the correction (its refold is inside its apply), the draft
    assert preview.state == replay_with(session, preview)
    applies.clear()
    session.preview("note", {"text": "撤销之后。"})
    assert applies == [63]


def replay_with(session: MatchSession, preview: Preview) -> MatchState:
    """The state the old preview gave: the whole record replayed, then the draft."""
    fold = replayer_for(session.events)
    fold.apply(preview.event)
    return fold.state(preview.state.clock.read_at_ms)
