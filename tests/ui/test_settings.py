"""The one typed accessor for preferences reads back what it wrote (a real INI file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray

from referee_desk.rules.seats import Seat
from referee_desk.ui.settings import DeskSettings


def test_defaults(tmp_path: Path) -> None:
    s = DeskSettings(tmp_path / "a.ini")
    assert s.language == "zh_CN"  # Simplified Chinese by default
    assert s.last_file is None
    assert s.bottom_seat is Seat.S
    assert s.window_geometry is None


def test_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "b.ini"
    s = DeskSettings(path)
    s.language = "en"
    s.last_file = "/data/t.sqlite"
    s.bottom_seat = Seat.E
    s.referee_name = "王磊"
    s.window_geometry = QByteArray(b"\x01\x02geometry")
    s.sync()
    again = DeskSettings(path)
    assert again.language == "en"
    assert again.last_file == "/data/t.sqlite"
    assert again.bottom_seat is Seat.E
    assert again.referee_name == "王磊"
    assert bytes(again.window_geometry) == b"\x01\x02geometry"


def test_unknown_language_refused(tmp_path: Path) -> None:
    s = DeskSettings(tmp_path / "c.ini")
    with pytest.raises(ValueError, match="unknown language"):
        s.language = "fr"
