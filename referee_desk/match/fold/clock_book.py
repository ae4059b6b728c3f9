"""The clock's book (1.5, RULES.md section 10): its running values, owned in one place.

``ClockBook`` keeps them under ``ClockState``'s names and is frozen generically by
``reading`` (``fold.freeze``); the clock's handlers are in ``clock_end``.
"""

from __future__ import annotations

from referee_desk.match.clock import ClockState, Pause, limit_of
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.freeze import freezer
from referee_desk.rules.ruleset import GUILIN_2009


class ClockBook:
    """The clock's running values (1.5): started, running since, paused, the pauses."""

    __slots__ = (
        "elapsed_before_ms",
        "limit_ms",
        "paused_reason",
        "pauses",
        "running_since_ms",
        "started_at_ms",
    )

    def __init__(self) -> None:
        self.limit_ms = limit_of(GUILIN_2009.match_minutes)
        self.started_at_ms: int | None = None
        self.elapsed_before_ms = 0
        self.running_since_ms: int | None = None
        self.paused_reason: str | None = None
        self.pauses: list[Pause] = []

    def elapsed(self, at: int) -> int:
        if self.running_since_ms is None:
            return self.elapsed_before_ms
        return self.elapsed_before_ms + max(0, at - self.running_since_ms)

    def time_up(self, at: int) -> bool:
        """True once the match time (1.5) has run out at ``at``."""
        return self.started_at_ms is not None and self.elapsed(at) >= self.limit_ms

    def need_running(self) -> None:
        if self.started_at_ms is None:
            raise EventRefused(key="clock.not_started")
        if self.running_since_ms is None:
            raise EventRefused(key="clock.paused", params={"reason": self.paused_reason or ""})

    def reading(self, read_at: int | None) -> ClockState:
        """The clock frozen, read at ``read_at`` (ms)."""
        return ClockState(**_freeze_clock(self), read_at_ms=read_at)


_freeze_clock = freezer(ClockState, ClockBook, skip=frozenset({"read_at_ms"}))
