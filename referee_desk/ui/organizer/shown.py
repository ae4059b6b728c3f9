"""Which tournament the organizer's view shows, and from where (``ShownTournament``).

The view shows the main window's open file (shared, never closed here), a file it opened
itself (alone, without a window) or a tournament on a server (``organizer.on_server``
owns that one). ``ShownTournament`` owns that choice: the ``Tournament`` shown (``t``),
whether it is the server's (``on_server``) and what to say while the server's is not
open (``server_note``). The window lends it only its files (``DeskFiles``); nothing here
reaches into the window or the view. ``repaint`` is emitted when another tournament
(or none) is shown or it was read again, and the view repaints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QDialog, QMessageBox

from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.schema import EXTENSION_NAME
from referee_desk.ui.refusals import refusal_message

#: Opens a dialog window-modal without blocking; the callback runs when it is accepted.
RunDialog = Callable[[QDialog, Callable[[], None] | None], QDialog]
#: Shows a non-blocking message (title, text, icon) and returns its box.
ShowMessage = Callable[..., QMessageBox]


def has_tournament(tf: TournamentFile) -> bool:
    """Whether a desk's file holds a tournament (checked without writing to it)."""
    conn = tf.connection
    known = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'extensions'"
    ).fetchone()
    if not known:
        return False
    row = conn.execute("SELECT 1 FROM extensions WHERE name = ?", (EXTENSION_NAME,)).fetchone()
    if not row:
        return False
    info = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament_info'"
    ).fetchone()
    return bool(info) and bool(
        conn.execute("SELECT 1 FROM tournament_info WHERE id = 1").fetchone()
    )


@dataclass(frozen=True, slots=True)
class DeskFiles:
    """What the main window lends the organizer's view: its open file, opening another
    one, asking before the match in progress is closed, and its status bar."""

    current: Callable[[], TournamentFile | None]
    open: Callable[[str | Path], bool]
    """Open a tournament file in the window (False: the window said why, ``why_not``)."""
    why_not: Callable[[], str]
    ask_before_closing_match: Callable[[Callable[[], Any]], Any]
    status: Callable[[str], None]


class ShownTournament(QObject):
    """The tournament the view shows: the window's file, the view's own, or the server's."""

    repaint = Signal()
    """Another tournament (or none) is shown, or it was read again: the view repaints."""
    server_reload = Signal()
    """Read the server's tournament again (F5, the tab shown): its owner does."""
    server_left = Signal()
    """The window opened a file while the server's tournament was shown."""

    def __init__(
        self, desk: DeskFiles | None, show_message: ShowMessage, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.desk = desk
        self.show_message = show_message
        self.t: Tournament | None = None
        # True while the server's tournament is shown (``t`` is None while connecting):
        # the view does not follow the window's file then.
        self.on_server = False
        # (title in English, translated when shown; info line) while the server's
        # tournament is not open.
        self.server_note = ("", "")
        self._tf: TournamentFile | None = None
        self._owned: TournamentFile | None = None

    @property
    def file(self) -> TournamentFile | None:
        """The desk file whose tournament is shown (None: none, or the server's)."""
        return self._tf

    def follow_window_file(self) -> None:
        """Take the window's file if it changed (not while showing the server's)."""
        if self.on_server or self.desk is None:
            return
        tf = self.desk.current()
        if tf is self._tf:
            return
        self._tf = tf
        self.t = Tournament(tf) if tf and has_tournament(tf) else None

    def sync_with_window(self) -> None:
        """Follow the main window's open file (it may have opened another one)."""
        if self.desk is None:
            return
        tf = self.desk.current()
        if self.on_server:
            if tf is None:
                return
            self.server_left.emit()  # the window opened a file: the server's view ends
            self.leave_server()
        if tf is not self._tf:
            self.attach(tf)

    def attach(self, tf: TournamentFile | None) -> None:
        """Show the tournament of ``tf`` (None: nothing open); the file is not closed here."""
        self.on_server = False
        self._tf = tf
        self.t = Tournament(tf) if tf is not None and has_tournament(tf) else None
        self.repaint.emit()

    def attach_server(self, t: Tournament | None) -> None:
        """Show a tournament opened on a server (None: still connecting); its owner
        (``organizer.on_server``) closes it."""
        self.on_server = True
        self._tf = None
        self.t = t
        self.repaint.emit()

    def leave_server(self) -> None:
        """The server's tournament is no longer shown (its owner closed it)."""
        if self.on_server:
            self.on_server = False
            self.t = None
            self.repaint.emit()

    def open_file(self, path: str | Path) -> bool:
        """Alone (no main window): open a tournament file owned here."""
        try:
            tf = TournamentFile.open(path, create=False)
        except (ValueError, OSError) as error:
            self.show_message(
                QCoreApplication.translate("OrganizerView", "Cannot open the file"),
                refusal_message(error),
            )
            return False
        self.close_file()
        self._owned = tf
        self.attach(tf)
        return True

    def close_file(self) -> None:
        """Close the file opened alone (the window's files are the window's to close)."""
        if self._owned is not None:
            self._owned.close()
            self._owned = None
            self.attach(None)

    def open_created(self, path: str | Path) -> None:
        """Show a tournament file just created: opened in the window when there is one
        (ValueError with the window's reason when it cannot), else here."""
        if self.desk is None:
            self.open_file(path)
            return
        if not self.desk.open(path):
            raise ValueError(self.desk.why_not())
        self.attach(self.desk.current())

    def reload(self) -> None:
        """Read the results again (after a desk recorded or the organizer imported)."""
        if self.on_server:
            self.server_reload.emit()  # its owner re-reads, and reconnects when needed
            return
        self.sync_with_window()
        if self.t is not None:
            self.t.invalidate()
        self.repaint.emit()
