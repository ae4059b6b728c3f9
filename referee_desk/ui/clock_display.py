"""The match clock as shown: read from the replayed events, advanced by a monotonic clock.

The match layer says how much running time had elapsed at a wall-clock instant
(from the recorded start, pauses and resumes). The desk reads it once per refresh
and then adds monotonic time while the clock runs, so changing the computer's clock
never makes the display jump; the repaint timer only triggers drawing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: Colour thresholds (DESK.md): amber at 15 minutes left, red at 5.
AMBER_MS = 15 * 60 * 1000
RED_MS = 5 * 60 * 1000


@dataclass(frozen=True, slots=True)
class ClockAnchor:
    """A clock reading at one monotonic instant."""

    elapsed_ms: int
    limit_ms: int
    running: bool
    started: bool
    paused_reason: str | None
    monotonic_s: float
    has_limit: bool = True
    """False for a match without a time limit (12.8): no countdown, no time-out."""


def anchor_from(
    clock_state: Any, wall_now: datetime, monotonic: Callable[[], float] = time.monotonic
) -> ClockAnchor:
    """Read the match layer's ClockState at ``wall_now``."""
    epoch_ms = round(wall_now.timestamp() * 1000)
    return ClockAnchor(
        elapsed_ms=int(clock_state.elapsed_at(epoch_ms)),
        limit_ms=int(clock_state.limit_ms),
        running=bool(clock_state.running),
        started=bool(clock_state.started),
        paused_reason=clock_state.paused_reason,
        monotonic_s=monotonic(),
        has_limit=bool(getattr(clock_state, "has_limit", True)),
    )


def remaining_ms(anchor: ClockAnchor, monotonic_now: float) -> int:
    elapsed = anchor.elapsed_ms
    if anchor.running:
        elapsed += int((monotonic_now - anchor.monotonic_s) * 1000)
    return anchor.limit_ms - elapsed


def format_ms(ms: int) -> str:
    """``1:12:40``; negative (over time) shows a leading minus."""
    sign = "-" if ms < 0 else ""
    total = abs(ms) // 1000
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{seconds:02d}"


def colour_for(ms_left: int) -> str:
    """``normal``, ``amber`` (≤ 15 min) or ``red`` (≤ 5 min)."""
    if ms_left <= RED_MS:
        return "red"
    if ms_left <= AMBER_MS:
        return "amber"
    return "normal"
