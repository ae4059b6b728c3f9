"""8.3 劳改: the hand ends; the non-offending side chooses A (up two levels) or B (±160).

Choice B adds or takes 160 from the defenders' points *as they stand* (RULES 8.3):
the points captured in cards plus the 8.2 adjustments (a wrong play may bring them
below 0). The dialog keeps the two apart (issue 10, item 4): the referee types only
the captured points (never below 0), and only for a hand recorded in summary form
(trick by trick, the record knows them); the adjustment so far is shown, and the
preview shows the points as they stand and after B, as the match layer derives them.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.rules.seats import Seat
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.seat_combos import select
from referee_desk.ui.dialogs.violations.base import ViolationDialog

REVOKE_KINDS = ("withheld", "not_following", "wrong_follow", "card_count")


class RevokeDialog(ViolationDialog):
    ARTICLE = "8.3"
    FIELDS = ("seat", "kind", "side", "choice", "points")

    def setup_fields(self) -> None:
        self.ui.pointsSpin.setMinimum(0)
        self.ui.pointsSpin.clear()
        self.ui.seatCombo.currentIndexChanged.connect(self.fill_side_combo)
        self.ui.choiceCombo.currentIndexChanged.connect(self.show_points_row)

    def captured_from_tricks(self) -> bool:
        """Trick by trick, the record knows the captured points; nothing is typed."""
        hand = self.session.state.current_hand
        return hand is not None and hand.form == "detailed"

    def show_points_row(self) -> None:
        needed = self.ui.choiceCombo.currentData() == "B" and not self.captured_from_tricks()
        self.ui.formLayout.setRowVisible(self.ui.pointsSpin, needed)

    @staticmethod
    def offered(ruleset: Any) -> bool:
        """``three-deck`` has 藏张 in its place (12.8); its wording is hidden there."""
        return not ruleset.concealment

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("RevokeDialog", "Revoke (劳改)")

    def paraphrase(self) -> str:
        return self.tr(
            "Having a card and not playing it, not following, following wrongly or "
            "holding too many or too few cards, found once the next trick has begun: the "
            "hand ends at once. The non-offending side chooses: A) it goes up two levels "
            "(taking the deal if it was defending); B) 160 is added to the defenders' "
            "points (declarer offended) or taken from them (defender offended)."
        )

    def fill_side_combo(self) -> None:
        """The choice is made by a player of the non-offending side."""
        self.fill_side_with_opponents()

    def retranslate_fields(self) -> None:
        self.ui.sideLabel.setText(self.tr("Choice made by"))
        names = {
            "withheld": self.tr("had a card and did not play it"),
            "not_following": self.tr("did not follow as required"),
            "wrong_follow": self.tr("followed wrongly"),
            "card_count": self.tr("too many or too few cards"),
        }
        current = self.ui.kindCombo.currentData()
        self.ui.kindCombo.blockSignals(True)
        self.ui.kindCombo.clear()
        for kind in REVOKE_KINDS:
            self.ui.kindCombo.addItem(names[kind], kind)
        select(self.ui.kindCombo, current)
        self.ui.kindCombo.blockSignals(False)
        current = self.ui.choiceCombo.currentData()
        self.ui.choiceCombo.blockSignals(True)
        self.ui.choiceCombo.clear()
        self.ui.choiceCombo.addItem(self.tr("A: up two levels"), "A")
        self.ui.choiceCombo.addItem(self.tr("B: 160 points"), "B")
        select(self.ui.choiceCombo, current)
        self.ui.choiceCombo.blockSignals(False)
        self.ui.pointsLabel.setText(self.tr("Points captured by the defenders (in cards)"))
        hand = self.session.state.current_hand
        adjustment = 0 if hand is None else hand.defenders_points
        if self.captured_from_tricks():
            note = self.tr(
                "B: the defenders' points as they stand are %1 (recorded tricks and 8.2)."
            )
        else:
            note = self.tr(
                "B: the points as they stand are the captured points %2 %1 from 8.2 wrong plays."
            ).replace("%2", "+" if adjustment >= 0 else "−")
            adjustment = abs(adjustment)
        self.ui.paraphraseLabel.setText(
            f"{self.paraphrase()}\n{note.replace('%1', str(adjustment))}"
        )
        self.show_points_row()

    def preview_lead_lines(self, state: Any) -> list[str]:
        """The headline is the choice made (it said "… choose A or B" after B)."""
        seat = self.ui.sideCombo.currentData()
        choice = self.ui.choiceCombo.currentText()
        if not seat or not choice:
            return []
        return [
            self.tr("%1 chooses %2")
            .replace("%1", texts.seat_name(Seat(str(seat))))
            .replace("%2", choice)
        ]

    def entries(self) -> Entries:
        revoke: dict[str, Any] = {"seat": self.seat(), "kind": self.ui.kindCombo.currentData()}
        if self.ui.choiceCombo.currentData() == "B" and not self.captured_from_tricks():
            revoke["defenders_points"] = self.number("points")
        choice = {
            "seat": self.ui.sideCombo.currentData(),
            "choice": self.ui.choiceCombo.currentData(),
        }
        return [("revoke", revoke), ("penalty_choice", choice)]
