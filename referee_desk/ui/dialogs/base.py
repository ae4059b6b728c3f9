"""What every entry dialog shares: refusal shown in place, nothing half-recorded.

``accept`` asks the subclass for its entries, has the session check them all
through the match layer and write them; any refusal (bad notation, the match
layer's EventRefused, a store error or a failed write) is shown in the dialog's
error label and the dialog stays open with everything the referee typed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QMessageBox, QPlainTextEdit, QWidget

from referee_desk.match.envelope import Event
from referee_desk.match.state import Consequence, MatchState
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession

ERROR_STYLE = "color: #b00020; font-weight: bold;"
HINT_STYLE = "color: #616161;"
Entries = list[tuple[str, dict[str, Any]]]


def refusal_text(error: BaseException) -> str:
    """ "Refused: why" in the interface language (``refusals.refusal_message``)."""
    prefix = QCoreApplication.translate("EntryDialog", "Refused: %1")
    if isinstance(error, OSError):
        prefix = QCoreApplication.translate("EntryDialog", "Not saved: %1")
    return prefix.replace("%1", refusal_message(error))


def fit_placeholders(widget: QWidget) -> None:
    """Each line edit at least as wide as its example text (the server address's and the
    bid's examples were cut at 1600×1000, where the font is larger)."""
    for edit in widget.findChildren(QLineEdit):
        text = edit.placeholderText()
        if not text:
            continue
        margins = edit.textMargins()
        need = edit.fontMetrics().horizontalAdvance(text) + margins.left() + margins.right() + 12
        if edit.minimumWidth() < need:
            edit.setMinimumWidth(need)


def fit_wrapped_height(dialog: QWidget) -> None:
    """As tall as the word-wrapped texts need at this width, within the screen: Qt sizes
    a new dialog without its labels' height-for-width (8.3's text was cut at 1600×1000)."""
    layout = dialog.layout()
    if layout is None or not layout.hasHeightForWidth():
        return
    needed = layout.totalHeightForWidth(dialog.width())
    screen = dialog.screen()
    if screen is not None:
        needed = min(needed, screen.availableGeometry().height())
    if needed > dialog.height():
        dialog.resize(dialog.width(), needed)


class TranslatedDialog(QDialog):
    """A dialog whose compiled form is retranslated when the language changes.

    Closing it by Esc, its Cancel/Close button or the window's close button asks first
    when something was typed since it opened (issue 10, item 6): ``request_close``.
    ``reject()`` itself (called by code) closes at once.
    """

    ui: Any
    #: The "discard what was typed?" question while it is open (tests answer it).
    discard_box: QMessageBox | None = None

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "ui"):
            self.ui.retranslateUi(self)
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Texts set from code (not in the form) are refreshed here."""

    def submit_with_ctrl_enter(self) -> None:
        """Ctrl+Enter accepts (for dialogs whose Enter adds a line to a text box)."""
        for key in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(key), self, activated=self.accept)

    # -- asking before typed text is thrown away --------------------------------------

    def _typed_texts(self) -> list[str]:
        texts_now = [e.text() for e in self.findChildren(QLineEdit)]
        texts_now += [e.toPlainText() for e in self.findChildren(QPlainTextEdit)]
        return texts_now

    def showEvent(self, event: Any) -> None:
        if not hasattr(self, "_texts_at_open"):
            self.mark_clean()
        fit_placeholders(self)
        super().showEvent(event)
        fit_wrapped_height(self)

    def mark_clean(self) -> None:
        """What is in the fields now is not "typed" (after a recorded entry, or at open)."""
        self._texts_at_open = self._typed_texts()

    def has_typed(self) -> bool:
        return self._typed_texts() != getattr(self, "_texts_at_open", self._typed_texts())

    def request_close(self) -> None:
        """Close, asking first when typed text would be lost."""
        if not self.has_typed():
            self.reject()
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("EntryDialog", "Discard what was typed?"),
            QCoreApplication.translate(
                "EntryDialog", "What was typed in this dialog is not recorded. Discard it?"
            ),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.button(QMessageBox.StandardButton.Discard).setText(
            QCoreApplication.translate("EntryDialog", "Discard")
        )
        box.button(QMessageBox.StandardButton.Cancel).setText(
            QCoreApplication.translate("EntryDialog", "Keep typing")
        )

        def answered(_result: int) -> None:
            discard = box.clickedButton() is box.button(QMessageBox.StandardButton.Discard)
            self.discard_box = None
            if discard:
                self.reject()

        box.finished.connect(answered)
        self.discard_box = box
        box.open()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and event.modifiers() in (
            Qt.KeyboardModifier.NoModifier,
            Qt.KeyboardModifier.KeypadModifier,
        ):
            self.request_close()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.isVisible() and self.has_typed():
            event.ignore()
            self.request_close()
            return
        super().closeEvent(event)


class EntryDialog(TranslatedDialog):
    """A dialog that records one or more events when accepted."""

    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.recorded: list[Event] = []

    @property
    def error_label(self) -> QLabel:
        return self.ui.errorLabel

    def entries(self) -> Entries:
        """The events to record; raise ValueError with a readable reason for bad input."""
        raise NotImplementedError

    def show_error(self, text: str) -> None:
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setText(text)

    def show_hint(self, text: str) -> None:
        """A refusal of the preview while typing: shown quietly, not as an error yet."""
        self.error_label.setStyleSheet(HINT_STYLE)
        self.error_label.setText(text)

    def clear_error(self) -> None:
        self.error_label.setText("")

    def accept(self) -> None:
        try:
            entries = self.entries()
            self.recorded = self.session.submit_many(entries)
        except (ValueError, OSError) as error:
            self.show_error(refusal_text(error))
            return
        self.clear_error()
        super().accept()

    def preview_state(self) -> tuple[Any | None, str]:
        """The state after this dialog's entries (nothing written), or the refusal text."""
        try:
            return self.session.preview_many(self.entries()), ""
        except (ValueError, OSError) as error:
            return None, refusal_message(error)  # a hint while typing, not yet a refusal


def new_consequences(state: MatchState, after_seq: int) -> list[Consequence]:
    """The consequences the match layer attached to events after ``after_seq``."""
    return [c for c in state.consequences if c.seq > after_seq]
