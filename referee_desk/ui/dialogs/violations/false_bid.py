"""8.6 诈叫: the non-offending side names the trump; if nobody does, no-trump."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class FalseBidDialog(ViolationDialog):
    ARTICLE = "8.6"
    FIELDS = ("seat", "side", "trump")

    def setup_fields(self) -> None:
        self.ui.seatCombo.currentIndexChanged.connect(self.fill_side_combo)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("FalseBidDialog", "False bid")

    def paraphrase(self) -> str:
        return self.tr(
            "A wrong or false bid: any player of the non-offending side names the trump "
            "suit; if none does, the hand is played in no-trump."
        )

    def fill_side_combo(self) -> None:
        self.fill_side_with_opponents(none=self.tr("nobody (no-trump)"))

    def retranslate_fields(self) -> None:
        self.ui.sideLabel.setText(self.tr("Trump named by"))

    def entries(self) -> Entries:
        chooser = self.ui.sideCombo.currentData()
        trump = "NT" if chooser is None else self.ui.trumpCombo.currentData()
        return [
            ("false_bid", {"seat": self.seat()}),
            ("false_bid_trump", {"seat": chooser, "trump": trump}),
        ]
