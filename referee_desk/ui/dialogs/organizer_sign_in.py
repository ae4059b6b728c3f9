"""Organizer sign-in: in a tournament file with PINs only the signed-in organizer brings
desks' records in (the store refuses them otherwise), so the organizer view asks for the
organizer's name and PIN before an import, as ``import-records --as NAME`` does."""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QWidget

from referee_desk.store import Session, TournamentFile
from referee_desk.ui.dialogs.pin_sign_in import PinSignInDialog


class OrganizerSignInDialog(PinSignInDialog):
    """On acceptance ``session`` is the signed-in organizer (every refusal is recorded
    by the store, and its lockout applies)."""

    clears_pin_on_refusal = True

    def __init__(self, tf: TournamentFile, parent: QWidget | None = None) -> None:
        super().__init__(
            tf,
            parent,
            title=self.tr("Organizer sign-in"),
            hint=self.tr(
                "This tournament file has PINs: only the organizer brings the desks' "
                "records in. Sign in with the organizer's name and PIN."
            ),
            name_label=self.tr("Organizer"),
            pin_label=self.tr("PIN"),
            name_missing=self.tr("Enter the organizer's name."),
        )
        self.setObjectName("organizerSignInDialog")
        self.nameEdit.setObjectName("nameEdit")
        self.pinEdit.setObjectName("pinEdit")
        organizers = tf.people.people_with_role("organizer")
        if len(organizers) == 1:
            self.nameEdit.setText(organizers[0])
        self._focus_first_empty()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._focus_first_empty()

    def _focus_first_empty(self) -> None:
        (self.pinEdit if self.nameEdit.text() else self.nameEdit).setFocus()

    def sign_in(self, name: str, pin: str) -> Session:
        return self.tf.people.login(name, pin, role="organizer")
