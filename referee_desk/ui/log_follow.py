"""The event log keeps its newest row wholly in view unless the referee scrolled away.

The log's room changes after an entry (the detail line below it wraps), on a resize and
when the violations filter is toggled; each time the view's scroll range changes. The
follower owns one fact, whether the log follows its newest row, and re-scrolls on every
range change while it does. Only the referee's own scrolling (wheel, scroll bar, page
keys) stops following, and it resumes when they scroll back to the end, on a new entry
or when review mode is left.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QAbstractItemView, QTableView


class LogFollower(QObject):
    """Keeps a table view scrolled to its last row while ``following``."""

    def __init__(self, view: QTableView, in_review: object) -> None:
        super().__init__(view)
        self.view = view
        self._in_review = in_review
        self.following = True
        view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        bar = view.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.actionTriggered.connect(self._scrolled_by_hand)
        model = view.model()
        model.modelReset.connect(self.follow)
        model.rowsInserted.connect(self.follow)
        model.layoutChanged.connect(self._settle)

    def _reviewing(self) -> bool:
        return bool(self._in_review())  # type: ignore[operator]

    def follow(self, *_args: object) -> None:
        """Follow the newest row again (a new entry, review left) and show it now."""
        self.following = True
        self._settle()

    def _settle(self, *_args: object) -> None:
        self.bottom()
        QTimer.singleShot(0, self.bottom)  # after the layout has given the log its room

    def bottom(self) -> None:
        if self.following and not self._reviewing():
            bar = self.view.verticalScrollBar()
            bar.setValue(bar.maximum())

    def _range_changed(self, _low: int, _high: int) -> None:
        self.bottom()

    def _scrolled_by_hand(self, _action: int) -> None:
        bar = self.view.verticalScrollBar()
        # the action's value is applied after this signal: read the slider's position
        QTimer.singleShot(0, lambda: self._judge(bar.value() >= bar.maximum()))

    def _judge(self, at_end: bool) -> None:
        self.following = at_end
