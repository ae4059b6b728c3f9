"""``referee-desk ORGANIZER_URL``: the organizer's view on the server's tournament, live.

``OrganizerOnServer`` owns the ``Tournament`` opened on the server (``Tournament.open``,
on a ``BackgroundCall``, so a slow or unreachable server never freezes the window),
hands it to the view (``OrganizerView.attach_server``) and keeps it fresh: a
``LiveRefresh`` hears each event a desk lands and the view re-reads and repaints
(debounced there). A read that fails because the server went away is shown as a
status line, and the tournament is opened again in the background when the listener
hears the server back. Reading and writing the tournament happen on the interface
thread, on the tournament's own connection (as the file's SQLite connection does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from referee_desk.store.postgres.address import redact
from referee_desk.store.postgres.wording import trouble_words
from referee_desk.ui.background import BackgroundCall
from referee_desk.ui.organizer.live import LiveRefresh
from referee_desk.ui.organizer.table_board_view import TableBoardSection
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.texts import wording_language

if TYPE_CHECKING:
    from referee_desk.tournament.repository import Tournament
    from referee_desk.ui.main_window import MainWindow

# What the worker answers for a table's address (it opens as a desk instead).
TABLE_ADDRESS = "table"


# What the worker answers for a server set up but without a tournament yet.
NO_TOURNAMENT = "none"


def open_server_tournament(url: str) -> Tournament | str:
    """On the worker: the tournament of the organizer's address, ``TABLE_ADDRESS`` for a
    table's, ``NO_TOURNAMENT`` when none was created on the server yet."""
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.tournament.errors import TournamentError
    from referee_desk.tournament.repository import Tournament

    with TournamentServer.open(url) as probe:
        if probe.is_desk:
            return TABLE_ADDRESS
    try:
        return Tournament.open(url)
    except TournamentError:  # the server's connection is closed by Tournament.open
        return NO_TOURNAMENT


def _close_quietly(result: Any) -> None:
    close = getattr(result, "close", None)
    if callable(close):
        close()


