"""The desk's window as ``referee-desk URL`` shows it (no file open yet), for the tests
that drive the organizer view against a real server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee_desk.ui.language import LanguageManager
from referee_desk.ui.main_window import MainWindow
from referee_desk.ui.settings import DeskSettings


def bare_window(qtbot: Any, folder: Path, languages: LanguageManager) -> Iterator[MainWindow]:
    """Shown, exposed and closed again afterwards (a dialog left open is rejected)."""
    win = MainWindow(DeskSettings(folder / "desk.ini"), languages)
    qtbot.addWidget(win)
    win.resize(1280, 860)
    win.show()
    qtbot.waitExposed(win)
    yield win
    if win.active_dialog is not None:
        win.active_dialog.reject()
    win.close()
