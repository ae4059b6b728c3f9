"""Language, settings, seat rotation, the shortcut list and the about box.

``DeskPreferences`` acts on the ``DeskSettings`` and the ``LanguageManager`` it is given,
and says what changed (``seats_changed``, ``server_changed``) for the display and the
server sync to follow; strings keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from referee_desk.ui.dialogs.settings_dialog import SettingsDialog
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_session import RunDialog, ShowMessage
from referee_desk.ui.settings import DeskSettings
from referee_desk.ui.violation_menu import ViolationMenu


class DeskPreferences(QObject):
    """The desk's settings and help, for one window."""

    seats_changed = Signal()
    """the bottom seat (or the language) changed: repaint"""
    server_changed = Signal()
    """the settings name another server: the sync restarts"""

    def __init__(
        self,
        window: QWidget,
        settings: DeskSettings,
        languages: LanguageManager,
        violations: ViolationMenu,
        *,
        run_dialog: RunDialog,
        show_message: ShowMessage,
        point_size: Callable[[float], str],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.languages = languages
        self.violations = violations
        self.run_dialog = run_dialog
        self.show_message = show_message
        self.point_size = point_size

    def set_language(self, language: str) -> None:
        """Switch the interface language now (no restart) and remember it."""
        self.settings.language = language
        self.languages.apply(language)

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.window)

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.settings.bottom_seat = dialog.bottom_seat
                if dialog.server_url != self.settings.server_address:
                    self.settings.server_url = dialog.server_url
                    self.server_changed.emit()
                if dialog.language != self.languages.current:
                    self.set_language(dialog.language)
                self.seats_changed.emit()

        self.run_dialog(dialog, done)

    def rotate_seats(self) -> None:
        """Turn the diagram a quarter so the referee's nearest seat is at the bottom."""
        self.settings.bottom_seat = self.settings.bottom_seat.next_in_play
        self.seats_changed.emit()

    def shortcut_lines(self) -> list[str]:
        actions = [a for a in self.window.actions() if not a.shortcut().isEmpty() and a.isVisible()]
        lines = [f"{a.shortcut().toString()}\t{a.text().replace('&', '')}" for a in actions]
        lines.append(  # the tab bar's own key (not an action of the window)
            "Ctrl+Tab\t" + QCoreApplication.translate("MainWindow", "Match view / Tournament tab")
        )
        return lines

    def show_shortcuts(self) -> None:
        """F1: the keys in two columns (actions; violations and how entries are typed),
        so the list fits a 1024×700 screen."""

        def rows(pairs: list[tuple[str, str]]) -> str:
            cells = "".join(
                f"<tr><td style='padding-right:10px'><b>{html.escape(key)}</b></td>"
                f"<td>{html.escape(text)}</td></tr>"
                for key, text in pairs
            )
            return f"<table>{cells}</table>"

        actions = [tuple(line.split("\t", 1)) for line in self.shortcut_lines()]
        violations = [
            (key, a.text().replace("&", "").split("  ", 1)[-1])
            for key, a in self.violations.offered.items()
        ]
        typing = "".join(f"<p>{html.escape(line)}</p>" for line in self.typing_lines())
        text = (
            "<table><tr>"
            f"<td valign='top' style='padding-right:18px'>{rows(actions)}</td>"
            f"<td valign='top'>{rows(violations)}{typing}</td>"
            "</tr></table>"
        )
        box = self.show_message(
            QCoreApplication.translate("MainWindow", "Keyboard shortcuts"),
            text,
            QMessageBox.Icon.NoIcon,
        )
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setStyleSheet(f"QLabel {{ font-size: {self.point_size(11.5)}; }}")

    @staticmethod
    def typing_lines() -> list[str]:
        """How entries are typed, with the keystrokes measured by the tests (docs/desk.md)."""
        return [
            QCoreApplication.translate(
                "MainWindow",
                "Bid: B, then the seat and the cards in one line, W LJ H3, Enter (or seat "
                "letter, Tab, cards); the kind follows the standing bid; Ctrl+Enter closes "
                "the bidding.",
            ),
            QCoreApplication.translate(
                "MainWindow",
                "Hand result: R, 135, Tab, 10, Tab, 2, Enter (10 keys); a seat letter "
                "(N E S W) in any field names the side that won the last trick (R 85 Tab 10 "
                "Tab 2 W Enter, 10 keys); every number is recorded as typed.",
            ),
            QCoreApplication.translate(
                "MainWindow",
                "Trick: T, then four plays separated by spaces and Enter: SK SA H4 S5 (13 keys "
                "with T), a pair S5S5 S6S6 H4H4 S9S9 (20), a bomb (36); ! before a play marks "
                "a discard; Ctrl+L marks the last trick, whose result is previewed.",
            ),
            QCoreApplication.translate(
                "MainWindow",
                "Revoke (劳改), choice B: V, 2, Tab, Tab, B, Enter (Tab goes down the form "
                "as drawn).",
            ),
            QCoreApplication.translate(
                "MainWindow",
                "Text boxes: Ctrl+Enter records. Esc asks before what was typed is discarded.",
            ),
        ]

    def show_about(self) -> None:
        self.show_message(
            QCoreApplication.translate("MainWindow", "About Referee Desk"),
            QCoreApplication.translate(
                "MainWindow",
                "Referee Desk: the referee's desk for Guilin four-deck Tractor tournaments.",
            ),
            QMessageBox.Icon.Information,
        )
