"""A required reason (pause, correction, undo, note): OK is refused while it is empty.

With ``submit`` the dialog records the entry itself on OK: a refusal or a failed write
(full disk, read-only file) is shown in place and the typed text stays (issue 5).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from referee_desk.ui.dialogs.base import ERROR_STYLE, TranslatedDialog, refusal_text
from referee_desk.ui.generated.ui_reason_dialog import Ui_ReasonDialog


class ReasonDialog(TranslatedDialog):
    """Asks for one line of text; ``reason`` holds it after acceptance."""

    def __init__(
        self,
        title: str,
        prompt: str,
        suggestions: list[str] | None = None,
        parent: QWidget | None = None,
        default: str = "",
        submit: Callable[[str], object] | None = None,
        empty: str = "",
    ) -> None:
        super().__init__(parent)
        self.ui = Ui_ReasonDialog()
        self.ui.setupUi(self)
        self._title, self._prompt = title, prompt
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.request_close)
        for suggestion in suggestions or []:
            self.ui.reasonCombo.addItem(suggestion)
        self.ui.reasonCombo.setEditText(default)
        self.reason = ""
        self._submit = submit
        self._empty = empty  # what an empty OK says (a note is not a "reason")
        self.submit_with_ctrl_enter()
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self._title)
        self.ui.promptLabel.setText(self._prompt)

    def accept(self) -> None:
        text = self.ui.reasonCombo.currentText().strip()
        if not text:
            self.ui.errorLabel.setStyleSheet(ERROR_STYLE)
            self.ui.errorLabel.setText(self._empty or self.tr("A reason is required."))
            return
        if self._submit is not None:
            try:
                self._submit(text)
            except (ValueError, OSError) as error:
                self.ui.errorLabel.setStyleSheet(ERROR_STYLE)
                self.ui.errorLabel.setText(refusal_text(error))
                return
        self.reason = text
        super().accept()
