"""The organizer view: pairs, seeding and the draw, the bracket, standings, assignment, exports.

It shows what the tournament layer (``referee_desk.tournament``) holds and derives, and
calls it for every change; it never ranks, advances or decides anything itself. It
works on the main window's open tournament file (shared, never closed here) or, alone,
on a file it opens itself. Dialogs and messages open window-modal without blocking
(``active_dialog``, ``message_box``), so the same code serves the mouse and the tests.

This module builds the view, its actions and menus, and follows the file; the work is
done by collaborators the view owns, each with its own state: ``display``
(``showing.OrganizerDisplay``: title, tables, bracket, standings), ``pairs_actions``
(``PairActions``), ``draw_actions`` (``DrawActions``: draw, lots, assignment),
``records_import`` (``RecordsImport``) and ``exports`` (``OrganizerExports``); callers
use them directly (``view.pairs_actions.import_pairs(path)``), the view forwards
nothing but ``refresh`` and ``state``. They see the view as an ``OrganizerHost``
(``host.py``: the tournament shown, the form, models, dialogs and messages) and never
import this module. The collaborators' strings are translated in the
``OrganizerView`` context explicitly, since lupdate names the context after the class a
string is written in.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
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

from referee_desk.store.tournament_file import TournamentFile
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
from referee_desk.ui.organizer.showing import OrganizerDisplay, has_tournament
from referee_desk.ui.refusals import refusal_message

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
    server_reload = Signal()
    """F5 or the tab shown while on a server: its owner re-reads it (``on_server``)."""
    server_left = Signal()
    """The window opened a file while the view showed a server's tournament."""

    def __init__(
        self,
        window: Any = None,
        parent: QWidget | None = None,
        *,
        font_path: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.window_ = window
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
        self._tf: TournamentFile | None = None
        self._owned: TournamentFile | None = None
        # True while the view shows a server's tournament (``organizer.on_server`` owns
        # it; ``t`` is None while connecting): the view does not follow the window's file.
        self.on_server = False
        # (title in English, translated when shown; info line) while the server's
        # tournament is not open.
        self.server_note = ("", "")
        self.t: Tournament | None = None
        self.active_dialog: QDialog | None = None
        self.message_box: QMessageBox | None = None
        self.last_message = ""
        self.display = OrganizerDisplay(self)
        self.pairs_actions = PairActions(self)
        self.draw_actions = DrawActions(self)
        self.records_import = RecordsImport(self)
        self.exports = OrganizerExports(
            self, font_path, selected_match=self.draw_actions.selected_match_id
        )

        self.pairs_model = OrganizerPairsModel(self)
        self.ui.pairsView.setModel(self.pairs_model)
        self.matches_model = OrganizerMatchesModel(self)
        self.matches_model.assign = self.draw_actions.record_assignment
        self.ui.matchesView.setModel(self.matches_model)
        self._delegate = _ChoiceDelegate(self)
        self.ui.matchesView.setItemDelegateForColumn(OrganizerMatchesModel.TABLE, self._delegate)
        self.ui.matchesView.setItemDelegateForColumn(OrganizerMatchesModel.REFEREE, self._delegate)
        self.ui.pairsView.horizontalHeader().setStretchLastSection(True)
        self.ui.groupsTabLayout.setAlignment(self.ui.lotsButton, Qt.AlignmentFlag.AlignLeft)
        for view in (self.ui.pairsView, self.ui.matchesView):
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.verticalHeader().hide()
        self.ui.pairsView.doubleClicked.connect(lambda _i: self.pairs_actions.edit_pair_dialog())
        self.scene = QGraphicsScene(self)
        self.ui.bracketView.setScene(self.scene)
        self.scene.selectionChanged.connect(self.draw_actions.box_selected)

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
        self.action_refresh = action(self.reload, "F5")
        choose = self.exports.choose_export
        self.export_actions = {kind: action(lambda k=kind: choose(k)) for kind in EXPORT_KINDS}
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

    # ------------------------------------------------------------ the file

    @property
    def file_shown(self) -> TournamentFile | None:
        """The desk file whose tournament is shown (None: none, or the server's)."""
        return self._tf

    def follow_window_file(self) -> None:
        """Take the window's file if it changed (not while showing the server's)."""
        if self.on_server or self.window_ is None or self.window_.tf is self._tf:
            return
        self._tf = self.window_.tf
        self.t = Tournament(self._tf) if self._tf and has_tournament(self._tf) else None

    def sync_with_window(self) -> None:
        """Follow the main window's open file (it may have opened another one)."""
        if self.window_ is None:
            return
        tf = self.window_.tf
        if self.on_server:
            if tf is None:
                return
            self.server_left.emit()  # the window opened a file: the server's view ends
            self.leave_server()
        if tf is not self._tf:
            self.attach(tf)

    def attach(self, tf: TournamentFile | None) -> None:
        """Show the tournament of ``tf`` (None: nothing open); the file is not closed here."""
        self.on_server = False
        self._tf = tf
        self.t = Tournament(tf) if tf is not None and has_tournament(tf) else None
        self.refresh()

    def attach_server(self, t: Tournament | None) -> None:
        """Show a tournament opened on a server (None: still connecting); its owner
        (``organizer.on_server``) closes it."""
        self.on_server = True
        self._tf = None
        self.t = t
        self.refresh()

    def leave_server(self) -> None:
        """The server's tournament is no longer shown (its owner closed it)."""
        if self.on_server:
            self.on_server = False
            self.t = None
            self.refresh()

    def open_file(self, path: str | Path) -> bool:
        """Alone (no main window): open a tournament file owned by this view."""
        try:
            tf = TournamentFile.open(path, create=False)
        except (ValueError, OSError) as error:
            self.show_message(self.tr("Cannot open the file"), refusal_message(error))
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
        if self.on_server:
            self.server_reload.emit()  # its owner re-reads, and reconnects when needed
            return
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

    def need_tournament(self) -> Tournament | None:
        """The open tournament; without one, a message says to open or create one."""
        if self.t is None:
            self.show_message(
                self.tr("No tournament"),
                self.tr("Open a tournament file or create a new tournament first."),
            )
        return self.t

    def refuse(self, title: str, error: BaseException) -> None:
        """Say why the layer refused, in the user's language."""
        self.show_message(title, refusal_message(error))


__all__ = ["EXPORT_KINDS", "OrganizerView", "has_tournament"]
