"""Showing the tournament: title, pairs, matches, the bracket, standings and enabled actions.

``OrganizerDisplay`` owns the standings' tables (rebuilt on every refresh) and paints
the view's widgets from the view's tournament; it decides nothing. Strings keep the
``OrganizerView`` translation context, so the existing translations apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QGroupBox, QHeaderView, QTableView, QVBoxLayout

from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.model import Pair
from referee_desk.tournament.schema import EXTENSION_NAME
from referee_desk.tournament.state import TournamentState
from referee_desk.ui.organizer import texts
from referee_desk.ui.organizer.bracket import build_bracket_scene
from referee_desk.ui.organizer.models import OrganizerStandingsModel
from referee_desk.ui.texts import preset_name

if TYPE_CHECKING:
    from referee_desk.ui.organizer.host import OrganizerHost


def has_tournament(tf: TournamentFile) -> bool:
    """Whether a desk's file holds a tournament (checked without writing to it)."""
    conn = tf.connection
    known = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'extensions'"
    ).fetchone()
    if not known:
        return False
    row = conn.execute("SELECT 1 FROM extensions WHERE name = ?", (EXTENSION_NAME,)).fetchone()
    if not row:
        return False
    info = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament_info'"
    ).fetchone()
    return bool(info) and bool(
        conn.execute("SELECT 1 FROM tournament_info WHERE id = 1").fetchone()
    )


class OrganizerDisplay:
    """Shows the view's tournament: title, tables, bracket, standings, enabled actions."""

    def __init__(self, view: OrganizerHost) -> None:
        self.view = view
        # The state derived at the last refresh (None: no tournament, or not drawn yet).
        self.state: TournamentState | None = None
        self.standings_models: dict[str, OrganizerStandingsModel] = {}
        self.standings_views: dict[str, QTableView] = {}

    def refresh(self) -> None:
        """Read the view's tournament again and show it (``changed`` is emitted after)."""
        v = self.view
        on_server = v.on_server
        v.follow_window_file()
        ui = v.ui
        t = v.t
        self.state = None
        if t is None:
            if on_server:  # connecting, or the server not reached (its owner says which)
                ui.titleLabel.setText(QCoreApplication.translate("OrganizerView", v.server_note[0]))
                ui.infoLabel.setText(v.server_note[1])
            else:
                ui.titleLabel.setText(
                    QCoreApplication.translate("OrganizerView", "No tournament file open")
                    if v.file_shown is None
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
            v.pairs_model.set_pairs([])
            v.matches_model.set_state([], {})
            v.scene.clear()
            self.show_standings(None, {})
            ui.problemsLabel.setText("")
            self.update_enabled()
            v.changed.emit()
            return
        info = t.info
        settings = t.settings
        pairs = t.pair_map()
        v.pairs_model.set_pairs(list(pairs.values()))
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
            v.matches_model.set_state(state.matches, pairs, info.tables, info.referees)
            build_bracket_scene(state.matches, pairs, v.scene)
            rect = v.scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
            v.scene.setSceneRect(rect)
            self.show_standings(state, pairs)
            problems = list(state.problems)
            problems += [f"{m}: {why}" for m, why in sorted(t.outcome_problems.items())]
        else:
            v.matches_model.set_state([], {})
            v.scene.clear()
            self.show_standings(None, pairs)
        ui.tieBreakLabel.setText(texts.tie_break_order(settings.tie_breaks))
        ui.problemsLabel.setText("\n".join(problems[:8]))
        self.update_enabled()
        v.changed.emit()

    def show_standings(self, state: TournamentState | None, pairs: dict[int, Pair]) -> None:
        """One table per group, two a row (none before the draw or without groups)."""
        layout = self.view.ui.groupsLayout
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
            model = OrganizerStandingsModel(self.view)
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

    def update_enabled(self) -> None:
        """Enable what the tournament's stage and the file's access allow."""
        v = self.view
        t = v.t
        exists = t is not None
        drawn = exists and t.drawn
        writable = exists and not t.file.read_only
        on_server = v.on_server
        # A new tournament is a new file; the server's tournament is made with
        # ``referee-desk tournament create URL`` (the button says so).
        v.action_new.setEnabled(not on_server)
        v.action_new.setToolTip(
            QCoreApplication.translate(
                "OrganizerView",
                "This view shows the tournament on the server; a new tournament is a new "
                "file (File ▸ Open leaves the server's view).",
            )
            if on_server
            else ""
        )
        v.ui.newButton.setToolTip(v.action_new.toolTip())
        for a in (v.action_add_pair, v.action_import_pairs, v.action_draw):
            a.setEnabled(writable and not drawn)
        v.action_remove_pair.setEnabled(writable and not drawn)
        v.action_edit_pair.setEnabled(writable)
        v.action_import_records.setEnabled(writable and drawn)
        v.action_link.setEnabled(writable and drawn)
        v.action_lots.setEnabled(writable and bool(groups_needing_lots(v.state)))
        for kind in ("bracket", "results", "match", "round_pack", "players"):
            v.export_actions[kind].setEnabled(drawn)
        v.export_actions["scoresheet"].setEnabled(True)
        v.ui.editPairButton.setEnabled(v.action_edit_pair.isEnabled())
        v.ui.newButton.setEnabled(v.action_new.isEnabled())
        for button, a in (
            (v.ui.addPairButton, v.action_add_pair),
            (v.ui.removePairButton, v.action_remove_pair),
            (v.ui.importPairsButton, v.action_import_pairs),
            (v.ui.drawButton, v.action_draw),
            (v.ui.importRecordsButton, v.action_import_records),
            (v.ui.linkButton, v.action_link),
            (v.ui.lotsButton, v.action_lots),
        ):
            button.setEnabled(a.isEnabled())


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
