"""What the organizer view lends the collaborators it owns (``OrganizerHost``).

The view owns the tournament it shows (``t``, ``on_server``), its form, models and
bracket scene, its actions and its dialogs and messages (``run_dialog``,
``show_message``); its collaborators (``showing``, ``pairs_actions``, ``draw_actions``,
``records_import``, ``export_actions``) are given it as this host. They import this
module, never the view's, so the view and its parts make no import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDialog, QGraphicsScene, QMessageBox

    from referee_desk.store.tournament_file import TournamentFile
    from referee_desk.tournament.repository import Tournament
    from referee_desk.tournament.state import TournamentState
    from referee_desk.ui.generated.ui_organizer_view import Ui_OrganizerView
    from referee_desk.ui.organizer.models import OrganizerMatchesModel, OrganizerPairsModel


class OrganizerHost(Protocol):
    """The organizer view as its collaborators see it."""

    ui: Ui_OrganizerView
    t: Tournament | None
    on_server: bool
    server_note: tuple[str, str]
    window_: Any
    pairs_model: OrganizerPairsModel
    matches_model: OrganizerMatchesModel
    scene: QGraphicsScene
    message_box: QMessageBox | None
    last_message: str
    export_actions: dict[str, QAction]
    action_new: QAction
    action_add_pair: QAction
    action_edit_pair: QAction
    action_remove_pair: QAction
    action_import_pairs: QAction
    action_draw: QAction
    action_import_records: QAction
    action_link: QAction
    action_lots: QAction
    changed: SignalInstance
    export_finished: SignalInstance
    export_failed: SignalInstance

    @property
    def state(self) -> TournamentState | None: ...

    @property
    def file_shown(self) -> TournamentFile | None: ...

    def refresh(self) -> None: ...

    def follow_window_file(self) -> None: ...

    def attach(self, tf: TournamentFile | None) -> None: ...

    def open_file(self, path: Any) -> bool: ...

    def need_tournament(self) -> Tournament | None: ...

    def run_dialog(
        self, dialog: QDialog, on_accept: Callable[[], None] | None = None
    ) -> QDialog: ...

    def show_message(self, title: str, text: str, icon: Any = ...) -> QMessageBox: ...

    def status(self, text: str) -> None: ...

    def refuse(self, title: str, error: BaseException) -> None: ...
