"""The organizer view: pairs, seeding and the draw, the bracket, standings, assignment, exports.

It shows what the tournament layer (``referee_desk.tournament``) holds and derives, and
calls it for every change; it never ranks, advances or decides anything itself. It
works on the main window's open tournament file (shared, never closed here) or, alone,
on a file it opens itself. Dialogs and messages open window-modal without blocking
(``active_dialog``, ``message_box``), so the same code serves the mouse and the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QGraphicsScene,
    QGroupBox,
    QHeaderView,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.importing import ImportResult, import_records
from referee_desk.tournament.model import Pair, Settings, TournamentInfo
from referee_desk.tournament.pairs_io import read_pairs
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.schema import EXTENSION_NAME
from referee_desk.tournament.state import Status, TournamentState
from referee_desk.ui.generated.ui_organizer_view import Ui_OrganizerView
from referee_desk.ui.messages import open_message
from referee_desk.ui.organizer import texts
from referee_desk.ui.organizer.bracket import build_bracket_scene, match_boxes
from referee_desk.ui.organizer.dialogs import (
    OrganizerDrawDialog,
    OrganizerLinkDialog,
    OrganizerLotsDialog,
    OrganizerNewDialog,
    OrganizerPairDialog,
)
from referee_desk.ui.organizer.exporting import ExportJob, Progress, start
from referee_desk.ui.organizer.models import (
    CHOICES_ROLE,
    OrganizerMatchesModel,
    OrganizerPairsModel,
    OrganizerStandingsModel,
)

#: The documents of File ▸ Export, by kind.
EXPORT_KINDS = ("bracket", "results", "match", "scoresheet")

TITLE_STYLE = "font-size: 16pt; font-weight: bold;"
#: The organizer works at a desk, not a card table: smaller buttons than the match view.
VIEW_STYLE = """
QPushButton { font-size: 11pt; min-height: 30px; padding: 2px 10px; }
QGroupBox { font-size: 12pt; font-weight: bold; }
QTableView { font-size: 11pt; }
"""
PROBLEM_STYLE = "color: #b00020;"


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


class _ChoiceDelegate(QStyledItemDelegate):
    """An editable combo box offering the tournament's tables or referees."""

    def createEditor(self, parent: QWidget, option: Any, index: QModelIndex) -> QWidget:
        combo = QComboBox(parent)
        combo.setEditable(True)
        combo.addItems([str(c) for c in (index.data(CHOICES_ROLE) or [])])
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole) or ""))

    def setModelData(self, editor: QWidget, model: Any, index: QModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)


