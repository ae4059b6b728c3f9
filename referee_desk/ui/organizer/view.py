"""The organizer view: pairs, seeding and the draw, the bracket, standings, assignment, exports.

It shows what the tournament layer (``referee_desk.tournament``) holds and derives, and
calls it for every change; it never ranks, advances or decides anything itself. It
works on the main window's open tournament file (shared, never closed here) or, alone,
on a file it opens itself. Dialogs and messages open window-modal without blocking
(``active_dialog``, ``message_box``), so the same code serves the mouse and the tests.

This module builds the view, its models, actions and menus, its dialogs and messages,
and wires the parts, which own their state and are given what they need (as the main
window's are): ``shown`` (``ShownTournament``: which tournament is shown, the window's
file, the view's own or the server's), ``display`` (``showing.OrganizerDisplay``: title,
tables, bracket, standings), ``pairs_actions`` (``PairActions``), ``draw_actions``
(``DrawActions``: draw, lots, assignment), ``exports`` (``OrganizerExports``: File ▸
Export) and ``records_import`` (``RecordsImport``: importing desks' records, linking
one to a drawn match). Callers use the parts directly
(``view.pairs_actions.import_pairs(path)``, ``view.shown.attach_server(t)``); the view
forwards only ``refresh``, ``state``, ``t`` and ``on_server``. No part imports this
module. The parts' strings are translated in the ``OrganizerView`` context explicitly,
since lupdate names the context after the class a string is written in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGraphicsScene,
    QHeaderView,
    QMenu,
    QMessageBox,
    QStyledItemDelegate,
    QWidget,
)

from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import TournamentState
from referee_desk.ui.generated.ui_organizer_view import Ui_OrganizerView
from referee_desk.ui.messages import open_message
from referee_desk.ui.organizer.draw_actions import DrawActions
from referee_desk.ui.organizer.export_actions import EXPORT_KINDS, OrganizerExports
from referee_desk.ui.organizer.models import (
    CHOICES_ROLE,
    OrganizerMatchesModel,
    OrganizerPairsModel,
)
from referee_desk.ui.organizer.pairs_actions import PairActions
from referee_desk.ui.organizer.records_import import RecordsImport
from referee_desk.ui.organizer.showing import OrganizerDisplay, groups_needing_lots
from referee_desk.ui.organizer.shown import DeskFiles, ShownTournament, has_tournament

TITLE_STYLE = "font-size: 16pt; font-weight: bold;"
#: The organizer works at a desk, not a card table: smaller buttons than the match view.
VIEW_STYLE = """
QPushButton { font-size: 11pt; min-height: 30px; padding: 2px 10px; }
QGroupBox { font-size: 12pt; font-weight: bold; }
QTableView { font-size: 11pt; }
"""
PROBLEM_STYLE = "color: #b00020;"


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
        desk: DeskFiles | None = None,
        parent: QWidget | None = None,
        *,
        font_path: str | None = None,
    ) -> None:
        """``desk``: the main window's files (None: the view alone opens its own)."""
        super().__init__(parent)
        self.ui = Ui_OrganizerView()
        self.ui.setupUi(self)
        # The sections (pairs, bracket, standings, matches) by keyboard wherever the focus
        # is while the view shows: Ctrl+PgDown / Ctrl+PgUp, as in other tabbed programs.
        for key, step in (("Ctrl+PgDown", 1), ("Ctrl+PgUp", -1)):
            QShortcut(
                QKeySequence(key),
                self,
                activated=lambda step=step: self.step_section(step),
                context=Qt.ShortcutContext.WindowShortcut,
            )
        self.setStyleSheet(VIEW_STYLE)
        self.ui.titleLabel.setStyleSheet(TITLE_STYLE)
        self.ui.problemsLabel.setStyleSheet(PROBLEM_STYLE)
        self.active_dialog: QDialog | None = None
        self.message_box: QMessageBox | None = None
        self.last_message = ""
        status = desk.status if desk is not None else _no_status
        self.shown = ShownTournament(desk, self.show_message, self)
        self.pairs_model = OrganizerPairsModel(self)
        self.ui.pairsView.setModel(self.pairs_model)
        self.matches_model = OrganizerMatchesModel(self)
        self.ui.matchesView.setModel(self.matches_model)
        self.scene = QGraphicsScene(self)
        self.ui.bracketView.setScene(self.scene)
        # Enabled by the tournament's stage after each repaint, before anyone else hears.
        self.changed.connect(self._update_enabled)
        self.display = OrganizerDisplay(
            self.ui,
            self.shown,
            self.pairs_model,
            self.matches_model,
            self.scene,
            self.changed,
            self,
        )
        self.shown.repaint.connect(self.display.refresh)
        refresh = self.display.refresh
        self.pairs_actions = PairActions(
            self,
            self.shown,
            self.pairs_model,
            self.ui.pairsView,
            need=self.need_tournament,
            refresh=refresh,
            run_dialog=self.run_dialog,
            show_message=self.show_message,
            show_box=self.show_box,
            status=status,
            ask_before_closing_match=(
                desk.ask_before_closing_match if desk is not None else _proceed
            ),
        )
        self.draw_actions = DrawActions(
            self,
            self.shown,
            self.matches_model,
            self.ui.matchesView,
            self.scene,
            state=lambda: self.display.state,
            need=self.need_tournament,
            refresh=refresh,
            run_dialog=self.run_dialog,
            show_message=self.show_message,
            status=status,
            show_bracket=lambda: self.ui.sections.setCurrentWidget(self.ui.bracketTab),
        )
        self.records_import = RecordsImport(
            self,
            self.shown,
            state=lambda: self.display.state,
            need=self.need_tournament,
            refresh=refresh,
            run_dialog=self.run_dialog,
            show_message=self.show_message,
        )
        self.exports = OrganizerExports(
            self,
            self.shown,
            font_path,
            selected_match=self.draw_actions.selected_match_id,
            show_message=self.show_message,
            show_box=self.show_box,
            status=status,
            finished=self.export_finished,
            failed=self.export_failed,
        )
        self.export_actions = self.exports.actions
        self.export_menu = self.exports.menu

        self.matches_model.assign = self.draw_actions.record_assignment
        self._delegate = _ChoiceDelegate(self)
        self.ui.matchesView.setItemDelegateForColumn(OrganizerMatchesModel.TABLE, self._delegate)
        self.ui.matchesView.setItemDelegateForColumn(OrganizerMatchesModel.REFEREE, self._delegate)
        self.ui.pairsView.horizontalHeader().setStretchLastSection(True)
        self.ui.groupsTabLayout.setAlignment(self.ui.lotsButton, Qt.AlignmentFlag.AlignLeft)
        for view in (self.ui.pairsView, self.ui.matchesView):
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.verticalHeader().hide()
        self.ui.pairsView.doubleClicked.connect(lambda _i: self.pairs_actions.edit_pair_dialog())
        self.scene.selectionChanged.connect(self.draw_actions.box_selected)

        self._make_actions()
        # Each button triggers its action and is enabled as it is (``_update_enabled``).
        self._buttons = {
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
        for button, action in self._buttons.items():
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

        pairs, draw, records = self.pairs_actions, self.draw_actions, self.records_import
        self.action_new = action(pairs.new_tournament_dialog)
        self.action_add_pair = action(pairs.add_pair_dialog)
        self.action_edit_pair = action(pairs.edit_pair_dialog)
        self.action_remove_pair = action(pairs.remove_pair_dialog)
        self.action_import_pairs = action(pairs.choose_pair_list)
        self.action_draw = action(draw.draw_dialog)
        self.action_import_records = action(records.choose_records)
        self.action_link = action(records.link_dialog)
        self.action_lots = action(draw.lots_dialog)
        self.action_refresh = action(self.shown.reload, "F5")
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
        self.export_actions["round_pack"].setText(
            self.tr("Round pack: pairings, table cards, scoresheets (PDF)…")
        )
        self.export_actions["players"].setText(self.tr("Player index: find your table (PDF)…"))
        self.ui.legendLabel.setText(
            self.tr(
                "Bold: the winner. Red marks: wins by forfeit (8.10), disqualification (8.8) "
                "or committee ruling (8.11). Orange: held while a committee ruling is pending."
            )
        )
        for model in (self.pairs_model, self.matches_model):
            model.retranslate()
        self.display.retranslate()
        self.refresh()

    # ------------------------------------------------------------ entry points

    def step_section(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) section, wrapping round."""
        sections = self.ui.sections
        sections.setCurrentIndex((sections.currentIndex() + step) % sections.count())

    def refresh(self) -> None:
        """Show the tournament as it is now (``changed`` is emitted after)."""
        self.display.refresh()

    @property
    def state(self) -> TournamentState | None:
        """The tournament's state as last shown (None: no tournament, or not drawn)."""
        return self.display.state

    @property
    def t(self) -> Tournament | None:
        """The tournament shown (owned by ``shown``)."""
        return self.shown.t

    @property
    def on_server(self) -> bool:
        """Whether the server's tournament is shown (owned by ``shown``)."""
        return self.shown.on_server

    def results_changed(self) -> None:
        """A match was recorded in this desk: show it now if visible (else on showing)."""
        if self.isVisible():
            self.shown.reload()
        elif self.shown.t is not None:
            self.shown.t.invalidate()

    def _update_enabled(self) -> None:
        """Enable what the tournament's stage and the file's access allow."""
        t = self.shown.t
        drawn = t is not None and t.drawn
        writable = t is not None and not t.file.read_only
        on_server = self.shown.on_server
        # A new tournament is a new file; the server's tournament is made with
        # ``referee-desk tournament create URL`` (the button says so).
        self.action_new.setEnabled(not on_server)
        self.action_new.setToolTip(
            self.tr(
                "This view shows the tournament on the server; a new tournament is a new "
                "file (File ▸ Open leaves the server's view)."
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
        self.action_lots.setEnabled(writable and bool(groups_needing_lots(self.display.state)))
        for kind in ("bracket", "results", "match", "round_pack", "players"):
            self.export_actions[kind].setEnabled(drawn)
        self.export_actions["scoresheet"].setEnabled(True)
        for button, a in self._buttons.items():
            button.setEnabled(a.isEnabled())

    # ------------------------------------------------------------ messages, dialogs

    def show_message(
        self, title: str, text: str, icon: QMessageBox.Icon = QMessageBox.Icon.Warning
    ) -> QMessageBox:
        """A non-blocking message box; the text is kept in ``last_message``."""
        self.last_message = text
        self.message_box = open_message(self, title, text, icon)
        return self.message_box

    def show_box(self, box: QMessageBox) -> QMessageBox:
        """Open a box a part built (window-modal, deleting itself when closed) without
        blocking; it is ``message_box`` now, its text ``last_message``."""
        self.last_message = box.text()
        box.open()
        self.message_box = box
        return box

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

    def need_tournament(self) -> Tournament | None:
        """The open tournament; without one, a message says to open or create one."""
        t = self.shown.t
        if t is None:
            self.show_message(
                self.tr("No tournament"),
                self.tr("Open a tournament file or create a new tournament first."),
            )
        return t


def _no_status(_text: str) -> None:
    """Alone, the view has no status bar."""


def _proceed(proceed: Callable[[], Any]) -> None:
    """Alone, no match is open at the view: nothing to ask before closing it."""
    proceed()


__all__ = ["EXPORT_KINDS", "DeskFiles", "OrganizerView", "has_tournament"]
