"""A violation dialog's rule text is never cut (issue 19 screenshots: 8.3's text lost
its first and last lines in English at 1600×1000)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from referee_desk.ui.dialogs.violations import VIOLATION_MENU


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_violation_dialog_shows_its_whole_text(
    desk: Any, qtbot: Any, languages: Any, language: str, size: tuple[int, int]
) -> None:
    languages.apply(language)
    desk.resize(*size)
    QApplication.processEvents()
    for _key, cls in VIOLATION_MENU:
        dialog = cls(desk.session, desk)
        qtbot.addWidget(dialog)
        dialog.show()
        QApplication.processEvents()
        for label in dialog.findChildren(QLabel):
            if label.isVisible() and label.wordWrap() and label.text():
                need = label.heightForWidth(label.width())
                assert label.height() >= need, (cls.__name__, label.text()[:40])
        dialog.reject()
