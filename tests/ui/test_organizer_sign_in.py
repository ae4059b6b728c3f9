"""Issue 18, input: the organizer view imports records into a tournament file with PINs.

The store takes records into such a file only from a signed-in organizer (the CLI's
``--as NAME``). The view used to show the store's refusal and nothing else; it now asks
for the organizer's name and PIN (Chinese by default, English too), by keyboard, and
imports once signed in. A wrong PIN is refused in the dialog (and counted by the store).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from referee_desk.ui.dialogs.organizer_sign_in import OrganizerSignInDialog
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.organizer import OrganizerView
from tests.ui.test_chinese_everywhere import english_words, shown_texts
from tests.ui.test_organizer import GROUPS, INFO, SAMPLE_PAIRS, SAMPLES

ORGANIZER, PIN = "主办方", "2468"
WORDS = {
    "zh_CN": ("主办方登录", "只有主办方可以导入", "PIN"),
    "en": ("Organizer sign-in", "only the organizer brings", "wrong PIN"),
}


@pytest.fixture(params=["zh_CN", "en"])
def language(request: Any, qapp: Any) -> Iterator[str]:
    manager = LanguageManager()
    assert manager.apply(request.param)
    yield request.param
    manager.apply("en")


@pytest.fixture
def with_pins(qtbot: Any, tmp_path: Path, language: str) -> Iterator[OrganizerView]:
    """A drawn tournament file whose organizer registered with a PIN."""
    view = OrganizerView()
    qtbot.addWidget(view)
    view.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    assert view.pairs_actions.import_pairs(SAMPLE_PAIRS) == 12
    view.draw_actions.draw(GROUPS, 2026)
    view.refresh()
    assert view.t is not None
    view.t.file.people.add_person(ORGANIZER, "organizer", PIN)
    yield view
    QApplication.processEvents()
    view.close_file()


def _dialog(view: OrganizerView) -> OrganizerSignInDialog:
    dialog = view.active_dialog
    assert isinstance(dialog, OrganizerSignInDialog), dialog
    return dialog


def test_the_organizer_signs_in_by_keyboard_and_the_records_come_in(
    qtbot: Any, with_pins: OrganizerView, language: str
) -> None:
    view = with_pins
    title, hint, _wrong = WORDS[language]
    assert view.records_import.import_records(SAMPLES) is None  # asked first: nothing imported yet
    dialog = _dialog(view)
    assert dialog.windowTitle() == title and hint in dialog.hintLabel.text()
    assert dialog.nameEdit.text() == ORGANIZER  # the file's one organizer
    qtbot.waitUntil(dialog.pinEdit.hasFocus)
    assert view.t is not None and view.t.file.match_ids() == []

    qtbot.keyClicks(dialog.pinEdit, "1357")  # a wrong PIN: refused in the dialog
    qtbot.keyClick(dialog.pinEdit, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.errorLabel.text()
    if language == "zh_CN":  # the refusal in Chinese too
        assert not english_words(dialog.errorLabel.text()), dialog.errorLabel.text()
        assert not english_words(" ".join(shown_texts(dialog)))
    assert view.records_import.last_import is None and view.t.file.match_ids() == []

    qtbot.keyClicks(dialog.pinEdit, PIN)
    qtbot.keyClick(dialog.pinEdit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.records_import.last_import is not None)
    result = view.records_import.last_import
    assert result is not None and result.ok and len(result.linked) == len(SAMPLES)
    assert not dialog.isVisible()

    again = view.records_import.import_records(SAMPLES)  # signed in once for this file
    assert again is not None and again.ok and view.active_dialog is None


def test_cancelling_the_sign_in_imports_nothing(
    qtbot: Any, with_pins: OrganizerView, language: str
) -> None:
    view = with_pins
    view.records_import.import_records(SAMPLES)
    dialog = _dialog(view)
    qtbot.keyClick(dialog.pinEdit, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert view.t is not None and view.t.file.match_ids() == []
    assert view.records_import.last_import is None
