"""Message boxes that never block the event loop (a referee's desk keeps running)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


def open_message(
    parent: QWidget, title: str, text: str, icon: QMessageBox.Icon = QMessageBox.Icon.Warning
) -> QMessageBox:
    """Show a window-modal message box without blocking; it deletes itself when closed."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
