"""The match view: the screen a referee keeps open for the whole match.

It shows the replayed state (or, in review mode, the state as of a selected event),
repaints the clock from a monotonic anchor, and opens one dialog per entry. Dialogs
are opened window-modal and non-blocking (``active_dialog``), so the same code path
serves the mouse, the keyboard and the tests.

This module builds the window and keeps file opening, recovery and backups (tests patch
``BACKUP_EVERY`` here). The rest is done by collaborating objects that own their state:
``MatchController`` (``main_session``: the open match and the committee member),
``EntryActions`` (``main_entries``: one dialog per entry, the undo stack, the end
announcement), ``MatchDisplay`` (``main_display``: painting, sizes, clock and thinking
timer), ``Review`` (``main_review``: the reviewed event, the violation filter) and
``DeskPreferences`` (``main_settings``: language, settings, help). Their strings are
translated in the ``MainWindow`` context explicitly, since lupdate names the context
after the class a string is written in.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from referee_desk.rules.ruleset import GUILIN_2009
from referee_desk.rules.seats import PLAY_ORDER, Seat
from referee_desk.store import (
    DamagedFile,
    NotATournamentFile,
    Session,
    StoreError,
    StoreWriteError,
    TournamentFile,
    backups,
)
from referee_desk.ui.dialogs.bid import hand_start_entries
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.recover import RecoverDialog
from referee_desk.ui.dialogs.violations import VIOLATION_MENU, KittyDialog
from referee_desk.ui.event_model import COLUMNS, EventLogModel, ViolationFilterProxy
from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.log_follow import LogFollower
from referee_desk.ui.main_display import MatchDisplay
from referee_desk.ui.main_entries import EntryActions
from referee_desk.ui.main_review import Review
from referee_desk.ui.main_session import MatchController
from referee_desk.ui.main_settings import DeskPreferences
from referee_desk.ui.messages import open_message
from referee_desk.ui.organizer import install_organizer
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession
from referee_desk.ui.settings import DeskSettings
from referee_desk.ui.sync_status import install_sync_status
from referee_desk.ui.think_timer import ThinkTimer

#: The violation menu keys of committee entries (8.11 ruling, 8.8 decision).
_COMMITTEE_KEYS = ("9", "0")
#: Rolling backups: one after every this many events, and one on close (issue 5).
BACKUP_EVERY = 20


class MainWindow(QMainWindow):
    """The window: its form, the event log models, files and dialogs; the rest is done by
    collaborators that own their state (``match``, ``entries``, ``review``, ``display``,
    ``prefs``), the way Anki's ``aqt`` keeps the reviewer apart from the main window."""

    #: The open tournament file changed (opened, reopened after recovery, or closed).
    file_changed = Signal()

    def __init__(
        self,
        settings: DeskSettings,
        languages: LanguageManager | None = None,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.languages = languages or LanguageManager()
        self.tf: TournamentFile | None = None
        self.active_dialog: QDialog | None = None
        self.last_message = ""
        # Shown after the title: the server address (without password) when on a server.
        self.title_note = ""

        self.ui = Ui_MainWindow()
        self.ui.setupUi(self)
        self.display = MatchDisplay(self, monotonic)
        self.review = Review(self)
        self.match = MatchController(self)
        self.entries = EntryActions(self)
        self.prefs = DeskPreferences(self)
        self.display.setup()
        self.model = EventLogModel(self)
        self.proxy = ViolationFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.ui.eventView.setModel(self.proxy)
        header = self.ui.eventView.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("consequence"), QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.ui.eventView.setWordWrap(False)
        self.display.fit_rows()
        self.ui.eventView.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.ui.eventView.selectionModel().currentRowChanged.connect(self.review.on_row_changed)
        self.log_follower = LogFollower(self.ui.eventView, lambda: self.review.row is not None)
        for watched in (self, self.ui.eventView, self.ui.violationsOnlyCheck):
            watched.installEventFilter(self)
        self._build_violation_menu()
        self.display.style_labels()
        self._build_committee_action()
        self._connect_actions()
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        geometry = settings.window_geometry
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = settings.window_state
        if state is not None:
            self.restoreState(state)
        self._fit_to_screen()
        self.retranslate()
        self.refresh_view()
        # The organizer's tab (pairs, draw, bracket, standings, exports) sits beside
        # the match view.
        install_organizer(self)
        for widget in (*self.organizer.findChildren(QPushButton), self.organizer.ui.infoLabel):
            widget.setSizePolicy(QSizePolicy.Policy.Ignored, widget.sizePolicy().verticalPolicy())
        # Ignored widths: the buttons share the row by stretch, else they get none at all.
        buttons = self.organizer.ui.buttonsLayout
        for index in range(buttons.count()):
            buttons.setStretch(index, 1 if buttons.itemAt(index).widget() is not None else 0)
        install_sync_status(self)  # the server sync label and its background pusher

    # ------------------------------------------------------------------ setup

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        """Keys of disabled entry actions are explained instead of ignored."""
        if event.type() == QEvent.Type.KeyPress and self.active_dialog is None:
            combined = QKeySequence(event.keyCombination())
            if self.display.explain_key(combined):
                return True
        return super().eventFilter(watched, event)

    def _fit_to_screen(self) -> None:
        """Open no larger than the screen (a saved size from a bigger screen, or the
        form's default on a 1024×700 laptop)."""
        screen = self.screen()
        if screen is None:
            return
        room = screen.availableGeometry()
        width, height = min(self.width(), room.width()), min(self.height(), room.height())
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if hasattr(self, "display"):
            self.display.resized(self.width(), self.height())

    def _connect_actions(self) -> None:
        ui = self.ui
        match, entries, review, prefs = self.match, self.entries, self.review, self.prefs
        wiring = {
            ui.actionOpenFile: self.choose_file,
            ui.actionOpenMatch: match.open_match_dialog,
            ui.actionSettings: prefs.open_settings,
            ui.actionExportReport: match.choose_report_file,
            ui.actionQuit: self.close,
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
            self.addAction(action)
        ui.actionFilterViolations.toggled.connect(review.set_violations_only)
        ui.violationsOnlyCheck.toggled.connect(ui.actionFilterViolations.setChecked)
        self.addAction(ui.actionFilterViolations)
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

    def _build_committee_action(self) -> None:
        """File › Committee sign-in (built here: the form predates it)."""
        self.actionCommitteeSignIn = QAction(self)
        self.actionCommitteeSignIn.setObjectName("actionCommitteeSignIn")
        self.actionCommitteeSignIn.triggered.connect(self.match.committee_sign_in)
        self.ui.menuFile.insertAction(self.ui.actionExportReport, self.actionCommitteeSignIn)

    def _build_violation_menu(self) -> None:
        self.violation_menu = QMenu(self)
        #: Every menu entry (key, dialog class, action); a key may serve two presets
        #: (2: 劳改 or 藏张, 3: open bid or failed throw), one of them shown.
        self.violation_entries: list[tuple[str, type, QAction]] = []
        for key, dialog_class in VIOLATION_MENU:
            action = self.violation_menu.addAction("")
            action.triggered.connect(
                lambda _c=False, cls=dialog_class: self.entries.open_violation(cls)
            )
            self.violation_entries.append((key, dialog_class, action))
        self.offer_violations()

    def offer_violations(self) -> None:
        """Show the violations the match's preset has, hide the others (issue 12)."""
        ruleset = GUILIN_2009 if self.session is None else self.session.state.ruleset
        for _key, dialog_class, action in self.violation_entries:
            action.setVisible(dialog_class.offered(ruleset))
        self.ui.actionKitty.setVisible(KittyDialog.offered(ruleset))

    @property
    def violation_actions(self) -> dict[str, QAction]:
        """The violation menu's offered entries by key (1-9, 0)."""
        return {key: action for key, _cls, action in self.violation_entries if action.isVisible()}

    # ------------------------------------------------------------ translation

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.ui.retranslateUi(self)
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(
            self.tr("Referee Desk — %1").replace("%1", self.title_note)
            if self.title_note
            else self.tr("Referee Desk")
        )
        self.actionCommitteeSignIn.setText(self.tr("Committee sign-in…"))
        for key, dialog_class, action in self.violation_entries:
            title = dialog_class.title()
            action.setText(f"&{key}  {title} ({dialog_class.ARTICLE})")
        self.model.headerDataChanged.emit(
            Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1
        )
        if self.session is not None:
            self.model.set_record(self.session.events, self.session.state)
        self.refresh_view()

    # ------------------------------------------------------------ files, recovery, backups

    def show_message(
        self, title: str, text: str, icon: QMessageBox.Icon = QMessageBox.Icon.Warning
    ) -> QMessageBox:
        """A non-blocking message box; the text is kept in ``last_message``."""
        self.last_message = text
        self.message_box = open_message(self, title, text, icon)
        return self.message_box

    def choose_file(self) -> None:
        """Ctrl+O: open another file, then offer its match in progress in the match view
        (as a start with FILE does), not the Tournament tab (issue 19, item 10)."""
        self.show_match_view()

        def choose() -> None:
            path, _filter = QFileDialog.getOpenFileName(
                self,
                self.tr("Open tournament file"),
                str(Path.cwd()),
                self.tr("Tournament files (*.sqlite *.db);;All files (*)"),
            )
            if path and self.open_tournament(path, create=False):
                self.show_match_view()
                self.match.open_match_dialog()

        self.ask_before_closing_match(choose)

    def ask_before_closing_match(self, proceed: Callable[[], None]) -> QMessageBox | None:
        """Run ``proceed`` (which closes the open match) at once when no match is open,
        else only after the referee confirms; returns the question asked, if any."""
        if self.session is None:
            proceed()
            return None
        self.last_message = self.tr(
            "This closes the match in progress (everything recorded is kept). Continue?"
        )
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Close the match?"),
            self.last_message,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def done(button: Any) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                proceed()

        box.buttonClicked.connect(done)
        self.message_box = box
        box.open()
        return box

    def open_tournament(self, path: str | Path, *, create: bool = True) -> bool:
        """Open a tournament file; on failure a message explains and the desk stays as it was.

        A damaged file with backups opens the recovery dialog instead (``offer_backups``).
        Files are opened with rolling backups (every ``BACKUP_EVERY`` events and on close).
        """
        try:
            tf = TournamentFile.open(path, create=create, backup_every=BACKUP_EVERY)
        except (StoreError, StoreWriteError, OSError) as error:
            if isinstance(error, DamagedFile | NotATournamentFile) and backups(path):
                self.offer_backups(Path(path), str(error))
                return False
            self.show_message(
                self.tr("Cannot open the file"),
                self.tr("The file %1 cannot be opened:\n%2")
                .replace("%1", str(path))
                .replace("%2", refusal_message(error)),
            )
            return False
        self.close_tournament()
        self.tf = tf
        self.file_changed.emit()
        self.settings.last_file = str(path)
        note = str(path)
        if tf.read_only:
            note = self.tr("%1 (read-only: nothing can be recorded)").replace("%1", str(path))
        self.statusBar().showMessage(note)
        return True

    def offer_backups(self, path: Path, damage: str) -> QDialog:
        """Name the damage and offer the newest backups; restoring reopens the file."""
        dialog = RecoverDialog(path, damage, backups(path), self)
        self.last_message = damage

        def done(result: int) -> None:
            if result != QDialog.DialogCode.Accepted or dialog.restored is None:
                return
            if self.open_tournament(path, create=False):
                self.show_message(
                    self.tr("Backup restored"),
                    self.tr(
                        "%1 was restored from the backup of %2. The damaged file is kept as %3."
                    )
                    .replace("%1", str(path))
                    .replace("%2", dialog.restored.made_at)
                    .replace("%3", str(dialog.aside)),
                    QMessageBox.Icon.Information,
                )

        return self.run_dialog(dialog, done)

    def close_tournament(self) -> None:
        self.set_session(None)
        self.committee = None
        if self.tf is not None:
            self.tf.close()
            self.tf = None
            self.file_changed.emit()

    # ------------------------------------------------------------ dialogs

    def run_dialog(self, dialog: QDialog, on_done: Callable[[int], None] | None = None) -> QDialog:
        """Open window-modal without blocking; ``active_dialog`` is it until it closes."""
        self.active_dialog = dialog

        def finished(result: int) -> None:
            if self.active_dialog is dialog:
                self.active_dialog = None
            if on_done is not None:
                on_done(result)
            dialog.deleteLater()
            if self.active_dialog is None:
                # The keys go back to the desk (B, R, T …) even where no window manager
                # returns the focus (seen on Xvfb: the first B after a dialog was lost).
                self.activateWindow()
            if not isinstance(dialog, MatchEndDialog):
                self.entries.maybe_announce_end()

        dialog.finished.connect(finished)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        screen = self.screen()
        if screen is not None:  # never larger than the screen (1024×700 laptops)
            room = screen.availableGeometry()
            dialog.resize(min(dialog.width(), room.width()), min(dialog.height(), room.height()))
        dialog.open()
        return dialog

    # ------------------------------------------------------------ the collaborators' faces
    # The window's public surface (organizer, app and tests use it) delegates to the
    # object that owns the state.

    @property
    def session(self) -> MatchSession | None:
        return self.match.session

    @property
    def committee(self) -> Session | None:
        return self.match.committee

    @committee.setter
    def committee(self, value: Session | None) -> None:
        self.match.committee = value

    @property
    def review_row(self) -> int | None:
        return self.review.row

    @property
    def undo_stack(self) -> QUndoStack:
        return self.entries.undo_stack

    @property
    def think(self) -> ThinkTimer:
        return self.display.think

    def open_match(self, match_id: str, referee: str, signed_in: Any = None) -> MatchSession:
        return self.match.open_match(match_id, referee, signed_in)

    def open_match_dialog(self) -> None:
        self.match.open_match_dialog()

    def set_session(self, session: MatchSession | None) -> None:
        self.match.set_session(session)

    def committee_sign_in(self) -> QDialog | None:
        return self.match.committee_sign_in()

    def export_report(self, path: str | Path) -> bool:
        return self.match.export_report(path)

    def push_entry(self, events: list[Any], text: str) -> None:
        self.entries.push_entry(events, text)

    def open_violation(self, dialog_class: type) -> QDialog | None:
        return self.entries.open_violation(dialog_class)

    def show_match_view(self) -> None:
        self.entries.show_match_view()

    def refresh_view(self) -> None:
        self.display.refresh()

    def tick(self) -> None:
        self.display.tick()

    def step_review(self, delta: int) -> None:
        self.review.step(delta)

    def leave_review(self) -> None:
        self.review.leave()

    def set_violations_only(self, enabled: bool) -> None:
        self.review.set_violations_only(enabled)

    def set_language(self, language: str) -> None:
        self.prefs.set_language(language)

    def shortcut_lines(self) -> list[str]:
        return self.prefs.shortcut_lines()

    def closeEvent(self, event: Any) -> None:
        self.settings.window_geometry = self.saveGeometry()
        self.settings.window_state = self.saveState()
        self.settings.sync()
        self.close_tournament()
        server = getattr(self, "organizer_server", None)  # ui.organizer.on_server
        if server is not None:
            server.close()
        super().closeEvent(event)


__all__ = ["PLAY_ORDER", "MainWindow", "Seat", "hand_start_entries"]
