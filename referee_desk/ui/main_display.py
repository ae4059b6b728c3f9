"""Painting the match view: seats, levels, status, enabled actions, clock and thinking timer.

Mixed into ``MainWindow``; strings keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QAction

from referee_desk.rules.seats import Side
from referee_desk.ui import match_view, none_guard, texts
from referee_desk.ui.clock_display import colour_for, format_ms, remaining_ms
from referee_desk.ui.event_model import COLUMNS, local_time

#: Entry actions that stay available once the match is locked: notes (the store refuses
#: anything else but committee rulings, issue 4/5) and the end announcement.
_AFTER_END = ("actionNote", "actionEndMatch")
#: Actions that also work in review mode (they concern the selected event).
_IN_REVIEW = ("actionNote", "actionCorrection")
_ENTRY_ACTIONS = (
    "actionBid",
    "actionHandResult",
    "actionTrick",
    "actionViolation",
    "actionThink",
    "actionOverrun",
    "actionPause",
    "actionNote",
    "actionEndMatch",
    "actionUndo",
    "actionCorrection",
)


class MatchDisplayMixin:
    """MainWindow methods that paint the replayed (or reviewed) state and the clock."""

    def shown_state(self) -> Any:
        if self.session is None:
            return None
        if self.review_row is not None:
            return self.session.state_at(self.review_row)
        return self.session.state

    def refresh_view(self) -> None:
        ui = self.ui
        state = self.shown_state()
        bottom = self.settings.bottom_seat
        positions = match_view.table_positions(bottom)
        labels = {
            "top": ui.seatTop,
            "bottom": ui.seatBottom,
            "left": ui.seatLeft,
            "right": ui.seatRight,
        }
        hand = None if state is None else state.current_hand
        dealers: list[Any] = []
        for position, seat in positions.items():
            label = labels[position]
            label.setText(match_view.seat_text(state, seat) if state else texts.seat_name(seat))
            dealer = hand is not None and hand.dealer is not None and str(hand.dealer) == seat.value
            if dealer:
                dealers.append(label)
        self.dealer_labels = tuple(dealers)
        ui.tableCenter.setText("↺")
        referee = "" if self.session is None else self.session.referee
        ui.titleLabel.setText(
            match_view.title_text(state, referee)
            if state
            else QCoreApplication.translate("MainWindow", "No match open (Ctrl+M)")
        )
        for side, level_label, role_label, warn_label, group in (
            (Side.NS, ui.nsLevelLabel, ui.nsRoleLabel, ui.nsWarningsLabel, ui.nsGroup),
            (Side.EW, ui.ewLevelLabel, ui.ewRoleLabel, ui.ewWarningsLabel, ui.ewGroup),
        ):
            level = None if state is None else state.levels.get(side)
            level_label.setText(
                QCoreApplication.translate("MainWindow", "Level %1").replace(
                    "%1", texts.level_label(level)
                )
                if state
                else "—"
            )
            role_label.setText(match_view.side_role(state, side) if state else "")
            warn_label.setText(match_view.side_warnings(state, side) if state else "")
            pair = "" if state is None or state.info is None else state.info.pairs.get(side, "")
            group.setTitle(f"{texts.side_name(side)} {pair or ''}".strip())
        ui.handLabel.setText(match_view.hand_text(state) if state else "")
        ui.trumpLabel.setText(match_view.trump_text(state) if state else "")
        ui.pointsLabel.setText(match_view.points_text(state) if state else "")
        ui.nextHandLabel.setText(match_view.next_hand_text(state) if state else "")
        ui.statusLine.setText(match_view.end_text(state) if state else "")
        if self.review_row is not None and self.session is not None:
            event = self.session.events[self.review_row]
            ui.reviewBanner.setText(
                QCoreApplication.translate(
                    "MainWindow", "Review %1 (event %2) — ←/→ to step, Esc to leave"
                )
                .replace("%1", local_time(event.recorded_at))
                .replace("%2", str(event.seq))
            )
            ui.reviewBanner.show()
        else:
            ui.reviewBanner.hide()
        ui.eventDetailLabel.setText(self.event_detail())
        self._update_enabled()
        self.refit()
        self.tick()

    def event_detail(self) -> str:
        """The selected event (else the last) in full: what, consequence, article —
        readable without the mouse however narrow the log's columns are."""
        if self.session is None or not self.session.events:
            return ""
        row = len(self.session.events) - 1 if self.review_row is None else self.review_row
        model = self.model
        if row >= model.rowCount():
            return ""

        def cell(name: str) -> str:
            return str(model.index(row, COLUMNS.index(name)).data() or "")

        head = " ".join(p for p in (f"#{self.session.events[row].seq}", cell("time")) if p)
        what = " ".join(p for p in (cell("seat"), cell("what")) if p)
        text = f"{head} · {what}"
        if cell("consequence"):
            text += f" → {cell('consequence')}"
        if cell("article"):
            text += f" ({cell('article')})"
        return text

    def why_disabled(self, action: QAction) -> str:
        """Why an entry key does nothing now (issue 10, item 8: no key is silent)."""
        state = None if self.session is None else self.session.state
        if state is None:
            return QCoreApplication.translate(
                "MainWindow", "No match is open: open or start one first (Ctrl+M)."
            )
        if self.review_row is not None:
            return QCoreApplication.translate(
                "MainWindow", "Review mode: Esc returns to the live match."
            )
        if state.end is not None and state.end.recorded:
            return QCoreApplication.translate(
                "MainWindow",
                "The match is over: only notes (N) and, once a committee member signs in, "
                "committee rulings (V 9) can follow.",
            )
        if action is self.ui.actionUndo:
            return QCoreApplication.translate("MainWindow", "Nothing to undo at this desk.")
        return QCoreApplication.translate("MainWindow", "Not available now.")

    def explain_key(self, key: Any) -> bool:
        """A key of a disabled action: say why in the status bar. True if it was one."""
        for action in self.actions():
            if action.isEnabled() or action.shortcut().isEmpty():
                continue
            if action.shortcut().matches(key) == action.shortcut().SequenceMatch.ExactMatch:
                self.last_message = self.why_disabled(action)
                self.statusBar().showMessage(self.last_message, 8000)
                return True
        return False

    def _update_enabled(self) -> None:
        ui = self.ui
        state = None if self.session is None else self.session.state
        live = state is not None and self.review_row is None
        locked = bool(state is not None and state.end is not None and state.end.recorded)
        for name in _ENTRY_ACTIONS:
            action: QAction = getattr(ui, name)
            enabled = live and (not locked or name in _AFTER_END)
            if name in _IN_REVIEW:
                enabled = state is not None and (not locked or name in _AFTER_END)
            if name == "actionUndo":
                enabled = enabled and self._can_undo
            action.setEnabled(enabled)
        for button, action in (
            (ui.bidButton, ui.actionBid),
            (ui.resultButton, ui.actionHandResult),
            (ui.trickButton, ui.actionTrick),
            (ui.violationButton, ui.actionViolation),
            (ui.thinkButton, ui.actionThink),
            (ui.overrunButton, ui.actionOverrun),
            (ui.pauseButton, ui.actionPause),
        ):
            button.setEnabled(action.isEnabled())
        # After the end, the committee may still rule (8.11): once signed in at this desk.
        committee = self.committee is not None
        for key, action in self.violation_actions.items():
            action.setEnabled(live and (not locked or (key == "9" and committee)))
        if locked and live and committee:
            ui.violationButton.setEnabled(True)
            ui.actionViolation.setEnabled(True)
        self.actionCommitteeSignIn.setEnabled(self.tf is not None and not self.tf.read_only)
        ui.actionLeaveReview.setEnabled(self.review_row is not None)
        clock = None if state is None else state.clock
        if clock is None or not clock.started:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Start clock (P)"))
        elif clock.running:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Pause (P)"))
        else:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Resume (P)"))

    def tick(self) -> None:
        """Repaint the clock and the thinking timer (computed, never counted)."""
        none_guard.top_up()
        ui = self.ui
        now = self._monotonic()
        if self.review_row is not None and self.session is not None:
            event = self.session.events[self.review_row]
            limit = self.session.state.clock.limit_ms
            left = limit - (event.clock_ms or 0)
            ui.clockLabel.setText(format_ms(left))
            ui.clockLabel.setStyleSheet(self.look.clock(colour_for(left), True))
            ui.pausedLabel.hide()
        elif self._anchor is None:
            ui.clockLabel.setText("—")
            ui.pausedLabel.hide()
        else:
            left = remaining_ms(self._anchor, now)
            paused = self._anchor.started and not self._anchor.running
            ui.clockLabel.setText(format_ms(left))
            ui.clockLabel.setStyleSheet(self.look.clock(colour_for(left), paused))
            ended = (
                self.session is not None
                and self.session.state.end is not None
                and (self.session.state.end.recorded)
            )
            ui.pausedLabel.setVisible(paused or not self._anchor.started)
            if ended:
                ui.pausedLabel.setText(QCoreApplication.translate("MainWindow", "MATCH OVER"))
            elif not self._anchor.started:
                ui.pausedLabel.setText(QCoreApplication.translate("MainWindow", "NOT STARTED"))
            elif paused:
                reason = self._anchor.paused_reason or ""
                ui.pausedLabel.setText(
                    QCoreApplication.translate("MainWindow", "PAUSED %1")
                    .replace("%1", reason)
                    .strip()
                )
            if (
                self._anchor.running
                and left <= 0
                and self.session is not None
                and self.session.state.end is None
                and self._timeout_refreshed is not self._anchor
            ):
                # Time is up: replay once at this moment so the match layer can end it.
                self._timeout_refreshed = self._anchor
                QTimer.singleShot(0, self.session.refresh)
        if self.think.running:
            remaining = self.think.remaining_s()
            if remaining > 0:
                ui.thinkLabel.setText(
                    QCoreApplication.translate("MainWindow", "Think %1 s").replace(
                        "%1", f"{remaining:.1f}"
                    )
                )
                ui.thinkLabel.setStyleSheet(self.look.think)
            else:
                ui.thinkLabel.setText(
                    QCoreApplication.translate("MainWindow", "Over by %1 s (O records)").replace(
                        "%1", str(self.think.overrun_s())
                    )
                )
                ui.thinkLabel.setStyleSheet(self.look.think_over)
        else:
            ui.thinkLabel.setText("")
