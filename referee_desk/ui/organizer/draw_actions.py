"""Seeding and the draw, drawings of lots, and assigning tables and referees to matches.

``DrawActions`` works on the view's tournament through the tournament layer and follows
the match chosen in the bracket. Strings keep the ``OrganizerView`` translation
context, so the existing translations apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QDialog

from referee_desk.tournament.model import Settings
from referee_desk.ui.organizer.bracket import match_boxes
from referee_desk.ui.organizer.dialogs import OrganizerDrawDialog, OrganizerLotsDialog
from referee_desk.ui.organizer.models import OrganizerMatchesModel
from referee_desk.ui.organizer.showing import groups_needing_lots

if TYPE_CHECKING:
    from referee_desk.ui.organizer.host import OrganizerHost


class DrawActions:
    """The draw, drawings of lots, and assigning tables and referees to matches."""

    def __init__(self, view: OrganizerHost) -> None:
        self.view = view

    def draw_dialog(self) -> QDialog | None:
        t = self.view.need_tournament()
        if t is None:
            return None
        dialog = OrganizerDrawDialog(self.draw, t.settings, t.pairs(), self.view)
        return self.view.run_dialog(dialog, self._after_draw)

    def draw(self, settings: Settings, draw_seed: int | None = None) -> None:
        """Save the settings and make the draw (the layer refuses a second draw)."""
        t = self.view.t
        if t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        t.configure(settings=settings)
        t.draw(draw_seed=draw_seed)

    def _after_draw(self) -> None:
        self.view.refresh()
        self.view.ui.sections.setCurrentWidget(self.view.ui.bracketTab)
        if self.view.t is not None:
            self.view.status(
                QCoreApplication.translate("OrganizerView", "Draw made (draw number %1)").replace(
                    "%1", str(self.view.t.draw_seed)
                )
            )

    def groups_needing_lots(self) -> dict[str, tuple[int, ...]]:
        """Group -> pairs still tied after every other criterion, once the group is complete."""
        return groups_needing_lots(self.view.state)

    def lots_dialog(self) -> QDialog | None:
        t = self.view.need_tournament()
        needing = self.groups_needing_lots()
        if t is None or not needing:
            return None
        group, tied = next(iter(needing.items()))
        pairs = t.pair_map()
        dialog = OrganizerLotsDialog(self.record_lots, group, [pairs[p] for p in tied], self.view)
        return self.view.run_dialog(dialog, self.view.refresh)

    def record_lots(self, group: str, lots: dict[int, int]) -> None:
        if self.view.t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        self.view.t.record_lots(group, lots)

    def record_assignment(self, match_id: str, table: str | None, referee: str | None) -> None:
        """The matches table's edit, written to the file (the table repaints after)."""
        if self.view.t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        self.view.t.assign(match_id, table=table, referee=referee)
        QTimer.singleShot(0, self.view.refresh)

    def assign(self, match_id: str, table: str | None = None, referee: str | None = None) -> bool:
        """Put a match on a table and/or give it a referee, through the matches table."""
        model = self.view.matches_model
        row = model.row_of(match_id)
        ok = True
        for column, value in (
            (OrganizerMatchesModel.TABLE, table),
            (OrganizerMatchesModel.REFEREE, referee),
        ):
            if value is not None:
                ok = model.setData(model.index(row, column), value) and ok
        if not ok:
            self.view.show_message(
                QCoreApplication.translate("OrganizerView", "Assignment refused"),
                model.last_error,
            )
        return ok

    def selected_match_id(self) -> str | None:
        index = self.view.ui.matchesView.currentIndex()
        if not index.isValid():
            return None
        return self.view.matches_model.id_at(index.row())

    def select_match(self, match_id: str) -> None:
        row = self.view.matches_model.row_of(match_id)
        self.view.ui.matchesView.selectRow(row)

    def box_selected(self) -> None:
        """A match box chosen in the bracket selects its row in the matches list."""
        chosen = [b for b in match_boxes(self.view.scene) if b.isSelected()]
        if chosen:
            self.select_match(chosen[0].match_id)
