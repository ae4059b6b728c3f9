"""Hand result by summary (7.1-7.3): the consequence is previewed before it is committed.

The preview is the match layer's replay of the record plus this draft: final score,
levels, next dealer and the article, exactly what committing would record.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from referee_desk.rules.seats import Side
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog, new_consequences
from referee_desk.ui.dialogs.seat_combos import select
from referee_desk.ui.generated.ui_hand_summary_dialog import Ui_HandSummaryDialog
from referee_desk.ui.session import MatchSession


def outcome_headline(state: Any, after_seq: int) -> str:
    """``防守方 105 · 南北升 2 级 → 5 · 下盘 南 坐庄 · 7.3 7.2`` from the replayed state."""
    finished = [h for h in state.hands if h.result is not None]
    hand = finished[-1] if finished else None
    parts: list[str] = []
    end = state.end
    if end is not None and end.seq > after_seq:
        # This entry ends the match (passing A, 1.5): that is the headline.
        parts.append(
            QCoreApplication.translate("HandSummaryDialog", "%1 win the match (%2, %3)")
            .replace("%1", texts.side_name(end.winner))
            .replace("%2", texts.end_reason_name(end.reason))
            .replace("%3", end.article)
        )
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
                    QCoreApplication.translate("HandSummaryDialog", "%1 up %2 → %3")
                    .replace("%1", texts.side_name(side))
                    .replace("%2", str(gain))
                    .replace("%3", texts.level_label(result.levels_after[side]))
                )
        if result.next_dealer is not None and end is None:
            parts.append(
                QCoreApplication.translate("HandSummaryDialog", "next dealer %1").replace(
                    "%1", texts.seat_name(result.next_dealer)
                )
            )
    articles = [c.article for c in new_consequences(state, after_seq) if "." in c.article]
    if articles:
        parts.append(" ".join(dict.fromkeys(articles)))
    return " · ".join(parts)


def preview_html(headline: str, details: list[str]) -> str:
    """A large headline and the match layer's consequence lines below it."""
    lines = "<br>".join(html.escape(d) for d in details)
    return (
        f"<div style='font-size:17pt; font-weight:bold; color:#0b5394'>{html.escape(headline)}"
        f"</div><div style='font-size:11pt; color:#37474f'>{lines}</div>"
    )


class HandSummaryDialog(EntryDialog):
    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_HandSummaryDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.request_close)
        # The points before the last trick start empty: R Enter must not record 0.
        self.ui.lastTrickPointsSpin.setValue(0)
        self.ui.lastTrickCardsSpin.setValue(1)
        for field in (
            self.ui.pointsBeforeSpin,
            self.ui.lastTrickPointsSpin,
            self.ui.lastTrickCardsSpin,
        ):
            field.textChanged.connect(self.update_preview)
        self.ui.pointsBeforeSpin.setFocus()
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
        ui = self.ui
        payload = {
            "defenders_points_before_last": ui.pointsBeforeSpin.checked_value(
                ui.pointsBeforeLabel.text()
            ),
            "last_trick_points": ui.lastTrickPointsSpin.checked_value(
                ui.lastTrickPointsLabel.text()
            ),
            "last_trick_cards_per_player": ui.lastTrickCardsSpin.checked_value(
                ui.lastTrickCardsLabel.text()
            ),
            "last_trick_side": ui.winnerCombo.currentData(),
        }
        return [("hand_summary", payload)]

    def update_preview(self) -> None:
        state, refusal = self.preview_state()
        if state is None:
            self.ui.previewLabel.setText("")
            self.show_hint(refusal)
            return
        self.clear_error()
        after = self.session.state.last_seq
        details = [texts.consequence_line(c) for c in new_consequences(state, after)]
        self.ui.previewLabel.setText(preview_html(outcome_headline(state, after), details))
