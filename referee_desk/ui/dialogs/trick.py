"""Trick-by-trick entry: four plays in play order, the running winner and points.

A trick is typed on one line (issue 10, item 5): four plays separated by spaces, the
cards of one play written together (``S5S5 S6S6 H4H4 S9S9``), ``!`` before a play for
a discard (8.2), one Enter to record. The line fills the four per-seat fields, which
can also be edited (with completion) or filled from the card picker with the mouse.
The live winner comes from the rules core (``rules.trick.trick_result``) over the
plays typed so far; the recorded trick is judged again by the match layer's replay.
When the trick ends the hand, the hand's result is previewed before Enter. The dialog
stays open for the next trick until the last one is recorded.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QWidget

from referee_desk.rules.cards import format_cards, parse_cards
from referee_desk.rules.errors import RulesError
from referee_desk.rules.seats import Seat
from referee_desk.rules.trick import trick_result
from referee_desk.rules.trump import TrumpContext
from referee_desk.ui import texts
from referee_desk.ui.card_entry import CardPicker, attach_completer
from referee_desk.ui.dialogs.base import Entries, EntryDialog, new_consequences, refusal_text
from referee_desk.ui.dialogs.hand_summary import dig_text, outcome_headline, preview_html
from referee_desk.ui.generated.ui_trick_dialog import Ui_TrickDialog
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession

WINNER_STYLE = "font-size: 16pt; font-weight: bold; color: #0b5394;"
#: One card token of the notation (``H10``/``HT``, ``♥5``, ``LJ``), for plays typed together.
_CARD = re.compile(r"(?:LJ|BJ|[SHDC♠♥♦♣](?:10|[2-9TJQKA]))", re.IGNORECASE)
DISCARD_MARK = "!"


def split_play(text: str) -> tuple[str, bool]:
    """``!S5S5`` → (``S5 S5``, discarded). Unknown text is kept for the parser to name."""
    discarded = text.startswith(DISCARD_MARK)
    body = text[1:] if discarded else text
    cards = _CARD.findall(body)
    if "".join(cards).upper() != body.upper():
        return body, discarded  # not only cards: let parse_cards name the bad token
    return " ".join(cards), discarded


def split_trick(line: str) -> list[tuple[str, bool]]:
    """The plays of a trick line, in play order (at most four are used)."""
    return [split_play(word) for word in line.split()]


def next_leader(hand: Any) -> Seat | None:
    """Who leads the next trick as the record says: the last winner, else the dealer."""
    if hand is None:
        return None
    if hand.tricks:
        return Seat(str(hand.tricks[-1].winner))
    return None if hand.dealer is None else Seat(str(hand.dealer))


class TrickDialog(EntryDialog):
    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_TrickDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.request_close)
        self.picker = CardPicker(self)
        self.ui.pickerLayout.addWidget(self.picker)
        self._fit = QTimer(self)
        self._fit.setSingleShot(True)
        self._fit.setInterval(0)
        self._fit.timeout.connect(self.fit_to_window)
        self.picker.picked.connect(self.add_card)
        self.edits: list[QLineEdit] = [
            self.ui.play1Edit,
            self.ui.play2Edit,
            self.ui.play3Edit,
            self.ui.play4Edit,
        ]
        self._focused: QLineEdit = self.ui.playsEdit
        self.discards = [
            self.ui.discard1Check,
            self.ui.discard2Check,
            self.ui.discard3Check,
            self.ui.discard4Check,
        ]
        # The keyboard path is the plays line: the per-seat fields and discard boxes are
        # reached by the mouse (Tab does not stop on them).
        for check in self.discards:
            check.toggled.connect(self.update_running)
            check.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        for edit in self.edits:
            attach_completer(edit)
            edit.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
            edit.textChanged.connect(self.update_running)
            edit.installEventFilter(self)
        self.ui.playsEdit.installEventFilter(self)
        self.ui.playsEdit.textChanged.connect(self.fill_from_line)
        self.ui.lastCheck.toggled.connect(self.update_running)
        self.ui.lastCheck.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        QShortcut(QKeySequence("Ctrl+L"), self, activated=self.ui.lastCheck.toggle)
        self.ui.winnerLabel.setStyleSheet(WINNER_STYLE)
        self.ui.playsEdit.setFocus()
        self.retranslate()

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.FocusIn and (
            watched in self.edits or watched is self.ui.playsEdit
        ):
            self._focused = watched
        return super().eventFilter(watched, event)

    def fill_from_line(self, line: str) -> None:
        """Spread the typed line over the four per-seat fields and discard boxes."""
        plays = split_trick(line)
        for index, (edit, check) in enumerate(zip(self.edits, self.discards, strict=True)):
            cards, discarded = plays[index] if index < len(plays) else ("", False)
            for widget in (edit, check):
                widget.blockSignals(True)
            edit.setText(cards)
            check.setChecked(discarded)
            for widget in (edit, check):
                widget.blockSignals(False)
        if len(plays) > len(self.edits):
            self.show_error(
                self.tr("A trick has four plays; %1 were typed.").replace("%1", str(len(plays)))
            )
            return
        self.update_running()

    @property
    def order(self) -> tuple[Seat, ...]:
        leader = next_leader(self.session.state.current_hand) or Seat.N
        return leader.play_order_from()

    def retranslate(self) -> None:
        hand = self.session.state.current_hand
        number = 1 if hand is None else len(hand.tricks) + 1
        self.ui.trickNumberLabel.setText(self.tr("Trick %1").replace("%1", str(number)))
        labels = [self.ui.play1Label, self.ui.play2Label, self.ui.play3Label, self.ui.play4Label]
        for position, (label, seat) in enumerate(zip(labels, self.order, strict=True)):
            text = f"{seat.value} {texts.seat_name(seat)}"
            if position == 0:
                text += " " + self.tr("(leads)")
            label.setText(text)
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setText(
            self.tr("Record trick")
        )
        self.update_running()

    def add_card(self, token: str) -> None:
        """A picked card: a new play on the plays line, or one more card of a seat's play."""
        edit = self._focused
        edit.setText(f"{edit.text().rstrip()} {token}".strip())
        edit.setFocus()

    def _context(self) -> TrumpContext | None:
        hand = self.session.state.current_hand
        if hand is None or hand.level is None or not hand.trump_decided:
            return None
        return TrumpContext.for_ruleset(hand.level, hand.trump, self.session.state.ruleset)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self._fit.start()

    def fit_to_window(self) -> None:
        """As tall as the wrapped texts need at the width the window allows (so the
        picker's rows are never squeezed), never taller than the window (issue 19)."""
        window = self.parentWidget().window() if self.parentWidget() is not None else None
        room_w = window.width() if window is not None else 1024
        room_h = window.height() if window is not None else 700
        width = max(self.minimumSizeHint().width(), min(self.width(), room_w - 24))
        layout = self.layout()
        needed = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else 0
        height = max(needed, self.minimumSizeHint().height())
        if height > room_h and width < room_w - 24:  # wider wraps the texts into fewer lines
            width = room_w - 24
            needed = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else 0
            height = max(needed, self.minimumSizeHint().height())
        self.resize(width, min(height, room_h))

    def update_running(self) -> None:
        """Winner so far and points in the trick, from the rules core."""
        self._fit.start()
        context = self._context()
        hand = self.session.state.current_hand
        before = 0 if hand is None else hand.defenders_points
        self.ui.pointsLabel.setText(
            self.tr("Defenders' points recorded so far: %1").replace("%1", str(before))
        )
        plays = []
        for edit in self.edits:
            if not edit.text().strip():
                break
            try:
                plays.append(parse_cards(edit.text()))
            except RulesError as error:
                self.ui.winnerLabel.setText("")
                self.show_error(refusal_message(error))
                return
        self.clear_error()
        self.ui.previewLabel.setText("")
        if context is None or not plays:
            self.ui.winnerLabel.setText("")
            return
        try:
            discarded = [i for i in range(len(plays)) if self.discards[i].isChecked()]
            result = trick_result(
                plays, context, discarded=discarded, ruleset=self.session.state.ruleset
            )
        except RulesError as error:
            self.ui.winnerLabel.setText("")
            self.show_error(refusal_message(error))
            return
        winner = self.order[result.winner]
        self.ui.winnerLabel.setText(
            self.tr("Winning so far: %1 · points in this trick: %2")
            .replace("%1", texts.seat_name(winner))
            .replace("%2", str(result.points))
        )
        if len(plays) == len(self.edits):
            self.preview_hand_end()

    def preview_hand_end(self) -> None:
        """When this trick ends the hand, show the hand's result before Enter."""
        state, refusal = self.preview_state()
        if state is None:
            self.show_hint(refusal)
            return
        hand = self.session.state.current_hand
        finished = [h for h in state.hands if h.result is not None]
        if hand is None or not finished or finished[-1].number != hand.number:
            return
        after = self.session.state.last_seq
        details = [texts.consequence_line(c) for c in new_consequences(state, after)]
        if dig := dig_text(state, after):
            details.insert(0, dig)  # 12.5: the defenders' dig and its multiplier
        headline = self.tr("Last trick: %1").replace("%1", outcome_headline(state, after))
        self.ui.previewLabel.setText(preview_html(headline, details))

    def entries(self) -> Entries:
        plays = []
        for seat, edit, check in zip(self.order, self.edits, self.discards, strict=True):
            cards = [format_cards([c]) for c in parse_cards(edit.text())]
            play: dict[str, Any] = {"seat": seat.value, "cards": cards}
            if check.isChecked():
                play["discarded"] = True  # played in place of a wrong play (8.2)
            plays.append(play)
        payload: dict[str, Any] = {"leader": self.order[0].value, "plays": plays}
        if self.ui.lastCheck.isChecked():
            payload["last"] = True
        return [("trick", payload)]

    def accept(self) -> None:
        """Record the trick; stay open for the next unless it was the last."""
        last = self.ui.lastCheck.isChecked()
        try:
            self.recorded += self.session.submit_many(self.entries())
        except (ValueError, OSError) as error:
            self.show_error(refusal_text(error))
            return
        self.clear_error()
        if last:
            self.done(self.DialogCode.Accepted)
            return
        self.ui.playsEdit.clear()
        for edit in self.edits:
            edit.clear()
        for check in self.discards:
            check.setChecked(False)
        self.ui.lastCheck.setChecked(False)
        self.retranslate()
        self.ui.playsEdit.setFocus()
