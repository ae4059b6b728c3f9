"""The match view: the screen a referee keeps open for the whole match.

It shows the replayed state (or, in review mode, the state as of a selected event),
repaints the clock from a monotonic anchor, and opens one dialog per entry. Dialogs
are opened window-modal and non-blocking (``active_dialog``), so the same code path
serves the mouse, the keyboard and the tests.

This module builds the window and keeps file opening, recovery and backups (tests patch
``BACKUP_EVERY`` here); the rest is mixed in by purpose: ``main_session`` (the open match),
``main_entries`` (entry actions), ``main_display`` (the view, clock and thinking timer),
``main_review`` (review mode, event log filter) and ``main_settings`` (language, settings,
help). The mixins' strings are translated in the ``MainWindow`` context explicitly, since
lupdate names the context after the class a string is written in.
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
from referee_desk.ui import styles
from referee_desk.ui.clock_display import (
    ClockAnchor,
)
from referee_desk.ui.dialogs.bid import hand_start_entries
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.recover import RecoverDialog
from referee_desk.ui.dialogs.violations import VIOLATION_MENU
from referee_desk.ui.event_model import COLUMNS, EventLogModel, ViolationFilterProxy
from referee_desk.ui.fitting import TextFitter
from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_display import MatchDisplayMixin
from referee_desk.ui.main_entries import EntryActionsMixin
from referee_desk.ui.main_review import ReviewMixin
from referee_desk.ui.main_session import MatchSessionMixin
from referee_desk.ui.main_settings import DeskSettingsMixin
from referee_desk.ui.messages import open_message
from referee_desk.ui.organizer import install_organizer
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession
from referee_desk.ui.settings import DeskSettings
from referee_desk.ui.think_timer import ThinkTimer

#: The violation menu keys of committee entries (8.11 ruling, 8.8 decision).
_COMMITTEE_KEYS = ("9", "0")
#: Rolling backups: one after every this many events, and one on close (issue 5).
BACKUP_EVERY = 20


class MainWindow(
    MatchSessionMixin,
    EntryActionsMixin,
    MatchDisplayMixin,
    ReviewMixin,
    DeskSettingsMixin,
    QMainWindow,
):
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
        self._monotonic = monotonic
        self.tf: TournamentFile | None = None
        self.session: MatchSession | None = None
        self.committee: Session | None = None
        self.active_dialog: QDialog | None = None
        self.last_message = ""
        self.review_row: int | None = None
        self._anchor: ClockAnchor | None = None
        self._announced_end: int | None = None
        self._timeout_refreshed: ClockAnchor | None = None
        self.think = ThinkTimer(monotonic)
        self.undo_stack = QUndoStack(self)
        self._can_undo = False

        self.ui = Ui_MainWindow()
        self.ui.setupUi(self)
        self.look = styles.Look()
        self.dealer_labels: tuple[QWidget, ...] = ()
        self._never_grow()
        self._make_fitters()
        self._style_labels()
        self.model = EventLogModel(self)
        self.proxy = ViolationFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.ui.eventView.setModel(self.proxy)
        header = self.ui.eventView.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("consequence"), QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.ui.eventView.setWordWrap(False)
        self._fit_rows()
        self.ui.eventView.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.ui.eventView.selectionModel().currentRowChanged.connect(self._on_row_changed)
        for watched in (self, self.ui.eventView, self.ui.violationsOnlyCheck):
            watched.installEventFilter(self)
        self._build_violation_menu()
        self._style_labels()
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

    # ------------------------------------------------------------------ setup

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        """Keys of disabled entry actions are explained instead of ignored."""
        if event.type() == QEvent.Type.KeyPress and self.active_dialog is None:
            combined = QKeySequence(event.keyCombination())
            if self.explain_key(combined):
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

    def _never_grow(self) -> None:
        """Texts never widen the window (issue 10, item 7): labels and buttons take the
        room the layout gives them (long texts wrap), so only the user resizes it."""
        ui = self.ui
        ignored, preferred = QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        for widget in (
            ui.titleLabel,
            ui.seatTop,
            ui.seatBottom,
            ui.seatLeft,
            ui.seatRight,
            ui.nsLevelLabel,
            ui.ewLevelLabel,
            ui.nsRoleLabel,
            ui.ewRoleLabel,
            ui.nsWarningsLabel,
            ui.ewWarningsLabel,
            ui.handLabel,
            ui.trumpLabel,
            ui.pointsLabel,
            ui.nextHandLabel,
            ui.statusLine,
            ui.reviewBanner,
            ui.eventDetailLabel,
            ui.tableFrame,
            ui.nsGroup,
            ui.ewGroup,
            ui.handGroup,
        ):
            widget.setSizePolicy(ignored, widget.sizePolicy().verticalPolicy())
        for label in (
            ui.nsWarningsLabel,
            ui.ewWarningsLabel,
            ui.handLabel,
            ui.pointsLabel,
            ui.nextHandLabel,
            ui.statusLine,
            ui.eventDetailLabel,
        ):
            label.setWordWrap(True)
        for button in self.findChildren(QPushButton):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setSizePolicy(ignored, preferred)
        header = ui.headerLayout
        header.setStretch(header.indexOf(ui.titleLabel), 1)
        # North and South take the table's whole width; East and West the sides.
        table = ui.tableLayout
        table.addWidget(ui.seatTop, 0, 0, 1, 3)
        table.addWidget(ui.seatBottom, 2, 0, 1, 3)
        for column, stretch in enumerate((2, 1, 2)):
            table.setColumnStretch(column, stretch)
        ui.eventView.setMinimumSize(0, 0)

    def _make_fitters(self) -> None:
        """Levels, seats and entry buttons shrink to their room instead of being cut."""
        ui = self.ui

        def text(widget: Any) -> str:
            return widget.text()

        self.fitters = (
            TextFitter(
                (ui.nsLevelLabel, ui.ewLevelLabel),
                text,
                lambda _w, size: self.look.level_at(size),
                largest=lambda: 50 * self.look.scale,
                smallest=16,
                parent=self,
            ),
            TextFitter(
                (ui.seatTop, ui.seatBottom, ui.seatLeft, ui.seatRight),
                text,
                lambda w, size: self.look.seat_at(size, w in self.dealer_labels),
                largest=lambda: 16 * self.look.scale,
                smallest=9,
                padding=12,
                parent=self,
            ),
            TextFitter(
                tuple(self.findChildren(QPushButton)),
                text,
                lambda _w, size: self.look.button_at(size),
                largest=lambda: 15 * self.look.scale,
                smallest=8,
                padding=18,
                parent=self,
            ),
        )

    def refit(self) -> None:
        for fitter in self.fitters:
            fitter.size = None
            fitter.refit(force=True)

    def _style_labels(self) -> None:
        ui = self.ui
        look = self.look
        self.setStyleSheet(look.base)
        for label in (ui.nsRoleLabel, ui.ewRoleLabel):
            label.setStyleSheet(look.role)
        for label in (ui.nsWarningsLabel, ui.ewWarningsLabel):
            label.setStyleSheet(look.warnings)
        ui.trumpLabel.setStyleSheet(look.trump)
        ui.handLabel.setStyleSheet(look.hand)
        ui.pointsLabel.setStyleSheet(look.info)
        ui.nextHandLabel.setStyleSheet(look.info)
        ui.pausedLabel.setStyleSheet(look.paused)
        ui.reviewBanner.setStyleSheet(look.review_banner)
        ui.statusLine.setStyleSheet(look.status)
        ui.titleLabel.setStyleSheet(look.hand)
        ui.clockCaption.setStyleSheet(look.info)
        ui.tableCenter.setStyleSheet(look.table_center)
        ui.eventDetailLabel.setStyleSheet(look.detail)
        if hasattr(self, "violation_menu"):
            self.violation_menu.setStyleSheet(f"QMenu {{ font-size: {look.pt(15)}; }}")
        self.refit()

    def _fit_rows(self) -> None:
        """Log rows as tall as their text needs (more rows fit on a small screen)."""
        view = self.ui.eventView
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)

    def resizeEvent(self, event: Any) -> None:
        """Scale the desk's sizes to the window the user chose."""
        super().resizeEvent(event)
        look = styles.Look.for_size(self.width(), self.height())
        if look != self.look:
            self.look = look
            self._style_labels()
            self._fit_rows()
            if hasattr(self, "model"):
                self.refresh_view()

    def _connect_actions(self) -> None:
        ui = self.ui
        wiring = {
            ui.actionOpenFile: self.choose_file,
            ui.actionOpenMatch: self.open_match_dialog,
            ui.actionSettings: self.open_settings,
            ui.actionExportReport: self.choose_report_file,
            ui.actionQuit: self.close,
            ui.actionUndo: self.undo_last,
            ui.actionCorrection: self.correct_selected,
            ui.actionBid: self.open_bid,
            ui.actionHandResult: self.open_hand_summary,
            ui.actionTrick: self.open_trick,
            ui.actionViolation: self.show_violation_menu,
            ui.actionThink: self.start_think,
            ui.actionOverrun: self.record_overrun,
            ui.actionPause: self.toggle_pause,
            ui.actionNote: self.add_note,
            ui.actionEndMatch: self.open_match_end,
            ui.actionRotateSeats: self.rotate_seats,
            ui.actionReviewBack: lambda: self.step_review(-1),
            ui.actionReviewForward: lambda: self.step_review(1),
            ui.actionLeaveReview: self.leave_review,
            ui.actionShortcuts: self.show_shortcuts,
            ui.actionAbout: self.show_about,
        }
        for action, slot in wiring.items():
            action.triggered.connect(slot)
            self.addAction(action)
        ui.actionFilterViolations.toggled.connect(self.set_violations_only)
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
        self.undo_stack.canUndoChanged.connect(self._on_can_undo)

    def _on_can_undo(self, can_undo: bool) -> None:
        self._can_undo = can_undo
        self._update_enabled()

    def _build_committee_action(self) -> None:
        """File › Committee sign-in (built here: the form predates it)."""
        self.actionCommitteeSignIn = QAction(self)
        self.actionCommitteeSignIn.setObjectName("actionCommitteeSignIn")
        self.actionCommitteeSignIn.triggered.connect(self.committee_sign_in)
        self.ui.menuFile.insertAction(self.ui.actionExportReport, self.actionCommitteeSignIn)

    def _build_violation_menu(self) -> None:
        self.violation_menu = QMenu(self)
        self.violation_actions: dict[str, QAction] = {}
        for key, dialog_class in VIOLATION_MENU:
            action = self.violation_menu.addAction("")
            action.triggered.connect(lambda _c=False, cls=dialog_class: self.open_violation(cls))
            self.violation_actions[key] = action

    # ------------------------------------------------------------ translation

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.ui.retranslateUi(self)
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.actionCommitteeSignIn.setText(self.tr("Committee sign-in…"))
        for key, dialog_class in VIOLATION_MENU:
            title = dialog_class.title()
            self.violation_actions[key].setText(f"&{key}  {title} ({dialog_class.ARTICLE})")
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
        path, _filter = QFileDialog.getOpenFileName(
            self,
            self.tr("Open tournament file"),
            str(Path.cwd()),
            self.tr("Tournament files (*.sqlite *.db);;All files (*)"),
        )
        if path:
            self.open_tournament(path, create=False)

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
            if not isinstance(dialog, MatchEndDialog):
                self._maybe_announce_end()

        dialog.finished.connect(finished)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.open()
        return dialog

    def closeEvent(self, event: Any) -> None:
        self.settings.window_geometry = self.saveGeometry()
        self.settings.window_state = self.saveState()
        self.settings.sync()
        self.close_tournament()
        super().closeEvent(event)


__all__ = ["PLAY_ORDER", "MainWindow", "Seat", "hand_start_entries"]
