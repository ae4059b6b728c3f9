"""Creating the tournament and editing its pairs (one by one or from a pair list).

``PairActions`` works on the tournament shown (``ShownTournament``) through the tournament
layer, reads the selection of the pairs table it is given and asks for a repaint after
each change; it keeps no state of its own. Strings keep the ``OrganizerView`` translation
context, so the existing translations apply.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QTableView, QWidget

from referee_desk.rules.ruleset import GUILIN_2009, Ruleset, get_ruleset
from referee_desk.tournament.model import Pair, Settings, TournamentInfo
from referee_desk.tournament.pairs_io import read_pairs
from referee_desk.tournament.repository import Tournament
from referee_desk.ui.organizer.dialogs import OrganizerNewDialog, OrganizerPairDialog
from referee_desk.ui.organizer.models import OrganizerPairsModel
from referee_desk.ui.organizer.shown import RunDialog, ShowMessage, ShownTournament
from referee_desk.ui.refusals import refusal_message


class PairActions:
    """Creating the tournament and editing its pairs."""

    def __init__(
        self,
        parent: QWidget,
        shown: ShownTournament,
        pairs_model: OrganizerPairsModel,
        pairs_view: QTableView,
        *,
        need: Callable[[], Tournament | None],
        refresh: Callable[[], None],
        run_dialog: RunDialog,
        show_message: ShowMessage,
        show_box: Callable[[QMessageBox], QMessageBox],
        status: Callable[[str], None],
        ask_before_closing_match: Callable[[Callable[[], Any]], Any],
    ) -> None:
        self.parent = parent
        self.shown = shown
        self.pairs_model = pairs_model
        self.pairs_view = pairs_view
        self.need = need
        self.refresh = refresh
        self.run_dialog = run_dialog
        self.show_message = show_message
        self.show_box = show_box
        self.status = status
        self.ask_before_closing_match = ask_before_closing_match

    def new_tournament_dialog(self) -> QDialog:
        def create(info: TournamentInfo) -> None:
            path, _f = QFileDialog.getSaveFileName(
                self.parent,
                QCoreApplication.translate("OrganizerView", "New tournament file"),
                str(Path.cwd() / f"{info.name}.sqlite"),
                QCoreApplication.translate("OrganizerView", "Tournament files (*.sqlite *.db)"),
            )
            if not path:
                raise ValueError(
                    QCoreApplication.translate(
                        "OrganizerView", "Choose where to keep the tournament file."
                    )
                )
            self.create_tournament(path, info, ruleset=get_ruleset(dialog.ruleset_name()))

        dialog = OrganizerNewDialog(create, self.parent)
        # Creating opens the new file, which closes the match in progress: ask first.
        return self.ask_before_closing_match(lambda: self.run_dialog(dialog, None)) or dialog

    def create_tournament(
        self,
        path: str | Path,
        info: TournamentInfo,
        settings: Settings | None = None,
        ruleset: Ruleset = GUILIN_2009,
    ) -> None:
        """Create the tournament file and open it (in the main window when there is one)."""
        Tournament.create(path, info, settings, ruleset).close()
        self.shown.open_created(path)
        self.status(
            QCoreApplication.translate("OrganizerView", "Tournament created: %1").replace(
                "%1", str(path)
            )
        )

    def selected_pair(self) -> Pair | None:
        t = self.shown.t
        if t is None:
            return None
        index = self.pairs_view.currentIndex()
        if not index.isValid():
            return None
        return t.pair_map().get(self.pairs_model.id_at(index.row()))

    def add_pair_dialog(self) -> QDialog | None:
        t = self.need()
        if t is None:
            return None

        def save(p1: str, p2: str, club: str, seed: int | None) -> None:
            t.add_pair(p1, p2, club, seed)

        return self.run_dialog(OrganizerPairDialog(save, None, True, self.parent), self.refresh)

    def edit_pair_dialog(self) -> QDialog | None:
        t = self.need()
        pair = self.selected_pair()
        if t is None:
            return None
        if pair is None:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "No pair"),
                QCoreApplication.translate("OrganizerView", "Select a pair in the list first."),
            )
            return None

        def save(p1: str, p2: str, club: str, seed: int | None) -> None:
            t.update_pair(Pair(pair.pair_id, p1, p2, club, seed))

        dialog = OrganizerPairDialog(save, pair, not t.drawn, self.parent)
        return self.run_dialog(dialog, self.refresh)

    def remove_pair_dialog(self) -> None:
        t = self.need()
        pair = self.selected_pair()
        if t is None or pair is None:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("OrganizerView", "Remove pair"),
            QCoreApplication.translate("OrganizerView", "Remove pair %1 (%2)?")
            .replace("%1", str(pair.pair_id))
            .replace("%2", pair.name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self.parent,
        )
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: Any) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                self.remove_pair(pair.pair_id)

        box.buttonClicked.connect(answered)
        self.show_box(box)

    def remove_pair(self, pair_id: int) -> bool:
        t = self.need()
        if t is None:
            return False
        try:
            t.remove_pair(pair_id)
        except (ValueError, OSError) as error:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Pair not removed"),
                refusal_message(error),
            )
            return False
        self.refresh()
        return True

    def choose_pair_list(self) -> None:
        path, _f = QFileDialog.getOpenFileName(
            self.parent,
            QCoreApplication.translate("OrganizerView", "Import a pair list"),
            str(Path.cwd()),
            QCoreApplication.translate("OrganizerView", "Pair lists (*.csv *.xlsx);;All files (*)"),
        )
        if path:
            self.import_pairs(path)

    def import_pairs(self, path: str | Path) -> int:
        """Register the pairs of a CSV or xlsx list; returns how many were added."""
        t = self.need()
        if t is None:
            return 0
        try:
            rows = read_pairs(path)
        except (ValueError, OSError) as error:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Pair list not read"),
                refusal_message(error),
            )
            return 0
        added = 0
        try:
            for row in rows:
                t.add_pair(*row)
                added += 1
        except (ValueError, OSError) as error:
            self.refresh()
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Pair list partly imported"),
                QCoreApplication.translate(
                    "OrganizerView", "%1 of %2 pairs were registered; the next one was refused:\n%3"
                )
                .replace("%1", str(added))
                .replace("%2", str(len(rows)))
                .replace("%3", str(error)),
            )
            return added
        self.refresh()
        self.status(
            QCoreApplication.translate("OrganizerView", "%1 pairs registered from %2")
            .replace("%1", str(added))
            .replace("%2", str(path))
        )
        return added