class OrganizerView(QWidget):
    """The organizer's screen; ``changed`` is emitted after every refresh."""

    changed = Signal()
    export_finished = Signal(str, str)
    """(kind, path written)"""
    export_failed = Signal(str, str)
    """(kind, reason)"""

    def __init__(
        self,
        window: Any = None,
        parent: QWidget | None = None,
        *,
        font_path: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.window_ = window
        self.font_path = font_path
        self.ui = Ui_OrganizerView()
        self.ui.setupUi(self)
        self.setStyleSheet(VIEW_STYLE)
        self.ui.titleLabel.setStyleSheet(TITLE_STYLE)
        self.ui.problemsLabel.setStyleSheet(PROBLEM_STYLE)
        self._tf: TournamentFile | None = None
        self._owned: TournamentFile | None = None
        self.t: Tournament | None = None
        self.state: TournamentState | None = None
        self.active_dialog: QDialog | None = None
        self.message_box: QMessageBox | None = None
        self.last_message = ""
        self.progress_dialog: QProgressDialog | None = None
        self.jobs: list[ExportJob] = []
        self.last_import: ImportResult | None = None
        #: How a written document is opened (tests replace it so nothing is launched).
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl

        self.pairs_model = OrganizerPairsModel(self)
        self.ui.pairsView.setModel(self.pairs_model)
        self.matches_model = OrganizerMatchesModel(self)
        self.matches_model.assign = self._assign
        self.ui.matchesView.setModel(self.matches_model)
        self._delegate = _ChoiceDelegate(self)
        self.ui.matchesView.setItemDelegateForColumn(OrganizerMatchesModel.TABLE, self._delegate)
        self.ui.matchesView.setItemDelegateForColumn(OrganizerMatchesModel.REFEREE, self._delegate)
        self.ui.pairsView.horizontalHeader().setStretchLastSection(True)
        self.ui.groupsTabLayout.setAlignment(self.ui.lotsButton, Qt.AlignmentFlag.AlignLeft)
        for view in (self.ui.pairsView, self.ui.matchesView):
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.verticalHeader().hide()
        self.ui.pairsView.doubleClicked.connect(lambda _i: self.edit_pair_dialog())
        self.standings_models: dict[str, OrganizerStandingsModel] = {}
        self.scene = QGraphicsScene(self)
        self.ui.bracketView.setScene(self.scene)
        self.scene.selectionChanged.connect(self._on_box_selected)

        self._make_actions()
        wiring = {
            self.ui.newButton: self.action_new,
            self.ui.addPairButton: self.action_add_pair,
            self.ui.editPairButton: self.action_edit_pair,
            self.ui.removePairButton: self.action_remove_pair,
            self.ui.importPairsButton: self.action_import_pairs,
            self.ui.drawButton: self.action_draw,
            self.ui.importRecordsButton: self.action_import_records,
            self.ui.linkButton: self.action_link,
            self.ui.lotsButton: self.action_lots,
        }
        for button, action in wiring.items():
            button.clicked.connect(action.trigger)
        self.retranslate()

    # ------------------------------------------------------------ actions, menus

    def _make_actions(self) -> None:
        def action(slot: Callable[[], Any], shortcut: str = "") -> QAction:
            a = QAction(self)
            a.triggered.connect(lambda _checked=False: slot())
            if shortcut:
                a.setShortcut(QKeySequence(shortcut))
            return a

        self.action_new = action(self.new_tournament_dialog)
        self.action_add_pair = action(self.add_pair_dialog)
        self.action_edit_pair = action(self.edit_pair_dialog)
        self.action_remove_pair = action(self.remove_pair_dialog)
        self.action_import_pairs = action(self.choose_pair_list)
        self.action_draw = action(self.draw_dialog)
        self.action_import_records = action(self.choose_records)
        self.action_link = action(self.link_dialog)
        self.action_lots = action(self.lots_dialog)
        self.action_refresh = action(self.reload, "F5")
        self.export_actions = {kind: action(lambda k=kind: self.choose_export(k)) for kind in
                               EXPORT_KINDS}  # fmt: skip
        self.export_menu = QMenu(self)
        for kind in EXPORT_KINDS:
            self.export_menu.addAction(self.export_actions[kind])
        self.tournament_menu = QMenu(self)
        for a in (
            self.action_new,
            self.action_add_pair,
            self.action_edit_pair,
            self.action_import_pairs,
            self.action_draw,
            self.action_import_records,
            self.action_link,
            self.action_lots,
            self.action_refresh,
        ):
            self.tournament_menu.addAction(a)
        self.addAction(self.action_refresh)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.ui.retranslateUi(self)
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.export_menu.setTitle(self.tr("&Export"))
        self.tournament_menu.setTitle(self.tr("&Tournament"))
        self.action_new.setText(self.tr("New tournament…"))
        self.action_add_pair.setText(self.tr("Add pair…"))
        self.action_edit_pair.setText(self.tr("Edit pair…"))
        self.action_remove_pair.setText(self.tr("Remove pair"))
        self.action_import_pairs.setText(self.tr("Import pair list (CSV or xlsx)…"))
        self.action_draw.setText(self.tr("Seeding and draw…"))
        self.action_import_records.setText(self.tr("Import match records from desks…"))
        self.action_link.setText(self.tr("Link a record to a drawn match…"))
        self.action_lots.setText(self.tr("Record a drawing of lots…"))
        self.action_refresh.setText(self.tr("Refresh results"))
        self.export_actions["bracket"].setText(self.tr("Bracket sheet (xlsx)…"))
        self.export_actions["results"].setText(self.tr("Results (PDF)…"))
        self.export_actions["match"].setText(self.tr("Match report of the selected match (PDF)…"))
        self.export_actions["scoresheet"].setText(self.tr("Blank table scoresheet (PDF)…"))
        self.ui.legendLabel.setText(
            self.tr(
                "Bold: the winner. Red marks: wins by forfeit (8.10), disqualification (8.8) "
                "or committee ruling (8.11). Orange: held while a committee ruling is pending."
            )
        )
        for model in (self.pairs_model, self.matches_model, *self.standings_models.values()):
            model.retranslate()
        self.refresh()

    # ------------------------------------------------------------ the file

    def sync_with_window(self) -> None:
        """Follow the main window's open file (it may have opened another one)."""
        if self.window_ is None:
            return
        tf = self.window_.tf
        if tf is not self._tf:
            self.attach(tf)

    def attach(self, tf: TournamentFile | None) -> None:
        """Show the tournament of ``tf`` (None: nothing open); the file is not closed here."""
        self._tf = tf
        self.t = Tournament(tf) if tf is not None and has_tournament(tf) else None
        self.refresh()

    def open_file(self, path: str | Path) -> bool:
        """Alone (no main window): open a tournament file owned by this view."""
        try:
            tf = TournamentFile.open(path, create=False)
        except (ValueError, OSError) as error:
            self.show_message(self.tr("Cannot open the file"), str(error))
            return False
        self.close_file()
        self._owned = tf
        self.attach(tf)
        return True

    def close_file(self) -> None:
        if self._owned is not None:
            self._owned.close()
            self._owned = None
            self.attach(None)

    def reload(self) -> None:
        """Read the results again (after a desk recorded or the organizer imported)."""
        self.sync_with_window()
        if self.t is not None:
            self.t.invalidate()
        self.refresh()

    def results_changed(self) -> None:
        """A match was recorded in this desk: show it now if visible (else on showing)."""
        if self.isVisible():
            self.reload()
        elif self.t is not None:
            self.t.invalidate()

    # ------------------------------------------------------------ showing

    def refresh(self) -> None:
        if self.window_ is not None and self.window_.tf is not self._tf:
            self._tf = self.window_.tf
            self.t = Tournament(self._tf) if self._tf and has_tournament(self._tf) else None
        ui = self.ui
        t = self.t
        self.state = None
        if t is None:
            ui.titleLabel.setText(
                self.tr("No tournament file open")
                if self._tf is None
                else self.tr("This file holds no tournament")
            )
            ui.infoLabel.setText(
                self.tr("Open a tournament file (File ▸ Open) or create a new tournament.")
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
        parts.append(texts.format_name(settings.format))
        if settings.third_place:
            parts.append(self.tr("third-place match"))
        parts.append(self.tr("ruleset %1").replace("%1", t.ruleset.name))
        if t.drawn:
            parts.append(self.tr("drawn (draw number %1)").replace("%1", str(t.draw_seed)))
        else:
            parts.append(
                self.tr("%1 pairs registered, not drawn yet").replace("%1", str(len(pairs)))
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
            return self.tr("Group %1 (complete)").replace("%1", group)
        return self.tr("Group %1 (in progress)").replace("%1", group)

    def _update_enabled(self) -> None:
        t = self.t
        exists = t is not None
        drawn = exists and t.drawn
        writable = exists and not t.file.read_only
        self.action_new.setEnabled(True)
        for a in (self.action_add_pair, self.action_import_pairs, self.action_draw):
            a.setEnabled(writable and not drawn)
        self.action_remove_pair.setEnabled(writable and not drawn)
        self.action_edit_pair.setEnabled(writable)
        self.action_import_records.setEnabled(writable and drawn)
        self.action_link.setEnabled(writable and drawn)
        self.action_lots.setEnabled(writable and bool(self.groups_needing_lots()))
        for kind in ("bracket", "results", "match"):
            self.export_actions[kind].setEnabled(drawn)
        self.export_actions["scoresheet"].setEnabled(True)
        self.ui.editPairButton.setEnabled(self.action_edit_pair.isEnabled())
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

    # ------------------------------------------------------------ messages, dialogs

    def show_message(
        self, title: str, text: str, icon: QMessageBox.Icon = QMessageBox.Icon.Warning
    ) -> QMessageBox:
        """A non-blocking message box; the text is kept in ``last_message``."""
        self.last_message = text
        self.message_box = open_message(self, title, text, icon)
        return self.message_box

    def status(self, text: str) -> None:
        if self.window_ is not None:
            self.window_.statusBar().showMessage(text, 8000)

    def run_dialog(self, dialog: QDialog, on_accept: Callable[[], None] | None = None) -> QDialog:
        self.active_dialog = dialog

        def finished(result: int) -> None:
            if self.active_dialog is dialog:
                self.active_dialog = None
            if result == QDialog.DialogCode.Accepted and on_accept is not None:
                on_accept()
            dialog.deleteLater()

        dialog.finished.connect(finished)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.open()
        return dialog

    def _need_tournament(self) -> Tournament | None:
        if self.t is None:
            self.show_message(
                self.tr("No tournament"),
                self.tr("Open a tournament file or create a new tournament first."),
            )
        return self.t

    def _refused(self, title: str, error: BaseException) -> None:
        self.show_message(title, str(error))

    # ------------------------------------------------------------ tournament, pairs

    def new_tournament_dialog(self) -> QDialog:
        def create(info: TournamentInfo) -> None:
            path, _f = QFileDialog.getSaveFileName(
                self,
                self.tr("New tournament file"),
                str(Path.cwd() / f"{info.name}.sqlite"),
                self.tr("Tournament files (*.sqlite *.db)"),
            )
            if not path:
                raise ValueError(self.tr("Choose where to keep the tournament file."))
            self.create_tournament(path, info)

        return self.run_dialog(OrganizerNewDialog(create, self))

    def create_tournament(
        self, path: str | Path, info: TournamentInfo, settings: Settings | None = None
    ) -> None:
        """Create the tournament file and open it (in the main window when there is one)."""
        Tournament.create(path, info, settings).close()
        if self.window_ is not None:
            if not self.window_.open_tournament(path, create=False):
                raise ValueError(self.window_.last_message)
            self.attach(self.window_.tf)
        else:
            self.open_file(path)
        self.status(self.tr("Tournament created: %1").replace("%1", str(path)))

    def selected_pair(self) -> Pair | None:
        if self.t is None:
            return None
        index = self.ui.pairsView.currentIndex()
        if not index.isValid():
            return None
        return self.t.pair_map().get(self.pairs_model.id_at(index.row()))

    def add_pair_dialog(self) -> QDialog | None:
        t = self._need_tournament()
        if t is None:
            return None

        def save(p1: str, p2: str, club: str, seed: int | None) -> None:
            t.add_pair(p1, p2, club, seed)

        return self.run_dialog(OrganizerPairDialog(save, None, True, self), self.refresh)

    def edit_pair_dialog(self) -> QDialog | None:
        t = self._need_tournament()
        pair = self.selected_pair()
        if t is None:
            return None
        if pair is None:
            self.show_message(self.tr("No pair"), self.tr("Select a pair in the list first."))
            return None

        def save(p1: str, p2: str, club: str, seed: int | None) -> None:
            t.update_pair(Pair(pair.pair_id, p1, p2, club, seed))

        dialog = OrganizerPairDialog(save, pair, not t.drawn, self)
        return self.run_dialog(dialog, self.refresh)

    def remove_pair_dialog(self) -> None:
        t = self._need_tournament()
        pair = self.selected_pair()
        if t is None or pair is None:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Remove pair"),
            self.tr("Remove pair %1 (%2)?")
            .replace("%1", str(pair.pair_id))
            .replace("%2", pair.name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: Any) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                self.remove_pair(pair.pair_id)

        box.buttonClicked.connect(answered)
        box.open()
        self.message_box = box

    def remove_pair(self, pair_id: int) -> bool:
        t = self._need_tournament()
        if t is None:
            return False
        try:
            t.remove_pair(pair_id)
        except (ValueError, OSError) as error:
            self._refused(self.tr("Pair not removed"), error)
            return False
        self.refresh()
        return True

    def choose_pair_list(self) -> None:
        path, _f = QFileDialog.getOpenFileName(
            self,
            self.tr("Import a pair list"),
            str(Path.cwd()),
            self.tr("Pair lists (*.csv *.xlsx);;All files (*)"),
        )
        if path:
            self.import_pairs(path)

    def import_pairs(self, path: str | Path) -> int:
        """Register the pairs of a CSV or xlsx list; returns how many were added."""
        t = self._need_tournament()
        if t is None:
            return 0
        try:
            rows = read_pairs(path)
        except (ValueError, OSError) as error:
            self._refused(self.tr("Pair list not read"), error)
            return 0
        added = 0
        try:
            for row in rows:
                t.add_pair(*row)
                added += 1
        except (ValueError, OSError) as error:
            self.refresh()
            self.show_message(
                self.tr("Pair list partly imported"),
                self.tr("%1 of %2 pairs were registered; the next one was refused:\n%3")
                .replace("%1", str(added))
                .replace("%2", str(len(rows)))
                .replace("%3", str(error)),
            )
            return added
        self.refresh()
        self.status(self.tr("%1 pairs registered from %2").replace("%1", str(added))
                    .replace("%2", str(path)))  # fmt: skip
        return added

    # ------------------------------------------------------------ the draw

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
            raise ValueError(self.tr("No tournament is open."))
        t.configure(settings=settings)
        t.draw(draw_seed=draw_seed)

    def _after_draw(self) -> None:
        self.refresh()
        self.ui.sections.setCurrentWidget(self.ui.bracketTab)
        if self.t is not None:
            self.status(self.tr("Draw made (draw number %1)").replace("%1", str(self.t.draw_seed)))

    # ------------------------------------------------------------ results from desks

    def choose_records(self) -> None:
        paths, _f = QFileDialog.getOpenFileNames(
            self,
            self.tr("Import match records"),
            str(Path.cwd()),
            self.tr("Match records (*.jsonl *.sqlite *.db);;All files (*)"),
        )
        if paths:
            self.import_records(paths)

    def import_records(self, paths: Sequence[str | Path]) -> ImportResult | None:
        """Bring in desks' records and show what was added, unchanged or in conflict."""
        t = self._need_tournament()
        if t is None:
            return None
        try:
            result = import_records(t, list(paths))
        except (ValueError, OSError) as error:
            self._refused(self.tr("Records not imported"), error)
            return None
        self.last_import = result
        self.refresh()
        self.show_message(
            self.tr("Match records imported"),
            self.import_summary(result),
            QMessageBox.Icon.Information if result.ok else QMessageBox.Icon.Warning,
        )
        return result

    def import_summary(self, result: ImportResult) -> str:
        lines = [
            self.tr("Added: %1 events in %2 matches.")
            .replace("%1", str(sum(result.added.values())))
            .replace("%2", str(len(result.added))),
            self.tr("Unchanged: %1 matches.").replace("%1", str(len(result.unchanged))),
            self.tr("Conflicts: %1.").replace("%1", str(len(result.conflicts))),
        ]
        for c in result.conflicts:
            lines.append(
                self.tr("Conflict in match %1 from %2: %3 (nothing was guessed; the "
                        "committee must decide which record is right)")
                .replace("%1", c.match_id)
                .replace("%2", Path(c.source).name)
                .replace("%3", c.reason)
            )  # fmt: skip
        for r in result.refused:
            lines.append(self.tr("Refused: %1").replace("%1", r))
        for link in result.linked:
            lines.append(
                self.tr("Record %1 counts for %2 (pairs #%3 and #%4).")
                .replace("%1", link.record_id)
                .replace("%2", link.match_id)
                .replace("%3", str(link.pair_a))
                .replace("%4", str(link.pair_b))
            )
        if result.not_in_draw:
            why = result.why_not_linked
            lines.append(
                self.tr(
                    "Recorded under a desk's own id (link them to their drawn matches "
                    "with “Link a record…”): %1"
                ).replace(
                    "%1",
                    ", ".join(f"{m} ({why[m]})" if m in why else m for m in result.not_in_draw),
                )
            )
        return "\n".join(lines)

    def unlinked_records(self) -> list[str]:
        """Records in the file that count for no drawn match yet."""
        if self.t is None:
            return []
        drawn = {m.match_id for m in self.t.matches()}
        linked = set(self.t.links().values())
        return [m for m in self.t.file.match_ids() if m not in drawn and m not in linked]

    def link_dialog(self) -> QDialog | None:
        t = self._need_tournament()
        if t is None or self.state is None:
            return None
        records = self.unlinked_records()
        pairs = t.pair_map()
        open_matches = [
            (
                s.match.match_id,
                f"{texts.pair_text(pairs.get(s.pair_a))} – {texts.pair_text(pairs.get(s.pair_b))}",
            )
            for s in self.state.matches
            if s.status is Status.READY
        ]
        if not records:
            self.show_message(
                self.tr("Nothing to link"),
                self.tr("Every imported record already counts for a drawn match."),
                QMessageBox.Icon.Information,
            )
            return None
        return self.run_dialog(OrganizerLinkDialog(self.link, records, open_matches, self),
                               self.refresh)  # fmt: skip

    def link(self, record_id: str, match_id: str) -> None:
        if self.t is None:
            raise ValueError(self.tr("No tournament is open."))
        self.t.link(record_id, match_id)

    # ------------------------------------------------------------ drawing of lots

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
            raise ValueError(self.tr("No tournament is open."))
        self.t.record_lots(group, lots)

    # ------------------------------------------------------------ assignment

    def _assign(self, match_id: str, table: str | None, referee: str | None) -> None:
        if self.t is None:
            raise ValueError(self.tr("No tournament is open."))
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
            self.show_message(self.tr("Assignment refused"), self.matches_model.last_error)
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

    # ------------------------------------------------------------ exports

    def default_export_name(self, kind: str, match_id: str | None = None) -> str:
        name = self.t.info.name if self.t is not None else "referee-desk"
        suffix = {
            "bracket": "bracket.xlsx",
            "results": "results.pdf",
            "match": f"{match_id or 'match'}.pdf",
            "scoresheet": "scoresheet.pdf",
        }[kind]
        return f"{name}-{suffix}"

    def choose_export(self, kind: str) -> None:
        match_id = self.selected_match_id()
        if kind == "match" and match_id is None:
            self.show_message(
                self.tr("No match selected"),
                self.tr("Select a match in the bracket or in the matches list first."),
            )
            return
        filters = self.tr("Excel workbook (*.xlsx)") if kind == "bracket" else "PDF (*.pdf)"
        path, _f = QFileDialog.getSaveFileName(
            self,
            self.export_actions[kind].text().replace("…", ""),
            str(Path.cwd() / self.default_export_name(kind, match_id)),
            filters,
        )
        if path:
            self.export_document(kind, path, match_id)

    def export_document(
        self, kind: str, path: str | Path, match_id: str | None = None
    ) -> ExportJob | None:
        """Read what the document needs here, write it in a worker, show progress."""
        try:
            work = self._export_work(kind, Path(path), match_id)
        except (ValueError, OSError) as error:
            self._refused(self.tr("Export refused"), error)
            self.export_failed.emit(kind, str(error))
            return None
        job = ExportJob(kind, work)
        progress = QProgressDialog(self.tr("Writing %1…").replace("%1", Path(path).name), "",
                                   0, 0, self)  # fmt: skip
        progress.setCancelButton(None)
        progress.setWindowTitle(self.tr("Export"))
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(400)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        self.progress_dialog = progress
        self.progress_seen: list[tuple[int, int, str]] = []

        def on_progress(done: int, total: int, what: str) -> None:
            self.progress_seen.append((done, total, what))
            progress.setMaximum(max(total, 1))
            progress.setValue(min(done, max(total, 1)))
            progress.setLabelText(
                self.tr("Writing %1: %2").replace("%1", Path(path).name).replace("%2", what)
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
            self.status(self.tr("Written: %1").replace("%1", written))
            self._offer_open(written)
            self.export_finished.emit(kind, written)

        def failed(reason: str) -> None:
            finish()
            self.show_message(
                self.tr("Export failed"),
                self.tr("%1 could not be written:\n%2")
                .replace("%1", str(path))
                .replace("%2", reason),
            )
            self.export_failed.emit(kind, reason)

        job.signals.progress.connect(on_progress)
        job.signals.finished.connect(done)
        job.signals.failed.connect(failed)
        self.jobs.append(job)
        return start(job)

    def _export_work(
        self, kind: str, path: Path, match_id: str | None
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
        t = self.t
        if t is None or not t.drawn:
            raise ValueError(self.tr("Make the draw first: there is nothing to print yet."))
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
                raise ValueError(self.tr("Select a match first."))
            record = t.record_id(match_id)
            events = t.file.events(record)
            if not events:
                raise ValueError(
                    self.tr("Match %1 has no record in this file yet.").replace("%1", match_id)
                )
            seal = t.file.seal(record)
            name = t.info.name
            return lambda progress: _single(
                progress, "match",
                lambda: export_match_report_pdf(
                    events, path, font_path=font,
                    seal_hash=seal.head_hash if seal else None, tournament_name=name,
                ),
            )  # fmt: skip
        raise ValueError(f"unknown document {kind!r}; known: {', '.join(EXPORT_KINDS)}")

    def _scoresheet_header(self, match_id: str | None) -> tuple[dict[str, str], dict[str, Any]]:
        """Tournament (and, with a match selected, its round, table, referee and pairs)."""
        t = self.t
        if t is None:
            return {}, {}
        header = {"tournament": t.info.name, "date": t.info.start_date}
        kwargs: dict[str, Any] = {"ruleset": t.ruleset}
        if match_id is None or not t.drawn:
            return header, kwargs
        m = t.match(match_id)
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
            self.tr("Export finished"),
            self.tr("Written: %1").replace("%1", path),
            QMessageBox.StandardButton.Close,
            self,
        )
        self.open_button = box.addButton(self.tr("Open"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(self.open_button)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        button = self.open_button
        box.buttonClicked.connect(lambda b: self.open_result(path) if b is button else None)
        self.last_message = box.text()
        box.open()
        self.message_box = box

    def open_result(self, path: str | Path) -> None:
        self.open_url(QUrl.fromLocalFile(str(path)))

    def wait_for_exports(self) -> None:
        """Block until running exports are written (closing the desk, tests)."""
        from PySide6.QtCore import QThreadPool

        QThreadPool.globalInstance().waitForDone()


def _single(progress: Progress, what: str, work: Callable[[], Path]) -> Path:
    """A one-step document: report its start and end."""
    progress(0, 1, what)
    out = work()
    progress(1, 1, what)
    return out
