"""``referee-desk URL`` with a table's address: the desk's journal, then the server, off-thread.

The journal (one file per server, database and desk, in the config folder) opens at
once on the interface thread: the desk can record from the first second. Reaching the
server and pulling the drawn openings the organizer published for this desk runs on
a ``BackgroundCall`` with its own handle on the journal, so a slow or unreachable
server never freezes the window; when it answers, the match chooser opens (unless the
referee already opened a match); when it does not, a message says the desk records
into its journal and sends it once the server is back.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from PySide6.QtCore import QCoreApplication

from referee_desk.store.postgres.address import redact
from referee_desk.ui.background import BackgroundCall
from referee_desk.ui.refusals import refusal_message

if TYPE_CHECKING:
    from referee_desk.ui.main_window import MainWindow


def names_a_table(url: str) -> bool:
    """Whether the address's user is a table's role as ``server init`` names them
    (``<db>_t01`` …): such a desk opens its journal without asking the server first.
    Any other address is asked (``organizer.on_server``) and opens as a desk when the
    server says it is a table's."""
    try:
        user = unquote(urlsplit(url).username or "")
    except ValueError:
        return False
    return re.search(r"_t\d{2,}$", user) is not None


def pull_into_journal(url: str, path: Path) -> list[str]:
    """On the worker: connect, pull this desk's drawn openings into the journal file."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import pull_openings

    with TournamentServer.open(url) as server, TournamentFile.open(path, create=False) as tf:
        return pull_openings(tf, server)


class DeskStart:
    """The first contact of a desk with its server, answered on the interface thread."""

    def __init__(self, window: MainWindow, url: str, journal: Path) -> None:
        self.w = window
        self.url = url
        self.journal = journal
        self.pulled: list[str] | None = None
        self.error: str | None = None
        self.call = BackgroundCall(
            lambda: pull_into_journal(url, journal),
            self._pulled,
            self._not_reached,
            window,
            name="referee-desk-desk-start",
        )

    @property
    def finished(self) -> bool:
        return self.call.finished

    def start(self) -> DeskStart:
        self.w.statusBar().showMessage(
            QCoreApplication.translate("SyncStatus", "Connecting to %1…").replace(
                "%1", redact(self.url)
            )
        )
        self.call.start()
        return self

    def _still_ours(self) -> bool:
        """The window still has this journal open (not another file meanwhile)."""
        tf = self.w.tf
        return tf is not None and Path(tf.path) == self.journal

    def _pulled(self, pulled: list[str]) -> None:
        self.pulled = pulled
        if not self._still_ours():
            return
        self.w.desk_sync.wake()
        self.w.statusBar().showMessage(
            QCoreApplication.translate(
                "SyncStatus", "%1 drawn matches fetched from the server"
            ).replace("%1", str(len(pulled)))
        )
        if self.w.session is None and self.w.active_dialog is None:
            self.w.match.open_match_dialog()

    def _not_reached(self, error: BaseException) -> None:
        self.error = refusal_message(error) if isinstance(error, ValueError) else str(error)
        if not self._still_ours():
            return
        self.w.statusBar().clearMessage()
        self.w.show_message(
            QCoreApplication.translate("SyncStatus", "Server not reached"),
            QCoreApplication.translate(
                "SyncStatus",
                "The drawn matches could not be fetched: %1\nThis desk records into %2 and "
                "sends it when the server answers.",
            )
            .replace("%1", self.error)
            .replace("%2", str(self.journal)),
        )


def open_desk_on_server(window: MainWindow, url: str) -> bool:
    """Record into this desk's journal at once; reach the server in the background.

    Returns False only when the journal itself cannot be opened (the window says why).
    ``window.desk_start`` is the ``DeskStart`` under way.
    """
    from referee_desk.store import keys
    from referee_desk.store.postgres.sync import journal_path

    path = journal_path(url, keys.config_dir() / "journals")
    path.parent.mkdir(parents=True, exist_ok=True)
    window.settings.server_url = url
    window.title_note = redact(url)
    window.retranslate()
    if not window.open_tournament(path):
        return False
    window.desk_start = DeskStart(window, url, path).start()
    return True
