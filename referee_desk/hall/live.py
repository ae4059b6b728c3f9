"""The page's live state: the latest ``HallView``, re-read when a desk's event lands.

A watcher pokes the hub: on a server a ``ListenerThread`` (LISTEN/NOTIFY, reconnecting
after a restart; each reconnection pokes too, for what landed meanwhile), on a file a
poll of its size and time. One reader thread re-reads the tournament on each poke
(pokes during a read fold into one more read), keeps the last good view when the store
cannot be read, and tells the web side's clients (asyncio) that something changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from dataclasses import dataclass

from referee_desk.hall.source import HallSource
from referee_desk.hall.view import HallView, build_view
from referee_desk.store.postgres.listener import ListenerThread
from referee_desk.tournament.errors import TournamentError

#: Seconds between reads while the store cannot be read (and between file polls × 4).
RETRY_SECONDS = 1.0
FILE_POLL_SECONDS = 0.25


@dataclass(frozen=True, slots=True)
class LiveStatus:
    version: int
    live: bool
    since: str
    """``HH:MM`` of the last good read (local time), empty before the first."""
    error: str = ""


class Hub:
    """Owns the current view; ``start()`` its threads, ``attach(loop)`` the web side."""

    def __init__(self, source: HallSource) -> None:
        self.source = source
        self.view: HallView | None = None
        self.version = 0
        self.error = ""
        self.last_ok: float | None = None
        self.reads = 0
        self._poke = threading.Event()
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._listener: ListenerThread | None = None
        self._threads: list[threading.Thread] = []
        self._file_seen: list[tuple[int, int] | None] | None = None

    # -- threads -------------------------------------------------------------------
    def start(self) -> Hub:
        self._file_seen = None if self.source.on_server else self._file_mark()
        self._read()
        if self.source.on_server:
            self._listener = ListenerThread(
                self.source.address, on_event=lambda _landed: self.poke(), on_connect=self.poke
            ).start()
        else:
            self._threads.append(threading.Thread(target=self._poll_file, daemon=True))
        self._threads.append(threading.Thread(target=self._reader, daemon=True))
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._poke.set()
        if self._listener is not None:
            self._listener.stop()
        for thread in self._threads:
            thread.join(5)

    def poke(self) -> None:
        """Something may have changed: read again (from any thread)."""
        self._poke.set()

    def _reader(self) -> None:
        while not self._stop.is_set():
            self._poke.wait(RETRY_SECONDS)
            if self._stop.is_set():
                return
            listening = self._listener is None or self._listener.wait_ready(0)
            if self._poke.is_set() or not self.live or not listening:
                self._poke.clear()
                self._read()

    def _read(self) -> None:
        try:
            with self.source.tournament() as t:
                view = build_view(t)
        except (TournamentError, OSError, ValueError) as error:
            self._failed(str(error))
            return
        except Exception as error:  # the store went away mid-read (psycopg, sqlite3)
            self._failed(" ".join(str(error).split()))
            return
        self.reads += 1
        self.view = view
        self.error = ""
        self.last_ok = time.time()
        self.version += 1
        self._announce()

    def _failed(self, text: str) -> None:
        changed = not self.error
        self.error = text or "cannot read the tournament"
        if changed:
            self.version += 1
            self._announce()

    @property
    def live(self) -> bool:
        if self.error or self.last_ok is None:
            return False
        return self._listener is None or self._listener.wait_ready(0)

    def status(self) -> LiveStatus:
        since = time.strftime("%H:%M", time.localtime(self.last_ok)) if self.last_ok else ""
        live = self.live
        return LiveStatus(self.version, live, since, "" if live else self.error or "listening")

    def _file_mark(self) -> list[tuple[int, int] | None]:
        """Size and time of the file and its write-ahead log (taken before each read)."""
        mark: list[tuple[int, int] | None] = []
        for name in (self.source.address, f"{self.source.address}-wal"):
            try:
                st = os.stat(name)
                mark.append((st.st_size, st.st_mtime_ns))
            except OSError:
                mark.append(None)
        return mark

    def _poll_file(self) -> None:
        while not self._stop.wait(FILE_POLL_SECONDS):
            mark = self._file_mark()
            if mark != self._file_seen:
                self._file_seen = mark
                self.poke()

    # -- the web side ------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._changed = asyncio.Event()

    def _announce(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake_clients)

    def _wake_clients(self) -> None:
        old, self._changed = self._changed, asyncio.Event()
        if old is not None:
            old.set()

    async def changed(self, timeout: float) -> None:
        """Wait until the view or the status changes, at most ``timeout`` seconds."""
        event = self._changed
        if event is None:
            await asyncio.sleep(timeout)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
