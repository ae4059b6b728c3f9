"""The one current view of the hall, rebuilt when the records change, shared by every page.

A watcher (the file's stamps, or the server's notifications) marks the view stale; one
thread rebuilds it from the tournament layer and bumps ``version``; waiting pages are
woken through ``on_version``. When the tournament cannot be read (the server restarting,
the network gone) the last view stays on show and ``live`` turns false with the time it
was last live, so a page can say "not live since HH:MM".
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from referee_desk.exports.snapshot import take_snapshot
from referee_desk.hall.view import HallView, build_view
from referee_desk.store.postgres.address import is_server_url, redact
from referee_desk.store.postgres.listener import ListenerThread
from referee_desk.tournament.repository import Tournament

#: How often a tournament file's stamps are looked at (a stat call: cheap).
POLL_SECONDS = 0.2
#: How long to wait before reading again after the tournament could not be read.
RETRY_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Status:
    """What a page needs to know about the board besides the view."""

    version: int
    live: bool
    last_live: datetime | None


class Board:
    """Owns the current ``HallView`` of one tournament address and keeps it current."""

    def __init__(
        self,
        address: str,
        on_version: Callable[[Status], None] | None = None,
        *,
        read: Callable[[str], HallView] | None = None,
    ) -> None:
        self.address = address
        self.on_version = on_version
        self._read = read or read_view
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stale = threading.Event()
        self._stop = threading.Event()
        self._view: HallView | None = None
        self._version = 0
        self._live = False
        self._last_live: datetime | None = None
        self._listener: ListenerThread | None = None
        self._thread = threading.Thread(target=self._run, name="hall-board", daemon=True)

    # -- reading ---------------------------------------------------------------
    @property
    def view(self) -> HallView | None:
        with self._lock:
            return self._view

    @property
    def status(self) -> Status:
        with self._lock:
            return Status(self._version, self._live, self._last_live)

    # -- running ---------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> Board:
        self._stale.set()
        if is_server_url(self.address):
            self._listener = ListenerThread(
                self.address, lambda _landed: self._stale.set(), on_connect=self._stale.set
            ).start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._stale.set()
        if self._listener is not None:
            self._listener.stop()
        self._thread.join(5)

    def wait_version(self, version: int, timeout: float) -> bool:
        """Block (a test, a script) until the view's version exceeds ``version``."""
        with self._changed:
            return self._changed.wait_for(lambda: self._version > version, timeout)

    def _run(self) -> None:
        stamp = _stamp(self.address)
        while not self._stop.is_set():
            if self._stale.wait(POLL_SECONDS):
                self._stale.clear()
                if self._stop.is_set():
                    break
                self._rebuild()
            elif self._listener is None:
                now = _stamp(self.address)
                if now != stamp:
                    stamp = now
                    self._rebuild()
            else:
                listening = self._listener.wait_ready(0)
                if listening and not self._is_live():
                    self._rebuild()  # back (or first connected): read what landed meanwhile
                elif not listening and self._is_live():
                    self._set_live(False)  # the server went away: not live until it is back

    def _is_live(self) -> bool:
        with self._lock:
            return self._live

    def _rebuild(self) -> None:
        try:
            view = self._read(self.address)
        except Exception as error:  # unreadable for now (server down): keep the last view
            print(f"hall: cannot read {redact(self.address)}: {error}", file=sys.stderr)
            self._set_live(False)
            self._stop.wait(RETRY_SECONDS)
            self._stale.set()
            return
        with self._lock:
            self._view = view
            self._version += 1
            self._live = self._listener is None or self._listener.wait_ready(0)
            if self._live:
                self._last_live = view.built_at
            self._changed.notify_all()
        self._announce()

    def _set_live(self, live: bool) -> None:
        with self._lock:
            changed = self._live != live
            self._live = live
            self._changed.notify_all()
        if changed:
            self._announce()

    def _announce(self) -> None:
        if self.on_version is not None:
            self.on_version(self.status)


def read_view(address: str) -> HallView:
    """The hall's view of the tournament at ``address`` (a file or a server), read now."""
    with Tournament.open(address, read_only=True) as t:
        return build_view(take_snapshot(t))


def _stamp(path: str) -> tuple[tuple[int, int], ...]:
    found = []
    for name in (path, f"{path}-wal"):
        try:
            st = os.stat(name)
        except OSError:
            found.append((0, 0))
        else:
            found.append((st.st_mtime_ns, st.st_size))
    return tuple(found)
