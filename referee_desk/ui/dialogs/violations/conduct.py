"""8.7/8.8 警告: first offence of a side is a warning, the second goes to the committee."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class ConductWarningDialog(ViolationDialog):
    ARTICLE = "8.8"
    FIELDS = ("seat", "text")

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("ConductWarningDialog", "Conduct warning")

    def paraphrase(self) -> str:
        return self.tr(
            "Talking, signalling, peeking or looking at scores or played cards: a side's "
            "first offence is a warning; at the second the referee reports it at once to "
            "the arbitration committee."
        )

    def retranslate_fields(self) -> None:
        self.ui.textLabel.setText(self.tr("What happened"))

    def entries(self) -> Entries:
        return [("conduct_warning", {"seat": self.seat(), "text": self.required_text()})]