class LiveStatusLabel(QLabel):
    """The status-bar line: live (listening) or not reaching the server, translated."""

    def __init__(self, owner: OrganizerOnServer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("liveStatusLabel")
        self.owner = owner
        self.paint()

    def paint(self) -> None:
        owner = self.owner
        shown = redact(owner.url)
        live = owner.live
        if owner.error is not None and owner.no_tournament:
            text = QCoreApplication.translate("OrganizerView", "No tournament on the server")
            tip = owner.error
            colour = "#8a5a00"
        elif owner.error is not None:
            text = QCoreApplication.translate("OrganizerView", "Server not reached")
            tip = owner.error
            colour = "#b71c1c"
        elif live is None or owner.t is None:
            text = QCoreApplication.translate("OrganizerView", "Connecting…")
            tip = shown
            colour = "#8a5a00"
        elif live.connected:
            text = QCoreApplication.translate("OrganizerView", "Live")
            tip = QCoreApplication.translate(
                "OrganizerView", "Results refresh as the desks record: %1"
            ).replace("%1", shown)
            colour = "#1b5e20"
        else:
            text = QCoreApplication.translate(
                "OrganizerView", "Not live: server not reached, retrying"
            )
            tip = (
                trouble_words(live.last_error, wording_language(), shown)
                if live.last_error
                else shown
            )
            colour = "#b71c1c"
        self.setText(text)
        self.setToolTip(tip)
        self.setStyleSheet(f"QLabel {{ color: {colour}; font-weight: bold; padding: 0 6px; }}")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.paint()
        super().changeEvent(event)


class OrganizerOnServer(QObject):
    """The server's tournament in the window's organizer tab, refreshed live."""

    def __init__(self, window: MainWindow, url: str) -> None:
        super().__init__(window)
        self.w = window
        self.view = window.organizer
        self.url = url
        self.t: Tournament | None = None
        self.live: LiveRefresh | None = None
        self.opening: BackgroundCall | None = None
        # Why the server's tournament is not shown (translated), or None.
        self.error: str | None = None
        self.no_tournament = False  # the server answered, but holds no tournament yet
        self.failed_reads = 0
        self.label = LiveStatusLabel(self, window)
        window.statusBar().addPermanentWidget(self.label)
        self._poll = QTimer(self)  # the listener's state, for the status line
        self._poll.setInterval(1000)
        self._poll.timeout.connect(self.label.paint)
        # The table board: a section of the view while it shows the server's tournament.
        self.board = TableBoardSection(self.view)
        self.view.server_reload.connect(self.reload)
        self.view.server_left.connect(self.close)

    def start(self) -> OrganizerOnServer:
        self.w.title_note = redact(self.url)
        self.w.retranslate()
        tabs = self.w.organizer_tabs
        tabs.setCurrentWidget(self.view)
        self._show_placeholder(QT_TRANSLATE_NOOP("OrganizerView", "Connecting to the server…"))
        self.w.statusBar().showMessage(
            QCoreApplication.translate("OrganizerView", "Connecting to %1…").replace(
                "%1", redact(self.url)
            )
        )
        self._open()
        self._poll.start()
        return self

    # -- opening ----------------------------------------------------------------------
    def _open(self) -> None:
        if self.opening is not None:
            if not self.opening.finished:
                return
            self.opening.deleteLater()  # answered: a new attempt replaces it
        self.opening = BackgroundCall(
            lambda: open_server_tournament(self.url),
            self._opened,
            self._not_opened,
            self,
            name="referee-desk-organizer-open",
            discard=_close_quietly,
        ).start()

    def _opened(self, result: Tournament | str) -> None:
        if result == TABLE_ADDRESS:  # a table's address with a name of its own
            from referee_desk.ui.server_desk import open_desk_on_server

            self.close()
            self.w.organizer_tabs.setCurrentWidget(self.w.organizer_tabs.match_view)
            open_desk_on_server(self.w, self.url)
            return
        if result == NO_TOURNAMENT:
            self._not_opened(
                ValueError(
                    QCoreApplication.translate(
                        "OrganizerView",
                        "the server holds no tournament yet: create it with "
                        "referee-desk tournament create %1 --name …",
                    ).replace("%1", redact(self.url))
                ),
                no_tournament=True,
            )
            return
        assert not isinstance(result, str)
        old, self.t = self.t, result
        if old is not None:
            _close_quietly(old)
        self.error = None
        self.no_tournament = False
        self.failed_reads = 0
        self.view.attach_server(result)
        self.board.show_in(self.view.ui.sections)
        self.board.attach(result.server)
        self.w.statusBar().showMessage(
            QCoreApplication.translate("OrganizerView", "Tournament on the server: %1").replace(
                "%1", result.path
            ),
            8000,
        )
        if self.live is None:
            self.live = LiveRefresh(self.url, self.reload, self).start()
        self.label.paint()

    def _not_opened(self, error: BaseException, *, no_tournament: bool = False) -> None:
        self.no_tournament = no_tournament
        self.error = refusal_message(error) if isinstance(error, ValueError) else str(error)
        self.label.paint()
        if self.t is not None:  # a reconnection failed: keep showing what was read
            return
        self._show_placeholder(
            QT_TRANSLATE_NOOP("OrganizerView", "The server's tournament cannot be opened")
        )
        self.w.statusBar().clearMessage()
        if no_tournament:
            title = QCoreApplication.translate("OrganizerView", "No tournament on the server")
            text = QCoreApplication.translate(
                "OrganizerView", "The server is set up, but %1.\n\nPress F5 once it is created."
            )
        else:
            title = QCoreApplication.translate("OrganizerView", "Server not reached")
            text = QCoreApplication.translate(
                "OrganizerView",
                "The tournament on the server cannot be opened:\n%1\n\nCheck that the server "
                "runs and the address and password are right, then press F5 to try again.",
            )
        self.w.show_message(title, text.replace("%1", self.error))

    def _show_placeholder(self, title: str) -> None:
        """The view's title while no tournament is shown (``title`` untranslated: the view
        translates it, again on a language change)."""
        self.view.server_note = (title, redact(self.url))
        if self.t is None:
            self.view.attach_server(None)

    # -- reading again ----------------------------------------------------------------
    def reload(self) -> None:
        """Re-read the tournament (a desk's event landed, F5, the tab shown)."""
        t = self.t
        if t is None:
            self._open()  # not open yet (or never reached): try again
            return
        if self._connection_lost(t):
            self._open()
            return
        try:
            t.invalidate()
            t.file.refresh()  # seals taken since
            self.view.refresh()
            self.board.refresh()
        except Exception as error:  # a lost server must not take the window down
            self.failed_reads += 1
            if not isinstance(error, ValueError) and self._connection_lost(t):
                from referee_desk.store.postgres.errors import ServerUnreachable

                line = " ".join(str(error).split())
                error = ServerUnreachable(f"{t.path}: lost the server: {line}")
            self.error = refusal_message(error) if isinstance(error, ValueError) else str(error)
            self.w.statusBar().showMessage(
                QCoreApplication.translate(
                    "OrganizerView", "The results could not be read again: %1"
                ).replace("%1", self.error),
                8000,
            )
            if self._connection_lost(t):
                self._open()
        else:
            self.error = None
        self.label.paint()

    @staticmethod
    def _connection_lost(t: Tournament) -> bool:
        conn = getattr(getattr(t.file, "server", None), "connection", None)
        return bool(conn is not None and (conn.closed or conn.broken))

    def close(self) -> None:
        """Stop listening and close the server's tournament (the window leaves it)."""
        self._poll.stop()
        if self.opening is not None:
            self.opening.cancel()
        if self.live is not None:
            self.live.stop()
            self.live = None
        t, self.t = self.t, None
        self.board.leave(self.view.ui.sections)
        self.view.leave_server()
        if t is not None:
            _close_quietly(t)
        self.w.title_note = ""
        self.w.retranslate()
        self.label.hide()


def open_organizer_on_server(window: MainWindow, url: str) -> OrganizerOnServer:
    """Show the server's tournament in the organizer tab; ``window.organizer_server`` owns it."""
    window.organizer_server = OrganizerOnServer(window, url).start()
    return window.organizer_server
