"""Showing the tournament: title, pairs, matches, the bracket and standings.

``OrganizerDisplay`` owns the state derived at the last refresh and the standings'
tables (rebuilt on every refresh), and paints the form, the pairs and matches models
and the bracket scene it is given from the tournament shown (``ShownTournament``); it
decides nothing, and emits the ``changed`` signal it is given after each refresh. Strings
keep the ``OrganizerView`` translation context, so the existing translations apply.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Qt, SignalInstance
from PySide6.QtWidgets import QGraphicsScene, QGroupBox, QHeaderView, QTableView, QVBoxLayout

from referee_desk.tournament.model import Pair
from referee_desk.tournament.state import TournamentState
from referee_desk.ui.generated.ui_organizer_view import Ui_OrganizerView
from referee_desk.ui.organizer import texts
from referee_desk.ui.organizer.bracket import build_bracket_scene
from referee_desk.ui.organizer.models import (
    OrganizerMatchesModel,
    OrganizerPairsModel,
    OrganizerStandingsModel,
)
from referee_desk.ui.organizer.shown import ShownTournament, has_tournament
from referee_desk.ui.texts import preset_name


class OrganizerDisplay:
    """Shows the tournament shown: title, pairs and matches, bracket, standings."""

    def __init__(
        self,
        ui: Ui_OrganizerView,
        shown: ShownTournament,
        pairs_model: OrganizerPairsModel,
        matches_model: OrganizerMatchesModel,
        scene: QGraphicsScene,
        changed: SignalInstance,
        parent: QObject,
    ) -> None:
        self.ui = ui
        self.shown = shown
        self.pairs_model = pairs_model
        self.matches_model = matches_model
        self.scene = scene
        self.changed = changed
        self.parent = parent  # of the standings' models
        # The state derived at the last refresh (None: no tournament, or not drawn yet).
        self.state: TournamentState | None = None
        self.standings_models: dict[str, OrganizerStandingsModel] = {}
        self.standings_views: dict[str, QTableView] = {}

    def refresh(self) -> None:
        """Read the tournament shown again and show it (``changed`` is emitted after)."""
        shown = self.shown
        on_server = shown.on_server
        shown.follow_window_file()
        ui = self.ui
        t = shown.t
        self.state = None
        if t is None:
            if on_server:  # connecting, or the server not reached (its owner says which)
                title = QCoreApplication.translate("OrganizerView", shown.server_note[0])
                ui.titleLabel.setText(title)
                ui.infoLabel.setText(shown.server_note[1])
            else:
                ui.titleLabel.setText(
                    QCoreApplication.translate("OrganizerView", "No tournament file open")
                    if shown.file is None
                    else QCoreApplication.translate(
                        "OrganizerView", "This file holds no tournament"
                    )
                )
                ui.infoLabel.setText(
                    QCoreApplication.translate(
                        "OrganizerView",
                        "Open a tournament file (File ▸ Open) or create a new tournament.",
                    )
                )
            self.pairs_model.set_pairs([])
            self.matches_model.set_state([], {})
            self.scene.clear()
            self.show_standings(None, {})
            ui.problemsLabel.setText("")
            self.changed.emit()
            return
        info = t.info
        settings = t.settings
        pairs = t.pair_map()
        self.pairs_model.set_pairs(list(pairs.values()))
        parts = [x for x in (info.dates, info.venue, info.organizer) if x]
        if on_server:
            parts.insert(
                0,
                QCoreApplication.translate("OrganizerView", "on the server %1").replace(
                    "%1", t.path
                ),
            )
        parts.append(texts.format_name(settings.format))
        if settings.third_place:
            parts.append(QCoreApplication.translate("OrganizerView", "third-place match"))
        parts.append(
            QCoreApplication.translate("OrganizerView", "ruleset %1").replace(
                "%1", preset_name(t.ruleset.name)
            )
        )
        if t.drawn:
            parts.append(
                QCoreApplication.translate("OrganizerView", "drawn (draw number %1)").replace(
                    "%1", str(t.draw_seed)
                )
            )
        else:
            parts.append(
                QCoreApplication.translate(
                    "OrganizerView", "%1 pairs registered, not drawn yet"
                ).replace("%1", str(len(pairs)))
            )
        ui.titleLabel.setText(info.name)
        ui.infoLabel.setText(" · ".join(parts))
        problems: list[str] = []
        if t.drawn:
            state = self.state = t.state()
            self.matches_model.set_state(state.matches, pairs, info.tables, info.referees)
            build_bracket_scene(state.matches, pairs, self.scene)
            rect = self.scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
            self.scene.setSceneRect(rect)
            self.show_standings(state, pairs)
            problems = list(state.problems)
            problems += [f"{m}: {why}" for m, why in sorted(t.outcome_problems.items())]
        else:
            self.matches_model.set_state([], {})
            self.scene.clear()
            self.show_standings(None, pairs)
        ui.tieBreakLabel.setText(texts.tie_break_order(settings.tie_breaks))
        ui.problemsLabel.setText("\n".join(problems[:8]))
        self.changed.emit()

    def show_standings(self, state: TournamentState | None, pairs: dict[int, Pair]) -> None:
        """One table per group, two a row (none before the draw or without groups)."""
        layout = self.ui.groupsLayout
        while layout.count():
            item = layout.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.setParent(None)
                widget.deleteLater()
        self.standings_models = {}
        self.standings_views = {}
        if state is None or not state.standings:
            return
        for k, standings in enumerate(state.standings):
            model = OrganizerStandingsModel(self.parent)
            model.set_standings(standings, pairs)
            box = QGroupBox(group_title(standings.group, standings.complete))
            inner = QVBoxLayout(box)
            view = QTableView(box)
            view.setModel(model)
            view.verticalHeader().hide()
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.horizontalHeader().setStretchLastSection(True)
            view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
            rows_height = sum(view.rowHeight(r) for r in range(model.rowCount()))
            view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            header_height = view.horizontalHeader().sizeHint().height()
            height = rows_height + header_height + 2 * view.frameWidth() + 2
            view.setFixedHeight(height)
            inner.addWidget(view)
            layout.addWidget(box, k // 2, k % 2)
            self.standings_models[standings.group] = model
            self.standings_views[standings.group] = view
        layout.setRowStretch((len(state.standings) + 1) // 2, 1)

    def retranslate(self) -> None:
        for model in self.standings_models.values():
            model.retranslate()


def groups_needing_lots(state: TournamentState | None) -> dict[str, tuple[int, ...]]:
    """Group -> pairs still tied after every other criterion, once the group is complete."""
    if state is None:
        return {}
    return {s.group: s.needs_lots[0] for s in state.standings if s.complete and s.needs_lots}


def group_title(group: str, complete: bool) -> str:
    """A standings box's title: the group and whether all its matches are played."""
    if complete:
        return QCoreApplication.translate("OrganizerView", "Group %1 (complete)").replace(
            "%1", group
        )
    return QCoreApplication.translate("OrganizerView", "Group %1 (in progress)").replace(
        "%1", group
    )


__all__ = ["OrganizerDisplay", "group_title", "groups_needing_lots", "has_tournament"]
