"""The example text in a dialog's line edits is never cut (issue 19 screenshots: the
settings' server address and the bid's example were clipped at 1600×1000)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLineEdit

from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.settings_dialog import SettingsDialog


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_example_texts_fit_their_boxes(
    desk: Any, qtbot: Any, languages: Any, language: str, size: tuple[int, int]
) -> None:
    languages.apply(language)
    desk.resize(*size)
    QApplication.processEvents()
    for dialog in (SettingsDialog(desk.settings, desk), BidDialog(desk.session, desk)):
        qtbot.addWidget(dialog)
        dialog.show()
        QApplication.processEvents()
        edits = [e for e in dialog.findChildren(QLineEdit) if e.placeholderText()]
        assert edits, type(dialog).__name__
        for edit in edits:
            text = edit.placeholderText()
            assert edit.contentsRect().width() >= edit.fontMetrics().horizontalAdvance(text), text
        dialog.reject()
