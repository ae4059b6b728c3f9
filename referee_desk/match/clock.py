"""The match clock (1.5, RULES.md section 10), derived from event times only.

The clock runs from ``clock_started`` and stops during pauses; its reading at any
instant is the sum of its running intervals, so replaying the same events always
gives the same readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from referee_desk.match.errors import EventRefused


def parse_time(text: str) -> int:
    """Milliseconds since the epoch of an ISO 8601 UTC time (``...Z``)."""
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        raise EventRefused(key="time.bad", params={"text": str(text)}) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return round(value.timestamp() * 1000)


def format_time(value: datetime | int) -> str:
    """ISO 8601 UTC with milliseconds and ``Z`` (the envelope's recorded_at form)."""
    if isinstance(value, int):
        value = datetime.fromtimestamp(value / 1000, tz=UTC)
    elif value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def format_duration(ms: int) -> str:
    """``h:mm:ss`` of a duration in milliseconds (negative shown with a minus)."""
    sign = "-" if ms < 0 else ""
    total = abs(ms) // 1000
    return f"{sign}{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"


@dataclass(frozen=True, slots=True)
class Pause:
    started_ms: int
    ended_ms: int | None
    reason: str
    seq: int


#: The limit of a match without a time limit (12.8 match_minutes=none): never reached.
NO_LIMIT_MS = 2**53


def limit_of(match_minutes: int | None) -> int:
    """The clock limit in ms of a ruleset's ``match_minutes`` (None: no limit)."""
    return NO_LIMIT_MS if match_minutes is None else match_minutes * 60_000


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock as the record leaves it.

    ``elapsed_ms`` is the running time at ``read_at_ms``; ``running_since_ms`` is the
    epoch time the current running interval began (None when stopped or paused).
    """

    limit_ms: int
    started_at_ms: int | None = None
    elapsed_before_ms: int = 0
    running_since_ms: int | None = None
    paused_reason: str | None = None
    pauses: tuple[Pause, ...] = ()
    read_at_ms: int | None = None

    @property
    def started(self) -> bool:
        return self.started_at_ms is not None

    @property
    def has_limit(self) -> bool:
        """False for a match without a time limit (12.8: 001/002 set none)."""
        return self.limit_ms < NO_LIMIT_MS

    @property
    def running(self) -> bool:
        return self.running_since_ms is not None

    @property
    def paused(self) -> bool:
        return self.started and not self.running

    def elapsed_at(self, now_ms: int | str) -> int:
        """Running time in ms at an epoch time (or ISO string)."""
        now = parse_time(now_ms) if isinstance(now_ms, str) else now_ms
        if self.running_since_ms is None:
            return self.elapsed_before_ms
        return self.elapsed_before_ms + max(0, now - self.running_since_ms)

    def remaining_at(self, now_ms: int | str) -> int:
        return self.limit_ms - self.elapsed_at(now_ms)

    @property
    def elapsed_ms(self) -> int:
        """Running time when the record was last read (its last event, or ``now``)."""
        if self.read_at_ms is None:
            return self.elapsed_before_ms
        return self.elapsed_at(self.read_at_ms)

    @property
    def remaining_ms(self) -> int:
        return self.limit_ms - self.elapsed_ms

    def time_up_at(self, now_ms: int) -> bool:
        return self.started and self.elapsed_at(now_ms) >= self.limit_ms
