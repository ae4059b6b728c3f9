"""Opening a match, following its session, the committee sign-in and the match report.

Mixed into ``MainWindow``; strings keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QDialog, QFileDialog

from referee_desk.ui.clock_display import anchor_from
from referee_desk.ui.dialogs.committee_sign_in import CommitteeSignInDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.record import StoreMatchRecord
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.session import MatchSession


class MatchSessionMixin:
    """MainWindow methods that open a match and follow its session."""

    def open_match(self, match_id: str, referee: str, signed_in: Any = None) -> MatchSession:
        assert self.tf is not None
        session = MatchSession(StoreMatchRecord(self.tf, match_id, signed_in), referee)
        self.set_session(session)
        return session

    def open_match_dialog(self) -> None:
        self.show_match_view()
        if self.tf is None:
            self.show_message(
                QCoreApplication.translate("MainWindow", "No file"),
                QCoreApplication.translate("MainWindow", "Open a tournament file first."),
            )
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

    def committee_sign_in(self) -> QDialog | None:
        """A committee member signs in here; their rulings are recorded as them."""
        if self.tf is None:
            self.show_message(
                QCoreApplication.translate("MainWindow", "No file"),
                QCoreApplication.translate("MainWindow", "Open a tournament file first."),
            )
            return None
        dialog = CommitteeSignInDialog(self.tf, self)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.session is not None:
                self.committee = dialog.session
                if self.session is not None and isinstance(self.session.record, StoreMatchRecord):
                    self.session.record.committee = dialog.session
                self.statusBar().showMessage(
                    QCoreApplication.translate("MainWindow", "Committee: %1 signed in").replace(
                        "%1", dialog.session.name
                    )
                )
                self._update_enabled()

        return self.run_dialog(dialog, done)

    def choose_report_file(self) -> None:
        if (session := self._need_session()) is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self,
            QCoreApplication.translate("MainWindow", "Export match report"),
            f"{session.match_id}.pdf",
            "PDF (*.pdf)",
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
            self.show_message(
                QCoreApplication.translate("MainWindow", "Export failed"), refusal_message(error)
            )
            return False
        self.statusBar().showMessage(
            QCoreApplication.translate("MainWindow", "Match report written: %1").replace(
                "%1", str(path)
            )
        )
        return True
