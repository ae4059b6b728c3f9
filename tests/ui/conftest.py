"""Fixtures that build the real desk: a real tournament file, the real window, real dialogs.

Time is a controllable UTC clock for the session (recorded_at of entries) and a
controllable monotonic clock for the display, so clock tests never sleep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from referee_desk.rules.ruleset import get_ruleset
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_window import MainWindow
from referee_desk.ui.record import start_match
from referee_desk.ui.session import MatchSession
from referee_desk.ui.settings import DeskSettings

REFEREE = "王磊"
MATCH_PAYLOAD: dict[str, Any] = {
    "tournament": "桂林杯",
    "round": "2",
    "table": "3",
    "pairs": {"NS": "甲队", "EW": "乙队"},
    "seats": {"N": "张三", "E": "李四", "S": "王五", "W": "赵六"},
    "referee": REFEREE,
    "ruleset": get_ruleset().to_dict(),
}


@dataclass
class FakeTime:
    """Wall clock for recorded_at and a monotonic clock for the display, moved together."""

    wall: datetime
    mono: float = 1000.0

    def now(self) -> datetime:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.wall += timedelta(seconds=seconds)
        self.mono += seconds


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime(datetime(2026, 11, 29, 6, 0, 0, tzinfo=UTC))


@pytest.fixture
def settings(tmp_path: Path) -> DeskSettings:
    return DeskSettings(tmp_path / "desk.ini")


@pytest.fixture
def languages(qapp: QApplication) -> Iterator[LanguageManager]:
    manager = LanguageManager()
    manager.apply("en")
    yield manager
    manager.apply("en")


@pytest.fixture
def window(
    qtbot: Any,
    settings: DeskSettings,
    languages: LanguageManager,
    fake_time: FakeTime,
    tmp_path: Path,
) -> Iterator[MainWindow]:
    win = MainWindow(settings, languages, monotonic=fake_time.monotonic)
    qtbot.addWidget(win)
    win.resize(1280, 860)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    assert win.files.open_tournament(tmp_path / "tournament.sqlite")
    yield win
    if win.active_dialog is not None:
        win.active_dialog.reject()
    win.files.close_tournament()


@pytest.fixture
def desk(window: MainWindow, fake_time: FakeTime) -> MainWindow:
    """The window with a new match open (recorded in the file) and the clock not started."""
    assert window.tf is not None
    record = start_match(window.tf, dict(MATCH_PAYLOAD), REFEREE, now=fake_time.now())
    window.match.set_session(MatchSession(record, REFEREE, clock=fake_time.now))
    return window


def ok(dialog: Any) -> None:
    """Press the dialog's OK button as a referee would."""
    dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()


def trigger(window: MainWindow, action_name: str) -> Any:
    """Trigger a window action and return the dialog it opened (or None)."""
    getattr(window.ui, action_name).trigger()
    QApplication.processEvents()
    return window.active_dialog


def press(qtbot: Any, window: MainWindow, key: Qt.Key, modifier: Any = None) -> Any:
    """Press a shortcut key on the main window and return the dialog it opened."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    if modifier is None:
        qtbot.keyClick(window, key)
    else:
        qtbot.keyClick(window, key, modifier)
    QApplication.processEvents()
    return window.active_dialog


def types(window: MainWindow) -> list[str]:
    assert window.session is not None
    return [e.type for e in window.session.events]


def start_clock(window: MainWindow) -> None:
    trigger(window, "actionPause")
    assert window.session is not None and window.session.state.clock.running


def bid(window: MainWindow, qtbot: Any, seat: str, cards: str, kind: str = "dark") -> Any:
    dialog = trigger(window, "actionBid")
    dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData(seat))
    dialog.ui.kindCombo.setCurrentIndex(dialog.ui.kindCombo.findData(kind))
    dialog.ui.cardsEdit.clear()
    qtbot.keyClicks(dialog.ui.cardsEdit, cards)
    ok(dialog)
    return dialog


def close_bidding(dialog: Any, dealer: str | None = None, trump: str | None = None) -> None:
    if dealer is not None:
        dialog.ui.dealerCombo.setCurrentIndex(dialog.ui.dealerCombo.findData(dealer))
    if trump is not None:
        dialog.ui.trumpCombo.setCurrentIndex(dialog.ui.trumpCombo.findData(trump))
    dialog.ui.closeBiddingButton.click()


def summary_hand(
    window: MainWindow,
    points: int,
    last_points: int = 0,
    cards_each: int = 1,
    last_side: str | None = None,
) -> Any:
    dialog = trigger(window, "actionHandResult")
    dialog.ui.pointsBeforeSpin.setValue(points)
    dialog.ui.lastTrickPointsSpin.setValue(last_points)
    dialog.ui.lastTrickCardsSpin.setValue(cards_each)
    if last_side is not None:
        dialog.ui.winnerCombo.setCurrentIndex(dialog.ui.winnerCombo.findData(last_side))
    preview = dialog.ui.previewLabel.text()
    ok(dialog)
    return preview


def play_opening_hand(window: MainWindow, qtbot: Any) -> None:
    """N wins the bidding race with LJ ♥3; hearts are trump; N–S declare."""
    dialog = bid(window, qtbot, "N", "LJ H3")
    close_bidding(dialog, "N", "H")
    assert window.active_dialog is None


def play_later_hand_nt(window: MainWindow) -> None:
    """A later hand where nobody bids: close bidding in no-trump with the rotation dealer."""
    dialog = trigger(window, "actionBid")
    close_bidding(dialog, trump="NT")
    assert window.active_dialog is None, dialog.ui.errorLabel.text()


Clock = Callable[[], datetime]


class Keyboard:
    """Types into whatever has the focus, as a referee would, counting the keystrokes.

    The budgets of issue 10 (a summary hand ≤ 12 keys, a single-card trick ≤ 14) are
    measured with it: every ``type`` character and every ``key`` is one keystroke.
    """

    def __init__(self, qtbot: Any, window: MainWindow) -> None:
        self.qtbot = qtbot
        self.window = window
        self.count = 0

    def focus(self) -> Any:
        """The widget that receives the next key: the active dialog's focus, or the window."""
        target = self.window.active_dialog or self.window
        target.activateWindow()
        self.qtbot.waitUntil(lambda: QApplication.activeWindow() is target, timeout=2000)
        return QApplication.focusWidget() or target

    def type(self, text: str) -> None:
        for char in text:
            QTest.keyClick(self.focus(), char)
            self.count += 1
            QApplication.processEvents()

    def key(self, key: Qt.Key, modifier: Any = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(self.focus(), key, modifier)
        self.count += 1
        QApplication.processEvents()
