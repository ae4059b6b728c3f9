"""Committee entries: 8.11 rulings (text + adjustments) and 8.8 decisions on a side."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.seat_combos import select
from referee_desk.ui.dialogs.violations.base import ViolationDialog

DECISIONS = ("disqualification", "warning_only", "other")


class CommitteeRulingDialog(ViolationDialog):
    ARTICLE = "8.11"
    FIELDS = ("text", "levels_ns", "levels_ew", "points")

    def setup_fields(self) -> None:
        spin = self.ui.pointsSpin
        spin.setMinimum(-1001)
        spin.setValue(-1001)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("CommitteeRulingDialog", "Committee ruling")

    def paraphrase(self) -> str:
        return self.tr(
            "Anything the rules do not cover is decided by the arbitration committee; its "
            "ruling is recorded as text with any level or point adjustment it orders."
        )

    def retranslate_fields(self) -> None:
        self.ui.pointsSpin.setSpecialValueText(self.tr("no change"))
        self.ui.pointsLabel.setText(self.tr("Set the defenders' points to"))
        self.ui.textLabel.setText(self.tr("Ruling"))

    def entries(self) -> Entries:
        payload: dict[str, Any] = {"text": self.required_text()}
        levels = {
            side: self.number(row) for side, row in (("NS", "levels_ns"), ("EW", "levels_ew"))
        }
        changes = {side: change for side, change in levels.items() if change}
        if changes:
            payload["level_changes"] = changes
        points = self.number("points")
        if points != self.ui.pointsSpin.minimum():
            payload["defenders_points"] = points
        return [("committee_ruling", payload)]


class CommitteeDecisionDialog(ViolationDialog):
    ARTICLE = "8.8"
    FIELDS = ("side", "kind", "text")

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate(
            "CommitteeDecisionDialog", "Committee decision on conduct"
        )

    def paraphrase(self) -> str:
        return self.tr(
            "After a side's second conduct offence the arbitration committee decides, "
            "normally disqualifying that side."
        )

    def retranslate_fields(self) -> None:
        self.ui.kindLabel.setText(self.tr("Decision"))
        self.ui.textLabel.setText(self.tr("Ruling"))
        names = {
            "disqualification": self.tr("disqualification"),
            "warning_only": self.tr("warning only"),
            "other": self.tr("other"),
        }
        current = self.ui.kindCombo.currentData()
        self.ui.kindCombo.blockSignals(True)
        self.ui.kindCombo.clear()
        for decision in DECISIONS:
            self.ui.kindCombo.addItem(names[decision], decision)
        select(self.ui.kindCombo, current)
        self.ui.kindCombo.blockSignals(False)

    def entries(self) -> Entries:
        return [
            (
                "committee_decision",
                {
                    "side": self.ui.sideCombo.currentData(),
                    "decision": self.ui.kindCombo.currentData(),
                    "text": self.required_text(),
                },
            )
        ]
