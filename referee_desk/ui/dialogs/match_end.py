"""End of match: the winner and the deciding rule as the replay derives them; confirming
records ``match_ended`` (after which the match is locked)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog
from referee_desk.ui.generated.ui_match_end_dialog import Ui_MatchEndDialog
from referee_desk.ui.session import MatchSession

WINNER_STYLE = "font-size: 24pt; font-weight: bold;"


class MatchEndDialog(EntryDialog):
    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_MatchEndDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.ui.winnerLabel.setStyleSheet(WINNER_STYLE)
        self.retranslate()

    def retranslate(self) -> None:
        end = self.session.state.end
        if end is None:
            self.ui.winnerLabel.setText(self.tr("The match has not ended."))
            self.ui.ruleLabel.setText("")
            return
        self.ui.winnerLabel.setText(self.tr("%1 wins").replace("%1", texts.side_name(end.winner)))
        self.ui.ruleLabel.setText(
            f"{texts.end_reason_name(end.reason)} ({end.article}): {texts.consequence_text(end)}"
        )

    def entries(self) -> Entries:
        end = self.session.state.end
        if end is None:
            raise ValueError(self.tr("The match has not ended."))
        return [("match_ended", {"reason": end.reason, "winner": str(end.winner)})]
