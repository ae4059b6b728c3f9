"""The shared violation form: article, paraphrase, only the fields the article needs,
and the consequence the match layer computes for the draft before it is recorded."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from referee_desk.rules.seats import Seat
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog, new_consequences
from referee_desk.ui.dialogs.hand_summary import preview_html
from referee_desk.ui.dialogs.seat_combos import (
    fill_seats,
    fill_sides,
    fill_trumps,
    letters_pick_seats,
    select,
)
from referee_desk.ui.generated.ui_violation_dialog import Ui_ViolationDialog
from referee_desk.ui.number_field import NumberField
from referee_desk.ui.session import MatchSession

#: Field rows of the form, by name → (label widget name, field widget name).
ROWS: dict[str, tuple[str, str]] = {
    "seat": ("seatLabel", "seatCombo"),
    "side": ("sideLabel", "sideCombo"),
    "cards_text": ("cardsTextLabel", "cardsTextEdit"),
    "shown": ("shownLabel", "shownEdit"),
    "cards": ("cardsLabel", "cardsSpin"),
    "choice": ("choiceLabel", "choiceCombo"),
    "points": ("pointsLabel", "pointsSpin"),
    "trump": ("trumpLabel", "trumpCombo"),
    "levels_ns": ("levelsNsLabel", "levelsNsSpin"),
    "levels_ew": ("levelsEwLabel", "levelsEwSpin"),
    "text": ("textLabel", "textEdit"),
    "kind": ("kindLabel", "kindCombo"),
    "seconds": ("secondsLabel", "secondsSpin"),
}
ARTICLE_STYLE = "font-size: 18pt; font-weight: bold;"


class ViolationDialog(EntryDialog):
    """Subclasses set ARTICLE and FIELDS and implement title, paraphrase and entries."""

    ARTICLE: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_ViolationDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.request_close)
        self.ui.articleLabel.setStyleSheet(ARTICLE_STYLE)
        for name, (_label, field) in ROWS.items():
            self.ui.formLayout.setRowVisible(getattr(self.ui, field), name in self.FIELDS)
        self._tab_in_row_order()
        letters_pick_seats(self.ui.seatCombo)
        # Enter in the text box adds a line; Ctrl+Enter records, Tab leaves the box.
        self.ui.textEdit.setTabChangesFocus(True)
        self.submit_with_ctrl_enter()
        for field in self.number_fields():
            if field.value() is None:
                field.setValue(max(field.minimum(), 0))
        fill_seats(self.ui.seatCombo)  # filled before the defaults are chosen (the dealer)
        self.setup_fields()
        self._connect_preview()
        self.retranslate()

    def _tab_in_row_order(self) -> None:
        """Tab goes down the form as it is drawn (it followed the form file's order:
        in 劳改 Tab skipped from 选择者 past the A/B choice to 发生了什么, issue 19)."""
        form = self.ui.formLayout
        fields = [
            (form.getWidgetPosition(getattr(self.ui, field))[0], getattr(self.ui, field))
            for _label, field in ROWS.values()
        ]
        chain = [widget for _row, widget in sorted(fields, key=lambda pair: pair[0])]
        chain.append(self.ui.buttonBox)
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

    def setup_fields(self) -> None:
        """Fill combos and defaults (called once; retranslate refills labels)."""

    def _connect_preview(self) -> None:
        ui = self.ui
        for combo in (ui.seatCombo, ui.sideCombo, ui.choiceCombo, ui.trumpCombo, ui.kindCombo):
            combo.currentIndexChanged.connect(self.update_preview)
        for field in self.number_fields():
            field.textChanged.connect(self.update_preview)
        ui.textEdit.textChanged.connect(self.update_preview)
        ui.cardsTextEdit.textChanged.connect(self.update_preview)
        ui.shownEdit.textChanged.connect(self.update_preview)

    def number_fields(self) -> tuple[NumberField, ...]:
        ui = self.ui
        return (ui.cardsSpin, ui.pointsSpin, ui.levelsNsSpin, ui.levelsEwSpin, ui.secondsSpin)

    def number(self, row: str) -> int:
        """The value typed in a number row, refused (naming the row) when not allowed."""
        label_name, field_name = ROWS[row]
        label = getattr(self.ui, label_name).text().rstrip(":：")
        return getattr(self.ui, field_name).checked_value(label)

    @staticmethod
    def offered(ruleset: Any) -> bool:
        """Does the match's preset have this violation (issue 12)? Most are in all."""
        return True

    @staticmethod
    def title() -> str:
        raise NotImplementedError

    def paraphrase(self) -> str:
        raise NotImplementedError

    def retranslate(self) -> None:
        self.setWindowTitle(self.title())
        self.ui.articleLabel.setText(f"{self.ARTICLE} {self.title()}")
        self.ui.paraphraseLabel.setText(self.paraphrase())
        for combo in (self.ui.seatCombo,):
            combo.blockSignals(True)
            fill_seats(combo)
            combo.blockSignals(False)
        self.ui.sideCombo.blockSignals(True)
        self.fill_side_combo()
        self.ui.sideCombo.blockSignals(False)
        self.ui.trumpCombo.blockSignals(True)
        fill_trumps(self.ui.trumpCombo)
        self.ui.trumpCombo.blockSignals(False)
        self.retranslate_fields()
        self.update_preview()

    def fill_side_combo(self) -> None:
        fill_sides(self.ui.sideCombo)

    def fill_side_with_opponents(self, *, none: str = "") -> None:
        """The side row offers the seats opposing the seat row's player (all four until
        one is chosen), keeping the current choice when it is still offered."""
        seat = self.ui.seatCombo.currentData()
        seats = tuple(Seat) if seat is None else Seat(seat).side.other.seats
        combo = self.ui.sideCombo
        combo.blockSignals(True)
        current = combo.currentData()
        fill_seats(combo, seats, none=none)
        select(combo, current)
        combo.blockSignals(False)

    def retranslate_fields(self) -> None:
        """Kind-specific labels and combo items."""

    def seat(self) -> str:
        return str(self.ui.seatCombo.currentData())

    def text(self) -> str:
        return self.ui.textEdit.toPlainText().strip()

    def required_text(self) -> str:
        """The text box's content, refused (naming the box as labelled) when empty."""
        text = self.text()
        if not text:
            label = self.ui.textLabel.text().rstrip(":：")
            raise ValueError(
                QCoreApplication.translate("ViolationDialog", "%1: write what happened.").replace(
                    "%1", label
                )
            )
        return text

    def entries(self) -> Entries:
        raise NotImplementedError

    def update_preview(self) -> None:
        state, refusal = self.preview_state()
        if state is None:
            self.ui.consequenceLabel.setText("")
            self.show_hint(refusal)
            return
        self.clear_error()
        lines = consequence_text(state, self.session.state.last_seq).split("\n")
        lines[:0] = self.preview_lead_lines(state)
        self.ui.consequenceLabel.setText(preview_html(lines[0], lines[1:]))

    def preview_lead_lines(self, state: Any) -> list[str]:
        """Lines a kind puts before the derived consequences (none by default)."""
        return []


def consequence_text(state: Any, after_seq: int) -> str:
    """What the match layer derived from the draft: consequences, warnings, the end."""
    lines = [texts.consequence_line(c) for c in new_consequences(state, after_seq)]
    end = getattr(state, "end", None)
    if end is not None and end.seq > after_seq:
        lines.append(
            f"{end.article}: {texts.side_name(end.winner)} · {texts.end_reason_name(end.reason)}"
        )
    if not lines:
        lines.append(
            QCoreApplication.translate("ViolationDialog", "No change to points or levels.")
        )
    return "\n".join(lines)
