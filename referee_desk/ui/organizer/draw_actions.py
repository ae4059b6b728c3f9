"""Seeding and the draw, drawings of lots, and assigning tables and referees to matches.

Mixed into ``OrganizerView``; strings keep the ``OrganizerView`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QDialog

from referee_desk.tournament.model import Settings
from referee_desk.ui.organizer.bracket import match_boxes
from referee_desk.ui.organizer.dialogs import OrganizerDrawDialog, OrganizerLotsDialog
from referee_desk.ui.organizer.models import OrganizerMatchesModel


class DrawMixin:
    """OrganizerView methods: the draw, drawings of lots and assignment."""

    def draw_dialog(self) -> QDialog | None:
        t = self._need_tournament()
        if t is None:
            return None
        dialog = OrganizerDrawDialog(self.draw, t.settings, t.pairs(), self)
        return self.run_dialog(dialog, self._after_draw)

    def draw(self, settings: Settings, draw_seed: int | None = None) -> None:
        """Save the settings and make the draw (the layer refuses a second draw)."""
        t = self.t
        if t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        t.configure(settings=settings)
        t.draw(draw_seed=draw_seed)

    def _after_draw(self) -> None:
        self.refresh()
        self.ui.sections.setCurrentWidget(self.ui.bracketTab)
        if self.t is not None:
            self.status(
                QCoreApplication.translate("OrganizerView", "Draw made (draw number %1)").replace(
                    "%1", str(self.t.draw_seed)
                )
            )

    def groups_needing_lots(self) -> dict[str, tuple[int, ...]]:
        """Group -> pairs still tied after every other criterion, once the group is complete."""
        if self.state is None:
            return {}
        return {
            s.group: s.needs_lots[0] for s in self.state.standings if s.complete and s.needs_lots
        }

    def lots_dialog(self) -> QDialog | None:
        t = self._need_tournament()
        needing = self.groups_needing_lots()
        if t is None or not needing:
            return None
        group, tied = next(iter(needing.items()))
        pairs = t.pair_map()
        dialog = OrganizerLotsDialog(self.record_lots, group, [pairs[p] for p in tied], self)
        return self.run_dialog(dialog, self.refresh)

    def record_lots(self, group: str, lots: dict[int, int]) -> None:
        if self.t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        self.t.record_lots(group, lots)

    def _assign(self, match_id: str, table: str | None, referee: str | None) -> None:
        if self.t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        self.t.assign(match_id, table=table, referee=referee)
        QTimer.singleShot(0, self.refresh)

    def assign(self, match_id: str, table: str | None = None, referee: str | None = None) -> bool:
        """Put a match on a table and/or give it a referee, through the matches table."""
        row = self.matches_model.row_of(match_id)
        ok = True
        for column, value in (
            (OrganizerMatchesModel.TABLE, table),
            (OrganizerMatchesModel.REFEREE, referee),
        ):
            if value is not None:
                ok = self.matches_model.setData(self.matches_model.index(row, column), value) and ok
        if not ok:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Assignment refused"),
                self.matches_model.last_error,
            )
        return ok

    def selected_match_id(self) -> str | None:
        index = self.ui.matchesView.currentIndex()
        if not index.isValid():
            return None
        return self.matches_model.id_at(index.row())

    def select_match(self, match_id: str) -> None:
        row = self.matches_model.row_of(match_id)
        self.ui.matchesView.selectRow(row)

    def _on_box_selected(self) -> None:
        chosen = [b for b in match_boxes(self.scene) if b.isSelected()]
        if chosen:
            self.select_match(chosen[0].match_id)
