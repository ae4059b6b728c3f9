"""``Replayer.fork``: a copy of a fold that shares no mutable container with it.

The desk's previews fold drafts into a fork (issue 17, item 8), so a fork must never
let a fold change the original. Proven on every prefix of every sample record (every
event type, corrections, penalties, detailed tricks with open follow audits) two
ways: the objects reachable from fork and original share no list, dict, set or book
(only frozen values and the ``Suits`` memos, by design), and folding the rest of the
record into the fork leaves the original's ``state()`` as it was, while the fork's
states are the full replay's.
"""

from __future__ import annotations

import json
from dataclasses import is_dataclass
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from referee_desk.match import Event, EventRefused, Replayer, new_event, replayer_for, seal
from referee_desk.match.clock import parse_time
from referee_desk.match.fold import fork
from referee_desk.match.fold.audit import FollowAudit
from referee_desk.match.fold.hand import HandBook
from referee_desk.match.fold.memo import Suits

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"
FILES = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "presets").glob("*.jsonl"))


def load(path: Path) -> list[Event]:
    with path.open(encoding="utf-8") as f:
        return [Event.from_dict(json.loads(line)) for line in f if line.strip()]


def then(events: list[Event], kind: str, payload: dict[str, Any]) -> list[Event]:
    """``events`` and one more, drafted 5 s after the last and sealed."""
    from datetime import UTC, datetime

    at = datetime.fromtimestamp(parse_time(events[-1].recorded_at) / 1000, UTC)
    draft = new_event(
        replayer_for(events), kind, payload, referee="陈裁判", now=at + timedelta(seconds=5)
    )
    return [*events, seal(events, draft)]


def with_corrections() -> list[Event]:
    """Sample 01 stopped mid-hand (detailed tricks), then a note replaced and voided."""
    events = load(SAMPLES / "01_pass_a_detailed.jsonl")[:12]
    events = then(events, "note", {"text": "一条备注"})
    note = events[-1].seq
    events = then(
        events,
        "correction",
        {"target_seq": note, "action": "replace", "reason": "笔误", "payload": {"text": "改"}},
    )
    events = then(events, "note", {"text": "再一条"})
    return then(
        events, "correction", {"target_seq": events[-1].seq, "action": "void", "reason": "多余"}
    )


RECORDS = {path.name: load(path) for path in FILES} | {"corrections": with_corrections()}


def mutables(root: object) -> dict[int, object]:
    """Every mutable object reachable from ``root`` by id (frozen values not entered)."""
    found: dict[int, object] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, Enum, type(None))):
            continue
        seen.add(id(obj))
        if isinstance(obj, Suits):
            continue  # a memo of the trump context, shared by design
        if isinstance(obj, tuple):
            stack.extend(obj)
            continue
        if is_dataclass(obj) and type(obj).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            continue  # a frozen value (an event, a consequence, a ruleset, a context)
        found[id(obj)] = obj
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, set, frozenset)):
            stack.extend(obj)
        else:
            names = fork.field_names(type(obj)) | set(getattr(obj, "__dict__", ()))
            stack.extend(getattr(obj, name) for name in names if hasattr(obj, name))
    return found


def shared(a: Replayer, b: Replayer) -> list[str]:
    ours, theirs = mutables(a), mutables(b)
    return [type(ours[i]).__name__ for i in ours.keys() & theirs.keys()]


def test_every_event_type_is_in_the_records() -> None:
    from referee_desk.match.fold.replayer import HANDLERS

    kinds = {e.type for events in RECORDS.values() for e in events}
    assert set(HANDLERS) | {"correction"} <= kinds


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_fork_shares_no_mutable_container_at_any_prefix(name: str) -> None:
    events = RECORDS[name]
    replayer = Replayer()
    kinds: set[type] = set()
    for event in events:
        copy = replayer.fork()
        assert shared(replayer, copy) == []
        kinds.update(type(o) for o in mutables(copy).values())
        replayer.apply(event)
    assert shared(replayer, replayer.fork()) == []
    if name in ("01_pass_a_detailed.jsonl", "corrections"):
        assert {HandBook, FollowAudit, fork._Open} <= kinds  # the walk met the deep books


def test_the_walk_sees_a_shared_container() -> None:
    replayer = replayer_for(RECORDS["corrections"])
    assert "RecordLog" in shared(replayer, replayer)
    leaky = replayer.fork()
    leaky.parts.books.notes = replayer.parts.books.notes
    assert shared(replayer, leaky) == ["list"]


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_folding_into_a_fork_leaves_the_original_unchanged(name: str) -> None:
    events = RECORDS[name]
    full = [replayer_for(events, k).state() for k in range(len(events) + 1)]
    for k in range(0, len(events), 3 if len(events) > 40 else 1):
        original = replayer_for(events, k)
        before = repr(original.state())
        copy = original.fork()
        for j in range(k, len(events)):
            copy.apply(events[j])
            assert copy.state() == full[j + 1]
        assert repr(original.state()) == before
        assert repr(replayer_for(events, k).state()) == before


def test_a_refusal_in_a_fork_leaves_the_original_unchanged() -> None:
    events = RECORDS["corrections"]
    original = replayer_for(events)
    before = repr(original.state())
    bad = then(events[:-1], "correction", {"target_seq": 1, "action": "void", "reason": "x"})
    with pytest.raises(EventRefused):
        original.fork().apply(bad[-1])  # seq taken, and match_opened cannot be voided
    assert repr(original.state()) == before
    original.apply(then(events, "note", {"text": "之后"})[-1])  # still folds on


def test_a_fork_table_must_name_every_field() -> None:
    class Book:
        __slots__ = ("a", "b")

    with pytest.raises(TypeError, match=r"missing \['b'\]"):
        fork.copier(Book, {"a": fork.SHARE})
