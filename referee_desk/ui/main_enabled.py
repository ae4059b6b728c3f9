"""Which entry actions the desk offers now, and why a key does nothing when it does not.

``EntryEnabling`` enables the entry actions and their buttons from the open match (none
open, live, in review, locked), the undo stack and whether a committee member is signed
in (after the end only notes, the end announcement and committee rulings follow), and
words why a disabled action's key does nothing (issue 10 item 8: no key is silent).
Strings keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction

if TYPE_CHECKING:
    from PySide6.QtGui import QKeySequence, QUndoStack
    from PySide6.QtWidgets import QMainWindow

    from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
    from referee_desk.ui.main_review import Review
    from referee_desk.ui.main_session import MatchController
    from referee_desk.ui.violation_menu import ViolationMenu

#: Entry actions that stay available once the match is locked: notes (the store refuses
#: anything else but committee rulings, issue 4/5) and the end announcement.
_AFTER_END = ("actionNote", "actionEndMatch")
#: Actions that also work in review mode (they concern the selected event).
_IN_REVIEW = ("actionNote", "actionCorrection")
_ENTRY_ACTIONS = (
    "actionBid",
    "actionHandResult",
    "actionTrick",
    "actionKitty",
    "actionViolation",
    "actionThink",
    "actionOverrun",
    "actionPause",
    "actionNote",
    "actionEndMatch",
    "actionUndo",
    "actionCorrection",
)


class EntryEnabling:
    """Enables one window's entry actions; given the window (its actions), its form, the
    open match, the reviewed event, the violation menu and the undo stack it reads."""

    def __init__(
        self,
        window: QMainWindow,
        ui: Ui_MainWindow,
        *,
        match: MatchController,
        review: Review,
        violations: ViolationMenu,
        undo_stack: QUndoStack,
    ) -> None:
        self.window = window
        self.ui = ui
        self.match = match
        self.review = review
        self.violations = violations
        self.undo_stack = undo_stack

    def why_disabled(self, action: QAction) -> str:
        """Why an entry key does nothing now (issue 10, item 8: no key is silent)."""
        state = None if self.match.session is None else self.match.session.state
        if state is None:
            return QCoreApplication.translate(
                "MainWindow", "No match is open: open or start one first (Ctrl+M)."
            )
        if self.review.row is not None:
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

    def explain_key(self, key: QKeySequence) -> str | None:
        """Why a key of a disabled action does nothing now (None: not such a key)."""
        for action in self.window.actions():
            if action.isEnabled() or action.shortcut().isEmpty():
                continue
            if action.shortcut().matches(key) == action.shortcut().SequenceMatch.ExactMatch:
                return self.why_disabled(action)
        return None

    def update_enabled(self) -> None:
        ui = self.ui
        state = None if self.match.session is None else self.match.session.state
        live = state is not None and self.review.row is None
        locked = bool(state is not None and state.end is not None and state.end.recorded)
        for name in _ENTRY_ACTIONS:
            action: QAction = getattr(ui, name)
            enabled = live and (not locked or name in _AFTER_END)
            if name in _IN_REVIEW:
                enabled = state is not None and (not locked or name in _AFTER_END)
            if name == "actionUndo":
                enabled = enabled and self.undo_stack.canUndo()
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
        committee = self.match.committee is not None
        for key, action in self.violations.offered.items():
            action.setEnabled(live and (not locked or (key == "9" and committee)))
        if locked and live and committee:
            ui.violationButton.setEnabled(True)
            ui.actionViolation.setEnabled(True)
        self.match.sign_in_action.setEnabled(self.match.can_sign_in())
        ui.actionLeaveReview.setEnabled(self.review.row is not None)
        clock = None if state is None else state.clock
        if clock is None or not clock.started:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Start clock (P)"))
        elif clock.running:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Pause (P)"))
        else:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Resume (P)"))
