"""The tab widget that puts the organizer view beside the referee's match view."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QTabWidget, QWidget


class OrganizerTabs(QTabWidget):
    """Tab 0: the match view (the window's former central widget); tab 1: the organizer."""

    def __init__(self, match_view: QWidget, organizer: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("organizerTabs")
        self.match_view = match_view
        self.organizer = organizer
        self.addTab(match_view, "")
        self.addTab(organizer, "")
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setTabText(0, self.tr("Match"))
        self.setTabText(1, self.tr("Tournament"))
