"""藏张 (three-deck, RULES 12.8, 002 八.1): replaces 劳改 in that preset.

Noticed at once it is simply corrected (nothing recorded); otherwise the
non-offending side chooses A) the hand ends, or B) ±60 to the defenders' points and
play continues. The preview shows what the match layer derives for the choice.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.seat_combos import letters_pick_seats, select
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class ConcealmentDialog(ViolationDialog):
    ARTICLE = "12.8"
    FIELDS = ("seat", "side", "choice")

    @staticmethod
    def offered(ruleset: Any) -> bool:
        return bool(ruleset.concealment)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("ConcealmentDialog", "Concealed card (藏张)")

    def setup_fields(self) -> None:
        letters_pick_seats(self.ui.sideCombo)
        self.ui.seatCombo.currentIndexChanged.connect(self.fill_side_combo)

    def paraphrase(self) -> str:
        points = str(self.session.state.ruleset.conceal_points)
        return self.tr(
            "A card held back and not played when it had to be (002 八.1). Noticed at once, "
            "it is simply corrected. Otherwise the non-offending side chooses: A) the hand "
            "ends (offenders declaring: the defenders take the deal; offenders defending: "
            "the declarers go up one level and keep the deal); B) %1 points to the "
            "defenders (taken from them if a defender hid the card) and play continues."
        ).replace("%1", points)

    def fill_side_combo(self) -> None:
        """The choice is made by a player of the non-offending side."""
        self.fill_side_with_opponents()

    def retranslate_fields(self) -> None:
        self.ui.seatLabel.setText(self.tr("Seat that hid a card"))
        self.ui.sideLabel.setText(self.tr("Choice made by"))
        points = str(self.session.state.ruleset.conceal_points)
        current = self.ui.choiceCombo.currentData()
        self.ui.choiceCombo.blockSignals(True)
        self.ui.choiceCombo.clear()
        self.ui.choiceCombo.addItem(self.tr("A: the hand ends"), "A")
        self.ui.choiceCombo.addItem(
            self.tr("B: %1 points, play continues").replace("%1", points), "B"
        )
        select(self.ui.choiceCombo, current)
        self.ui.choiceCombo.blockSignals(False)

    def entries(self) -> Entries:
        return [
            (
                "concealment",
                {
                    "seat": self.seat(),
                    "chooser": self.ui.sideCombo.currentData(),
                    "choice": self.ui.choiceCombo.currentData(),
                },
            )
        ]
