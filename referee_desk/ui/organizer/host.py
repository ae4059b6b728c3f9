"""What the organizer view still lends one part: the records import (``OrganizerHost``).

The view's other parts are given what they need in their constructors (``view.py``).
``RecordsImport`` (``records_import.py``) still sees the view through these few members,
and imports this module, never the view's, so the two make no import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QMessageBox

    from referee_desk.tournament.repository import Tournament
    from referee_desk.tournament.state import TournamentState


class OrganizerHost(Protocol):
    """The organizer view as the records import sees it (and the parent of its dialogs)."""

    @property
    def t(self) -> Tournament | None: ...

    @property
    def state(self) -> TournamentState | None: ...

    def refresh(self) -> None: ...

    def need_tournament(self) -> Tournament | None: ...

    def run_dialog(
        self, dialog: QDialog, on_accept: Callable[[], None] | None = None
    ) -> QDialog: ...

    def show_message(self, title: str, text: str, icon: Any = ...) -> QMessageBox: ...

    def refuse(self, title: str, error: BaseException) -> None: ...
