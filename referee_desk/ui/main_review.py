"""Review mode: stepping through the event log and filtering it to violations.

Mixed into ``MainWindow``.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex


class ReviewMixin:
    """MainWindow methods of review mode and the event log filter."""

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.session is None or not current.isValid():
            return
        row = self.proxy.mapToSource(current).row()
        self.review_row = None if row == len(self.session.events) - 1 else row
        self.refresh_view()

    def step_review(self, delta: int) -> None:
        if self.session is None or not self.session.events:
            return
        last = len(self.session.events) - 1
        row = last if self.review_row is None else self.review_row
        row = max(0, min(last, row + delta))
        source = self.model.index(row, 0)
        proxy_index = self.proxy.mapFromSource(source)
        if proxy_index.isValid():
            self.ui.eventView.selectionModel().setCurrentIndex(
                proxy_index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        self.review_row = None if row == last else row
        self.refresh_view()

    def leave_review(self) -> None:
        self.ui.eventView.clearSelection()
        self.ui.eventView.setCurrentIndex(QModelIndex())
        self.review_row = None
        self.refresh_view()

    def set_violations_only(self, enabled: bool) -> None:
        self.ui.violationsOnlyCheck.setChecked(enabled)
        self.proxy.set_only_violations(enabled)
