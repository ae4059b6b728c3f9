"""8.10 弃权: the forfeiting side scores 0 for the match; the other side advances."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class ForfeitDialog(ViolationDialog):
    ARTICLE = "8.10"
    FIELDS = ("side", "text")

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("ForfeitDialog", "Forfeit")

    def paraphrase(self) -> str:
        return self.tr(
            "The forfeiting side scores 0 for the match and the other side advances. "
            "The match ends."
        )

    def retranslate_fields(self) -> None:
        self.ui.sideLabel.setText(self.tr("Forfeiting side"))
        self.ui.textLabel.setText(self.tr("Details (optional)"))

    def entries(self) -> Entries:
        payload: dict[str, Any] = {"side": self.ui.sideCombo.currentData()}
        if self.text():
            payload["text"] = self.text()
        return [("forfeit", payload)]
