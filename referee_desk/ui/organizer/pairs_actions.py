"""Creating the tournament and editing its pairs (one by one or from a pair list).

``PairActions`` works on the view's tournament through the tournament layer and asks the
view to show the result; it keeps no state of its own beyond the view it serves. Strings
keep the ``OrganizerView`` translation context, so the existing translations apply.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from referee_desk.rules.ruleset import GUILIN_2009, Ruleset, get_ruleset
from referee_desk.tournament.model import Pair, Settings, TournamentInfo
from referee_desk.tournament.pairs_io import read_pairs
from referee_desk.tournament.repository import Tournament
from referee_desk.ui.organizer.dialogs import OrganizerNewDialog, OrganizerPairDialog

if TYPE_CHECKING:
    from referee_desk.ui.organizer.host import OrganizerHost


class PairActions:
    """Creating the tournament and editing its pairs, for the view it is given."""

    def __init__(self, view: OrganizerHost) -> None:
        self.view = view

    def new_tournament_dialog(self) -> QDialog:
        def create(info: TournamentInfo) -> None:
            path, _f = QFileDialog.getSaveFileName(
                self.view,
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

        dialog = OrganizerNewDialog(create, self.view)
        window = self.view.window_
        if window is not None and window.session is not None:
            # Creating opens the new file, which closes the match in progress: ask first.
            return window.ask_before_closing_match(lambda: self.view.run_dialog(dialog)) or dialog
        return self.view.run_dialog(dialog)

    def create_tournament(
        self,
        path: str | Path,
        info: TournamentInfo,
        settings: Settings | None = None,
        ruleset: Ruleset = GUILIN_2009,
    ) -> None:
        """Create the tournament file and open it (in the main window when there is one)."""
        Tournament.create(path, info, settings, ruleset).close()
        if self.view.window_ is not None:
            if not self.view.window_.open_tournament(path, create=False):
                raise ValueError(self.view.window_.last_message)
            self.view.attach(self.view.window_.tf)
        else:
            self.view.open_file(path)
        self.view.status(
            QCoreApplication.translate("OrganizerView", "Tournament created: %1").replace(
                "%1", str(path)
            )
        )

    def selected_pair(self) -> Pair | None:
        if self.view.t is None:
            return None
        index = self.view.ui.pairsView.currentIndex()
        if not index.isValid():
            return None
        return self.view.t.pair_map().get(self.view.pairs_model.id_at(index.row()))

    def add_pair_dialog(self) -> QDialog | None:
        t = self.view.need_tournament()
        if t is None:
            return None

        def save(p1: str, p2: str, club: str, seed: int | None) -> None:
            t.add_pair(p1, p2, club, seed)

        return self.view.run_dialog(
            OrganizerPairDialog(save, None, True, self.view), self.view.refresh
        )

    def edit_pair_dialog(self) -> QDialog | None:
        t = self.view.need_tournament()
        pair = self.selected_pair()
        if t is None:
            return None
        if pair is None:
            self.view.show_message(
                QCoreApplication.translate("OrganizerView", "No pair"),
                QCoreApplication.translate("OrganizerView", "Select a pair in the list first."),
            )
            return None

        def save(p1: str, p2: str, club: str, seed: int | None) -> None:
            t.update_pair(Pair(pair.pair_id, p1, p2, club, seed))

        dialog = OrganizerPairDialog(save, pair, not t.drawn, self.view)
        return self.view.run_dialog(dialog, self.view.refresh)

    def remove_pair_dialog(self) -> None:
        t = self.view.need_tournament()
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
            self.view,
        )
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: Any) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                self.remove_pair(pair.pair_id)

        box.buttonClicked.connect(answered)
        box.open()
        self.view.message_box = box

    def remove_pair(self, pair_id: int) -> bool:
        t = self.view.need_tournament()
        if t is None:
            return False
        try:
            t.remove_pair(pair_id)
        except (ValueError, OSError) as error:
            self.view.refuse(QCoreApplication.translate("OrganizerView", "Pair not removed"), error)
            return False
        self.view.refresh()
        return True

    def choose_pair_list(self) -> None:
        path, _f = QFileDialog.getOpenFileName(
            self.view,
            QCoreApplication.translate("OrganizerView", "Import a pair list"),
            str(Path.cwd()),
            QCoreApplication.translate("OrganizerView", "Pair lists (*.csv *.xlsx);;All files (*)"),
        )
        if path:
            self.import_pairs(path)

    def import_pairs(self, path: str | Path) -> int:
        """Register the pairs of a CSV or xlsx list; returns how many were added."""
        t = self.view.need_tournament()
        if t is None:
            return 0
        try:
            rows = read_pairs(path)
        except (ValueError, OSError) as error:
            self.view.refuse(
                QCoreApplication.translate("OrganizerView", "Pair list not read"), error
            )
            return 0
        added = 0
        try:
            for row in rows:
                t.add_pair(*row)
                added += 1
        except (ValueError, OSError) as error:
            self.view.refresh()
            self.view.show_message(
                QCoreApplication.translate("OrganizerView", "Pair list partly imported"),
                QCoreApplication.translate(
                    "OrganizerView", "%1 of %2 pairs were registered; the next one was refused:\n%3"
                )
                .replace("%1", str(added))
                .replace("%2", str(len(rows)))
                .replace("%3", str(error)),
            )
            return added
        self.view.refresh()
        self.view.status(
            QCoreApplication.translate("OrganizerView", "%1 pairs registered from %2")
            .replace("%1", str(added))
            .replace("%2", str(path))
        )
        return added
