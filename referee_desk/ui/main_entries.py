"""The referee's entries: bid, hand result, trick, violations, clock, notes, undo, corrections.

``EntryActions`` opens one dialog per entry (the window's ``run_dialog``) and records
through its undo stack; it owns that stack and the end announcement. Strings keep the
``MainWindow`` translation context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDialog

from referee_desk.ui import texts
from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.trick import TrickDialog
from referee_desk.ui.dialogs.violations import KittyDialog, OverrunDialog
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession
from referee_desk.ui.undo import RecordedEntry

if TYPE_CHECKING:
    from referee_desk.ui.main_window import MainWindow


class EntryActions:
    """The entry actions of one window, its undo stack and the end announcement."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window
        self.undo_stack = QUndoStack(window)
        self.can_undo = False
        self.announced_end: int | None = None
        self.undo_stack.canUndoChanged.connect(self._on_can_undo)

    def _on_can_undo(self, can_undo: bool) -> None:
        self.can_undo = can_undo
        self.w.display.update_enabled()

    def session_changed(self, session: MatchSession | None) -> None:
        """Another match (or none): its undo history and announcement start afresh."""
        self.undo_stack.clear()
        self.announced_end = None
        if session is not None and session.state.end is not None and session.state.end.recorded:
            self.announced_end = session.state.end.seq

    @property
    def session(self) -> MatchSession | None:
        return self.w.session

    def _entry_dialog(self, dialog: Any) -> QDialog:
        def done(_result: int) -> None:
            if dialog.recorded:
                self.push_entry(dialog.recorded, dialog.windowTitle())

        return self.w.run_dialog(dialog, done)

    def push_entry(self, events: list[Any], text: str) -> None:
        assert self.session is not None
        self.undo_stack.push(RecordedEntry(self.session, events, text))
        self.w.display.update_enabled()

    def show_match_view(self) -> None:
        """Bring the match view to the front (a match key pressed on the organizer's tab)."""
        tabs = getattr(self.w, "organizer_tabs", None)
        if tabs is not None and tabs.currentIndex() != 0:
            tabs.setCurrentIndex(0)

    def need_session(self) -> MatchSession | None:
        self.show_match_view()
        if self.session is None:
            self.w.show_message(
                QCoreApplication.translate("MainWindow", "No match"),
                QCoreApplication.translate("MainWindow", "Open or start a match first (Ctrl+M)."),
            )
        return self.session

    def open_bid(self) -> None:
        if (session := self.need_session()) is not None:
            self._entry_dialog(BidDialog(session, self.w))

    def open_hand_summary(self) -> None:
        if (session := self.need_session()) is not None:
            self._entry_dialog(HandSummaryDialog(session, self.w))

    def open_trick(self) -> None:
        if (session := self.need_session()) is not None:
            self._entry_dialog(TrickDialog(session, self.w))

    def open_kitty(self) -> None:
        """K: the dealer's buried cards or their points (12.1), kitty presets only."""
        if (session := self.need_session()) is not None and session.state.ruleset.kitty:
            self._entry_dialog(KittyDialog(session, self.w))

    def open_violation(self, dialog_class: type) -> QDialog | None:
        if (session := self.need_session()) is None:
            return None
        return self._entry_dialog(dialog_class(session, self.w))

    def show_violation_menu(self) -> None:
        if self.need_session() is None:
            return
        button = self.w.ui.violationButton
        self.w.violation_menu.popup(button.mapToGlobal(button.rect().bottomLeft()))

    def open_match_end(self) -> None:
        if (session := self.need_session()) is not None:
            self._entry_dialog(MatchEndDialog(session, self.w))

    def maybe_announce_end(self) -> None:
        """A newly derived end opens the announcement for the referee to confirm."""
        state = None if self.session is None else self.session.state
        if state is None or state.end is None or state.end.recorded:
            return
        if self.announced_end == state.end.seq or self.w.active_dialog is not None:
            return
        self.announced_end = state.end.seq
        QTimer.singleShot(0, self.open_match_end)

    def toggle_pause(self) -> None:
        session = self.need_session()
        if session is None:
            return
        clock = session.state.clock
        if not clock.started:
            self._submit_simple(
                [("clock_started", {})], QCoreApplication.translate("MainWindow", "Clock started")
            )
        elif clock.running:
            dialog = ReasonDialog(
                QCoreApplication.translate("MainWindow", "Pause the clock"),
                QCoreApplication.translate("MainWindow", "Why is the clock paused?"),
                [
                    QCoreApplication.translate("MainWindow", "ruling"),
                    QCoreApplication.translate("MainWindow", "dispute"),
                    QCoreApplication.translate("MainWindow", "break"),
                ],
                self.w,
                submit=lambda reason: self._record(
                    [("clock_paused", {"reason": reason})],
                    QCoreApplication.translate("MainWindow", "Clock paused"),
                ),
            )
            self.w.run_dialog(dialog)
        else:
            self._submit_simple(
                [("clock_resumed", {})], QCoreApplication.translate("MainWindow", "Clock resumed")
            )

    def _record(self, entries: list[tuple[str, dict[str, Any]]], text: str) -> None:
        """Record from a dialog that keeps its entry on refusal (raises the refusal)."""
        assert self.session is not None
        self.push_entry(self.session.submit_many(entries), text)

    def _submit_simple(self, entries: list[tuple[str, dict[str, Any]]], text: str) -> bool:
        assert self.session is not None
        try:
            events = self.session.submit_many(entries)
        except (ValueError, OSError) as error:
            self.w.show_message(
                QCoreApplication.translate("MainWindow", "Refused"), refusal_message(error)
            )
            return False
        self.push_entry(events, text)
        return True

    def start_think(self) -> None:
        if (session := self.need_session()) is not None:
            self.w.display.think.start(session.state.ruleset.think_seconds)
            self.w.tick()

    def record_overrun(self) -> None:
        session = self.need_session()
        if session is None:
            return
        dialog = self.open_violation(OverrunDialog)
        if dialog is not None and self.w.display.think.running:
            dialog.ui.secondsSpin.setValue(self.w.display.think.elapsed_s())
        self.w.display.think.stop()

    def add_note(self) -> None:
        if self.need_session() is None:
            return
        about = self.selected_seq()

        def submit(text: str) -> None:
            payload: dict[str, Any] = {"text": text}
            if about is not None:
                payload["about_seq"] = about
            self._record([("note", payload)], QCoreApplication.translate("MainWindow", "Note"))

        dialog = ReasonDialog(
            QCoreApplication.translate("MainWindow", "Note"),
            QCoreApplication.translate("MainWindow", "Note for the record:"),
            [],
            self.w,
            submit=submit,
            empty=QCoreApplication.translate("MainWindow", "Write the note first."),
        )
        self.w.run_dialog(dialog)

    def undo_last(self) -> None:
        if self.need_session() is None or not self.undo_stack.canUndo():
            return
        command = self.undo_stack.command(self.undo_stack.index() - 1)
        dialog = ReasonDialog(
            QCoreApplication.translate("MainWindow", "Undo last entry"),
            QCoreApplication.translate(
                "MainWindow", "Undo “%1”: a correction is recorded (nothing is deleted). Reason:"
            ).replace("%1", command.text()),
            [QCoreApplication.translate("MainWindow", "entered by mistake")],
            self.w,
            default=QCoreApplication.translate("MainWindow", "entered by mistake"),
        )

        def done(result: int) -> None:
            if result != QDialog.DialogCode.Accepted:
                return
            command.reason = dialog.reason
            self.undo_stack.undo()
            if command.error is not None:
                self.undo_stack.redo()
                self.w.show_message(
                    QCoreApplication.translate("MainWindow", "Refused"),
                    refusal_message(command.error),
                )

        self.w.run_dialog(dialog, done)

    def selected_seq(self) -> int | None:
        index = self.w.ui.eventView.currentIndex()
        if not index.isValid():
            return None
        return self.w.model.event_at(self.w.proxy.mapToSource(index).row()).seq

    def correct_selected(self) -> None:
        session = self.need_session()
        if session is None:
            return
        seq = self.selected_seq() or (session.events[-1].seq if session.events else None)
        if seq is None:
            return
        event = session.events[seq - 1]
        dialog = ReasonDialog(
            QCoreApplication.translate("MainWindow", "Correction"),
            QCoreApplication.translate("MainWindow", "Void event %1 (%2). Reason (required):")
            .replace("%1", str(seq))
            .replace("%2", texts.event_kind_name(event.type)),
            [],
            self.w,
            submit=lambda reason: self._record(
                [("correction", {"target_seq": seq, "action": "void", "reason": reason})],
                QCoreApplication.translate("MainWindow", "Correction"),
            ),
        )

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.w.review.leave()

        self.w.run_dialog(dialog, done)
