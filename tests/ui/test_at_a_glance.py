"""Issue 19, "the desk at a glance": what a referee sees in one look, driven by keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from referee_desk.ui.dialogs.match_end import MatchEndDialog
from tests.ui.conftest import ok, play_later_hand_nt, play_opening_hand, start_clock, summary_hand


def _pass_a(desk: Any) -> None:
    """N–S win four hands as declarers holding the deal: 3 → 7 → J → A → passed A (1.5)."""
    summary_hand(desk, 0)
    for _ in range(3):
        play_later_hand_nt(desk)
        summary_hand(desk, 0)


def test_nothing_moves_after_the_end(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """Item 8: after the match is decided the clock stands still, announced or confirmed,
    whatever is recorded later (a note)."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    fake_time.advance(15 * 60)
    _pass_a(desk)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    shown = desk.ui.clockLabel.text()
    fake_time.advance(120)
    desk.tick()
    assert desk.ui.clockLabel.text() == shown  # announced, not yet confirmed
    ok(desk.active_dialog)
    fake_time.advance(120)
    desk.tick()
    QApplication.processEvents()
    assert desk.ui.clockLabel.text() == shown
    fake_time.advance(300)
    desk.tick()
    assert desk.ui.clockLabel.text() == shown


def _newest_row_wholly_visible(desk: Any) -> bool:
    view = desk.ui.eventView
    last = desk.proxy.rowCount() - 1
    rect = view.visualRect(desk.proxy.index(last, 0))
    return last >= 0 and view.viewport().rect().contains(rect)


def _sixty_events(desk: Any, qtbot: Any) -> None:
    """Hands whose results wrap the detail line, then notes, as the log of a long match."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 85, last_points=10, cards_each=2, last_side="EW")
    for _ in range(3):
        play_later_hand_nt(desk)
        summary_hand(desk, 120, last_points=20, cards_each=2, last_side="NS")
    while len(desk.session.events) < 60:
        desk.session.submit("note", {"text": f"记录 {len(desk.session.events)}"})
    play_later_hand_nt(desk)
    summary_hand(desk, 85, last_points=10, cards_each=2, last_side="EW")
    QApplication.processEvents()


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_the_newest_row_is_always_wholly_visible(
    desk: Any, qtbot: Any, languages: Any, size: tuple[int, int]
) -> None:
    """Item 1: after 60 events, after a resize and after Ctrl+F twice the newest row shows
    whole; scrolled away by the referee it stays put until a new entry."""
    languages.apply("zh_CN")
    desk.resize(*size)
    _sixty_events(desk, qtbot)
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
    assert len(desk.session.events) > 60
    desk.resize(1200, 820)
    QApplication.processEvents()
    desk.resize(*size)
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
    for _ in range(2):
        qtbot.keyClick(desk, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        QApplication.processEvents()
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
    # the referee scrolls up on purpose: the log stays where they put it
    bar = desk.ui.eventView.verticalScrollBar()
    bar.triggerAction(bar.SliderAction.SliderToMinimum)
    qtbot.wait(50)
    desk.resize(size[0], size[1] - 40)
    qtbot.wait(50)
    assert bar.value() == 0 and not _newest_row_wholly_visible(desk)
    desk.session.submit("note", {"text": "新的记录"})
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
