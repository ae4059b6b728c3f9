"""Live refresh for the organizer: every event that lands on the server, as it lands.

The server's trigger sends ``NOTIFY referee_desk_events`` for each inserted event; the
notification is delivered when the desk's transaction commits, so a listener never
hears of an event it cannot read yet. ``EventListener`` waits on one connection;
``ListenerThread`` calls back from a thread (the organizer's view marshals the call to
its own thread) and reconnects when the server goes away; ``on_connect`` is called on
each (re)connection, after LISTEN, so the view reloads what landed while it was away.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Self

import psycopg

from referee_desk.store.postgres import schema
from referee_desk.store.postgres.connection import connect
from referee_desk.store.postgres.errors import ServerUnreachable


@dataclass(frozen=True, slots=True)
class Landed:
    """One event the server committed: which match and seq, from which desk, when heard."""

    match_id: str
    seq: int
    hash: str
    desk: str
    heard_at: float  # time.time() when the listener received it


class EventListener:
    """``LISTEN`` on one connection; ``wait(timeout)`` returns what arrived (maybe nothing)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.connection = connect(url, autocommit=True)
        self.connection.execute(f"LISTEN {schema.EVENTS_CHANNEL}")

    def wait(self, timeout: float) -> list[Landed]:
        """Block up to ``timeout`` seconds for the first event, then take every pending one."""
        try:
            got = list(self.connection.notifies(timeout=timeout, stop_after=1))
            if got:
                got += list(self.connection.notifies(timeout=0.001))
        except psycopg.OperationalError as error:
            raise ServerUnreachable(f"lost the server while listening: {error}") from None
        now = time.time()
        heard = [h for h in map(_parsed, (note.payload for note in got)) if h is not None]
        return [Landed(*h, now) for h in self._on_the_server(heard)]

    def _on_the_server(
        self, heard: list[tuple[str, int, str, str]]
    ) -> list[tuple[str, int, str, str]]:
        """Only what the server holds: any role may ``NOTIFY`` on the channel by hand."""
        if not heard:
            return []
        try:
            rows = self.connection.execute(
                "SELECT e.match_id, e.seq, e.hash, e.pushed_by FROM referee_desk.events e "
                "JOIN unnest(%s::text[], %s::integer[]) AS n(match_id, seq) "
                "ON e.match_id = n.match_id AND e.seq = n.seq",
                ([h[0] for h in heard], [h[1] for h in heard]),
            ).fetchall()
        except psycopg.OperationalError as error:
            raise ServerUnreachable(f"lost the server while listening: {error}") from None
        held = set(rows)
        return [h for h in heard if h in held]

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parsed(payload: str) -> tuple[str, int, str, str] | None:
    """(match id, seq, hash, desk) of a notification's payload; None when malformed."""
    try:
        data = json.loads(payload)
        found = (data["match_id"], data["seq"], data["hash"], data["desk"])
    except (ValueError, TypeError, KeyError):
        return None
    kinds = (str, int, str, str)
    if not all(type(v) is k for v, k in zip(found, kinds, strict=True)):
        return None
    return found


class ListenerThread:
    """Calls ``on_event(landed)`` from a daemon thread for every event; reconnects on loss."""

    def __init__(
        self,
        url: str,
        on_event: Callable[[Landed], None],
        *,
        on_connect: Callable[[], None] | None = None,
        retry_seconds: float = 1.0,
    ) -> None:
        self.url = url
        self.on_event = on_event
        self.on_connect = on_connect
        self.connects = 0
        self.retry_seconds = retry_seconds
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="referee-desk-listener", daemon=True)

    def start(self) -> Self:
        self._thread.start()
        return self

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Whether the thread is listening (events committed from now on are heard)."""
        return self._ready.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with EventListener(self.url) as listener:
                    self.connects += 1
                    self.last_error = None
                    if self.on_connect is not None:
                        self.on_connect()  # reload: events landed while away were not heard
                    self._ready.set()
                    while not self._stop.is_set():
                        for landed in listener.wait(timeout=0.5):
                            self.on_event(landed)
            except Exception as error:  # the server went away: keep trying
                self._ready.clear()
                self.last_error = str(error)
                self._stop.wait(self.retry_seconds)
