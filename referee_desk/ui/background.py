"""One call off the interface thread (a connect to a slow server), answered on it.

The work runs on its own daemon thread, so a server that never answers holds no pool
worker and never delays the desk's exit; its result or error comes back through a
queued signal and is handled on the thread of ``parent`` (the interface's). Nothing
the work touches may belong to the interface thread (no widget, no SQLite handle of
the window: open your own).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal


class _Answer(QObject):
    """Lives on the interface thread; the worker emits, the interface thread handles."""

    done = Signal(object)
    failed = Signal(object)


class BackgroundCall(QObject):
    """``work()`` on a thread; then ``on_done(result)`` or ``on_failed(error)`` on the GUI's.

    ``finished`` turns True on the interface thread once the answer was handled;
    ``discard(result)`` is called on the worker when nobody is left to take a result
    (the window closed meanwhile), so a connection opened for it is not left open.
    """

    def __init__(
        self,
        work: Callable[[], Any],
        on_done: Callable[[Any], None],
        on_failed: Callable[[BaseException], None],
        parent: QObject,
        *,
        name: str = "referee-desk-background",
        discard: Callable[[Any], None] | None = None,
    ) -> None:
        # A QObject, so the queued answer's receiver lives (and dies) with ``parent``.
        super().__init__(parent)
        self.work = work
        self.finished = False
        self.cancelled = False
        self._on_done = on_done
        self._on_failed = on_failed
        self._discard = discard
        self._answer = _Answer(self)
        self._answer.done.connect(self._done, Qt.ConnectionType.QueuedConnection)
        self._answer.failed.connect(self._failed, Qt.ConnectionType.QueuedConnection)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> BackgroundCall:
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def cancel(self) -> None:
        """Nobody wants the answer any more: it is dropped (and discarded) when it comes."""
        self.cancelled = True

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            result = self.work()
        except Exception as error:  # every failure is answered; the desk decides what to say
            with contextlib.suppress(RuntimeError):  # the window is gone
                self._answer.failed.emit(error)
            return
        try:
            self._answer.done.emit(result)
        except RuntimeError:  # the window is gone: nobody will take the result
            self._drop(result)

    def _done(self, result: Any) -> None:
        self.finished = True
        if self.cancelled:
            self._drop(result)
            return
        self._on_done(result)

    def _failed(self, error: BaseException) -> None:
        self.finished = True
        if not self.cancelled:
            self._on_failed(error)

    def _drop(self, result: Any) -> None:
        if self._discard is not None:
            with contextlib.suppress(Exception):
                self._discard(result)
