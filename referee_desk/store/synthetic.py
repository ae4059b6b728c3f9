"""Plausible, always-acceptable match records for tests, benchmarks and crash drills.

A record here is ``match_opened``, ``clock_started`` and then notes a few seconds
apart: every event is valid for the match layer in any state before the end, so
store-level tests exercise real validation without depending on card play.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.rules.ruleset import get_ruleset

START = datetime(2026, 11, 29, 9, 0, 0, tzinfo=UTC)
REFEREE = "王裁判"


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def opening_payload(match_id: str, referee: str = REFEREE) -> dict[str, Any]:
    return {
        "tournament": "桂林市2026年拖拉机公开赛",
        "round": "1",
        "table": match_id.rsplit("-", 1)[-1] or "1",
        "pairs": {"NS": "漓江队", "EW": "象山队"},
        "seats": {"N": "张伟", "E": "李娜", "S": "刘洋", "W": "陈静"},
        "referee": referee,
        "ruleset": get_ruleset().to_dict(),
    }


def draft(match_id: str, index: int, referee: str = REFEREE, text: str | None = None) -> Event:
    """The ``index``-th (0-based) event of a synthetic match, unsealed (seq 0).

    0: match_opened; 1: clock_started; then notes. Times are 7 s apart from 09:00 UTC;
    the clock reading is derived from them as the match layer does.
    """
    at = START + timedelta(seconds=7 * index)
    if index == 0:
        return Event(
            match_id,
            0,
            "match_opened",
            _stamp(at),
            None,
            referee,
            opening_payload(match_id, referee),
        )
    if index == 1:
        return Event(match_id, 0, "clock_started", _stamp(at), 0, referee, {})
    note = text if text is not None else f"第{index}条记录: 牌桌秩序良好"
    return Event(match_id, 0, "note", _stamp(at), 7000 * (index - 1), referee, {"text": note})


def sealed_match(match_id: str, length: int, referee: str = REFEREE) -> list[Event]:
    """A whole synthetic match, sealed into its hash chain (no store involved)."""
    events: list[Event] = []
    prev = "0" * 64
    for index in range(length):
        event = draft(match_id, index, referee)
        event = Event(
            event.match_id,
            index + 1,
            event.type,
            event.recorded_at,
            event.clock_ms,
            event.referee,
            event.payload,
        ).sealed(prev)
        events.append(event)
        prev = event.hash
    return events


def record(tf: Any, match_id: str, count: int, referee: str = REFEREE) -> list[Event]:
    """Append ``count`` more synthetic events to a match through ``tf.append``."""
    start = len(tf.events(match_id))
    return [tf.append(draft(match_id, start + i, referee)) for i in range(count)]
