"""The open match: opening or starting it, following its session, the committee sign-in
and the match report.

``MatchController`` owns the window's ``session`` (the open match) and ``committee``
(the committee member signed in at this desk); strings keep the ``MainWindow``
translation context.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QDialog, QFileDialog

from referee_desk.ui.dialogs.committee_sign_in import CommitteeSignInDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.record import StoreMatchRecord
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession

if TYPE_CHECKING:
    from referee_desk.store import Session
    from referee_desk.ui.main_window import MainWindow


class MatchController:
    """Which match the window shows and who may record in it."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window
        self.session: MatchSession | None = None
        self.committee: Session | None = None

    def open_match(self, match_id: str, referee: str, signed_in: Any = None) -> MatchSession:
        assert self.w.tf is not None
        session = MatchSession(StoreMatchRecord(self.w.tf, match_id, signed_in), referee)
        self.set_session(session)
        return session

    def _need_file(self) -> bool:
        organizer = getattr(self.w, "organizer", None)
        if self.w.tf is None and organizer is not None and organizer.on_server:
            self.w.show_message(
                QCoreApplication.translate("MainWindow", "The tournament on the server"),
                QCoreApplication.translate(
                    "MainWindow",
                    "This window shows the tournament on the server (the organizer's "
                    "address): matches are recorded at the tables' desks, each opened "
                    "with its table's address. Open a file (File ▸ Open) to record here.",
                ),
            )
            return False
        if self.w.tf is None:
            self.w.show_message(
                QCoreApplication.translate("MainWindow", "No file"),
                QCoreApplication.translate("MainWindow", "Open a tournament file first."),
            )
            return False
        return True

    def open_match_dialog(self) -> None:
        self.w.show_match_view()
        if not self._need_file():
            return
        assert self.w.tf is not None
        dialog = OpenMatchDialog(self.w.tf, self.w.settings.referee_name, self.w)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.record is not None:
                self.w.settings.referee_name = dialog.referee
                self.set_session(MatchSession(dialog.record, dialog.referee))

        self.w.run_dialog(dialog, done)

    def set_session(self, session: MatchSession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self.on_changed)
        self.session = session
        self.w.offer_violations()  # the preset decides which violations exist (issue 12)
        if session is not None and isinstance(session.record, StoreMatchRecord):
            session.record.committee = self.committee
        self.w.entries.session_changed(session)
        self.w.review.row = None
        if session is not None:
            session.changed.connect(self.on_changed)
        self.on_changed()

    def on_changed(self) -> None:
        """The record changed (an entry, a reload): show it and the clock as it stands."""
        session = self.session
        if session is not None:
            self.w.model.set_record(session.events, session.state)
            QTimer.singleShot(0, self.w.ui.eventView.scrollToBottom)
        else:
            self.w.model.set_record([], None)
        self.w.display.follow_clock(session)
        self.w.review.row = None
        self.w.refresh_view()
        self.w.entries.maybe_announce_end()

    def committee_sign_in(self) -> QDialog | None:
        """A committee member signs in here; their rulings are recorded as them."""
        if not self._need_file():
            return None
        assert self.w.tf is not None
        dialog = CommitteeSignInDialog(self.w.tf, self.w)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.session is not None:
                self.committee = dialog.session
                if self.session is not None and isinstance(self.session.record, StoreMatchRecord):
                    self.session.record.committee = dialog.session
                self.w.statusBar().showMessage(
                    QCoreApplication.translate("MainWindow", "Committee: %1 signed in").replace(
                        "%1", dialog.session.name
                    )
                )
                self.w.display.update_enabled()

        return self.w.run_dialog(dialog, done)

    def choose_report_file(self) -> None:
        if (session := self.w.entries.need_session()) is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self.w,
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

        assert self.session is not None and self.w.tf is not None
        tf = self.w.tf
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
            self.w.show_message(
                QCoreApplication.translate("MainWindow", "Export failed"), refusal_message(error)
            )
            return False
        self.w.statusBar().showMessage(
            QCoreApplication.translate("MainWindow", "Match report written: %1").replace(
                "%1", str(path)
            )
        )
        return True
