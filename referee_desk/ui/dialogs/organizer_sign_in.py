"""Organizer sign-in: in a tournament file with PINs only the signed-in organizer brings
desks' records in (the store refuses them otherwise), so the organizer view asks for the
organizer's name and PIN before an import, as ``import-records --as NAME`` does."""

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


class OrganizerSignInDialog(QDialog):
    """On acceptance ``session`` is the signed-in organizer (every refusal is recorded
    by the store, and its lockout applies)."""

    def __init__(self, tf: TournamentFile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tf = tf
        self.session: Session | None = None
        self.setObjectName("organizerSignInDialog")
        self.setWindowTitle(self.tr("Organizer sign-in"))
        self.nameEdit = QLineEdit(self)
        self.nameEdit.setObjectName("nameEdit")
        organizers = tf.people.people_with_role("organizer")
        if len(organizers) == 1:
            self.nameEdit.setText(organizers[0])
        self.pinEdit = QLineEdit(self)
        self.pinEdit.setObjectName("pinEdit")
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
        form.addRow(self.tr("Organizer"), self.nameEdit)
        form.addRow(self.tr("PIN"), self.pinEdit)
        self.hintLabel = QLabel(
            self.tr(
                "This tournament file has PINs: only the organizer brings the desks' "
                "records in. Sign in with the organizer's name and PIN."
            ),
            self,
        )
        self.hintLabel.setWordWrap(True)
        self.setMinimumWidth(max(420, 36 * self.fontMetrics().averageCharWidth()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.hintLabel)
        layout.addLayout(form)
        layout.addWidget(self.errorLabel)
        layout.addWidget(self.buttonBox)
        (self.pinEdit if self.nameEdit.text() else self.nameEdit).setFocus()

    def showEvent(self, event: QShowEvent) -> None:
        """As tall as the wrapped hint needs at this width."""
        super().showEvent(event)
        self._fit_height()
        (self.pinEdit if self.nameEdit.text() else self.nameEdit).setFocus()

    def _fit_height(self) -> None:
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            needed = layout.totalHeightForWidth(self.width())
            if needed > self.height():
                self.resize(self.width(), needed)

    def _refuse(self, text: str) -> None:
        self.errorLabel.setText(text)
        self.pinEdit.clear()
        self._fit_height()

    def accept(self) -> None:
        name = self.nameEdit.text().strip()
        if not name:
            self._refuse(self.tr("Enter the organizer's name."))
            return
        try:
            self.session = self.tf.people.login(name, self.pinEdit.text(), role="organizer")
        except (ValueError, OSError) as error:
            self._refuse(refusal_text(error))
            return
        super().accept()
