"""The name-and-PIN form both sign-in dialogs share (committee, organizer): a wrapped
hint, the two fields, the refusal in red, and a height that fits the wrapped texts.

Each dialog gives its own (translated) words and says how a name and PIN sign in; the
store does the check, counts the attempt and applies the lockout.
"""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from referee_desk.store import Session, TournamentFile
from referee_desk.ui.dialogs.base import ERROR_STYLE, refusal_text


class PinSignInDialog(QDialog):
    """On acceptance ``session`` is the person ``sign_in`` returned."""

    #: Whether a refusal clears the PIN typed (the organizer's dialog does).
    clears_pin_on_refusal = False

    def __init__(
        self,
        tf: TournamentFile,
        parent: QWidget | None,
        *,
        title: str,
        hint: str,
        name_label: str,
        pin_label: str,
        name_missing: str,
    ) -> None:
        super().__init__(parent)
        self.tf = tf
        self.session: Session | None = None
        self._name_missing = name_missing
        self.setWindowTitle(title)
        self.nameEdit = QLineEdit(self)
        self.pinEdit = QLineEdit(self)
        self.pinEdit.setEchoMode(QLineEdit.EchoMode.Password)
        self.errorLabel = QLabel(self)
        self.errorLabel.setWordWrap(True)
        self.errorLabel.setStyleSheet(ERROR_STYLE)
        self.buttonBox = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttonBox.accepted.connect(self.accept)
        self.buttonBox.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(name_label, self.nameEdit)
        form.addRow(pin_label, self.pinEdit)
        self.hintLabel = QLabel(hint, self)
        self.hintLabel.setWordWrap(True)
        # Wide enough for the hint in a few lines (it was 156 px wide, its text cut).
        self.setMinimumWidth(max(420, 36 * self.fontMetrics().averageCharWidth()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.hintLabel)
        layout.addLayout(form)
        layout.addWidget(self.errorLabel)
        layout.addWidget(self.buttonBox)

    def sign_in(self, name: str, pin: str) -> Session:
        """The store's sign-in for this dialog's role (raises its refusal)."""
        raise NotImplementedError

    def showEvent(self, event: QShowEvent) -> None:
        """As tall as the wrapped hint needs at this width (Qt sizes a new dialog
        without its labels' height-for-width)."""
        super().showEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            needed = layout.totalHeightForWidth(self.width())
            if needed > self.height():
                self.resize(self.width(), needed)

    def _refuse(self, text: str) -> None:
        """Show the refusal and grow to fit it (the wrapped hint was cut when it came)."""
        self.errorLabel.setText(text)
        if self.clears_pin_on_refusal:
            self.pinEdit.clear()
        self._fit_height()

    def accept(self) -> None:
        name = self.nameEdit.text().strip()
        if not name:
            self._refuse(self._name_missing)
            return
        try:
            self.session = self.sign_in(name, self.pinEdit.text())
        except (ValueError, OSError) as error:
            self._refuse(refusal_text(error))
            return
        super().accept()
