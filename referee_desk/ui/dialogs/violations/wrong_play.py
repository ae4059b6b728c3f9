"""8.2 出错牌: cards played in error that the opponents clearly saw cost points."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class WrongPlayDialog(ViolationDialog):
    ARTICLE = "8.2"
    FIELDS = ("seat", "cards")

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("WrongPlayDialog", "Wrong play")

    def paraphrase(self) -> str:
        return self.tr(
            "Each card played in error that the opponents clearly saw costs points: a "
            "defender's error is taken from the defenders' points, a declarer's is added "
            "to them. The cards played in their place are discards and cannot win."
        )

    def entries(self) -> Entries:
        return [("wrong_play", {"seat": self.seat(), "cards_exposed": self.number("cards")})]
