"""Hand result by summary (7.1-7.3): the consequence is previewed before it is committed.

The preview is the match layer's replay of the record plus this draft: final score,
levels, next dealer and the article, exactly what committing would record.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from referee_desk.rules.seats import Side
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog, new_consequences
from referee_desk.ui.dialogs.seat_combos import select
from referee_desk.ui.generated.ui_hand_summary_dialog import Ui_HandSummaryDialog
from referee_desk.ui.session import MatchSession

PREVIEW_STYLE = "font-size: 16pt; font-weight: bold; color: #0b5394;"


def outcome_text(state: Any, after_seq: int) -> str:
    """``防守方 105 · 南北 +2 级 → 5 · 下盘 南 坐庄 · 7.2`` from the replayed state."""
    finished = [h for h in state.hands if h.result is not None and h.seq is not None]
    hand = finished[-1] if finished else None
    parts: list[str] = []
    if hand is not None and hand.result is not None:
        result = hand.result
        if result.defenders_final is not None:
            parts.append(
                QCoreApplication.translate("HandSummaryDialog", "Defenders %1").replace(
                    "%1", str(result.defenders_final)
                )
            )
        for side, gain in result.gains.items():
            if gain:
                parts.append(
                    f"{texts.side_name(side)} +{gain} → {texts.level_label(result.levels_after[side])}"
                )
        if result.next_dealer is not None:
            parts.append(
                QCoreApplication.translate("HandSummaryDialog", "next dealer %1").replace(
                    "%1", texts.seat_name(result.next_dealer)
                )
            )
    consequences = new_consequences(state, after_seq)
    parts.extend(str(c) for c in consequences)
    return " · ".join(parts)


class HandSummaryDialog(EntryDialog):
    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_HandSummaryDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.ui.previewLabel.setStyleSheet(PREVIEW_STYLE)
        for spin in (
            self.ui.pointsBeforeSpin,
            self.ui.lastTrickPointsSpin,
            self.ui.lastTrickCardsSpin,
        ):
            spin.valueChanged.connect(self.update_preview)
        self.ui.winnerCombo.currentIndexChanged.connect(self.update_preview)
        self.retranslate()

    def retranslate(self) -> None:
        hand = self.session.state.current_hand
        declarers = None if hand is None else hand.declarers
        current = self.ui.winnerCombo.currentData()
        self.ui.winnerCombo.blockSignals(True)
        self.ui.winnerCombo.clear()
        for side in (Side.NS, Side.EW):
            label = texts.side_name(side)
            if declarers is not None:
                label += f" ({texts.role_name(side == declarers)})"
            self.ui.winnerCombo.addItem(label, side.value)
        if current is None and declarers is not None:
            current = declarers.value
        select(self.ui.winnerCombo, current)
        self.ui.winnerCombo.blockSignals(False)
        self.update_preview()

    def entries(self) -> Entries:
        payload = {
            "defenders_points_before_last": self.ui.pointsBeforeSpin.value(),
            "last_trick_points": self.ui.lastTrickPointsSpin.value(),
            "last_trick_cards_per_player": self.ui.lastTrickCardsSpin.value(),
            "last_trick_side": self.ui.winnerCombo.currentData(),
        }
        return [("hand_summary", payload)]

    def update_preview(self) -> None:
        state, refusal = self.preview_state()
        if state is None:
            self.ui.previewLabel.setText("")
            self.show_error(refusal)
            return
        self.clear_error()
        self.ui.previewLabel.setText(outcome_text(state, self.session.state.last_seq))
