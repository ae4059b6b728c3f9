"""``referee-desk [FILE]``: the desk's entry point.

With FILE the desk opens that tournament file (created when missing) and asks which
match to open and who referees it. With a table's ``postgresql://`` address it records
into that desk's journal and syncs it; with the organizer's address it shows the
server's tournament in the Tournament tab, refreshed live. Without FILE it builds the
sample tournament in a temporary folder and opens a live sample match at once.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

from referee_desk.store.opener import is_server_address
from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_window import MainWindow
from referee_desk.ui.platform_check import platform_problem
from referee_desk.ui.sample import build_sample_tournament, liveliest_match, start_live_demo
from referee_desk.ui.settings import LANGUAGES, DeskSettings


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="referee-desk", description="Open the referee's desk.")
    parser.add_argument(
        "file",
        nargs="?",
        help=(
            "tournament file (.sqlite), created when missing, or a postgresql:// address "
            "(a table's: record and sync; the organizer's: the live tournament)"
        ),
    )
    parser.add_argument("--language", choices=LANGUAGES, help="interface language for this run")
    parser.add_argument("--settings", help="INI file for preferences (default: the user's)")
    return parser.parse_args(argv)


def open_desk(window: MainWindow, file: str | None) -> None:
    """Open FILE (then the match chooser), or the sample tournament with a match open."""
    # What opens differs, not only the store: a server's address starts a table's desk
    # link (record and sync) or the organizer's live view; a file opens in the window.
    if file and is_server_address(file):
        from referee_desk.ui.server_desk import names_a_table, open_desk_on_server

        if names_a_table(file):
            open_desk_on_server(window, file)
        else:
            from referee_desk.ui.organizer.on_server import open_organizer_on_server

            open_organizer_on_server(window, file)
        return
    if file:
        if window.files.open_tournament(Path(file)):
            window.match.open_match_dialog()
        return
    path = build_sample_tournament()
    if not window.files.open_tournament(path):
        return
    assert window.tf is not None
    try:
        match_id = start_live_demo(window.tf) or liveliest_match(window.tf)
    except (ValueError, OSError):
        match_id = liveliest_match(window.tf)
    if match_id is None:
        window.match.open_match_dialog()
        return
    referee = window.tf.people.match_referee(match_id) or QCoreApplication.translate(
        "MainWindow", "Sample referee"
    )
    window.match.open_match(match_id, referee)


def has_chinese_font() -> bool:
    """Whether any installed font covers Simplified Chinese (else text shows as boxes)."""
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def run_desk(argv: list[str]) -> int:
    args = _parse(list(argv))
    if QApplication.instance() is None:
        problem = platform_problem()
        if problem is not None:  # Qt would abort naming the plugin, not the library
            print(problem, file=sys.stderr)
            return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Referee Desk")
    settings = DeskSettings(args.settings)
    if args.language:
        settings.language = args.language
    languages = LanguageManager()
    languages.apply(settings.language)
    window = MainWindow(settings, languages)
    window.show()
    open_desk(window, args.file)
    if not has_chinese_font():
        window.show_message(
            QCoreApplication.translate("MainWindow", "No Chinese font"),
            QCoreApplication.translate(
                "MainWindow",
                "No installed font can show Chinese. On Linux install fonts-wqy-microhei "
                "(or fonts-noto-cjk).",
            ),
        )
    return int(app.exec())
