"""8.3 劳改: the hand ends; the non-offending side chooses A (up two levels) or B (±160)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.rules.seats import Seat
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.seat_combos import fill_seats, select
from referee_desk.ui.dialogs.violations.base import ViolationDialog

REVOKE_KINDS = ("withheld", "not_following", "wrong_follow", "card_count")


class RevokeDialog(ViolationDialog):
    ARTICLE = "8.3"
    FIELDS = ("seat", "kind", "side", "choice", "points")

    def setup_fields(self) -> None:
        hand = self.session.state.current_hand
        if hand is not None:
            self.ui.pointsSpin.setValue(hand.defenders_points)
        self.ui.seatCombo.currentIndexChanged.connect(self.fill_side_combo)

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
        offender = self.ui.seatCombo.currentData()
        seats = tuple(Seat)
        if offender is not None:
            seats = Seat(offender).side.other.seats
        self.ui.sideCombo.blockSignals(True)
        current = self.ui.sideCombo.currentData()
        fill_seats(self.ui.sideCombo, seats)
        select(self.ui.sideCombo, current)
        self.ui.sideCombo.blockSignals(False)

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
        _ = texts  # names of seats come from seat_combos

    def entries(self) -> Entries:
        revoke: dict[str, Any] = {"seat": self.seat(), "kind": self.ui.kindCombo.currentData()}
        if self.ui.choiceCombo.currentData() == "B":
            revoke["defenders_points"] = self.number("points")
        choice = {
            "seat": self.ui.sideCombo.currentData(),
            "choice": self.ui.choiceCombo.currentData(),
        }
        return [("revoke", revoke), ("penalty_choice", choice)]
