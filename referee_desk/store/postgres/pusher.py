"""A desk's background pusher: appends never wait for the network.

The desk appends to its own file as always and calls ``wake()``; a daemon thread with
its own file handle and its own server connection pushes what the server lacks. When
the server is down it retries with exponential backoff (0.5 s doubling to 30 s, with
jitter so a hall of desks does not knock at once); nothing is lost meanwhile, since
the file is the journal and each push resends whatever the server did not commit.
No Qt here: ``on_state`` is called from the pusher's thread.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Self

import psycopg

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.errors import ServerError, ServerUnreachable
from referee_desk.store.postgres.heartbeat import send_heartbeat
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import PushReport, SyncState, push, sync_state


class Backoff:
    """Waits between attempts while the server is down: doubling, capped, jittered."""

    def __init__(self, first: float = 0.5, cap: float = 30.0) -> None:
        self.first = first
        self.cap = cap
        self.current = first

    def next(self) -> float:
        delay = self.current
        self.current = min(self.current * 2, self.cap)
        return delay * random.uniform(0.8, 1.2)

    def reset(self) -> None:
        self.current = self.first


class BackgroundPusher:
    """Pushes ``path`` to ``url`` from a thread; ``state`` is the latest ``SyncState``."""

    def __init__(
        self,
        path: str | Path,
        url: str,
        *,
        interval: float = 2.0,
        backoff: Backoff | None = None,
        on_state: Callable[[SyncState], None] | None = None,
        client: str = "desk",
    ) -> None:
        self.path = Path(path)
        self.url = url
        self.interval = interval
        self.backoff = backoff or Backoff()
        self.on_state = on_state
        self.client = client  # named in the heartbeat (the desk, or sync --follow)
        self.heartbeats = 0
        self.last_error: str | None = None
        self.last_report: PushReport | None = None
        self.pushes = 0
        self._state = SyncState("never", 0)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._cycles_begun = 0  # push cycles started / finished (guarded by _idle)
        self._cycles_done = 0
        self._thread = threading.Thread(target=self._run, name="referee-desk-pusher", daemon=True)

    # ------------------------------------------------------------- the desk's side

    def start(self) -> Self:
        self._thread.start()
        return self

    def wake(self) -> None:
        """Call after an append: push soon. Never blocks."""
        self._wake.set()

    @property
    def state(self) -> SyncState:
        with self._lock:
            return self._state

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def wait_until(self, done: Callable[[SyncState], bool], timeout: float) -> bool:
        """Block until ``done(state)`` holds for a state computed after this call began.

        (An older state may predate the desk's latest append.) For the CLI and tests.
        """
        with self._idle:
            begun = self._cycles_begun
        self.wake()
        with self._idle:
            return self._idle.wait_for(
                lambda: self._cycles_done > begun and done(self.state), timeout
            )

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------- the pusher's side

    def _run(self) -> None:
        tf = self._open_file()
        if tf is None:
            return
        server: TournamentServer | None = None
        try:
            while not self._stop.is_set():
                with self._idle:
                    self._cycles_begun += 1
                    cycle = self._cycles_begun
                try:
                    if server is None:
                        server = TournamentServer.open(self.url)
                    self.last_report = push(tf, server)
                    self.pushes += 1
                    if send_heartbeat(tf, server, self.last_report, self.client):
                        self.heartbeats += 1
                    self.last_error = None
                    self.backoff.reset()
                    wait = self.interval
                except (ServerUnreachable, psycopg.OperationalError, psycopg.InterfaceError) as e:
                    _drop(server)
                    server = None
                    self.last_error = " ".join(str(e).split())
                    wait = self.backoff.next()
                except ServerError as error:  # login refused, schema: the organizer must act
                    _drop(server)
                    server = None
                    self.last_error = str(error)
                    wait = self.backoff.cap
                except Exception as error:  # e.g. the desk's file busy: never die, retry
                    self.last_error = f"{type(error).__name__}: {' '.join(str(error).split())}"
                    wait = self.backoff.next()
                try:
                    state = sync_state(tf)
                except Exception as error:
                    self.last_error = f"{type(error).__name__}: {' '.join(str(error).split())}"
                    state = self._state
                self._publish(state, cycle)
                if wait == self.interval:
                    self._wake.wait(wait)
                else:
                    self._stop.wait(wait)  # backing off: appends do not hurry it
                self._wake.clear()
        finally:
            _drop(server)
            tf.close()

    def _open_file(self) -> TournamentFile | None:
        """The pusher's own handle (only read), retried while the desk's file is busy."""
        while not self._stop.is_set():
            try:
                return TournamentFile.open(self.path, create=False, check=False)
            except Exception as error:
                self.last_error = f"{type(error).__name__}: {' '.join(str(error).split())}"
                self._stop.wait(self.backoff.next())
        return None

    def _publish(self, state: SyncState, cycle: int) -> None:
        with self._lock:
            self._state = state
        with self._idle:
            self._cycles_done = cycle
            self._idle.notify_all()
        if self.on_state is not None:
            self.on_state(state)


def _drop(server: TournamentServer | None) -> None:
    if server is not None:
        with contextlib.suppress(psycopg.Error):
            server.close()
