"""Importing match records from the desks and linking a record to a drawn match.

``RecordsImport`` owns what the last import brought in (``last_import``) and the
organizer signed in for the import, and works on the tournament shown
(``ShownTournament``) through the tournament layer. It is given what it needs (the
tournament shown, the state last shown, the message and dialog functions, the parent of
its dialogs) and never sees the view. Strings keep the ``OrganizerView`` translation
context, so the existing translations apply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from referee_desk.store import Session
from referee_desk.tournament.importing import ImportResult, import_records
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import Status, TournamentState
from referee_desk.ui.dialogs.organizer_sign_in import OrganizerSignInDialog
from referee_desk.ui.organizer import texts
from referee_desk.ui.organizer.dialogs import OrganizerLinkDialog
from referee_desk.ui.organizer.shown import RunDialog, ShowMessage, ShownTournament
from referee_desk.ui.refusals import refusal_message


class RecordsImport:
    """Importing desks' match records and linking a record to a drawn match."""

    def __init__(
        self,
        parent: QWidget,
        shown: ShownTournament,
        *,
        state: Callable[[], TournamentState | None],
        need: Callable[[], Tournament | None],
        refresh: Callable[[], None],
        run_dialog: RunDialog,
        show_message: ShowMessage,
    ) -> None:
        self.parent = parent
        self.shown = shown
        self.state = state
        self.need = need
        self.refresh = refresh
        self.run_dialog = run_dialog
        self.show_message = show_message
        # What the last import brought in (None before the first one).
        self.last_import: ImportResult | None = None
        #: (the tournament file, its signed-in organizer): asked once per file
        self.organizer: tuple[object, Session | None] | None = None

    def choose_records(self) -> None:
        paths, _f = QFileDialog.getOpenFileNames(
            self.parent,
            QCoreApplication.translate("OrganizerView", "Import match records"),
            str(Path.cwd()),
            QCoreApplication.translate(
                "OrganizerView", "Match records (*.jsonl *.sqlite *.db);;All files (*)"
            ),
        )
        if paths:
            self.import_records(paths)

    def import_records(self, paths: Sequence[str | Path]) -> ImportResult | None:
        """Bring in desks' records and show what was added, unchanged or in conflict.

        In a tournament file with PINs the organizer signs in first (a dialog; the
        import runs once signed in and None is returned now), as ``--as NAME`` does.
        """
        t = self.need()
        if t is None:
            return None
        tf = t.file if t.server is None else None  # a file's own people and PINs
        if tf is not None and tf.people.access_enabled() and self.organizer_of(tf) is None:
            dialog = OrganizerSignInDialog(tf, self.parent)

            def signed_in() -> None:
                self.organizer = (tf, dialog.session)
                self._import(t, paths)

            self.run_dialog(dialog, signed_in)
            return None
        return self._import(t, paths)

    def organizer_of(self, tf: object) -> Session | None:
        """The organizer signed in for this file in this view (None: not yet)."""
        if self.organizer is not None and self.organizer[0] is tf:
            return self.organizer[1]
        return None

    def _import(self, t: Tournament, paths: Sequence[str | Path]) -> ImportResult | None:
        try:
            result = import_records(t, list(paths), by=self.organizer_of(t.file))
        except (ValueError, OSError) as error:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Records not imported"),
                refusal_message(error),
            )
            return None
        self.last_import = result
        self.refresh()
        self.show_message(
            QCoreApplication.translate("OrganizerView", "Match records imported"),
            self.import_summary(result),
            QMessageBox.Icon.Information if result.ok else QMessageBox.Icon.Warning,
        )
        return result

    def import_summary(self, result: ImportResult) -> str:
        lines = [
            QCoreApplication.translate("OrganizerView", "Added: %1 events in %2 matches.")
            .replace("%1", str(sum(result.added.values())))
            .replace("%2", str(len(result.added))),
            QCoreApplication.translate("OrganizerView", "Unchanged: %1 matches.").replace(
                "%1", str(len(result.unchanged))
            ),
            QCoreApplication.translate("OrganizerView", "Conflicts: %1.").replace(
                "%1", str(len(result.conflicts))
            ),
        ]
        for c in result.conflicts:
            lines.append(
                QCoreApplication.translate(
                    "OrganizerView",
                    "Conflict in match %1 from %2: %3 (nothing was guessed; the "
                    "committee must decide which record is right)",
                )
                .replace("%1", c.match_id)
                .replace("%2", Path(c.source).name)
                .replace("%3", c.reason)
            )
        for r in result.refused:
            lines.append(
                QCoreApplication.translate("OrganizerView", "Refused: %1").replace("%1", r)
            )
        for link in result.linked:
            lines.append(
                QCoreApplication.translate(
                    "OrganizerView", "Record %1 counts for %2 (pairs #%3 and #%4)."
                )
                .replace("%1", link.record_id)
                .replace("%2", link.match_id)
                .replace("%3", str(link.pair_a))
                .replace("%4", str(link.pair_b))
            )
        if result.not_in_draw:
            why = result.why_not_linked
            lines.append(
                QCoreApplication.translate(
                    "OrganizerView",
                    "Recorded under a desk's own id (link them to their drawn matches "
                    "with “Link a record…”): %1",
                ).replace(
                    "%1",
                    ", ".join(f"{m} ({why[m]})" if m in why else m for m in result.not_in_draw),
                )
            )
        return "\n".join(lines)

    def unlinked_records(self) -> list[str]:
        """Records in the file that count for no drawn match yet."""
        t = self.shown.t
        if t is None:
            return []
        drawn = {m.match_id for m in t.draw_table.matches()}
        linked = set(t.record_links.all().values())
        return [m for m in t.file.match_ids() if m not in drawn and m not in linked]

    def link_dialog(self) -> QDialog | None:
        t = self.need()
        state = self.state()
        if t is None or state is None:
            return None
        records = self.unlinked_records()
        pairs = t.pair_map()
        open_matches = [
            (
                s.match.match_id,
                f"{texts.pair_text(pairs.get(s.pair_a))} – {texts.pair_text(pairs.get(s.pair_b))}",
            )
            for s in state.matches
            if s.status is Status.READY
        ]
        if not records:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Nothing to link"),
                QCoreApplication.translate(
                    "OrganizerView", "Every imported record already counts for a drawn match."
                ),
                QMessageBox.Icon.Information,
            )
            return None
        dialog = OrganizerLinkDialog(self.link, records, open_matches, self.parent)
        return self.run_dialog(dialog, self.refresh)

    def link(self, record_id: str, match_id: str) -> None:
        t = self.shown.t
        if t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        t.link(record_id, match_id)
