"""The guard against PySide6's lost references to None (see ``ui.none_guard``)."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QLabel

from referee_desk.ui import none_guard


@pytest.mark.skipif(not none_guard.needed(), reason="None is immortal from Python 3.12")
def test_the_guard_keeps_none_above_its_floor(qapp: object) -> None:
    floor = sys.getrefcount(None) + 50_000
    assert none_guard.top_up(floor=floor, chunk=100_000)
    assert sys.getrefcount(None) >= floor
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(1000):
        label.setText("x")  # PySide6 6.12 drops a reference here on 3.11
    assert not none_guard.top_up(floor=min(before, sys.getrefcount(None)) - 1)


def test_a_long_session_of_repaints_survives(desk: object) -> None:
    """Many clock repaints (5 a second at the table) do not abort the process."""
    for _ in range(20_000):
        desk.tick()  # type: ignore[attr-defined]
    assert sys.getrefcount(None) > 0
