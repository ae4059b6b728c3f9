"""The violation menu (V, then 1-9, 0): its entries, which the match's preset offers.

``ViolationMenu`` owns the menu and its actions; choosing one emits ``chosen`` with the
dialog class, and whoever records entries opens it. A key may serve two presets
(2: 劳改 or 藏张, 3: open bid or failed throw), one of them shown (issue 12).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QPushButton, QWidget

from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.ui.dialogs.violations import VIOLATION_MENU, KittyDialog


class ViolationMenu(QObject):
    """The menu under the violation button; ``offered`` are its visible entries by key."""

    chosen = Signal(object)
    """(dialog class) an entry was chosen"""

    def __init__(self, parent: QWidget, button: QPushButton, kitty_action: QAction) -> None:
        super().__init__(parent)
        self.button = button
        self.kitty_action = kitty_action
        self.menu = QMenu(parent)
        #: Every menu entry (key, dialog class, action), offered or not.
        self.entries: list[tuple[str, type, QAction]] = []
        for key, dialog_class in VIOLATION_MENU:
            action = self.menu.addAction("")
            action.triggered.connect(lambda _c=False, cls=dialog_class: self.chosen.emit(cls))
            self.entries.append((key, dialog_class, action))
        self.offer(GUILIN_2009)

    def offer(self, ruleset: Ruleset) -> None:
        """Show the violations the match's preset has, hide the others (issue 12)."""
        for _key, dialog_class, action in self.entries:
            action.setVisible(dialog_class.offered(ruleset))
        self.kitty_action.setVisible(KittyDialog.offered(ruleset))

    @property
    def offered(self) -> dict[str, QAction]:
        """The offered entries by key (1-9, 0)."""
        return {key: action for key, _cls, action in self.entries if action.isVisible()}

    def popup(self) -> None:
        self.menu.popup(self.button.mapToGlobal(self.button.rect().bottomLeft()))

    def retranslate(self) -> None:
        for key, dialog_class, action in self.entries:
            action.setText(f"&{key}  {dialog_class.title()} ({dialog_class.ARTICLE})")

    def style(self, point_size: str) -> None:
        self.menu.setStyleSheet(f"QMenu {{ font-size: {point_size}; }}")
