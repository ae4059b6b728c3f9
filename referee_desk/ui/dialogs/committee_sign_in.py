"""Committee sign-in: after a match is locked only the arbitration committee can add a
ruling (8.11), so the committee member signs in with their PIN at the referee's desk."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from referee_desk.store import Session, TournamentFile
from referee_desk.ui.dialogs.pin_sign_in import PinSignInDialog
from referee_desk.ui.sign_in import committee_sign_in


class CommitteeSignInDialog(PinSignInDialog):
    """On acceptance ``session`` is the signed-in committee member."""

    def __init__(self, tf: TournamentFile, parent: QWidget | None = None) -> None:
        super().__init__(
            tf,
            parent,
            title=self.tr("Committee sign-in"),
            hint=self.tr(
                "Only the arbitration committee can add a ruling to a locked match. "
                "In a file without committee members, the first one registers with the PIN "
                "entered here."
            ),
            name_label=self.tr("Committee member"),
            pin_label=self.tr("PIN"),
            name_missing=self.tr("Enter the committee member's name."),
        )

    def sign_in(self, name: str, pin: str) -> Session:
        return committee_sign_in(self.tf, name, pin)
