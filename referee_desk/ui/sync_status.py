"""The desk's sync state in the status bar, and the background pusher behind it.

When the settings name a server (``DeskSettings.server_url``), the open file gets a
``BackgroundPusher``: the desk appends to its own file as always (nothing waits for the
network) and wakes the pusher; the pusher's thread reports each new ``SyncState``
through a Qt signal, so the label is only ever touched on the GUI thread. The label
reads 已同步 (synced), N 条待上传 (N events waiting) or 冲突 (conflict).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from referee_desk.store.postgres.address import redact
from referee_desk.store.postgres.sync import SyncState, sync_state
from referee_desk.store.postgres.wording import conflict_words, trouble_words
from referee_desk.ui.settings import DeskSettings
from referee_desk.ui.texts import wording_language

if TYPE_CHECKING:
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.pusher import BackgroundPusher


def state_text(state: SyncState, last_error: str | None = None) -> str:
    """One short line for the status bar (translated)."""
    if state.status == "conflict":
        first = state.conflicts[0]
        return (
            QCoreApplication.translate("SyncStatus", "Conflict: match %1, event %2")
            .replace("%1", first.match_id)
            .replace("%2", str(first.seq))
        )
    if state.status == "synced":
        return QCoreApplication.translate("SyncStatus", "Synced")
    text = QCoreApplication.translate("SyncStatus", "%1 events waiting").replace(
        "%1", str(state.waiting)
    )
    if last_error:
        text = QCoreApplication.translate("SyncStatus", "%1 (server not reached)").replace(
            "%1", text
        )
    return text


def state_tooltip(state: SyncState, url: str, last_error: str | None = None) -> str:
    """Where the desk pushes, when it last did, and why it is not reaching the server."""
    lines = [QCoreApplication.translate("SyncStatus", "Server: %1").replace("%1", redact(url))]
    if state.last_push_at:
        lines.append(
            QCoreApplication.translate("SyncStatus", "Last push: %1").replace(
                "%1", state.last_push_at
            )
        )
    lang = wording_language()
    # The desk's words (server phrasebook), never libpq's raw text; each conflict named.
    lines += [conflict_words(conflict, lang) for conflict in state.conflicts]
    if last_error:
        lines.append(
            QCoreApplication.translate("SyncStatus", "Not reached: %1").replace(
                "%1", trouble_words(last_error, lang, redact(url))
            )
        )
    return "\n".join(lines)


#: The sample tournament the desk builds when started without a file (``ui.sample``):
#: never pushed, so a practice run cannot claim the hall's matches on the server.
SAMPLE_FILE_NAME = "sample-tournament.sqlite"


class _StateBridge(QObject):
    """Carries the pusher thread's states to the GUI thread (a queued signal)."""

    state_changed = Signal(object)


class SyncStatusLabel(QLabel):
    """The status-bar label; hidden while the desk has no server or no file."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncStatusLabel")
        self.state: SyncState | None = None
        self.url = ""
        self.last_error: str | None = None
        self.hide()

    def show_state(self, state: SyncState, url: str, last_error: str | None) -> None:
        self.state, self.url, self.last_error = state, url, last_error
        self._paint()
        self.show()

    def clear_state(self) -> None:
        self.state = None
        self.hide()

    def _paint(self) -> None:
        if self.state is None:
            return
        self.setText(state_text(self.state, self.last_error))
        self.setToolTip(state_tooltip(self.state, self.url, self.last_error))
        colour = {"synced": "#1b5e20", "conflict": "#b71c1c"}.get(self.state.status, "#8a5a00")
        self.setStyleSheet(f"QLabel {{ color: {colour}; font-weight: bold; padding: 0 6px; }}")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._paint()
        super().changeEvent(event)


class DeskSync:
    """The open file's pusher and its label; ``restart`` when the file or server changes,
    ``wake`` after every entry (the window wires both)."""

    def __init__(
        self,
        status_bar: QStatusBar,
        settings: DeskSettings,
        file: Callable[[], TournamentFile | None],
    ) -> None:
        self.settings = settings
        self.file = file
        self.label = SyncStatusLabel(status_bar)
        self.pusher: BackgroundPusher | None = None
        self._bridge = _StateBridge(status_bar)
        self._bridge.state_changed.connect(self._on_state, Qt.ConnectionType.QueuedConnection)
        status_bar.addPermanentWidget(self.label)

    def restart(self) -> None:
        """Stop the old pusher; start one for the open file when a server is set."""
        self.stop()
        url = self.settings.server_url
        tf = self.file()
        if tf is None or not url or tf.path.name == SAMPLE_FILE_NAME:
            self.label.clear_state()
            return
        from referee_desk.store.postgres.pusher import BackgroundPusher  # loads psycopg

        self.label.show_state(sync_state(tf), url, None)
        self.pusher = BackgroundPusher(tf.path, url, on_state=self._emit).start()

    def wake(self, *_change: object) -> None:
        """Push soon (never blocks): the open match changed."""
        if self.pusher is not None:
            self.pusher.wake()

    def stop(self) -> None:
        pusher, self.pusher = self.pusher, None
        if pusher is not None:
            pusher.on_state = None
            # A push under way finishes on its own (a daemon thread with its own handle
            # and connection): the desk waits at most this long for it.
            pusher.stop(timeout=3.0)

    def _emit(self, state: SyncState) -> None:
        """Called on the pusher's thread; the window may already be gone."""
        with contextlib.suppress(RuntimeError):
            self._bridge.state_changed.emit(state)

    def _on_state(self, state: SyncState) -> None:
        pusher = self.pusher
        if pusher is None:  # a late report of a pusher already stopped
            return
        self.label.show_state(state, pusher.url, pusher.last_error)
