"""Issue 19 item 6: at 1024×700 nothing is clipped: the card picker's buttons keep their
rows apart and their letters whole, the trick dialog with the last trick's preview fits
the window, the committee sign-in shows its text, seat names keep their size."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from tests.ui.conftest import Keyboard, play_opening_hand, start_clock


def _picker_buttons(dialog: Any) -> list[QPushButton]:
    return [b for b in dialog.findChildren(QPushButton) if b.objectName().startswith("card_")]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_trick_dialog_fits_1024x700_with_the_picker_whole(
    desk: Any, qtbot: Any, languages: Any, language: str
) -> None:
    languages.apply(language)
    desk.resize(1024, 700)
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_T)
    dialog = desk.active_dialog
    keys.type("SK SA H4 S5")
    keys.key(Qt.Key.Key_Return)  # recorded; the dialog stays open with the last trick shown
    QApplication.processEvents()
    qtbot.wait(50)
    assert dialog.height() <= desk.height(), (dialog.size(), desk.size())
    buttons = _picker_buttons(dialog)
    assert len(buttons) == 54
    for button in buttons:
        text_height = button.fontMetrics().height()
        assert button.height() >= text_height + 2, (button.text(), button.height(), text_height)
    rects = [b.geometry() for b in buttons]
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert not a.intersects(b), (a, b)
    dialog.reject()
    QApplication.processEvents()


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_committee_sign_in_shows_its_whole_text(
    desk: Any, qtbot: Any, languages: Any, language: str
) -> None:
    languages.apply(language)
    desk.resize(1024, 700)
    dialog = desk.match.committee_sign_in()
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    QApplication.processEvents()
    hint = dialog.hintLabel
    assert dialog.width() >= 400, dialog.size()
    assert hint.height() >= hint.heightForWidth(hint.width()), (hint.size(), dialog.size())
    dialog.reject()
    QApplication.processEvents()
