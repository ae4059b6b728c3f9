"""The Qt binding keeps Python's reference counts right (a two-hour session depends on it).

PySide6 6.12.0 on CPython 3.11 dropped one reference to ``None`` on every Qt call that
returns nothing; the desk repaints its clock five times a second, so the count reached
zero after some hours and the process aborted ("deallocating None"). pyproject.toml
keeps such a binding out; these tests fail if one comes back.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_keep_the_references_to_none(qapp: object) -> None:
    label = QLabel()
    before = sys.getrefcount(None)
    for n in range(2000):
        label.setText(str(n))
        label.setStyleSheet("")
    # Other code may take or drop a handful of references meanwhile, never thousands.
    assert abs(sys.getrefcount(None) - before) < 100


def test_a_long_session_of_repaints_keeps_the_references_to_none(desk: object) -> None:
    """Many clock repaints (5 a second at the table) leave None's count where it was."""
    desk.display.clock.tick()  # type: ignore[attr-defined]
    before = sys.getrefcount(None)
    for _ in range(5000):
        desk.display.clock.tick()  # type: ignore[attr-defined]
    assert abs(sys.getrefcount(None) - before) < 100
