"""The open match: opening or starting it, following its session, the committee sign-in
and the match report.

``MatchController`` owns the window's ``session`` (the open match) and ``committee``
(the committee member signed in at this desk), and announces every change of the open
match on one signal, ``changed`` (a ``MatchChange``): the screens subscribe to it, as
Anki's operations return a change record. It is given what it needs (the widget its
dialogs open over, the settings, the open file, the window's dialog runner and message
box); it never reaches back into the window. Strings keep the ``MainWindow``
translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from referee_desk.ui.dialogs.committee_sign_in import CommitteeSignInDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.record import StoreMatchRecord
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession
from referee_desk.ui.settings import DeskSettings

if TYPE_CHECKING:
    from referee_desk.store import Session, TournamentFile

#: Opens a dialog window-modal without blocking; the callback gets its result.
RunDialog = Callable[[QDialog, Callable[[int], None] | None], QDialog]
#: Shows a non-blocking message (title, text, icon).
ShowMessage = Callable[..., QMessageBox]


@dataclass(frozen=True, slots=True)
class MatchChange:
    """What changed in the open match: ``opened`` when another match (or none) is open
    now, else its record or state changed (an entry, an undo, a reload, the time-out)."""

    session: MatchSession | None
    opened: bool


class MatchController(QObject):
    """Which match the window shows and who may record in it."""

    changed = Signal(object)
    """(MatchChange) the one change signal of the open match"""
    committee_changed = Signal()
    """a committee member signed in (or left) at this desk"""

    def __init__(
        self,
        parent: QWidget,
        settings: DeskSettings,
        file: Callable[[], TournamentFile | None],
        run_dialog: RunDialog,
        show_message: ShowMessage,
        *,
        status: Callable[[str], None],
        show_match_view: Callable[[], None],
        server_shown: Callable[[], bool],
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.settings = settings
        self.file = file
        self.run_dialog = run_dialog
        self.show_message = show_message
        self.status = status
        self.show_match_view = show_match_view
        self.server_shown = server_shown
        self.session: MatchSession | None = None
        self._committee: Session | None = None
        #: File › Committee sign-in (built here: the form predates it).
        self.sign_in_action = QAction(parent)
        self.sign_in_action.setObjectName("actionCommitteeSignIn")
        self.sign_in_action.triggered.connect(self.committee_sign_in)

    @property
    def committee(self) -> Session | None:
        return self._committee

    @committee.setter
    def committee(self, value: Session | None) -> None:
        self._committee = value
        self.committee_changed.emit()

    def can_sign_in(self) -> bool:
        """A committee member can sign in where the open file can be written."""
        tf = self.file()
        return tf is not None and not tf.read_only

    def open_match(self, match_id: str, referee: str, signed_in: Any = None) -> MatchSession:
        tf = self.file()
        assert tf is not None
        session = MatchSession(StoreMatchRecord(tf, match_id, signed_in), referee)
        self.set_session(session)
        return session

    def _need_file(self) -> TournamentFile | None:
        tf = self.file()
        if tf is None and self.server_shown():
            self.show_message(
                QCoreApplication.translate("MainWindow", "The tournament on the server"),
                QCoreApplication.translate(
                    "MainWindow",
                    "This window shows the tournament on the server (the organizer's "
                    "address): matches are recorded at the tables' desks, each opened "
                    "with its table's address. Open a file (File ▸ Open) to record here.",
                ),
            )
        elif tf is None:
            self.show_message(
                QCoreApplication.translate("MainWindow", "No file"),
                QCoreApplication.translate("MainWindow", "Open a tournament file first."),
            )
        return tf

    def need_session(self) -> MatchSession | None:
        """The open match, in view; without one, a message says to open one."""
        self.show_match_view()
        if self.session is None:
            self.show_message(
                QCoreApplication.translate("MainWindow", "No match"),
                QCoreApplication.translate("MainWindow", "Open or start a match first (Ctrl+M)."),
            )
        return self.session

    def open_match_dialog(self) -> None:
        self.show_match_view()
        if (tf := self._need_file()) is None:
            return
        dialog = OpenMatchDialog(tf, self.settings.referee_name, self.parent_widget)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.record is not None:
                self.settings.referee_name = dialog.referee
                self.set_session(MatchSession(dialog.record, dialog.referee))

        self.run_dialog(dialog, done)

    def set_session(self, session: MatchSession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self._record_changed)
        self.session = session
        if session is not None and isinstance(session.record, StoreMatchRecord):
            session.record.committee = self.committee
        if session is not None:
            session.changed.connect(self._record_changed)
        self.changed.emit(MatchChange(session, opened=True))

    def _record_changed(self) -> None:
        """The record changed (an entry, an undo, a reload): one change for every screen."""
        self.changed.emit(MatchChange(self.session, opened=False))

    def committee_sign_in(self) -> QDialog | None:
        """A committee member signs in here; their rulings are recorded as them."""
        if (tf := self._need_file()) is None:
            return None
        dialog = CommitteeSignInDialog(tf, self.parent_widget)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.session is not None:
                if self.session is not None and isinstance(self.session.record, StoreMatchRecord):
                    self.session.record.committee = dialog.session
                self.status(
                    QCoreApplication.translate("MainWindow", "Committee: %1 signed in").replace(
                        "%1", dialog.session.name
                    )
                )
                self.committee = dialog.session

        return self.run_dialog(dialog, done)

    def choose_report_file(self) -> None:
        if (session := self.need_session()) is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self.parent_widget,
            QCoreApplication.translate("MainWindow", "Export match report"),
            f"{session.match_id}.pdf",
            "PDF (*.pdf)",
        )
        if path:
            self.export_report(path)

    def export_report(self, path: str | Path) -> bool:
        """Write the match report PDF of the open match (exports layer)."""
        from referee_desk.exports.pdf_match_report import export_match_report_pdf
        from referee_desk.exports.seal_status import file_fingerprint, seal_status
        from referee_desk.ui.drawn_matches import drawn_match_of_record

        tf = self.file()
        assert self.session is not None and tf is not None
        record_id = self.session.match_id
        try:
            export_match_report_pdf(
                self.session.events,
                path,
                drawn=drawn_match_of_record(tf, record_id),
                seal=seal_status(tf, record_id),
                key_fingerprint=file_fingerprint(tf),
            )
        except (ValueError, OSError) as error:
            self.show_message(
                QCoreApplication.translate("MainWindow", "Export failed"), refusal_message(error)
            )
            return False
        self.status(
            QCoreApplication.translate("MainWindow", "Match report written: %1").replace(
                "%1", str(path)
            )
        )
        return True
