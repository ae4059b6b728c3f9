"""What every entry dialog shares: refusal shown in place, nothing half-recorded.

``accept`` asks the subclass for its entries, has the session check them all
through the match layer and write them; any refusal (bad notation, the match
layer's EventRefused, a store error or a failed write) is shown in the dialog's
error label and the dialog stays open with everything the referee typed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QDialog, QLabel, QWidget

from referee_desk.match.envelope import Event
from referee_desk.match.state import Consequence, MatchState
from referee_desk.ui.session import MatchSession

ERROR_STYLE = "color: #b00020; font-weight: bold;"
HINT_STYLE = "color: #616161;"
Entries = list[tuple[str, dict[str, Any]]]


def refusal_text(error: BaseException) -> str:
    prefix = QCoreApplication.translate("EntryDialog", "Refused: %1")
    if isinstance(error, OSError):
        prefix = QCoreApplication.translate(
            "EntryDialog", "Not saved (the file could not be written): %1"
        )
    return prefix.replace("%1", str(error))


class TranslatedDialog(QDialog):
    """A dialog whose compiled form is retranslated when the language changes."""

    ui: Any

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "ui"):
            self.ui.retranslateUi(self)
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Texts set from code (not in the form) are refreshed here."""


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
            return None, refusal_text(error)


def new_consequences(state: MatchState, after_seq: int) -> list[Consequence]:
    """The consequences the match layer attached to events after ``after_seq``."""
    return [c for c in state.consequences if c.seq > after_seq]
