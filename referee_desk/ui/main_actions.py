"""The desk window's keyboard and menu map: which part each action and button triggers.

One place to read what B, R, T, V, Ctrl+Z … do: each action of the form triggers a
method of the part that owns it (the file, the open match, the entries, the review,
the preferences) and is added to the window so its shortcut works on every tab; each
entry button triggers its action, so both are enabled together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
    from referee_desk.ui.main_entries import EntryActions
    from referee_desk.ui.main_review import Review
    from referee_desk.ui.main_session import MatchController
    from referee_desk.ui.main_settings import DeskPreferences


def connect_actions(
    window: QMainWindow,
    ui: Ui_MainWindow,
    *,
    match: MatchController,
    entries: EntryActions,
    review: Review,
    prefs: DeskPreferences,
    choose_file: Callable[[], None],
) -> None:
    """Connect the form's actions and entry buttons to the parts that carry them out."""
    wiring = {
        ui.actionOpenFile: choose_file,
        ui.actionOpenMatch: match.open_match_dialog,
        ui.actionSettings: prefs.open_settings,
        ui.actionExportReport: match.choose_report_file,
        ui.actionQuit: window.close,
        ui.actionUndo: entries.undo_last,
        ui.actionCorrection: entries.correct_selected,
        ui.actionBid: entries.open_bid,
        ui.actionHandResult: entries.open_hand_summary,
        ui.actionTrick: entries.open_trick,
        ui.actionKitty: entries.open_kitty,
        ui.actionViolation: entries.show_violation_menu,
        ui.actionThink: entries.start_think,
        ui.actionOverrun: entries.record_overrun,
        ui.actionPause: entries.toggle_pause,
        ui.actionNote: entries.add_note,
        ui.actionEndMatch: entries.open_match_end,
        ui.actionRotateSeats: prefs.rotate_seats,
        ui.actionReviewBack: lambda: review.step(-1),
        ui.actionReviewForward: lambda: review.step(1),
        ui.actionLeaveReview: review.leave,
        ui.actionShortcuts: prefs.show_shortcuts,
        ui.actionAbout: prefs.show_about,
    }
    for action, slot in wiring.items():
        action.triggered.connect(slot)
        window.addAction(action)
    ui.actionFilterViolations.toggled.connect(review.set_violations_only)
    ui.violationsOnlyCheck.toggled.connect(ui.actionFilterViolations.setChecked)
    window.addAction(ui.actionFilterViolations)
    buttons = {
        ui.bidButton: ui.actionBid,
        ui.resultButton: ui.actionHandResult,
        ui.trickButton: ui.actionTrick,
        ui.violationButton: ui.actionViolation,
        ui.thinkButton: ui.actionThink,
        ui.overrunButton: ui.actionOverrun,
        ui.pauseButton: ui.actionPause,
    }
    for button, action in buttons.items():
        button.clicked.connect(action.trigger)
