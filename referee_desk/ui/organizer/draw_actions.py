"""Seeding and the draw, drawings of lots, and assigning tables and referees to matches.

``DrawActions`` works on the tournament shown (``ShownTournament``) through the
tournament layer, edits assignments through the matches model it is given and follows
the match chosen in the bracket scene or the matches table. Strings keep the
``OrganizerView`` translation context, so the existing translations apply.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QDialog, QGraphicsScene, QTableView, QWidget

from referee_desk.tournament.model import Settings
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import TournamentState
from referee_desk.ui.organizer.bracket import match_boxes
from referee_desk.ui.organizer.dialogs import OrganizerDrawDialog, OrganizerLotsDialog
from referee_desk.ui.organizer.models import OrganizerMatchesModel
from referee_desk.ui.organizer.showing import groups_needing_lots
from referee_desk.ui.organizer.shown import RunDialog, ShowMessage, ShownTournament


class DrawActions:
    """The draw, drawings of lots, and assigning tables and referees to matches."""

    def __init__(
        self,
        parent: QWidget,
        shown: ShownTournament,
        matches_model: OrganizerMatchesModel,
        matches_view: QTableView,
        scene: QGraphicsScene,
        *,
        state: Callable[[], TournamentState | None],
        need: Callable[[], Tournament | None],
        refresh: Callable[[], None],
        run_dialog: RunDialog,
        show_message: ShowMessage,
        status: Callable[[str], None],
        show_bracket: Callable[[], None],
    ) -> None:
        self.parent = parent
        self.shown = shown
        self.matches_model = matches_model
        self.matches_view = matches_view
        self.scene = scene
        self.state = state
        self.need = need
        self.refresh = refresh
        self.run_dialog = run_dialog
        self.show_message = show_message
        self.status = status
        self.show_bracket = show_bracket

    def draw_dialog(self) -> QDialog | None:
        t = self.need()
        if t is None:
            return None
        dialog = OrganizerDrawDialog(self.draw, t.settings, t.pairs.all(), self.parent)
        return self.run_dialog(dialog, self._after_draw)

    def draw(self, settings: Settings, draw_seed: int | None = None) -> None:
        """Save the settings and make the draw (the layer refuses a second draw)."""
        t = self._open()
        t.configure(settings=settings)
        t.draw(draw_seed=draw_seed)

    def _open(self) -> Tournament:
        """The tournament shown, for a dialog's save (ValueError: none is open)."""
        t = self.shown.t
        if t is None:
            raise ValueError(QCoreApplication.translate("OrganizerView", "No tournament is open."))
        return t

    def _after_draw(self) -> None:
        self.refresh()
        self.show_bracket()
        t = self.shown.t
        if t is not None:
            self.status(
                QCoreApplication.translate("OrganizerView", "Draw made (draw number %1)").replace(
                    "%1", str(t.draw_seed)
                )
            )

    def groups_needing_lots(self) -> dict[str, tuple[int, ...]]:
        """Group -> pairs still tied after every other criterion, once the group is complete."""
        return groups_needing_lots(self.state())

    def lots_dialog(self) -> QDialog | None:
        t = self.need()
        needing = self.groups_needing_lots()
        if t is None or not needing:
            return None
        group, tied = next(iter(needing.items()))
        pairs = t.pair_map()
        dialog = OrganizerLotsDialog(self.record_lots, group, [pairs[p] for p in tied], self.parent)
        return self.run_dialog(dialog, self.refresh)

    def record_lots(self, group: str, lots: dict[int, int]) -> None:
        self._open().draw_table.record_lots(group, lots)

    def record_assignment(self, match_id: str, table: str | None, referee: str | None) -> None:
        """The matches table's edit, written to the file (the table repaints after)."""
        self._open().draw_table.assign(match_id, table=table, referee=referee)
        QTimer.singleShot(0, self.parent, self.refresh)  # dropped if the view is gone

    def assign(self, match_id: str, table: str | None = None, referee: str | None = None) -> bool:
        """Put a match on a table and/or give it a referee, through the matches table."""
        model = self.matches_model
        row = model.row_of(match_id)
        ok = True
        for column, value in (
            (OrganizerMatchesModel.TABLE, table),
            (OrganizerMatchesModel.REFEREE, referee),
        ):
            if value is not None:
                ok = model.setData(model.index(row, column), value) and ok
        if not ok:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Assignment refused"),
                model.last_error,
            )
        return ok

    def selected_match_id(self) -> str | None:
        index = self.matches_view.currentIndex()
        if not index.isValid():
            return None
        return self.matches_model.id_at(index.row())

    def select_match(self, match_id: str) -> None:
        self.matches_view.selectRow(self.matches_model.row_of(match_id))

    def box_selected(self) -> None:
        """A match box chosen in the bracket selects its row in the matches list."""
        chosen = [b for b in match_boxes(self.scene) if b.isSelected()]
        if chosen:
            self.select_match(chosen[0].match_id)
