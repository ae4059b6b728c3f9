"""The organizer's part of the desk: pairs, the draw, the bracket, standings and exports.

``install_organizer(window)`` puts the organizer view beside the match view of the
main window (a tab), adds File ▸ Export and a Tournament menu, and follows the file the
window has open. The main window itself is not changed otherwise.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from referee_desk.ui.organizer.tabs import OrganizerTabs
from referee_desk.ui.organizer.view import EXPORT_KINDS, OrganizerView


def install_organizer(window: Any) -> OrganizerView:
    """Add the organizer view to ``window`` (a ``MainWindow``) and return it."""
    view = OrganizerView(window=window)
    central = window.takeCentralWidget()
    tabs = OrganizerTabs(central, view, window)
    window.setCentralWidget(tabs)
    ui = window.ui
    ui.menuFile.insertMenu(ui.actionSettings, view.export_menu)
    ui.menuFile.insertSeparator(ui.actionSettings)
    window.menuBar().insertMenu(ui.menuHelp.menuAction(), view.tournament_menu)
    window.addAction(view.action_refresh)
    # The window opens and closes files on its own: follow it.
    window.file_changed.connect(view.sync_with_window)

    single_keys = _SingleKeyShortcuts(window.actions())

    def tab_changed(index: int) -> None:
        on_organizer = tabs.widget(index) is view
        # B, R, T, V, Space … belong to the match view: typing in the organizer's
        # tables must not record a bid.
        single_keys.set_active(not on_organizer)
        if on_organizer:
            view.reload()

    tabs.currentChanged.connect(tab_changed)
    # Live results: every entry the referee records goes through the window's undo stack.
    window.undo_stack.indexChanged.connect(lambda _index: view.results_changed())
    window.organizer_tabs = tabs
    window.organizer = view
    view.sync_with_window()
    return view


class _SingleKeyShortcuts:
    """The window's one-key shortcuts (no modifier), switched off and on together."""

    def __init__(self, actions: list[QAction]) -> None:
        self._keys = {
            action: action.shortcut()
            for action in actions
            if not action.shortcut().isEmpty()
            and action.shortcut()[0].keyboardModifiers() == Qt.KeyboardModifier.NoModifier
            and action.shortcut()[0].key() != Qt.Key.Key_F1
        }

    def set_active(self, active: bool) -> None:
        for action, key in self._keys.items():
            action.setShortcut(key if active else QKeySequence())


__all__ = ["EXPORT_KINDS", "OrganizerTabs", "OrganizerView", "install_organizer"]
