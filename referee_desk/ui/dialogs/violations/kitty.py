"""底牌 (RULES 12.1): the dealer's buried cards, or only their points, in kitty presets.

Not a violation: it shares the violation form (article, paraphrase, only the rows it
needs, the preview from the match layer) and is opened by its own key (K).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.rules.errors import RulesError
from referee_desk.ui.card_entry import attach_completer
from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.seat_combos import select
from referee_desk.ui.dialogs.violations.base import ViolationDialog
from referee_desk.ui.dialogs.violations.throw_failed import card_tokens
from referee_desk.ui.refusals import refusal_message


class KittyDialog(ViolationDialog):
    ARTICLE = "12.1"
    FIELDS = ("seat", "cards_text", "points")

    @staticmethod
    def offered(ruleset: Any) -> bool:
        return ruleset.kitty > 0

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("KittyDialog", "Kitty (底牌)")

    def setup_fields(self) -> None:
        attach_completer(self.ui.cardsTextEdit)
        self.ui.pointsSpin.setMinimum(0)
        self.ui.pointsSpin.clear()
        self.ui.cardsTextEdit.textChanged.connect(self.show_points_row)
        hand = self.session.state.current_hand
        if hand is not None and hand.dealer is not None:
            select(self.ui.seatCombo, str(hand.dealer))
        self.ui.cardsTextEdit.setFocus()

    def show_points_row(self) -> None:
        """Cards typed: their points are counted; otherwise the points are typed."""
        typed = bool(self.ui.cardsTextEdit.text().strip())
        self.ui.formLayout.setRowVisible(self.ui.pointsSpin, not typed)

    def paraphrase(self) -> str:
        ruleset = self.session.state.ruleset
        return self.tr(
            "After the bidding the dealer takes the %1 kitty cards and buries as many face "
            "down. Enter the buried cards, or only their points. When the defenders win the "
            "last trick they add the kitty's points times the last lead's multiplier."
        ).replace("%1", str(ruleset.kitty))

    def retranslate_fields(self) -> None:
        self.ui.seatLabel.setText(self.tr("Dealer"))
        self.ui.cardsTextLabel.setText(self.tr("Buried cards (optional)"))
        self.ui.pointsLabel.setText(self.tr("Points in the kitty"))
        self.show_points_row()

    def entries(self) -> Entries:
        payload: dict[str, Any] = {"seat": self.seat()}
        cards = card_tokens(self.ui.cardsTextEdit.text())
        if cards:
            payload["cards"] = cards
        else:
            payload["points"] = self.number("points")
        return [("kitty_buried", payload)]

    def update_preview(self) -> None:
        try:
            card_tokens(self.ui.cardsTextEdit.text())
        except RulesError as error:
            self.ui.consequenceLabel.setText("")
            self.show_hint(refusal_message(error))
            return
        super().update_preview()
