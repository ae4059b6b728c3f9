"""8.1 明叫: a side that shows its bid openly loses its right to bid in this hand."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class OpenBidDialog(ViolationDialog):
    ARTICLE = "8.1"
    FIELDS = ("seat",)

    @staticmethod
    def offered(ruleset: Any) -> bool:
        """The presets bid openly by showing level cards (12.3): no 明叫 to record."""
        return bool(ruleset.race_needs_lj)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("OpenBidDialog", "Open bid")

    def paraphrase(self) -> str:
        return self.tr(
            "A side that shows its bid openly loses its right to bid in this hand; the "
            "opponents decide whether to counter. No points change."
        )

    def entries(self) -> Entries:
        return [("open_bid", {"seat": self.seat()})]
