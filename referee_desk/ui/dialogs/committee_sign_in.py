"""Committee sign-in: after a match is locked only the arbitration committee can add a
ruling (8.11), so the committee member signs in with their PIN at the referee's desk."""

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
from referee_desk.ui.sign_in import committee_sign_in


class CommitteeSignInDialog(QDialog):
    """On acceptance ``session`` is the signed-in committee member."""

    def __init__(self, tf: TournamentFile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tf = tf
        self.session: Session | None = None
        self.setWindowTitle(self.tr("Committee sign-in"))
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
        form.addRow(self.tr("Committee member"), self.nameEdit)
        form.addRow(self.tr("PIN"), self.pinEdit)
        layout = QVBoxLayout(self)
        hint = QLabel(
            self.tr(
                "Only the arbitration committee can add a ruling to a locked match. "
                "In a file without committee members, the first one registers with the PIN "
                "entered here."
            ),
            self,
        )
        hint.setWordWrap(True)
        self.hintLabel = hint
        # Wide enough for the hint in a few lines (it was 156 px wide, its text cut).
        self.setMinimumWidth(max(420, 36 * self.fontMetrics().averageCharWidth()))
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(self.errorLabel)
        layout.addWidget(self.buttonBox)

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
        self._fit_height()

    def accept(self) -> None:
        name = self.nameEdit.text().strip()
        if not name:
            self._refuse(self.tr("Enter the committee member's name."))
            return
        try:
            self.session = committee_sign_in(self.tf, name, self.pinEdit.text())
        except (ValueError, OSError) as error:
            self._refuse(refusal_text(error))
            return
        super().accept()
