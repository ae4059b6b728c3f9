"""The 8.9 thinking-time countdown: started by a key, read from a monotonic clock."""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class ThinkTimer:
    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._started: float | None = None
        self.limit_s = 10

    def start(self, limit_s: int) -> None:
        self.limit_s = limit_s
        self._started = self._monotonic()

    def stop(self) -> None:
        self._started = None

    @property
    def running(self) -> bool:
        return self._started is not None

    def remaining_s(self) -> float:
        if self._started is None:
            return float(self.limit_s)
        return self.limit_s - (self._monotonic() - self._started)

    def elapsed_s(self) -> int:
        """Whole seconds since the start (rounded up): what an overrun records."""
        return max(1, math.ceil(self.limit_s - self.remaining_s()))

    def overrun_s(self) -> int:
        """Whole seconds past the limit (at least 1 once it is over, else 0)."""
        over = -self.remaining_s()
        return max(1, math.ceil(over)) if over > 0 else 0
