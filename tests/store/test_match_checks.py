"""The store's fast schema check must never accept what the match layer's schema refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_desk.match import validate_schema
from referee_desk.match.envelope import Event
from referee_desk.store.match_checks import (
    _envelope_ok,
    _event_types,
    _fast_validator,
    _payload_validator,
    schema_problem,
)
from referee_desk.store.synthetic import sealed_match

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"

values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def sample_events() -> list[Event]:
    events = sealed_match("m", 4)
    for path in sorted(SAMPLES.glob("*.jsonl"))[:8]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                events.append(Event.from_dict(json.loads(line)))
    return events


EVENTS = sample_events()


def reference_ok(data: dict) -> bool:
    try:
        validate_schema(data)
    except Exception:
        return False
    return True


def test_fast_path_accepts_real_events() -> None:
    assert len(EVENTS) > 4
    for event in EVENTS:
        assert schema_problem(event) is None
        assert _fast_validator(event.type) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fast_yes_implies_reference_yes(data: st.DataObject) -> None:
    event = data.draw(st.sampled_from(EVENTS))
    row = event.to_dict()
    where = data.draw(st.sampled_from(["payload", "envelope"]))
    if where == "payload" and row["payload"]:
        key = data.draw(st.sampled_from(sorted(row["payload"])))
        row["payload"] = {**row["payload"], key: data.draw(values)}
    elif where == "payload":
        row["payload"] = {data.draw(st.text(max_size=5)): data.draw(values)}
    else:
        row[data.draw(st.sampled_from(sorted(row)))] = data.draw(values)
    fast = _fast_validator(event.type)
    assert fast is not None
    try:
        fast(row)
    except Exception:
        return  # the fast path doubts it; the reference decides
    assert reference_ok(row), row


def test_schema_problem_gives_the_reference_message() -> None:
    event = EVENTS[2]
    bad = Event(**{**event.to_dict(), "payload": {"text": ""}})
    reason = schema_problem(bad)
    assert reason is not None and "text" in reason


@pytest.mark.parametrize("event_type", ["no_such_type"])
def test_unknown_type_has_no_fast_path(event_type: str) -> None:
    assert _fast_validator(event_type) is None


def _quick_yes(event: Event) -> bool:
    """The quickest path (envelope checked directly, payload by its type's rule) says yes."""
    quick = _payload_validator(event.type) if type(event.type) is str else None
    if quick is None or not _envelope_ok(event):
        return False
    try:
        quick(event.payload)
    except Exception:
        return False
    return True


def test_the_quickest_path_accepts_real_events() -> None:
    assert _event_types() is not None  # the schema's envelope is the one checked directly
    assert all(_quick_yes(event) for event in EVENTS)


ODD = ["", "0" * 64, "0" * 63 + "\n", "2026-11-29T09:00:00.000Z", "2026-11-29T09:00:00.000Z\n"]
envelope_values = values | st.sampled_from([*ODD, "note", "x" * 201, 1.0, 0, -1, True, 2])


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_quickest_yes_implies_reference_yes(data: st.DataObject) -> None:
    """Issue 17 (verify 6.3-7.0x): the quicker schema check skips nothing: whatever it
    accepts, the match layer's schema accepts too (anything else goes the full way)."""
    event = data.draw(st.sampled_from(EVENTS))
    row = event.to_dict()
    where = data.draw(st.sampled_from(["payload", "envelope"]))
    if where == "payload" and row["payload"]:
        key = data.draw(st.sampled_from(sorted(row["payload"])))
        row["payload"] = {**row["payload"], key: data.draw(values)}
    elif where == "payload":
        row["payload"] = {data.draw(st.text(max_size=5)): data.draw(values)}
    else:
        row[data.draw(st.sampled_from(sorted(row)))] = data.draw(envelope_values)
    changed = Event(**row)
    if _quick_yes(changed):
        assert reference_ok(row), row
    assert (schema_problem(changed) is None) == reference_ok(row), row
