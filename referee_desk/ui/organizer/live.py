"""The organizer's view follows the server live: LISTEN/NOTIFY, debounced repaints.

A ``ListenerThread`` (``store.postgres.listener``) hears every event a desk lands on
the server, on its own thread. Bursts are folded there already: the thread emits one
queued signal and no more until the interface thread has taken it, so 64 desks
pushing at once cost the interface one pending signal, not thousands. The interface
thread then waits out a gap before it re-reads and repaints: at least ``MIN_GAP_MS``
after the previous repaint, and at least twice as long as that repaint took, so the
window always has most of its time for the organizer's clicks.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal

if TYPE_CHECKING:
    from referee_desk.store.postgres.listener import Landed, ListenerThread

#: The least time between two repaints caused by the server (milliseconds).
MIN_GAP_MS = 300


class _Heard(QObject):
    """Lives on the interface thread; the listener's thread emits."""

    heard = Signal()


class LiveRefresh(QObject):
    """Calls ``repaint()`` on the interface thread soon after events land on the server.

    ``heard`` counts the events the listener reported, ``repaints`` the repaints made;
    ``connected`` tells whether the listener is listening now (``last_error`` why not).
    """

    def __init__(self, url: str, repaint: Callable[[], None], parent: QObject) -> None:
        from referee_desk.store.postgres.listener import ListenerThread  # loads psycopg

        # A QObject, so the queued signal's receiver lives (and dies) with the window.
        super().__init__(parent)
        self.url = url
        self.repaint = repaint
        self.heard = 0
        self.repaints = 0
        self._pending = threading.Event()
        self._bridge = _Heard(self)
        self._bridge.heard.connect(self._schedule, Qt.ConnectionType.QueuedConnection)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._repaint_now)
        self._gap_ms = MIN_GAP_MS
        self._last_end = 0.0
        self._stopped = False
        self.listener: ListenerThread = ListenerThread(
            url, self._on_event, on_connect=self._on_connect
        )

    def start(self) -> LiveRefresh:
        self.listener.start()
        return self

    def stop(self) -> None:
        self._stopped = True  # a signal already queued finds nothing to do
        with contextlib.suppress(RuntimeError, TypeError):
            self._bridge.heard.disconnect(self._schedule)
        self._timer.stop()
        # The listener wakes every half second; a connect under way may take longer,
        # but the thread is a daemon and reports to nobody once stopped.
        self.listener.on_event = lambda _landed: None
        self.listener.on_connect = None
        self.listener.stop(timeout=1.0)

    @property
    def connected(self) -> bool:
        return self.listener.wait_ready(0)

    @property
    def last_error(self) -> str | None:
        return self.listener.last_error

    # -- the listener's thread --------------------------------------------------------
    def _on_event(self, _landed: Landed) -> None:
        self.heard += 1
        self._wake()

    def _on_connect(self) -> None:
        """(Re)connected: what landed while away was not heard, so read it all again."""
        self._wake()

    def _wake(self) -> None:
        if self._pending.is_set():  # the interface has not taken the last one yet
            return
        self._pending.set()
        with contextlib.suppress(RuntimeError):  # the window is gone
            self._bridge.heard.emit()

    # -- the interface thread ---------------------------------------------------------
    def _schedule(self) -> None:
        if self._stopped or self._timer.isActive():
            return
        since = (time.monotonic() - self._last_end) * 1000
        self._timer.start(max(0, int(self._gap_ms - since)))

    def _repaint_now(self) -> None:
        if self._stopped:
            return
        self._pending.clear()  # events from now on ask for another repaint
        began = time.monotonic()
        self.repaint()
        self.repaints += 1
        self._last_end = time.monotonic()
        took_ms = (self._last_end - began) * 1000
        self._gap_ms = max(MIN_GAP_MS, 2 * took_ms)
