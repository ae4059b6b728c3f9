"""8.9 thinking time: an overrun of the per-play limit is recorded."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class OverrunDialog(ViolationDialog):
    ARTICLE = "8.9"
    FIELDS = ("seat", "seconds")

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("OverrunDialog", "Thinking-time overrun")

    def paraphrase(self) -> str:
        return self.tr(
            "Each play must be made within the thinking time (10 seconds unless the "
            "ruleset says otherwise); an overrun is recorded."
        )

    def entries(self) -> Entries:
        return [("think_overrun", {"seat": self.seat(), "seconds": self.number("seconds")})]
