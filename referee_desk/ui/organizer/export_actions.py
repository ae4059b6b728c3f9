"""File ▸ Export: the documents, written in the background with a progress dialog.

``OrganizerExports`` owns File ▸ Export's actions and menu, the running export jobs,
their progress dialog and how a written document is opened; it reads the tournament
shown (``ShownTournament``) and reports each export on the ``finished`` / ``failed``
signals it is given. Strings keep the ``OrganizerView`` translation context, so the
existing translations apply.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QUrl, SignalInstance
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QWidget,
)

from referee_desk.ui.organizer.exporting import ExportJob, Progress, start
from referee_desk.ui.organizer.shown import ShowMessage, ShownTournament
from referee_desk.ui.refusals import refusal_message

#: The documents of File ▸ Export, by kind.
EXPORT_KINDS = ("bracket", "results", "match", "scoresheet", "round_pack", "players")


class OrganizerExports:
    """File ▸ Export: its actions and menu, the documents, their jobs and progress."""

    def __init__(
        self,
        parent: QWidget,
        shown: ShownTournament,
        font_path: str | None = None,
        *,
        selected_match: Callable[[], str | None],
        show_message: ShowMessage,
        show_box: Callable[[QMessageBox], QMessageBox],
        status: Callable[[str], None],
        finished: SignalInstance,
        failed: SignalInstance,
    ) -> None:
        self.parent = parent
        self.shown = shown
        self.font_path = font_path
        self.selected_match = selected_match
        self.show_message = show_message
        self.show_box = show_box
        self.status = status
        self.finished = finished
        """(kind, path written)"""
        self.failed = failed
        """(kind, reason)"""
        #: One action per document (their texts are the view's to translate), in a menu.
        self.actions: dict[str, QAction] = {}
        self.menu = QMenu(parent)
        for kind in EXPORT_KINDS:
            action = self.actions[kind] = QAction(parent)
            action.triggered.connect(lambda _checked=False, k=kind: self.choose_export(k))
            self.menu.addAction(action)
        # Exports being written (kept alive until their worker reports).
        self.jobs: list[ExportJob] = []
        self.progress_dialog: QProgressDialog | None = None
        # (done, total, what) as the running export reported it.
        self.progress_seen: list[tuple[int, int, str]] = []
        # The “Open” button of the last “Export finished” message.
        self.open_button: QPushButton | None = None
        # How a written document is opened (tests replace it so nothing is launched).
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl

    def default_export_name(self, kind: str, match_id: str | None = None) -> str:
        t = self.shown.t
        name = t.info.name if t is not None else "referee-desk"
        suffix = {
            "bracket": "bracket.xlsx",
            "results": "results.pdf",
            "match": f"{match_id or 'match'}.pdf",
            "scoresheet": "scoresheet.pdf",
            "round_pack": "round-pack.pdf",
            "players": "players.pdf",
        }[kind]
        return f"{name}-{suffix}"

    def choose_export(self, kind: str) -> None:
        match_id = self.selected_match()
        round_number: int | None = None
        if kind == "round_pack":
            round_number = self.choose_round()
            if round_number is None:
                return
        if kind == "match" and match_id is None:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "No match selected"),
                QCoreApplication.translate(
                    "OrganizerView", "Select a match in the bracket or in the matches list first."
                ),
            )
            return
        filters = (
            QCoreApplication.translate("OrganizerView", "Excel workbook (*.xlsx)")
            if kind == "bracket"
            else "PDF (*.pdf)"
        )
        path, _f = QFileDialog.getSaveFileName(
            self.parent,
            self.actions[kind].text().replace("…", ""),
            str(Path.cwd() / self.default_export_name(kind, match_id)),
            filters,
        )
        if path:
            self.export_document(kind, path, match_id, round_number=round_number)

    def choose_round(self) -> int | None:
        """The round to print a pack for, picked from the rounds in order of play."""
        from referee_desk.tournament.rounds import play_rounds

        t = self.shown.t
        if t is None or not t.drawn:
            return None
        rounds = play_rounds(t.state().matches)
        if not rounds:
            return None
        items = [f"{r.number} · {r.label}" for r in rounds]
        item, ok = QInputDialog.getItem(
            self.parent,
            QCoreApplication.translate("OrganizerView", "Round pack"),
            QCoreApplication.translate("OrganizerView", "Round:"),
            items,
            0,
            False,
        )
        return rounds[items.index(item)].number if ok and item in items else None

    def export_document(
        self,
        kind: str,
        path: str | Path,
        match_id: str | None = None,
        *,
        round_number: int | None = None,
    ) -> ExportJob | None:
        """Read what the document needs here, write it in a worker, show progress."""
        try:
            work = self._export_work(kind, Path(path), match_id, round_number)
        except (ValueError, OSError) as error:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Export refused"),
                refusal_message(error),
            )
            self.failed.emit(kind, str(error))
            return None
        job = ExportJob(kind, work)
        progress = QProgressDialog(
            QCoreApplication.translate("OrganizerView", "Writing %1…").replace(
                "%1", Path(path).name
            ),
            "",
            0,
            0,
            self.parent,
        )
        progress.setCancelButton(None)
        progress.setWindowTitle(QCoreApplication.translate("OrganizerView", "Export"))
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(400)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        self.progress_dialog = progress
        self.progress_seen = []

        def on_progress(done: int, total: int, what: str) -> None:
            self.progress_seen.append((done, total, what))
            progress.setMaximum(max(total, 1))
            progress.setValue(min(done, max(total, 1)))
            progress.setLabelText(
                QCoreApplication.translate("OrganizerView", "Writing %1: %2")
                .replace("%1", Path(path).name)
                .replace("%2", _document_name(what))
            )

        def finish() -> None:
            progress.close()
            progress.deleteLater()
            if self.progress_dialog is progress:
                self.progress_dialog = None
            if job in self.jobs:
                self.jobs.remove(job)

        def done(written: str) -> None:
            finish()
            self.status(
                QCoreApplication.translate("OrganizerView", "Written: %1").replace("%1", written)
            )
            self._offer_open(written)
            self.finished.emit(kind, written)

        def failed(reason: str) -> None:
            finish()
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Export failed"),
                QCoreApplication.translate("OrganizerView", "%1 could not be written:\n%2")
                .replace("%1", str(path))
                .replace("%2", reason),
            )
            self.failed.emit(kind, reason)

        job.signals.progress.connect(on_progress)
        job.signals.finished.connect(done)
        job.signals.failed.connect(failed)
        self.jobs.append(job)
        return start(job)

    def _export_work(
        self, kind: str, path: Path, match_id: str | None, round_number: int | None = None
    ) -> Callable[[Progress], Path]:
        from referee_desk.exports import fonts

        font = self.font_path
        if kind == "scoresheet":
            from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf

            header, kwargs = self._scoresheet_header(match_id)
            return lambda progress: _single(
                progress, "scoresheet",
                lambda: export_scoresheet_pdf(path, font_path=font, header=header, **kwargs),
            )  # fmt: skip
        t = self.shown.t
        if t is None or not t.drawn:
            raise ValueError(
                QCoreApplication.translate(
                    "OrganizerView", "Make the draw first: there is nothing to print yet."
                )
            )
        if kind in ("round_pack", "players"):
            from referee_desk.exports.snapshot import take_snapshot

            fonts.choose_font(font)
            snap = take_snapshot(t)
            if kind == "players":
                from referee_desk.exports.pdf_player_index import export_player_index_pdf

                return lambda progress: _single(
                    progress, "players", lambda: export_player_index_pdf(snap, path, font_path=font)
                )
            from referee_desk.exports.pdf_round_pack import export_round_pack_pdf

            number = round_number if round_number is not None else 1
            return lambda progress: _single(
                progress, "round_pack",
                lambda: export_round_pack_pdf(snap, path, number, font_path=font),
            )  # fmt: skip
        if kind in ("bracket", "results"):
            from referee_desk.exports.snapshot import take_snapshot

            snap = take_snapshot(t)
            if kind == "bracket":
                from referee_desk.exports.xlsx_bracket import export_bracket_xlsx

                return lambda progress: export_bracket_xlsx(snap, path, progress=progress)
            from referee_desk.exports.pdf_results import export_results_pdf

            fonts.choose_font(font)  # a bad font path is refused here, before the worker
            return lambda progress: export_results_pdf(
                snap, path, font_path=font, progress=progress
            )
        if kind == "match":
            from referee_desk.exports.pdf_match_report import export_match_report_pdf

            if match_id is None:
                raise ValueError(
                    QCoreApplication.translate("OrganizerView", "Select a match first.")
                )
            record = t.record_id(match_id)
            events = t.file.events(record)
            if not events:
                raise ValueError(
                    QCoreApplication.translate(
                        "OrganizerView", "Match %1 has no record in this file yet."
                    ).replace("%1", match_id)
                )
            from referee_desk.exports.drawn_match import drawn_match
            from referee_desk.exports.seal_status import file_fingerprint, seal_status

            seal = seal_status(t.file, record)
            drawn = drawn_match(t, match_id)
            fingerprint = file_fingerprint(t.file)
            name = t.info.name
            return lambda progress: _single(
                progress, "match",
                lambda: export_match_report_pdf(
                    events, path, font_path=font, tournament_name=name,
                    drawn=drawn, seal=seal, key_fingerprint=fingerprint,
                ),
            )  # fmt: skip
        raise ValueError(f"unknown document {kind!r}; known: {', '.join(EXPORT_KINDS)}")

    def _scoresheet_header(self, match_id: str | None) -> tuple[dict[str, str], dict[str, Any]]:
        """Tournament (and, with a match selected, its round, table, referee and pairs)."""
        t = self.shown.t
        if t is None:
            return {}, {}
        header = {"tournament": t.info.name, "date": t.info.start_date}
        kwargs: dict[str, Any] = {"ruleset": t.ruleset}
        if match_id is None or not t.drawn:
            return header, kwargs
        m = t.draw_table.match(match_id)
        header.update({"match_id": match_id, "round": t.round_name(m), "table": m.table,
                       "referee": m.referee})  # fmt: skip
        try:
            payload = t.opening_payload(match_id)
        except ValueError:
            return header, kwargs  # pairs not known yet: the referee writes them in
        header.update({"pair_ns": payload["pairs"]["NS"], "pair_ew": payload["pairs"]["EW"]})
        header.update(payload["seats"])
        return header, kwargs

    def _offer_open(self, path: str) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Information,
            QCoreApplication.translate("OrganizerView", "Export finished"),
            QCoreApplication.translate("OrganizerView", "Written: %1").replace("%1", path),
            QMessageBox.StandardButton.Close,
            self.parent,
        )
        self.open_button = box.addButton(
            QCoreApplication.translate("OrganizerView", "Open"), QMessageBox.ButtonRole.AcceptRole
        )
        box.setDefaultButton(self.open_button)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        button = self.open_button
        box.buttonClicked.connect(lambda b: self.open_result(path) if b is button else None)
        self.show_box(box)

    def open_result(self, path: str | Path) -> None:
        self.open_url(QUrl.fromLocalFile(str(path)))

    def wait_for_exports(self) -> None:
        """Block until running exports are written (closing the desk, tests)."""
        from PySide6.QtCore import QThreadPool

        QThreadPool.globalInstance().waitForDone()


def _document_name(what: str) -> str:
    """The progress label of a one-step document in the user's language."""
    names = {
        "match": QCoreApplication.translate("OrganizerView", "match report"),
        "scoresheet": QCoreApplication.translate("OrganizerView", "scoresheet"),
        "round_pack": QCoreApplication.translate("OrganizerView", "round pack"),
        "players": QCoreApplication.translate("OrganizerView", "player index"),
        "info": QCoreApplication.translate("OrganizerView", "information sheet"),
        "groups": QCoreApplication.translate("OrganizerView", "group sheets"),
        "matches": QCoreApplication.translate("OrganizerView", "match list"),
        "pdf": QCoreApplication.translate("OrganizerView", "pages"),
    }
    # The knockout's sheets are named in Chinese and English by the exports already.
    return names.get(what, what)


def _single(progress: Progress, what: str, work: Callable[[], Path]) -> Path:
    """A one-step document: report its start and end."""
    progress(0, 1, what)
    out = work()
    progress(1, 1, what)
    return out
