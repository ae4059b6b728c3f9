"""``referee-desk URL`` with a table's address: the desk's journal, then the server, off-thread.

The journal (one file per server, database and desk, in the config folder) opens at
once on the interface thread: the desk can record from the first second. Reaching the
server and pulling the drawn openings the organizer published for this desk runs on
a ``BackgroundCall`` with its own handle on the journal, so a slow or unreachable
server never freezes the window; when it answers, the match chooser opens (unless the
referee already opened a match); when it does not, a message says the desk records
into its journal and sends it once the server is back.

``ServerOpening`` is the window's one owner of what a server address started: the desk's
first contact (``desk_start``, a ``DeskStart``) or the organizer's view of the server's
tournament (``organizer``, an ``organizer.on_server.OrganizerOnServer``); the window builds
it with what it needs (its status bar, files, title, messages and the organizer's view)
and closes it on closing. Neither part imports the window.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox, QStatusBar, QWidget

from referee_desk.store.postgres.address import redact
from referee_desk.ui.background import BackgroundCall
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.settings import DeskSettings

if TYPE_CHECKING:
    from referee_desk.store import TournamentFile
    from referee_desk.ui.organizer.on_server import OrganizerOnServer
    from referee_desk.ui.organizer.tabs import OrganizerTabs
    from referee_desk.ui.organizer.view import OrganizerView


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


@dataclass(frozen=True, slots=True)
class DeskLink:
    """What the window lends what a server address starts at it."""

    parent: QWidget
    """The window: parent of the background calls and the status line."""
    status_bar: QStatusBar
    settings: DeskSettings
    current_file: Callable[[], TournamentFile | None]
    open_file: Callable[[Path], bool]
    """Open a tournament file in the window (False: the window said why)."""
    set_title_note: Callable[[str], None]
    """Shown after the window's title (the server's address, without password)."""
    show_message: Callable[..., QMessageBox]
    wake_sync: Callable[[], None]
    offer_match: Callable[[], None]
    """Open the match chooser unless a match or a dialog is open already."""


class DeskStart:
    """The first contact of a desk with its server, answered on the interface thread."""

    def __init__(self, link: DeskLink, url: str, journal: Path) -> None:
        self.link = link
        self.url = url
        self.journal = journal
        self.pulled: list[str] | None = None
        self.error: str | None = None
        self.call = BackgroundCall(
            lambda: pull_into_journal(url, journal),
            self._pulled,
            self._not_reached,
            link.parent,
            name="referee-desk-desk-start",
        )

    @property
    def finished(self) -> bool:
        return self.call.finished

    def start(self) -> DeskStart:
        self.link.status_bar.showMessage(
            QCoreApplication.translate("SyncStatus", "Connecting to %1…").replace(
                "%1", redact(self.url)
            )
        )
        self.call.start()
        return self

    def _still_ours(self) -> bool:
        """The window still has this journal open (not another file meanwhile)."""
        tf = self.link.current_file()
        return tf is not None and Path(tf.path) == self.journal

    def _pulled(self, pulled: list[str]) -> None:
        self.pulled = pulled
        if not self._still_ours():
            return
        self.link.wake_sync()
        self.link.status_bar.showMessage(
            QCoreApplication.translate(
                "SyncStatus", "%1 drawn matches fetched from the server"
            ).replace("%1", str(len(pulled)))
        )
        self.link.offer_match()

    def _not_reached(self, error: BaseException) -> None:
        self.error = refusal_message(error) if isinstance(error, ValueError) else str(error)
        if not self._still_ours():
            return
        self.link.status_bar.clearMessage()
        self.link.show_message(
            QCoreApplication.translate("SyncStatus", "Server not reached"),
            QCoreApplication.translate(
                "SyncStatus",
                "The drawn matches could not be fetched: %1\nThis desk records into %2 and "
                "sends it when the server answers.",
            )
            .replace("%1", self.error)
            .replace("%2", str(self.journal)),
        )


class ServerOpening(QObject):
    """What a server address started at the window: a table's desk (``desk_start``) or the
    organizer's view of the server's tournament (``organizer``); None until started."""

    def __init__(self, link: DeskLink, organizer: OrganizerView, tabs: OrganizerTabs) -> None:
        super().__init__(link.parent)
        self.link = link
        self.view = organizer
        self.tabs = tabs
        self.desk_start: DeskStart | None = None
        self.organizer: OrganizerOnServer | None = None

    def open_desk(self, url: str) -> bool:
        """Record into this desk's journal at once; reach the server in the background.

        Returns False only when the journal itself cannot be opened (the window says why).
        ``desk_start`` is the ``DeskStart`` under way.
        """
        from referee_desk.store import keys
        from referee_desk.store.postgres.sync import journal_path

        path = journal_path(url, keys.config_dir() / "journals")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.link.settings.server_url = url
        self.link.set_title_note(redact(url))
        if not self.link.open_file(path):
            return False
        self.desk_start = DeskStart(self.link, url, path).start()
        return True

    def open_organizer(self, url: str) -> OrganizerOnServer:
        """Show the server's tournament in the organizer tab; ``organizer`` owns it."""
        from referee_desk.ui.organizer.on_server import OrganizerOnServer

        link = self.link
        self.organizer = OrganizerOnServer(
            link.parent,
            self.view,
            self.tabs,
            url,
            status_bar=link.status_bar,
            set_title_note=link.set_title_note,
            show_message=link.show_message,
            open_as_desk=self.open_desk,
        ).start()
        return self.organizer

    def close(self) -> None:
        """The window closes: the organizer's server tournament is closed with it."""
        if self.organizer is not None:
            self.organizer.close()


def open_desk_on_server(window: Any, url: str) -> bool:
    """``window.server.open_desk(url)`` (a ``MainWindow``): the desk on a table's address."""
    opening: ServerOpening = window.server
    return opening.open_desk(url)
