"""Keeps ``None`` alive under a PySide6 reference-count bug on Python 3.11.

PySide6 6.12.0 (abi3 wheels) on CPython 3.11 drops one reference to ``None`` on every
call of a Qt method that returns nothing (``setText``, ``setStyleSheet``, …): measured
−1000 after 1000 ``QLabel.setText`` calls. Python 3.12 made ``None`` immortal, so the
bug only shows before 3.12, where the count reaching zero aborts the process
("none_dealloc: deallocating None"). The desk repaints its clock five times a second,
so a long session would die after some hours. ``top_up`` holds spare references to
``None`` whenever its count falls below a floor; the window calls it on every tick.
The spare references are never released (the lists holding them are kept alive for
good), since releasing them at exit would take ``None``'s count below zero.
"""

from __future__ import annotations

import ctypes
import sys

#: Below this many references the guard adds ``CHUNK`` more (8 bytes each).
FLOOR = 1_000_000
CHUNK = 1_000_000
_SPARE: list[list[None]] = []


def needed() -> bool:
    """Whether this Python counts references to ``None`` at all (before 3.12)."""
    return sys.version_info < (3, 12)


def top_up(floor: int = FLOOR, chunk: int = CHUNK) -> bool:
    """Add spare references when ``None``'s count is below ``floor``; True if it did."""
    if not needed() or sys.getrefcount(None) >= floor:
        return False
    spare = [None] * chunk
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(spare))  # never freed, even at exit
    _SPARE.append(spare)
    return True
