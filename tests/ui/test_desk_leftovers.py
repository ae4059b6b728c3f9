"""Issue 19 leftovers (items 10, 6, the English gaps), driven through the real desk by keyboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from referee_desk.match.errors import EventRefused
from referee_desk.match.refusal_wording import word_refusal
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.organizer.dialogs import OrganizerNewDialog
from tests.ui.conftest import ok, play_opening_hand, press, start_clock
from tests.ui.test_at_a_glance import _pass_a


def _question(desk: Any, qtbot: Any) -> QMessageBox:
    qtbot.waitUntil(lambda: isinstance(desk.message_box, QMessageBox), timeout=2000)
    box = desk.message_box
    assert box.icon() == QMessageBox.Icon.Question
    return box


def test_ctrl_o_shows_the_match_not_the_tournament_tab(
    desk: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Item 10: Ctrl+O on the Tournament tab asks before it closes the match, then shows
    the match view with the file's match in progress offered (as a start with FILE)."""
    desk.prefs.set_language("zh_CN")
    start_clock(desk)
    path = str(tmp_path / "tournament.sqlite")  # the desk's own file, reopened
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (path, ""))
    tabs = desk.organizer_tabs
    tabs.setCurrentWidget(desk.organizer)  # the referee looked at the Tournament tab
    assert tabs.currentWidget() is desk.organizer
    press(qtbot, desk, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    box = _question(desk, qtbot)
    assert "比赛" in box.text() and "Continue" not in box.text()
    assert desk.session is not None  # nothing closed before the answer
    qtbot.keyClick(box, Qt.Key.Key_Y)  # 是(&Y)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, OpenMatchDialog), timeout=2000)
    assert tabs.currentWidget() is tabs.match_view


def test_new_tournament_asks_before_closing_the_match(desk: Any, qtbot: Any) -> None:
    """Item 10: creating a tournament would close the match in progress: it asks first
    (in Chinese), No keeps the match open, Yes goes on to the new-tournament form."""
    desk.prefs.set_language("zh_CN")
    start_clock(desk)
    session = desk.session
    desk.organizer.action_new.trigger()
    box = _question(desk, qtbot)
    assert box.windowTitle() == "关闭比赛？"
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert desk.session is session and not isinstance(
        desk.organizer.active_dialog, OrganizerNewDialog
    )
    desk.organizer.action_new.trigger()
    box = _question(desk, qtbot)
    qtbot.keyClick(box, Qt.Key.Key_Y)
    qtbot.waitUntil(
        lambda: isinstance(desk.organizer.active_dialog, OrganizerNewDialog), timeout=2000
    )
    assert desk.session is session  # still open until the new file is made
    desk.organizer.active_dialog.reject()


@pytest.mark.parametrize("size", [(1024, 700), (1280, 860)])
def test_the_winner_line_is_headline_size(desk: Any, qtbot: Any, size: tuple[int, int]) -> None:
    """Item 10: the 'match over: … wins' line is as large as the hand headline."""
    desk.prefs.set_language("zh_CN")
    desk.resize(*size)
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    _pass_a(desk)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    ok(desk.active_dialog)
    QApplication.processEvents()
    line, headline = desk.ui.statusLine, desk.ui.handLabel
    assert "胜" in line.text()
    assert QFontInfo(line.font()).pixelSize() >= QFontInfo(headline.font()).pixelSize()
    assert QFontInfo(line.font()).pixelSize() >= 18


def test_english_field_names_and_trumps_are_worded() -> None:
    """English gaps: a schema refusal names the field in words, not its identifier."""
    error = EventRefused(
        "last_trick_side: required",
        key="schema.invalid",
        params={"field": "last_trick_side", "problem": "required"},
    )
    text = word_refusal(error, "en")
    assert "last_trick_side" not in text and "the side that won the last trick" in text


LONG_NAMES = {"N": "欧阳明月", "E": "司马长风云", "S": "诸葛孔明亮", "W": "上官飞燕子"}


@pytest.mark.parametrize("points", [85, 200])  # S deals next (top/bottom); E–W take over (a side)
@pytest.mark.parametrize("size", [(1024, 700), (1200, 820)])
def test_seat_names_stay_large_when_deals_next_shows(
    desk: Any, qtbot: Any, size: tuple[int, int], points: int, fake_time: Any
) -> None:
    """Item 6: long 4–5 character names with '（下盘坐庄）' after a hand keep the seats
    near their full size (they dropped to about 11 px), in both window sizes."""
    from referee_desk.ui.record import start_match
    from referee_desk.ui.session import MatchSession
    from tests.ui.conftest import MATCH_PAYLOAD, REFEREE, summary_hand

    payload = dict(MATCH_PAYLOAD, seats=LONG_NAMES, table="4")
    record = start_match(desk.tf, payload, REFEREE, now=fake_time.now())
    desk.match.set_session(MatchSession(record, REFEREE, clock=fake_time.now))
    desk.prefs.set_language("zh_CN")
    desk.resize(*size)
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, points)
    QApplication.processEvents()
    qtbot.wait(50)
    seats = [desk.ui.seatTop, desk.ui.seatBottom, desk.ui.seatLeft, desk.ui.seatRight]
    assert any("下盘坐庄" in s.text() for s in seats), [s.text() for s in seats]
    heights = [QFontInfo(s.font()).pixelSize() for s in seats]
    full = QFontInfo(
        desk.ui.handLabel.font()
    ).pixelSize()  # 17 pt scaled: the seat's 16 pt is near it
    assert min(heights) >= 0.8 * full, (heights, full)
    for s in seats:
        lines = s.text().split("\n")
        assert max(s.fontMetrics().horizontalAdvance(line) for line in lines) <= s.width()
        assert s.fontMetrics().height() * len(lines) <= s.height(), (s.objectName(), s.height())


