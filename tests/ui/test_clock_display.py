"""The clock as displayed: format, colour thresholds (DESK.md: amber at 15, red at 5),
and extrapolation from a monotonic anchor while running."""

from __future__ import annotations

from datetime import UTC, datetime

from referee_desk.match.clock import ClockState
from referee_desk.ui.clock_display import (
    AMBER_MS,
    RED_MS,
    anchor_from,
    colour_for,
    format_ms,
    remaining_ms,
)
from referee_desk.ui.think_timer import ThinkTimer


def test_format() -> None:
    assert format_ms(2 * 3600 * 1000) == "2:00:00"
    assert format_ms(4360_000) == "1:12:40"
    assert format_ms(-61_000) == "-0:01:01"


def test_colour_thresholds() -> None:
    assert colour_for(AMBER_MS + 1) == "normal"
    assert colour_for(AMBER_MS) == "amber"
    assert colour_for(RED_MS + 1) == "amber"
    assert colour_for(RED_MS) == "red"
    assert colour_for(-1) == "red"


def test_running_anchor_advances_with_monotonic_time_only() -> None:
    start = int(datetime(2026, 11, 29, 6, 0, tzinfo=UTC).timestamp() * 1000)
    clock = ClockState(limit_ms=7_200_000, started_at_ms=start, running_since_ms=start)
    wall = datetime(2026, 11, 29, 6, 10, tzinfo=UTC)
    anchor = anchor_from(clock, wall, monotonic=lambda: 50.0)
    assert remaining_ms(anchor, 50.0) == 7_200_000 - 600_000
    assert remaining_ms(anchor, 110.0) == 7_200_000 - 660_000


def test_paused_anchor_does_not_move() -> None:
    clock = ClockState(
        limit_ms=7_200_000,
        started_at_ms=1,
        elapsed_before_ms=900_000,
        running_since_ms=None,
        paused_reason="争议",
    )
    anchor = anchor_from(clock, datetime(2026, 11, 29, tzinfo=UTC), monotonic=lambda: 0.0)
    assert remaining_ms(anchor, 1e6) == 7_200_000 - 900_000
    assert anchor.paused_reason == "争议" and anchor.started and not anchor.running


def test_think_timer() -> None:
    """8.9: 10 s per play; the overrun records the time the play took."""
    now = [0.0]
    timer = ThinkTimer(lambda: now[0])
    timer.start(10)
    now[0] = 9.5
    assert timer.remaining_s() == 0.5 and timer.overrun_s() == 0
    now[0] = 12.2
    assert timer.overrun_s() == 3 and timer.elapsed_s() == 13
