"""Hand result by summary (7.1-7.3): the consequence is previewed before it is committed.

The preview is the match layer's replay of the record plus this draft: final score,
levels, next dealer and the article, exactly what committing would record. In the
kitty presets (12.5) the form also asks the kitty's points (unless ``kitty_buried``
recorded them) and the last lead's shape, and the preview shows the dig: the kitty's
points × the multiplier; in Guilin those rows are hidden.
"""

from __future__ import annotations

import html
import re
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from referee_desk.rules.seats import Side
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog, new_consequences
from referee_desk.ui.dialogs.seat_combos import SideLetterFilter, select
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


#: One unit of a typed lead shape: ``2x3`` (three consecutive pairs), ``2`` (a pair).
_UNIT = re.compile(r"^([1-8])(?:[x×*]([1-9][0-9]?))?$", re.IGNORECASE)


def parse_lead_shape(text: str) -> list[list[int]]:
    """``2x3`` → ``[[2, 3]]``; ``1 1 1 1`` → four singles (a throw); refused with its word.

    Each unit is written as its identical cards, then ``x`` and its ranks for a tractor.
    """
    units = []
    for word in text.replace(",", " ").split():
        match = _UNIT.match(word)
        if match is None:
            raise ValueError(
                QCoreApplication.translate(
                    "HandSummaryDialog",
                    "Shape of the last lead: “%1” is not a unit (write 1, 2, 3 or 2x3).",
                ).replace("%1", word)
            )
        units.append([int(match.group(1)), int(match.group(2) or 1)])
    return units


def dig_text(state: Any, after_seq: int) -> str:
    """``底牌 35 分 × 4 = 140`` when the entry's hand ended with the defenders' dig (12.5)."""
    finished = [h for h in state.hands if h.result is not None]
    if not finished or state.last_seq <= after_seq:
        return ""
    hand = finished[-1]
    last = hand.last_trick
    if last is None or last.kitty_points is None or not last.multiplier:
        return ""
    if last.side != hand.defenders:
        return QCoreApplication.translate(
            "HandSummaryDialog", "Kitty %1 points: the declarers won the last trick, no dig"
        ).replace("%1", str(last.kitty_points))
    return (
        QCoreApplication.translate(
            "HandSummaryDialog", "Kitty %1 points × %2 = %3 to the defenders"
        )
        .replace("%1", str(last.kitty_points))
        .replace("%2", str(last.multiplier))
        .replace("%3", str(last.kitty_points * last.multiplier))
    )


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
        # One key names the last trick's winner, from any field: a seat's letter (issue 19)
        side_letters = SideLetterFilter(self.ui.winnerCombo, self)
        for widget in (
            self.ui.pointsBeforeSpin,
            self.ui.lastTrickPointsSpin,
            self.ui.lastTrickCardsSpin,
            self.ui.kittyPointsSpin,
            self.ui.winnerCombo,
        ):
            widget.installEventFilter(side_letters)
        self.ui.winnerCombo.currentIndexChanged.connect(self.update_preview)
        self.ui.kittyPointsSpin.textChanged.connect(self.update_preview)
        self.ui.leadShapeEdit.textChanged.connect(self.update_preview)
        self._show_kitty_rows()
        self.retranslate()

    @property
    def has_kitty(self) -> bool:
        return self.session.state.ruleset.last_trick == "kitty"

    @property
    def recorded_kitty(self) -> Any:
        hand = self.session.state.current_hand
        return None if hand is None else hand.kitty

    def _show_kitty_rows(self) -> None:
        """Kitty presets only; the kitty's points are typed unless they were recorded."""
        form = self.ui.formLayout
        form.setRowVisible(self.ui.leadShapeEdit, self.has_kitty)
        form.setRowVisible(self.ui.kittyPointsSpin, self.has_kitty)
        kitty = self.recorded_kitty
        if kitty is not None:
            self.ui.kittyPointsSpin.setValue(kitty.points)
            self.ui.kittyPointsSpin.setEnabled(False)

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
        payload: dict[str, Any] = {
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
        if self.has_kitty:
            if self.recorded_kitty is None:
                payload["kitty_points"] = ui.kittyPointsSpin.checked_value(
                    ui.kittyPointsLabel.text()
                )
            shape = parse_lead_shape(ui.leadShapeEdit.text())
            if shape:
                payload["last_lead_shape"] = shape
        return [("hand_summary", payload)]

    def earlier_adjustment(self) -> int:
        """The defenders' points the record holds for this hand before the summary: the
        8.2 penalties (a wrong play's +20), which the summary's points are added to."""
        hand = self.session.state.current_hand
        if hand is None or hand.tricks:
            return 0
        return hand.defenders_points

    def earlier_penalties_text(self) -> str:
        """``+20 from 出错牌 is added: 85 + 20 = 105 before the last trick``."""
        adjustment = self.earlier_adjustment()
        if not adjustment:
            return ""
        hand = self.session.state.current_hand
        kinds = ", ".join(dict.fromkeys(texts.event_kind_name(v.kind) for v in hand.violations))
        typed = self.ui.pointsBeforeSpin.text().strip()
        line = (
            self.tr("%1 from %2 is added to the points typed")
            .replace("%1", f"{adjustment:+d}")
            .replace("%2", kinds or "8.2")
        )
        if typed.isdigit():
            line += (
                self.tr(": %1 + %2 = %3 before the last trick")
                .replace("%1", typed)
                .replace("%2", str(adjustment))
                .replace("%3", str(int(typed) + adjustment))
            )
        return line + self.tr(" (type the points captured in cards, not the scoresheet total)")

    def update_preview(self) -> None:
        state, refusal = self.preview_state()
        if state is None:
            self.ui.previewLabel.setText("")
            self.show_hint(refusal)
            return
        self.clear_error()
        after = self.session.state.last_seq
        details = [texts.consequence_line(c) for c in new_consequences(state, after)]
        if self.has_kitty and (dig := dig_text(state, after)):
            details.insert(0, dig)
        if adds := self.earlier_penalties_text():
            details.insert(0, adds)
        self.ui.previewLabel.setText(preview_html(outcome_headline(state, after), details))