@pytest.mark.parametrize("shown", ["opened", "after a trick"])
def test_card_picker_whole_at_1200x820_zh(desk: Any, qtbot: Any, shown: str) -> None:
    """Item 6: at 1200×820 in Chinese the picker's rows never overlap and every label,
    J and Q included, has its whole height and width (J read 'I', Q read 'O')."""
    from tests.ui.conftest import Keyboard
    from tests.ui.test_fits_small_screen import _picker_buttons

    desk.prefs.set_language("zh_CN")
    desk.resize(1200, 820)
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_T)
    dialog = desk.active_dialog
    if shown == "after a trick":
        keys.type("SK SA H4 S5")
        keys.key(Qt.Key.Key_Return)
    QApplication.processEvents()
    qtbot.wait(50)
    buttons = _picker_buttons(dialog)
    assert len(buttons) == 54
    for button in buttons:
        metrics = button.fontMetrics()
        assert button.height() >= metrics.height() + 2, (button.text(), button.height())
        assert button.width() >= metrics.horizontalAdvance(button.text()) + 4, button.text()
    assert {"J", "Q"} <= {b.text()[-1] for b in buttons}
    rects = [b.geometry() for b in buttons]
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert not a.intersects(b), (a, b)
    dialog.reject()


def test_revoke_tab_goes_down_the_form_as_drawn(desk: Any, qtbot: Any) -> None:
    """Seen on Xvfb: in 劳改 (V 2) Tab went from 选择者 past the A/B choice to 发生了什么,
    so B could not be reached down the form. Tab follows the rows as drawn."""
    desk.prefs.set_language("zh_CN")
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    press(qtbot, desk, Qt.Key.Key_V)
    qtbot.waitUntil(desk.violations.menu.isVisible, timeout=2000)
    qtbot.keyClick(desk.violations.menu, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: desk.active_dialog is not None, timeout=2000)
    dialog = desk.active_dialog
    ui = dialog.ui
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=2000)
    ui.seatCombo.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is ui.seatCombo, timeout=2000)
    seen = []
    for _ in range(3):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    assert seen == [ui.sideCombo, ui.choiceCombo, ui.kindCombo], [w.objectName() for w in seen]
    qtbot.keyClick(ui.kindCombo, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(ui.choiceCombo, Qt.Key.Key_B)
    assert ui.choiceCombo.currentData() == "B"
    dialog.reject()


def test_summary_headline_names_the_next_dealer_without_gaps(desk: Any, qtbot: Any) -> None:
    """Seen on Xvfb: the zh headline read '下盘 东 坐庄' (spaces inside a Chinese phrase)."""
    from tests.ui.conftest import Keyboard

    desk.prefs.set_language("zh_CN")
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_R)
    keys.type("85")
    dialog = desk.active_dialog
    QApplication.processEvents()
    headline = dialog.ui.previewLabel.text()
    assert "下盘南坐庄" in headline and "下盘 " not in headline, headline
    dialog.reject()


def test_f1_lists_the_revoke_b_keys_in_chinese(desk: Any, qtbot: Any) -> None:
    """F1 matches docs/desk.md: 劳改 B is V 2 Tab Tab B Enter (the order the test above drives)."""
    desk.prefs.set_language("zh_CN")
    press(qtbot, desk, Qt.Key.Key_F1)
    text = desk.last_message
    assert "劳改选 B：V，2，Tab，Tab，B，回车" in text
    assert "Revoke" not in text
    desk.message_box.close()


def test_summary_log_row_says_who_took_the_last_trick(desk: Any, qtbot: Any) -> None:
    """Seen on Xvfb: the log's summary row ended '…，南北 得' (took what?)."""
    from referee_desk.ui.event_model import COLUMNS
    from tests.ui.conftest import summary_hand

    desk.prefs.set_language("zh_CN")
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 85, last_points=10, cards_each=2, last_side="EW")
    column = COLUMNS.index("what")
    row = desk.model.rowCount() - 1
    cells = [desk.model.index(r, column).data() or "" for r in range(row + 1)]
    assert any(c.endswith("东西得末墩") for c in cells), cells[-3:]
