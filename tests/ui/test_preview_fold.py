"""A preview folds the draft into a fork of the session's base fold (issue 17, item 8),
with the results of the full replay it replaces: for every prefix of every sample
record, previewing the next entries gives the same event and state, or the same
refusal, as replaying the record and folding the drafts in. The record grows as
another desk's appends do (``reload``), so the base is caught up, not replayed.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from referee_desk.match import Event, EventRefused, new_event, replayer_for, seal
from referee_desk.match.clock import parse_time
from referee_desk.match.schema_check import validate_schema
from referee_desk.store.match_checks import CheckedFold, MatchChecker
from referee_desk.ui.session import MatchSession

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"
FILES = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "presets").glob("*.jsonl"))


def load(path: Path) -> list[Event]:
    with path.open(encoding="utf-8") as f:
        return [Event.from_dict(json.loads(line)) for line in f if line.strip()]


class MemoryRecord:
    """A match's record in memory, checked by the store's own checker (its warm fold)."""

    def __init__(self, match_id: str, events: list[Event]) -> None:
        self.match_id = match_id
        self.checkers = {match_id: MatchChecker(events)}

    def load(self) -> list[Event]:
        return list(self.checkers[self.match_id].events)

    def append(self, event: Event) -> Event:
        checker = self.checkers[self.match_id]
        assert checker.problem(event) is None
        checker.accept()
        return event

    def fold(self) -> CheckedFold:
        return CheckedFold(self.checkers, self.match_id)


def replayed(
    events: list[Event], entries: list[tuple[str, dict[str, Any]]], referee: str, now: datetime
) -> tuple[str, Any]:
    """The old preview: replay the whole record, then draft, check and fold each entry."""
    chain = list(events)
    try:
        fold = replayer_for(chain)
        for kind, payload in entries:
            draft = new_event(
                fold if chain else [],
                kind,
                payload,
                referee=referee,
                now=now,
                match_id=events[0].match_id,
            )
            validate_schema(draft.to_dict())
            event = seal(chain, draft)
            fold.apply(event)
            chain.append(event)
    except EventRefused as refused:
        return "refused", (type(refused), str(refused), refused.key, refused.params)
    return "state", (chain[len(events) :], repr(fold.state(now)))


def previewed(session: MatchSession, entries: list[tuple[str, dict[str, Any]]]) -> tuple[str, Any]:
    try:
        chain, state = session._chain(entries)
    except EventRefused as refused:
        return "refused", (type(refused), str(refused), refused.key, refused.params)
    return "state", (chain, repr(state))


def at(event: Event) -> datetime:
    return datetime.fromtimestamp(parse_time(event.recorded_at) / 1000, UTC)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_previews_match_the_full_replay_at_every_prefix(path: Path, qapp: object) -> None:
    events = load(path)
    match_id = events[0].match_id
    now = [at(events[0])]
    record = MemoryRecord(match_id, events[:1])
    session = MatchSession(record, events[0].referee, clock=lambda: now[0])
    outcomes = set()
    for k in range(1, len(events)):
        nxt = events[k]
        now[0] = at(nxt)
        session.referee = nxt.referee
        tries = [
            [(nxt.type, nxt.payload)],
            [("note", {"text": "预览"})],
            [("clock_started", {})],
            [(e.type, e.payload) for e in events[k : k + 2]],
        ]
        if k + 1 < len(events):
            tries.append([(events[k + 1].type, events[k + 1].payload)])
        for entries in tries:
            expected = replayed(events[:k], entries, nxt.referee, now[0])
            assert previewed(session, entries) == expected, (k, entries)
            outcomes.add(expected[0])
        # the preview of the event recorded next is that very event
        assert session.preview(nxt.type, nxt.payload).event == nxt
        record.append(nxt)  # as another desk's append, read again by the session
        session.reload()
        assert session.events == events[: k + 1]
    assert outcomes == {"state", "refused"}


def test_the_preview_base_is_replayed_again_when_the_record_is_not_its_own(
    qapp: object,
) -> None:
    events = load(SAMPLES / "06_forfeit.jsonl")
    now = [at(events[10])]
    record = MemoryRecord(events[0].match_id, events[:10])
    session = MatchSession(record, events[10].referee, clock=lambda: now[0])
    first = session.preview(events[10].type, events[10].payload)
    assert first.event == events[10]
    # the record is another one now (e.g. the file read again after a change elsewhere)
    other = then_note(events[:9])
    record.checkers[record.match_id] = MatchChecker(other)
    session.reload()
    expected = replayed(other, [("note", {"text": "b"})], session.referee, now[0])
    assert previewed(session, [("note", {"text": "b"})]) == expected


def then_note(events: list[Event]) -> list[Event]:
    draft = new_event(
        replayer_for(events), "note", {"text": "另一份"}, "陈裁判", now=events[-1].recorded_at
    )
    return [*events, seal(events, draft)]
