"""The match view: the screen a referee keeps open for the whole match.

It shows the replayed state (or, in review mode, the state as of a selected event),
repaints the clock from a monotonic anchor, and opens one dialog per entry. Dialogs
are opened window-modal and non-blocking (``active_dialog``), so the same code path
serves the mouse, the keyboard and the tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QWidget,
)

from referee_desk.rules.seats import PLAY_ORDER, Seat, Side
from referee_desk.store import (
    DamagedFile,
    NotATournamentFile,
    Session,
    StoreError,
    StoreWriteError,
    TournamentFile,
    backups,
)
from referee_desk.ui import match_view, styles, texts
from referee_desk.ui.clock_display import (
    ClockAnchor,
    anchor_from,
    colour_for,
    format_ms,
    remaining_ms,
)
from referee_desk.ui.dialogs.bid import BidDialog, hand_start_entries
from referee_desk.ui.dialogs.committee_sign_in import CommitteeSignInDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.recover import RecoverDialog
from referee_desk.ui.dialogs.settings_dialog import SettingsDialog
from referee_desk.ui.dialogs.trick import TrickDialog
from referee_desk.ui.dialogs.violations import VIOLATION_MENU, OverrunDialog
from referee_desk.ui.event_model import COLUMNS, EventLogModel, ViolationFilterProxy, local_time
from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.messages import open_message
from referee_desk.ui.organizer import install_organizer
from referee_desk.ui.record import StoreMatchRecord
from referee_desk.ui.session import MatchSession
from referee_desk.ui.settings import DeskSettings
from referee_desk.ui.think_timer import ThinkTimer
from referee_desk.ui.undo import RecordedEntry

#: Entry actions that stay available once the match is locked: notes (the store refuses
#: anything else but committee rulings, issue 4/5) and the end announcement.
_AFTER_END = ("actionNote", "actionEndMatch")
#: The violation menu keys of committee entries (8.11 ruling, 8.8 decision).
_COMMITTEE_KEYS = ("9", "0")
#: Rolling backups: one after every this many events, and one on close (issue 5).
BACKUP_EVERY = 20
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


class MainWindow(QMainWindow):
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
        self.setStyleSheet(styles.BASE_STYLE)
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
        self.ui.eventView.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.ui.eventView.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self._build_violation_menu()
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
        self.retranslate()
        self.refresh_view()
        # The organizer's tab (pairs, draw, bracket, standings, exports) sits beside
        # the match view.
        install_organizer(self)

    # ------------------------------------------------------------------ setup

    def _style_labels(self) -> None:
        ui = self.ui
        for label in (ui.nsLevelLabel, ui.ewLevelLabel):
            label.setStyleSheet(styles.LEVEL_STYLE)
        for label in (ui.nsRoleLabel, ui.ewRoleLabel):
            label.setStyleSheet(styles.ROLE_STYLE)
        for label in (ui.nsWarningsLabel, ui.ewWarningsLabel):
            label.setStyleSheet(styles.WARNINGS_STYLE)
        ui.trumpLabel.setStyleSheet(styles.TRUMP_STYLE)
        ui.handLabel.setStyleSheet(styles.HAND_STYLE)
        ui.pointsLabel.setStyleSheet(styles.INFO_STYLE)
        ui.nextHandLabel.setStyleSheet(styles.INFO_STYLE)
        ui.pausedLabel.setStyleSheet(styles.PAUSED_STYLE)
        ui.reviewBanner.setStyleSheet(styles.REVIEW_BANNER_STYLE)
        ui.statusLine.setStyleSheet(styles.STATUS_STYLE)
        ui.titleLabel.setStyleSheet(styles.HAND_STYLE)
        ui.clockCaption.setStyleSheet(styles.INFO_STYLE)
        ui.tableCenter.setStyleSheet("font-size: 28pt; color: #9e9e9e;")
        for button in self.findChildren(QPushButton):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)

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

    def set_language(self, language: str) -> None:
        """Switch the interface language now (no restart) and remember it."""
        self.settings.language = language
        self.languages.apply(language)

    # ------------------------------------------------------------ files, match

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
                .replace("%2", str(error)),
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

    def open_match(self, match_id: str, referee: str, signed_in: Any = None) -> MatchSession:
        assert self.tf is not None
        session = MatchSession(StoreMatchRecord(self.tf, match_id, signed_in), referee)
        self.set_session(session)
        return session

    def open_match_dialog(self) -> None:
        if self.tf is None:
            self.show_message(self.tr("No file"), self.tr("Open a tournament file first."))
            return
        dialog = OpenMatchDialog(self.tf, self.settings.referee_name, self)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.record is not None:
                self.settings.referee_name = dialog.referee
                self.set_session(MatchSession(dialog.record, dialog.referee))

        self.run_dialog(dialog, done)

    def set_session(self, session: MatchSession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self._on_changed)
        self.session = session
        if session is not None and isinstance(session.record, StoreMatchRecord):
            session.record.committee = self.committee
        self.undo_stack.clear()
        self.review_row = None
        self._announced_end = None
        if session is not None:
            session.changed.connect(self._on_changed)
            if session.state.end is not None and session.state.end.recorded:
                self._announced_end = session.state.end.seq
        self._on_changed()

    def _on_changed(self) -> None:
        if self.session is not None:
            self.model.set_record(self.session.events, self.session.state)
            QTimer.singleShot(0, self.ui.eventView.scrollToBottom)
            state = self.session.state
            read_at = self.session.now()
            if state.end is not None and state.end.recorded and state.last_recorded_at:
                # The match is over: the clock shows what was left when it ended.
                read_at = datetime.fromisoformat(state.last_recorded_at.replace("Z", "+00:00"))
            self._anchor = anchor_from(state.clock, read_at, self._monotonic)
            if state.end is not None and state.end.recorded:
                self._anchor = replace(self._anchor, running=False)
        else:
            self.model.set_record([], None)
            self._anchor = None
        self.review_row = None
        self.refresh_view()
        self._maybe_announce_end()

    # ------------------------------------------------------------ the view

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
        for position, seat in positions.items():
            label = labels[position]
            label.setText(match_view.seat_text(state, seat) if state else texts.seat_name(seat))
            dealer = hand is not None and hand.dealer is not None and str(hand.dealer) == seat.value
            label.setStyleSheet(styles.DEALER_SEAT_STYLE if dealer else styles.SEAT_STYLE)
        ui.tableCenter.setText("↺")
        referee = "" if self.session is None else self.session.referee
        ui.titleLabel.setText(
            match_view.title_text(state, referee) if state else self.tr("No match open (Ctrl+M)")
        )
        for side, level_label, role_label, warn_label, group in (
            (Side.NS, ui.nsLevelLabel, ui.nsRoleLabel, ui.nsWarningsLabel, ui.nsGroup),
            (Side.EW, ui.ewLevelLabel, ui.ewRoleLabel, ui.ewWarningsLabel, ui.ewGroup),
        ):
            level = None if state is None else match_view._get(state.levels, side.value)
            level_label.setText(
                self.tr("Level %1").replace("%1", texts.level_label(level)) if state else "—"
            )
            role_label.setText(match_view.side_role(state, side) if state else "")
            warn_label.setText(match_view.side_warnings(state, side) if state else "")
            pair = (
                ""
                if state is None or state.info is None
                else match_view._get(state.info.pairs, side.value)
            )
            group.setTitle(f"{texts.side_name(side)} {pair or ''}".strip())
        ui.handLabel.setText(match_view.hand_text(state) if state else "")
        ui.trumpLabel.setText(match_view.trump_text(state) if state else "")
        ui.pointsLabel.setText(match_view.points_text(state) if state else "")
        ui.nextHandLabel.setText(match_view.next_hand_text(state) if state else "")
        ui.statusLine.setText(match_view.end_text(state) if state else "")
        if self.review_row is not None and self.session is not None:
            event = self.session.events[self.review_row]
            ui.reviewBanner.setText(
                self.tr("Review %1 (event %2) — ←/→ to step, Esc to leave")
                .replace("%1", local_time(event.recorded_at))
                .replace("%2", str(event.seq))
            )
            ui.reviewBanner.show()
        else:
            ui.reviewBanner.hide()
        self._update_enabled()
        self.tick()

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
            ui.pauseButton.setText(self.tr("Start clock (P)"))
        elif clock.running:
            ui.pauseButton.setText(self.tr("Pause (P)"))
        else:
            ui.pauseButton.setText(self.tr("Resume (P)"))

    def tick(self) -> None:
        """Repaint the clock and the thinking timer (computed, never counted)."""
        ui = self.ui
        now = self._monotonic()
        if self.review_row is not None and self.session is not None:
            event = self.session.events[self.review_row]
            limit = self.session.state.clock.limit_ms
            left = limit - (event.clock_ms or 0)
            ui.clockLabel.setText(format_ms(left))
            ui.clockLabel.setStyleSheet(styles.clock_style(colour_for(left), True))
            ui.pausedLabel.hide()
        elif self._anchor is None:
            ui.clockLabel.setText("—")
            ui.pausedLabel.hide()
        else:
            left = remaining_ms(self._anchor, now)
            paused = self._anchor.started and not self._anchor.running
            ui.clockLabel.setText(format_ms(left))
            ui.clockLabel.setStyleSheet(styles.clock_style(colour_for(left), paused))
            ended = (
                self.session is not None
                and self.session.state.end is not None
                and (self.session.state.end.recorded)
            )
            ui.pausedLabel.setVisible(paused or not self._anchor.started)
            if ended:
                ui.pausedLabel.setText(self.tr("MATCH OVER"))
            elif not self._anchor.started:
                ui.pausedLabel.setText(self.tr("NOT STARTED"))
            elif paused:
                reason = self._anchor.paused_reason or ""
                ui.pausedLabel.setText(self.tr("PAUSED %1").replace("%1", reason).strip())
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
                ui.thinkLabel.setText(self.tr("Think %1 s").replace("%1", f"{remaining:.1f}"))
                ui.thinkLabel.setStyleSheet(styles.THINK_STYLE)
            else:
                ui.thinkLabel.setText(
                    self.tr("Over by %1 s (O records)").replace("%1", str(self.think.overrun_s()))
                )
                ui.thinkLabel.setStyleSheet(styles.THINK_OVER_STYLE)
        else:
            ui.thinkLabel.setText("")

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

    def _entry_dialog(self, dialog: Any) -> QDialog:
        def done(_result: int) -> None:
            if dialog.recorded:
                self.push_entry(dialog.recorded, dialog.windowTitle())

        return self.run_dialog(dialog, done)

    def push_entry(self, events: list[Any], text: str) -> None:
        assert self.session is not None
        self.undo_stack.push(RecordedEntry(self.session, events, text))
        self._update_enabled()

    def _need_session(self) -> MatchSession | None:
        if self.session is None:
            self.show_message(self.tr("No match"), self.tr("Open or start a match first (Ctrl+M)."))
        return self.session

    def open_bid(self) -> None:
        if (session := self._need_session()) is not None:
            self._entry_dialog(BidDialog(session, self))

    def open_hand_summary(self) -> None:
        if (session := self._need_session()) is not None:
            self._entry_dialog(HandSummaryDialog(session, self))

    def open_trick(self) -> None:
        if (session := self._need_session()) is not None:
            self._entry_dialog(TrickDialog(session, self))

    def open_violation(self, dialog_class: type) -> QDialog | None:
        if (session := self._need_session()) is None:
            return None
        return self._entry_dialog(dialog_class(session, self))

    def show_violation_menu(self) -> None:
        if self._need_session() is None:
            return
        button = self.ui.violationButton
        self.violation_menu.popup(button.mapToGlobal(button.rect().bottomLeft()))

    def open_match_end(self) -> None:
        if (session := self._need_session()) is not None:
            self._entry_dialog(MatchEndDialog(session, self))

    def _maybe_announce_end(self) -> None:
        """A newly derived end opens the announcement for the referee to confirm."""
        state = None if self.session is None else self.session.state
        if state is None or state.end is None or state.end.recorded:
            return
        if self._announced_end == state.end.seq or self.active_dialog is not None:
            return
        self._announced_end = state.end.seq
        QTimer.singleShot(0, self.open_match_end)

    def committee_sign_in(self) -> QDialog | None:
        """A committee member signs in here; their rulings are recorded as them."""
        if self.tf is None:
            self.show_message(self.tr("No file"), self.tr("Open a tournament file first."))
            return None
        dialog = CommitteeSignInDialog(self.tf, self)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.session is not None:
                self.committee = dialog.session
                if self.session is not None and isinstance(self.session.record, StoreMatchRecord):
                    self.session.record.committee = dialog.session
                self.statusBar().showMessage(
                    self.tr("Committee: %1 signed in").replace("%1", dialog.session.name)
                )
                self._update_enabled()

        return self.run_dialog(dialog, done)

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.settings.bottom_seat = dialog.bottom_seat
                if dialog.language != self.languages.current:
                    self.set_language(dialog.language)
                self.refresh_view()

        self.run_dialog(dialog, done)

    # ------------------------------------------------------------ clock, think

    def toggle_pause(self) -> None:
        session = self._need_session()
        if session is None:
            return
        clock = session.state.clock
        if not clock.started:
            self._submit_simple([("clock_started", {})], self.tr("Clock started"))
        elif clock.running:
            dialog = ReasonDialog(
                self.tr("Pause the clock"),
                self.tr("Why is the clock paused?"),
                [self.tr("ruling"), self.tr("dispute"), self.tr("break")],
                self,
                submit=lambda reason: self._record(
                    [("clock_paused", {"reason": reason})], self.tr("Clock paused")
                ),
            )
            self.run_dialog(dialog)
        else:
            self._submit_simple([("clock_resumed", {})], self.tr("Clock resumed"))

    def _record(self, entries: list[tuple[str, dict[str, Any]]], text: str) -> None:
        """Record from a dialog that keeps its entry on refusal (raises the refusal)."""
        assert self.session is not None
        self.push_entry(self.session.submit_many(entries), text)

    def _submit_simple(self, entries: list[tuple[str, dict[str, Any]]], text: str) -> bool:
        assert self.session is not None
        try:
            events = self.session.submit_many(entries)
        except (ValueError, OSError) as error:
            self.show_message(self.tr("Refused"), str(error))
            return False
        self.push_entry(events, text)
        return True

    def start_think(self) -> None:
        if (session := self._need_session()) is not None:
            self.think.start(session.state.ruleset.think_seconds)
            self.tick()

    def record_overrun(self) -> None:
        session = self._need_session()
        if session is None:
            return
        dialog = self.open_violation(OverrunDialog)
        if dialog is not None and self.think.running:
            dialog.ui.secondsSpin.setValue(self.think.elapsed_s())
        self.think.stop()

    def add_note(self) -> None:
        if self._need_session() is None:
            return
        about = self.selected_seq()

        def submit(text: str) -> None:
            payload: dict[str, Any] = {"text": text}
            if about is not None:
                payload["about_seq"] = about
            self._record([("note", payload)], self.tr("Note"))

        dialog = ReasonDialog(
            self.tr("Note"), self.tr("Note for the record:"), [], self, submit=submit
        )
        self.run_dialog(dialog)

    # ------------------------------------------------------------ undo, correction

    def undo_last(self) -> None:
        if self._need_session() is None or not self.undo_stack.canUndo():
            return
        command = self.undo_stack.command(self.undo_stack.index() - 1)
        dialog = ReasonDialog(
            self.tr("Undo last entry"),
            self.tr("Undo “%1”: a correction is recorded (nothing is deleted). Reason:").replace(
                "%1", command.text()
            ),
            [self.tr("entered by mistake")],
            self,
            default=self.tr("entered by mistake"),
        )

        def done(result: int) -> None:
            if result != QDialog.DialogCode.Accepted:
                return
            command.reason = dialog.reason
            self.undo_stack.undo()
            if command.error is not None:
                self.undo_stack.redo()
                self.show_message(self.tr("Refused"), str(command.error))

        self.run_dialog(dialog, done)

    def selected_seq(self) -> int | None:
        index = self.ui.eventView.currentIndex()
        if not index.isValid():
            return None
        return self.model.event_at(self.proxy.mapToSource(index).row()).seq

    def correct_selected(self) -> None:
        session = self._need_session()
        if session is None:
            return
        seq = self.selected_seq() or (session.events[-1].seq if session.events else None)
        if seq is None:
            return
        event = session.events[seq - 1]
        dialog = ReasonDialog(
            self.tr("Correction"),
            self.tr("Void event %1 (%2). Reason (required):")
            .replace("%1", str(seq))
            .replace("%2", texts.event_kind_name(event.type)),
            [],
            self,
            submit=lambda reason: self._record(
                [("correction", {"target_seq": seq, "action": "void", "reason": reason})],
                self.tr("Correction"),
            ),
        )

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.leave_review()

        self.run_dialog(dialog, done)

    # ------------------------------------------------------------ review mode

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.session is None or not current.isValid():
            return
        row = self.proxy.mapToSource(current).row()
        self.review_row = None if row == len(self.session.events) - 1 else row
        self.refresh_view()

    def step_review(self, delta: int) -> None:
        if self.session is None or not self.session.events:
            return
        last = len(self.session.events) - 1
        row = last if self.review_row is None else self.review_row
        row = max(0, min(last, row + delta))
        source = self.model.index(row, 0)
        proxy_index = self.proxy.mapFromSource(source)
        if proxy_index.isValid():
            self.ui.eventView.selectionModel().setCurrentIndex(
                proxy_index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        self.review_row = None if row == last else row
        self.refresh_view()

    def leave_review(self) -> None:
        self.ui.eventView.clearSelection()
        self.ui.eventView.setCurrentIndex(QModelIndex())
        self.review_row = None
        self.refresh_view()

    def set_violations_only(self, enabled: bool) -> None:
        self.ui.violationsOnlyCheck.setChecked(enabled)
        self.proxy.set_only_violations(enabled)

    # ------------------------------------------------------------ report

    def choose_report_file(self) -> None:
        if (session := self._need_session()) is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Export match report"), f"{session.match_id}.pdf", "PDF (*.pdf)"
        )
        if path:
            self.export_report(path)

    def export_report(self, path: str | Path) -> bool:
        """Write the match report PDF of the open match (exports layer)."""
        from referee_desk.exports.pdf_match_report import export_match_report_pdf

        assert self.session is not None and self.tf is not None
        seal = self.tf.seal(self.session.match_id)
        try:
            export_match_report_pdf(
                self.session.events, path, seal_hash=seal.head_hash if seal else None
            )
        except (ValueError, OSError) as error:
            self.show_message(self.tr("Export failed"), str(error))
            return False
        self.statusBar().showMessage(self.tr("Match report written: %1").replace("%1", str(path)))
        return True

    # ------------------------------------------------------------ misc

    def rotate_seats(self) -> None:
        """Turn the diagram a quarter so the referee's nearest seat is at the bottom."""
        self.settings.bottom_seat = self.settings.bottom_seat.next_in_play
        self.refresh_view()

    def shortcut_lines(self) -> list[str]:
        actions = [a for a in self.actions() if not a.shortcut().isEmpty()]
        return [f"{a.shortcut().toString()}\t{a.text().replace('&', '')}" for a in actions]

    def show_shortcuts(self) -> None:
        lines = self.shortcut_lines()
        lines += [
            f"{key}\t{a.text().replace('&', '')}" for key, a in self.violation_actions.items()
        ]
        self.show_message(
            self.tr("Keyboard shortcuts"), "\n".join(lines), QMessageBox.Icon.Information
        )

    def show_about(self) -> None:
        self.show_message(
            self.tr("About Referee Desk"),
            self.tr("Referee Desk: the referee's desk for Guilin four-deck Tractor tournaments."),
            QMessageBox.Icon.Information,
        )

    def closeEvent(self, event: Any) -> None:
        self.settings.window_geometry = self.saveGeometry()
        self.settings.window_state = self.saveState()
        self.settings.sync()
        self.close_tournament()
        super().closeEvent(event)


__all__ = ["PLAY_ORDER", "MainWindow", "Seat", "hand_start_entries"]
