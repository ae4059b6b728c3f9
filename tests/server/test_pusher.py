"""The background pusher and the live listener, against the real server."""

from __future__ import annotations

import threading
import time

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.listener import ListenerThread
from referee_desk.store.postgres.pusher import BackgroundPusher, Backoff
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.synthetic import draft


def test_pusher_keeps_the_server_up_to_date_as_the_desk_appends(hall, desk_file) -> None:
    path = desk_file("t1", {"R1-T1": 2})
    with TournamentFile.open(path) as tf, BackgroundPusher(path, hall.desk_urls[0]) as pusher:
        for index in range(2, 30):
            tf.append(draft("R1-T1", index))
            pusher.wake()
        assert pusher.wait_until(lambda s: s.status == "synced", timeout=20), pusher.last_error
        with TournamentServer.open(hall.organizer_url) as organizer:
            assert organizer.events("R1-T1") == tf.events("R1-T1")


def test_appends_do_not_wait_while_the_server_is_unreachable(pg_cluster, desk_file) -> None:
    from pg_cluster import free_port

    url = f"postgresql://nobody:pw@127.0.0.1:{free_port()}/cup"  # nothing listens there
    path = desk_file("t1", {"R1-T1": 2})
    backoff = Backoff(first=0.05, cap=0.2)
    with TournamentFile.open(path) as tf, BackgroundPusher(path, url, backoff=backoff) as pusher:
        for index in range(2, 12):
            tf.append(draft("R1-T1", index))
            pusher.wake()
        assert pusher.wait_until(lambda s: s.waiting == 12, timeout=10)
        assert pusher.state.status == "never"
        assert "cannot reach the server" in (pusher.last_error or "")
        assert len(tf.events("R1-T1")) == 12


def test_backoff_doubles_up_to_its_cap_with_jitter() -> None:
    backoff = Backoff(first=1.0, cap=8.0)
    waits = [backoff.next() for _ in range(6)]
    for wait, nominal in zip(waits, [1, 2, 4, 8, 8, 8], strict=True):
        assert 0.8 * nominal <= wait <= 1.2 * nominal
    backoff.reset()
    assert backoff.next() <= 1.2


def test_listener_hears_every_event_a_desk_pushes(hall, desk_file) -> None:
    heard: list = []
    done = threading.Event()

    def on_event(landed) -> None:
        heard.append(landed)
        if len(heard) == 20:
            done.set()

    path = desk_file("t1", {"R1-T1": 2})
    with ListenerThread(hall.organizer_url, on_event) as listener:
        assert listener.wait_ready()
        with TournamentFile.open(path) as tf, BackgroundPusher(path, hall.desk_urls[0]) as p:
            for index in range(2, 20):
                tf.append(draft("R1-T1", index))
                p.wake()
                time.sleep(0.01)
            assert done.wait(20)
    assert [(h.match_id, h.seq) for h in heard] == [("R1-T1", s) for s in range(1, 21)]
    assert {h.desk for h in heard} == {hall.desk_roles[0]}
