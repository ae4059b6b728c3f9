"""Review mode: stepping through the event log, and filtering it to violations.

``Review`` owns which event is reviewed (``row``; None = the live match) and which event
is selected; it is given the log's view, its models and the open match, and says
``moved`` when the reviewed event changes (the display repaints). Entries other than
notes and corrections wait while an event is reviewed.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Signal
from PySide6.QtWidgets import QCheckBox, QTableView

from referee_desk.ui.event_model import EventLogModel, ViolationFilterProxy
from referee_desk.ui.log_follow import LogFollower
from referee_desk.ui.main_session import MatchChange, MatchController


class Review(QObject):
    """The reviewed event of one event log (None: live)."""

    moved = Signal()
    """the reviewed event changed (or review mode was left)"""

    def __init__(
        self,
        view: QTableView,
        model: EventLogModel,
        proxy: ViolationFilterProxy,
        violations_only: QCheckBox,
        match: MatchController,
    ) -> None:
        super().__init__(view)
        self.view = view
        self.model = model
        self.proxy = proxy
        self.violations_only = violations_only
        self.match = match
        self.row: int | None = None
        self.follower = LogFollower(view, lambda: self.row is not None)
        view.selectionModel().currentRowChanged.connect(self.on_row_changed)

    def on_change(self, _change: MatchChange) -> None:
        """Any change of the open match shows it live again."""
        self.row = None

    def on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        session = self.match.session
        if session is None or not current.isValid():
            return
        row = self.proxy.mapToSource(current).row()
        self.row = None if row == len(session.events) - 1 else row
        self.moved.emit()

    def step(self, delta: int) -> None:
        session = self.match.session
        if session is None or not session.events:
            return
        last = len(session.events) - 1
        row = last if self.row is None else self.row
        row = max(0, min(last, row + delta))
        proxy_index = self.proxy.mapFromSource(self.model.index(row, 0))
        if proxy_index.isValid():
            self.view.selectionModel().setCurrentIndex(
                proxy_index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        self.row = None if row == last else row
        self.moved.emit()

    def leave(self) -> None:
        self.view.clearSelection()
        self.view.setCurrentIndex(QModelIndex())
        self.row = None
        self.moved.emit()
        self.follower.follow()

    def set_violations_only(self, enabled: bool) -> None:
        self.violations_only.setChecked(enabled)
        self.proxy.set_only_violations(enabled)
        self.follower.follow()

    def selected_seq(self) -> int | None:
        """The seq of the event selected in the log (None: none selected)."""
        index = self.view.currentIndex()
        if not index.isValid():
            return None
        return self.model.event_at(self.proxy.mapToSource(index).row()).seq
