"""The organizer's part of the desk: pairs, the draw, the bracket, standings and exports.

``install_organizer(window)`` puts the organizer view beside the match view of the
main window (a tab), adds File ▸ Export and a Tournament menu, and follows the file the
window has open; it returns the tabs (``tabs.organizer`` is the view), which the window
keeps. The view is lent only the window's files (``DeskFiles``). The window subscribes
the view to its match's change signal (live results).
"""

from __future__ import annotations

from typing import Any

from referee_desk.ui.organizer.shown import DeskFiles
from referee_desk.ui.organizer.tabs import OrganizerTabs
from referee_desk.ui.organizer.view import EXPORT_KINDS, OrganizerView


def install_organizer(window: Any) -> OrganizerTabs:
    """Add the organizer view to ``window`` (a ``MainWindow``); return the tabs."""
    desk = DeskFiles(
        current=lambda: window.tf,
        open=lambda path: window.files.open_tournament(path, create=False),
        why_not=lambda: window.last_message,
        ask_before_closing_match=window.ask_before_closing_match,
        status=lambda text: window.statusBar().showMessage(text, 8000),
    )
    view = OrganizerView(desk)
    central = window.takeCentralWidget()
    tabs = OrganizerTabs(central, view, window)
    window.setCentralWidget(tabs)
    ui = window.ui
    ui.menuFile.insertMenu(ui.actionSettings, view.export_menu)
    ui.menuFile.insertSeparator(ui.actionSettings)
    window.menuBar().insertMenu(ui.menuHelp.menuAction(), view.tournament_menu)
    window.addAction(view.action_refresh)
    # The window opens and closes files on its own: follow it.
    window.file_changed.connect(view.shown.sync_with_window)

    def tab_changed(index: int) -> None:
        # B, R, T, V, Space … stay live on this tab: each brings the match view back
        # before it acts (MainWindow.show_match_view), so no key is silent.
        if tabs.widget(index) is view:
            view.shown.reload()

    tabs.currentChanged.connect(tab_changed)
    view.shown.sync_with_window()
    return tabs


__all__ = ["EXPORT_KINDS", "DeskFiles", "OrganizerTabs", "OrganizerView", "install_organizer"]
