"""Language, settings, seat rotation, the shortcut list and the about box.

Mixed into ``MainWindow``; strings keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QMessageBox

from referee_desk.ui.dialogs.settings_dialog import SettingsDialog


class DeskSettingsMixin:
    """MainWindow methods for the desk's settings and help."""

    def set_language(self, language: str) -> None:
        """Switch the interface language now (no restart) and remember it."""
        self.settings.language = language
        self.languages.apply(language)

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.settings.bottom_seat = dialog.bottom_seat
                if dialog.language != self.languages.current:
                    self.set_language(dialog.language)
                self.refresh_view()

        self.run_dialog(dialog, done)

    def rotate_seats(self) -> None:
        """Turn the diagram a quarter so the referee's nearest seat is at the bottom."""
        self.settings.bottom_seat = self.settings.bottom_seat.next_in_play
        self.refresh_view()

    def shortcut_lines(self) -> list[str]:
        actions = [a for a in self.actions() if not a.shortcut().isEmpty()]
        return [f"{a.shortcut().toString()}\t{a.text().replace('&', '')}" for a in actions]

    def show_shortcuts(self) -> None:
        lines = self.shortcut_lines()
        lines += [
            f"{key}\t{a.text().replace('&', '')}" for key, a in self.violation_actions.items()
        ]
        self.show_message(
            QCoreApplication.translate("MainWindow", "Keyboard shortcuts"),
            "\n".join(lines),
            QMessageBox.Icon.Information,
        )

    def show_about(self) -> None:
        self.show_message(
            QCoreApplication.translate("MainWindow", "About Referee Desk"),
            QCoreApplication.translate(
                "MainWindow",
                "Referee Desk: the referee's desk for Guilin four-deck Tractor tournaments.",
            ),
            QMessageBox.Icon.Information,
        )
