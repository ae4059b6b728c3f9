"""Review mode: stepping through the event log, and filtering it to violations.

``Review`` owns which event is reviewed (``row``; None = the live match). The window
shows the state as of that event; entries other than notes and corrections wait.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QModelIndex

if TYPE_CHECKING:
    from referee_desk.ui.main_window import MainWindow


class Review:
    """The reviewed event of the window's event log (None: live)."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window
        self.row: int | None = None

    def on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        session = self.w.session
        if session is None or not current.isValid():
            return
        row = self.w.proxy.mapToSource(current).row()
        self.row = None if row == len(session.events) - 1 else row
        self.w.refresh_view()

    def step(self, delta: int) -> None:
        session = self.w.session
        if session is None or not session.events:
            return
        last = len(session.events) - 1
        row = last if self.row is None else self.row
        row = max(0, min(last, row + delta))
        proxy_index = self.w.proxy.mapFromSource(self.w.model.index(row, 0))
        if proxy_index.isValid():
            self.w.ui.eventView.selectionModel().setCurrentIndex(
                proxy_index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        self.row = None if row == last else row
        self.w.refresh_view()

    def leave(self) -> None:
        view = self.w.ui.eventView
        view.clearSelection()
        view.setCurrentIndex(QModelIndex())
        self.row = None
        self.w.refresh_view()
        self.w.log_follower.follow()

    def set_violations_only(self, enabled: bool) -> None:
        self.w.ui.violationsOnlyCheck.setChecked(enabled)
        self.w.proxy.set_only_violations(enabled)
        self.w.log_follower.follow()
