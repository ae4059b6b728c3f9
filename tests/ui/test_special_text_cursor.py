"""Issue 19 (smaller): in the 8.11 committee ruling dialog the text cursor of the empty
points field stood on the last character of its "不变" (no change): Qt's right-aligned
placeholder ends where the cursor stands. Measured on the rendered pixels."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from referee_desk.ui.dialogs.violations import CommitteeRulingDialog
from tests.ui.conftest import play_opening_hand, start_clock


def _columns(a: QImage, b: QImage, rows: range) -> list[int]:
    """The x of every column inside the frame (whose colour follows the focus) where two
    renderings of one field differ within ``rows``."""
    inside = range(3, a.width() - 3)
    return [x for x in inside if any(a.pixel(x, y) != b.pixel(x, y) for y in rows)]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_cursor_stands_clear_of_no_change(
    desk: Any, qtbot: Any, languages: Any, language: str
) -> None:
    languages.apply(language)
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = desk.entries.open_violation(CommitteeRulingDialog)
    field = dialog.ui.pointsSpin
    special = field.placeholderText()
    assert special == ("不变" if language == "zh_CN" else "no change")
    assert field.text() == ""
    flash = QApplication.cursorFlashTime()
    QApplication.setCursorFlashTime(0)  # the cursor drawn steadily, not blinking
    try:
        dialog.activateWindow()
        field.setFocus()
        qtbot.waitUntil(field.hasFocus, timeout=2000)
        QApplication.processEvents()
        shown = field.grab().toImage()  # focused: the cursor and the special text
        field.setSpecialValueText("")
        cursor_only = field.grab().toImage()
        dialog.ui.textEdit.setFocus()
        qtbot.waitUntil(lambda: not field.hasFocus(), timeout=2000)
        QApplication.processEvents()
        blank = field.grab().toImage()
        field.setSpecialValueText(special)
        text_only = field.grab().toImage()
    finally:
        QApplication.setCursorFlashTime(flash)
    middle = range(field.height() // 3, 2 * field.height() // 3)  # inside the frame
    cursor = _columns(cursor_only, blank, middle)
    ink = _columns(text_only, blank, middle)
    assert cursor and ink, (cursor, ink)
    assert _columns(shown, cursor_only, middle), "the special text is shown while focused"
    assert max(ink) + 1 < min(cursor), (ink, cursor)  # at least a pixel between them
    dialog.reject()
    QApplication.processEvents()
