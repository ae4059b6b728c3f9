"""8.5 坐庄顺序错误: the hand is replayed and the dealer decided again by bidding race."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class WrongDealerDialog(ViolationDialog):
    ARTICLE = "8.5"
    FIELDS = ("seat",)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("WrongDealerDialog", "Wrong dealer")

    def paraphrase(self) -> str:
        return self.tr(
            "The wrong player dealt: the hand is replayed, the dealer is decided again by "
            "bidding race and rotation restarts from that dealer. Levels do not change."
        )

    def retranslate_fields(self) -> None:
        self.ui.seatLabel.setText(self.tr("Seat that dealt"))

    def entries(self) -> Entries:
        return [("wrong_dealer", {"seat": self.seat()})]
