"""The match view: the screen a referee keeps open for the whole match.

It shows the replayed state (or, in review mode, the state as of a selected event),
repaints the clock from a monotonic anchor, and opens one dialog per entry. Dialogs
are opened window-modal and non-blocking (``active_dialog``), so the same code path
serves the mouse, the keyboard and the tests.

This module builds the window and wires its parts (tests patch ``BACKUP_EVERY`` here,
which ``DeskFile`` reads at each open). The rest is done by collaborating objects that
own their state: ``MatchController`` (``main_session``: the open match, the committee
member and the one change signal, ``changed``, that every screen follows),
``EntryActions`` (``main_entries``: one dialog per entry, recorded through the undo
stack, and the end announcement), ``MatchDisplay`` (``main_display``: painting; its
parts ``layout``, ``clock`` and ``enabling`` own the sizes, the clock and thinking
timer, and the enabled actions), ``Review`` (``main_review``: the reviewed event, the
violation filter), ``DeskFile`` (``main_files``: the open file, ``files.tf``, opening it
with backups, recovering it, closing it), ``ViolationMenu`` (``violation_menu``: the
offered violations) and ``DeskPreferences`` (``main_settings``: language, settings,
help); ``main_actions`` maps the menus' actions and buttons to them. Each is given what
it needs and none imports this module. Their strings are translated in the
``MainWindow`` context explicitly, since lupdate names the context after the class a
string is written in.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHeaderView,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from referee_desk.rules.ruleset import GUILIN_2009
from referee_desk.rules.seats import PLAY_ORDER, Seat
from referee_desk.store import (
    TournamentFile,
)
from referee_desk.ui.dialogs.bid import hand_start_entries
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.event_model import COLUMNS, EventLogModel, ViolationFilterProxy
from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_actions import connect_actions
from referee_desk.ui.main_display import MatchDisplay
from referee_desk.ui.main_entries import EntryActions
from referee_desk.ui.main_files import DeskFile
from referee_desk.ui.main_review import Review
from referee_desk.ui.main_session import MatchChange, MatchController
from referee_desk.ui.main_settings import DeskPreferences
from referee_desk.ui.messages import open_message
from referee_desk.ui.organizer import OrganizerTabs, OrganizerView, install_organizer
from referee_desk.ui.server_desk import DeskLink, ServerOpening
from referee_desk.ui.session import MatchSession
from referee_desk.ui.settings import DeskSettings
from referee_desk.ui.sync_status import DeskSync
from referee_desk.ui.violation_menu import ViolationMenu

#: Rolling backups: one after every this many events, and one on close (issue 5).
BACKUP_EVERY = 20


class MainWindow(QMainWindow):
    """The window: its form, the event log models, files and dialogs; the rest is done by
    collaborators that own their state (``match``, ``entries``, ``review``, ``display``,
    ``prefs``, ``violations``), the way Anki's ``aqt`` keeps the reviewer apart from the
    main window. The window builds them, gives each what it needs and wires their
    signals; none of them reaches back into it."""

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
        self.active_dialog: QDialog | None = None
        self.last_message = ""
        # Shown after the title: the server address (without password) when on a server.
        self.title_note = ""
        self.organizer: OrganizerView | None = None
        self.organizer_tabs: OrganizerTabs | None = None

        self.ui = ui = Ui_MainWindow()
        ui.setupUi(self)
        self.files = DeskFile(
            self,
            settings,
            backup_every=lambda: BACKUP_EVERY,
            close_match=self._close_match,
            changed=self.file_changed.emit,
            run_dialog=self.run_dialog,
            show_message=self.show_message,
            note=self._note,
            status=self.statusBar().showMessage,
        )
        #: Every entry recorded at this desk (``EntryActions`` pushes, the display reads).
        self.undo_stack = QUndoStack(self)
        self.model = EventLogModel(self)
        self.proxy = ViolationFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        ui.eventView.setModel(self.proxy)
        self.match = MatchController(
            self,
            settings,
            lambda: self.tf,
            self.run_dialog,
            self.show_message,
            status=self.statusBar().showMessage,
            show_match_view=self.show_match_view,
            server_shown=lambda: self.organizer is not None and self.organizer.on_server,
        )
        self.review = Review(
            ui.eventView, self.model, self.proxy, ui.violationsOnlyCheck, self.match
        )
        self.violations = ViolationMenu(self, ui.violationButton, ui.actionKitty)
        self.display = MatchDisplay(
            self,
            ui,
            settings=settings,
            model=self.model,
            match=self.match,
            review=self.review,
            violations=self.violations,
            undo_stack=self.undo_stack,
            monotonic=monotonic,
        )
        self.entries = EntryActions(
            self,
            self.match,
            self.review,
            self.violations,
            self.undo_stack,
            think=self.display.clock.think,
            repaint_clock=self.display.clock.tick,
            run_dialog=self.run_dialog,
            show_message=self.show_message,
            dialog_open=lambda: self.active_dialog is not None,
        )
        self.prefs = DeskPreferences(
            self,
            settings,
            self.languages,
            self.violations,
            run_dialog=self.run_dialog,
            show_message=self.show_message,
            point_size=lambda size: self.display.layout.look.pt(size),
        )
        self.display.layout.setup()
        header = ui.eventView.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("consequence"), QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        ui.eventView.setWordWrap(False)
        self.display.layout.fit_rows()
        ui.eventView.setTextElideMode(Qt.TextElideMode.ElideRight)
        for watched in (self, ui.eventView, ui.violationsOnlyCheck):
            watched.installEventFilter(self)
        ui.menuFile.insertAction(ui.actionExportReport, self.match.sign_in_action)
        connect_actions(
            self,
            ui,
            match=self.match,
            entries=self.entries,
            review=self.review,
            prefs=self.prefs,
            choose_file=self.choose_file,
        )
        # The one change signal of the open match: every screen follows it, in this order.
        self.match.changed.connect(self._show_record)
        self.match.changed.connect(self.review.on_change)
        self.match.changed.connect(self.display.on_change)
        self.match.changed.connect(self.entries.on_change)
        self.match.committee_changed.connect(self.display.enabling.update_enabled)
        self.review.moved.connect(self.display.refresh)
        self.undo_stack.canUndoChanged.connect(lambda _can: self.display.enabling.update_enabled())
        self.prefs.seats_changed.connect(self.display.refresh)
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.display.clock.tick)
        self.timer.start()
        geometry = settings.window_geometry
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = settings.window_state
        if state is not None:
            self.restoreState(state)
        self._fit_to_screen()
        self.retranslate()
        self.display.refresh()
        # The organizer's tab (pairs, draw, bracket, standings, exports) sits beside
        # the match view; it shows live results as the open match changes.
        self.organizer_tabs = install_organizer(self)
        organizer = self.organizer = cast(OrganizerView, self.organizer_tabs.organizer)
        self.match.changed.connect(lambda _change: organizer.results_changed())
        for widget in (*organizer.findChildren(QPushButton), organizer.ui.infoLabel):
            widget.setSizePolicy(QSizePolicy.Policy.Ignored, widget.sizePolicy().verticalPolicy())
        # Ignored widths: the buttons share the row by stretch, else they get none at all.
        buttons = organizer.ui.buttonsLayout
        for index in range(buttons.count()):
            buttons.setStretch(index, 1 if buttons.itemAt(index).widget() is not None else 0)
        # The server sync label and its background pusher: restarted with the file or
        # the server, woken by every change of the open match.
        self.desk_sync = DeskSync(self.statusBar(), settings, lambda: self.tf)
        self.file_changed.connect(self.desk_sync.restart)
        self.prefs.server_changed.connect(self.desk_sync.restart)
        self.match.changed.connect(self.desk_sync.wake)
        # What a server address starts here: a table's desk or the organizer's view of the
        # server's tournament (``ui.server_desk``); closed with the window.
        self.server = ServerOpening(
            DeskLink(
                self,
                self.statusBar(),
                settings,
                current_file=lambda: self.tf,
                open_file=self.files.open_tournament,
                set_title_note=self._set_title_note,
                show_message=self.show_message,
                wake_sync=self.desk_sync.wake,
                offer_match=self._offer_match,
            ),
            organizer,
            self.organizer_tabs,
        )

    # ------------------------------------------------------------------ setup

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        """Keys of disabled entry actions are explained instead of ignored."""
        if event.type() == QEvent.Type.KeyPress and self.active_dialog is None:
            reason = self.display.enabling.explain_key(QKeySequence(event.keyCombination()))
            if reason is not None:
                self.last_message = reason
                self.statusBar().showMessage(reason, 8000)
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

    def _show_record(self, change: MatchChange) -> None:
        """The event log shows the open match's record (another match: its preset's
        violations are offered, issue 12)."""
        session = change.session
        if change.opened:
            self.violations.offer(GUILIN_2009 if session is None else session.state.ruleset)
        if session is not None:
            self.model.set_record(session.events, session.state)
            QTimer.singleShot(0, self.ui.eventView.scrollToBottom)
        else:
            self.model.set_record([], None)

    def show_match_view(self) -> None:
        """Bring the match view to the front (a match key pressed on the organizer's tab)."""
        tabs = self.organizer_tabs
        if tabs is not None and tabs.currentIndex() != 0:
            tabs.setCurrentIndex(0)

    def _set_title_note(self, note: str) -> None:
        self.title_note = note
        self.retranslate()

    def _offer_match(self) -> None:
        """The match chooser, unless a match or a dialog is open already."""
        if self.session is None and self.active_dialog is None:
            self.match.open_match_dialog()

    @property
    def session(self) -> MatchSession | None:
        """The open match (owned by ``match``)."""
        return self.match.session

    @property
    def tf(self) -> TournamentFile | None:
        """The open tournament file (owned by ``files``)."""
        return self.files.tf

    def _close_match(self) -> None:
        """Before the file closes: no match open, no committee member signed in."""
        self.match.set_session(None)
        self.match.committee = None

    def _note(self, text: str) -> None:
        self.last_message = text

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
        self.match.sign_in_action.setText(self.tr("Committee sign-in…"))
        self.violations.retranslate()
        self.model.headerDataChanged.emit(
            Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1
        )
        if self.session is not None:
            self.model.set_record(self.session.events, self.session.state)
        self.display.refresh()

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
            if path and self.files.open_tournament(path, create=False):
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

    def closeEvent(self, event: Any) -> None:
        self.settings.window_geometry = self.saveGeometry()
        self.settings.window_state = self.saveState()
        self.settings.sync()
        self.files.close_tournament()
        self.server.close()
        super().closeEvent(event)


__all__ = ["PLAY_ORDER", "MainWindow", "Seat", "hand_start_entries"]
