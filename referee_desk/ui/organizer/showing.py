"""Showing the tournament: title, pairs, matches, the bracket, standings and enabled actions.

Mixed into ``OrganizerView``; strings keep the ``OrganizerView`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QGroupBox, QHeaderView, QTableView, QVBoxLayout

from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.model import Pair
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.schema import EXTENSION_NAME
from referee_desk.tournament.state import TournamentState
from referee_desk.ui.organizer import texts
from referee_desk.ui.organizer.bracket import build_bracket_scene
from referee_desk.ui.organizer.models import OrganizerStandingsModel
from referee_desk.ui.texts import preset_name


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


class OrganizerDisplayMixin:
    """OrganizerView methods: showing the tournament."""

    def refresh(self) -> None:
        on_server = self.on_server
        if not on_server and self.window_ is not None and self.window_.tf is not self._tf:
            self._tf = self.window_.tf
            self.t = Tournament(self._tf) if self._tf and has_tournament(self._tf) else None
        ui = self.ui
        t = self.t
        self.state = None
        if t is None:
            if on_server:  # connecting, or the server not reached (its owner says which)
                ui.titleLabel.setText(
                    QCoreApplication.translate("OrganizerView", self.server_note[0])
                )
                ui.infoLabel.setText(self.server_note[1])
            else:
                ui.titleLabel.setText(
                    QCoreApplication.translate("OrganizerView", "No tournament file open")
                    if self._tf is None
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
            self._show_standings(None, {})
            ui.problemsLabel.setText("")
            self._update_enabled()
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
            self.state = t.state()
            self.matches_model.set_state(self.state.matches, pairs, info.tables, info.referees)
            build_bracket_scene(self.state.matches, pairs, self.scene)
            rect = self.scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
            self.scene.setSceneRect(rect)
            self._show_standings(self.state, pairs)
            problems = list(self.state.problems)
            problems += [f"{m}: {why}" for m, why in sorted(t.outcome_problems.items())]
        else:
            self.matches_model.set_state([], {})
            self.scene.clear()
            self._show_standings(None, pairs)
        ui.tieBreakLabel.setText(texts.tie_break_order(settings.tie_breaks))
        ui.problemsLabel.setText("\n".join(problems[:8]))
        self._update_enabled()
        self.changed.emit()

    def _show_standings(self, state: TournamentState | None, pairs: dict[int, Pair]) -> None:
        layout = self.ui.groupsLayout
        while layout.count():
            item = layout.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.setParent(None)
                widget.deleteLater()
        self.standings_models = {}
        self.standings_views: dict[str, QTableView] = {}
        if state is None or not state.standings:
            return
        for k, standings in enumerate(state.standings):
            model = OrganizerStandingsModel(self)
            model.set_standings(standings, pairs)
            box = QGroupBox(self._group_title(standings.group, standings.complete))
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

    def _group_title(self, group: str, complete: bool) -> str:
        if complete:
            return QCoreApplication.translate("OrganizerView", "Group %1 (complete)").replace(
                "%1", group
            )
        return QCoreApplication.translate("OrganizerView", "Group %1 (in progress)").replace(
            "%1", group
        )

    def _update_enabled(self) -> None:
        t = self.t
        exists = t is not None
        drawn = exists and t.drawn
        writable = exists and not t.file.read_only
        on_server = self.on_server
        # A new tournament is a new file; the server's tournament is made with
        # ``referee-desk tournament create URL`` (the button says so).
        self.action_new.setEnabled(not on_server)
        self.action_new.setToolTip(
            QCoreApplication.translate(
                "OrganizerView",
                "This view shows the tournament on the server; a new tournament is a new "
                "file (File ▸ Open leaves the server's view).",
            )
            if on_server
            else ""
        )
        self.ui.newButton.setToolTip(self.action_new.toolTip())
        for a in (self.action_add_pair, self.action_import_pairs, self.action_draw):
            a.setEnabled(writable and not drawn)
        self.action_remove_pair.setEnabled(writable and not drawn)
        self.action_edit_pair.setEnabled(writable)
        self.action_import_records.setEnabled(writable and drawn)
        self.action_link.setEnabled(writable and drawn)
        self.action_lots.setEnabled(writable and bool(self.groups_needing_lots()))
        for kind in ("bracket", "results", "match", "round_pack", "players"):
            self.export_actions[kind].setEnabled(drawn)
        self.export_actions["scoresheet"].setEnabled(True)
        self.ui.editPairButton.setEnabled(self.action_edit_pair.isEnabled())
        self.ui.newButton.setEnabled(self.action_new.isEnabled())
        for button, a in (
            (self.ui.addPairButton, self.action_add_pair),
            (self.ui.removePairButton, self.action_remove_pair),
            (self.ui.importPairsButton, self.action_import_pairs),
            (self.ui.drawButton, self.action_draw),
            (self.ui.importRecordsButton, self.action_import_records),
            (self.ui.linkButton, self.action_link),
            (self.ui.lotsButton, self.action_lots),
        ):
            button.setEnabled(a.isEnabled())
