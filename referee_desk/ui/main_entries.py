"""The referee's entries: bid, hand result, trick, violations, clock, notes, undo, corrections.

``EntryActions`` opens one dialog per entry and records through the undo stack it is
given (a ``RecordedEntry`` per entry; undoing one is the session's headless ``undo``,
``MatchSession.undo``); it owns the end announcement. It is given what it needs: the
widget its dialogs open over, the open match, the reviewed event, the violation menu,
the thinking timer and the window's dialog runner and message box. Strings keep the
``MainWindow`` translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDialog, QWidget

from referee_desk.ui import texts
from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.trick import TrickDialog
from referee_desk.ui.dialogs.violations import KittyDialog, OverrunDialog
from referee_desk.ui.main_review import Review
from referee_desk.ui.main_session import MatchChange, MatchController, RunDialog, ShowMessage
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession
from referee_desk.ui.think_timer import ThinkTimer
from referee_desk.ui.undo import RecordedEntry
from referee_desk.ui.violation_menu import ViolationMenu


class EntryActions:
    """The entry actions of one window and the end announcement."""

    def __init__(
        self,
        parent: QWidget,
        match: MatchController,
        review: Review,
        violations: ViolationMenu,
        undo_stack: QUndoStack,
        *,
        think: ThinkTimer,
        repaint_clock: Callable[[], None],
        run_dialog: RunDialog,
        show_message: ShowMessage,
        dialog_open: Callable[[], bool],
    ) -> None:
        self.parent = parent
        self.match = match
        self.review = review
        self.violations = violations
        self.undo_stack = undo_stack
        self.think = think
        self.repaint_clock = repaint_clock
        self.run_dialog = run_dialog
        self.show_message = show_message
        self.dialog_open = dialog_open
        self.announced_end: int | None = None
        violations.chosen.connect(self.open_violation)

    @property
    def can_undo(self) -> bool:
        return self.undo_stack.canUndo()

    def on_change(self, change: MatchChange) -> None:
        """Another match (or none): its undo history and announcement start afresh; any
        change may have derived the end, which is then announced."""
        if change.opened:
            self.undo_stack.clear()
            self.announced_end = None
            state = None if change.session is None else change.session.state
            if state is not None and state.end is not None and state.end.recorded:
                self.announced_end = state.end.seq
        self.maybe_announce_end()

    @property
    def session(self) -> MatchSession | None:
        return self.match.session

    def _entry_dialog(self, dialog: Any) -> QDialog:
        def done(_result: int) -> None:
            if dialog.recorded:
                self.push_entry(dialog.recorded, dialog.windowTitle())

        return self.run_dialog(dialog, done)

    def push_entry(self, events: list[Any], text: str) -> None:
        assert self.session is not None
        self.undo_stack.push(RecordedEntry(self.session, events, text))

    def open_bid(self) -> None:
        if (session := self.match.need_session()) is not None:
            self._entry_dialog(BidDialog(session, self.parent))

    def open_hand_summary(self) -> None:
        if (session := self.match.need_session()) is not None:
            self._entry_dialog(HandSummaryDialog(session, self.parent))

    def open_trick(self) -> None:
        if (session := self.match.need_session()) is not None:
            self._entry_dialog(TrickDialog(session, self.parent))

    def open_kitty(self) -> None:
        """K: the dealer's buried cards or their points (12.1), kitty presets only."""
        if (session := self.match.need_session()) is not None and session.state.ruleset.kitty:
            self._entry_dialog(KittyDialog(session, self.parent))

    def open_violation(self, dialog_class: type) -> QDialog | None:
        if (session := self.match.need_session()) is None:
            return None
        return self._entry_dialog(dialog_class(session, self.parent))

    def show_violation_menu(self) -> None:
        if self.match.need_session() is None:
            return
        self.violations.popup()

    def open_match_end(self) -> None:
        if (session := self.match.need_session()) is not None:
            self._entry_dialog(MatchEndDialog(session, self.parent))

    def maybe_announce_end(self) -> None:
        """A newly derived end opens the announcement for the referee to confirm."""
        state = None if self.session is None else self.session.state
        if state is None or state.end is None or state.end.recorded:
            return
        if self.announced_end == state.end.seq or self.dialog_open():
            return
        self.announced_end = state.end.seq
        QTimer.singleShot(0, self.open_match_end)

    def toggle_pause(self) -> None:
        session = self.match.need_session()
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
                self.parent,
                submit=lambda reason: self._record(
                    [("clock_paused", {"reason": reason})],
                    QCoreApplication.translate("MainWindow", "Clock paused"),
                ),
            )
            self.run_dialog(dialog)
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
            self.show_message(
                QCoreApplication.translate("MainWindow", "Refused"), refusal_message(error)
            )
            return False
        self.push_entry(events, text)
        return True

    def start_think(self) -> None:
        if (session := self.match.need_session()) is not None:
            self.think.start(session.state.ruleset.think_seconds)
            self.repaint_clock()

    def record_overrun(self) -> None:
        session = self.match.need_session()
        if session is None:
            return
        dialog = self.open_violation(OverrunDialog)
        if dialog is not None and self.think.running:
            dialog.ui.secondsSpin.setValue(self.think.elapsed_s())
        self.think.stop()

    def add_note(self) -> None:
        if self.match.need_session() is None:
            return
        about = self.review.selected_seq()

        def submit(text: str) -> None:
            payload: dict[str, Any] = {"text": text}
            if about is not None:
                payload["about_seq"] = about
            self._record([("note", payload)], QCoreApplication.translate("MainWindow", "Note"))

        dialog = ReasonDialog(
            QCoreApplication.translate("MainWindow", "Note"),
            QCoreApplication.translate("MainWindow", "Note for the record:"),
            [],
            self.parent,
            submit=submit,
            empty=QCoreApplication.translate("MainWindow", "Write the note first."),
        )
        self.run_dialog(dialog)

    def undo_last(self) -> None:
        if self.match.need_session() is None or not self.undo_stack.canUndo():
            return
        command = self.undo_stack.command(self.undo_stack.index() - 1)
        dialog = ReasonDialog(
            QCoreApplication.translate("MainWindow", "Undo last entry"),
            QCoreApplication.translate(
                "MainWindow", "Undo “%1”: a correction is recorded (nothing is deleted). Reason:"
            ).replace("%1", command.text()),
            [QCoreApplication.translate("MainWindow", "entered by mistake")],
            self.parent,
            default=QCoreApplication.translate("MainWindow", "entered by mistake"),
        )

        def done(result: int) -> None:
            if result != QDialog.DialogCode.Accepted:
                return
            command.reason = dialog.reason
            self.undo_stack.undo()
            if command.error is not None:
                self.undo_stack.redo()
                self.show_message(
                    QCoreApplication.translate("MainWindow", "Refused"),
                    refusal_message(command.error),
                )

        self.run_dialog(dialog, done)

    def correct_selected(self) -> None:
        session = self.match.need_session()
        if session is None:
            return
        seq = self.review.selected_seq() or (session.events[-1].seq if session.events else None)
        if seq is None:
            return
        event = session.events[seq - 1]
        dialog = ReasonDialog(
            QCoreApplication.translate("MainWindow", "Correction"),
            QCoreApplication.translate("MainWindow", "Void event %1 (%2). Reason (required):")
            .replace("%1", str(seq))
            .replace("%2", texts.event_kind_name(event.type)),
            [],
            self.parent,
            submit=lambda reason: self._record(
                [("correction", {"target_seq": seq, "action": "void", "reason": reason})],
                QCoreApplication.translate("MainWindow", "Correction"),
            ),
        )

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.review.leave()

        self.run_dialog(dialog, done)
