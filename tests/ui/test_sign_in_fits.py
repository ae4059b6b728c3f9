"""The committee sign-in keeps its whole hint when a refusal appears (issue 19
screenshots: at 1600×1000 in English the hint's last line was cut off)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from referee_desk.ui.dialogs.committee_sign_in import CommitteeSignInDialog


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_hint_stays_whole_under_a_refusal(
    desk: Any, qtbot: Any, languages: Any, language: str, size: tuple[int, int]
) -> None:
    languages.apply(language)
    desk.resize(*size)
    QApplication.processEvents()
    dialog = CommitteeSignInDialog(desk.tf, desk)
    qtbot.addWidget(dialog)
    dialog.show()
    QApplication.processEvents()
    dialog.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()  # no name
    QApplication.processEvents()
    assert dialog.errorLabel.text()
    for label in (dialog.hintLabel, dialog.errorLabel):
        assert label.height() >= label.heightForWidth(label.width()), label.text()
