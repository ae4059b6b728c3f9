"""Faults against the real server (slow): the server killed mid-push, a desk offline for a
whole match, two desks racing for one match. Nothing recorded is lost or duplicated."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from pg_cluster import PrivateCluster, find_bin_dir, start_cluster

from referee_desk.store import TournamentFile
from referee_desk.store.interchange import verify_path
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.init import init_server
from referee_desk.store.postgres.listener import ListenerThread
from referee_desk.store.postgres.pusher import BackgroundPusher, Backoff
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import sync_file, sync_state
from referee_desk.store.synthetic import draft

pytestmark = pytest.mark.slow


@pytest.fixture
def own_cluster(pg_cluster) -> Iterator[PrivateCluster]:
    """A cluster of its own (this test kills it); ``pg_cluster`` first, for its skip/fail."""
    cluster = start_cluster(find_bin_dir())
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        cluster.remove()


def _hall(cluster: PrivateCluster, tables: int):
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE cup")
    admin = cluster.url("cup")
    report = init_server(admin, [f"{n}号桌" for n in range(1, tables + 1)])
    organizer_url = report.organizer.url(admin)
    with TournamentServer.open(organizer_url) as organizer:
        organizer.set_claims(True)  # a published hall (claims are closed from server init)
    return organizer_url, [d.url(admin) for d in report.desks]


def test_server_killed_during_pushes_desks_keep_recording_and_catch_up(own_cluster, tmp_path):
    from referee_desk.store import keys

    # The computer's desk key exists before the desks start (made on first use, it is
    # not safe to make from four threads at once: keys._write_private's partial file is
    # named by pid only).
    keys.desk_signer()
    organizer_url, desk_urls = _hall(own_cluster, 4)
    per_desk = 300
    started = threading.Barrier(5)
    errors_seen: list[str] = []

    def desk(n: int) -> tuple[str, list]:
        path = tmp_path / f"desk{n}.sqlite"
        match_id = f"R1-T{n}"
        backoff = Backoff(first=0.1, cap=1.0)
        with (
            TournamentFile.open(path) as tf,
            BackgroundPusher(path, desk_urls[n], interval=0.2, backoff=backoff) as pusher,
        ):
            started.wait()
            for index in range(per_desk):
                tf.append(draft(match_id, index))  # never waits for the server
                pusher.wake()
                if pusher.last_error:
                    errors_seen.append(pusher.last_error)
                time.sleep(0.01)
            assert pusher.wait_until(lambda s: s.status == "synced", timeout=90), pusher.last_error
            return match_id, tf.events(match_id)

    heard: set[tuple[str, int]] = set()
    listener = ListenerThread(
        organizer_url, lambda e: heard.add((e.match_id, e.seq)), on_connect=lambda: None
    )
    listener.retry_seconds = 0.2
    listener.start()
    assert listener.wait_ready()
    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(desk, n) for n in range(4)]
        started.wait()
        # Kill mid-match: once every desk has pushed some events, not after a fixed sleep.
        deadline = time.monotonic() + 60
        with TournamentServer.open(organizer_url) as watching:
            while time.monotonic() < deadline:
                if len(watching.match_ids()) == 4 and watching.count() >= 4 * 10:
                    break
                time.sleep(0.02)
        own_cluster.kill()  # SIGKILL: no shutdown, in-flight transactions die
        killed_at = time.monotonic()
        time.sleep(1.5)
        own_cluster.start()
        restarted_after = time.monotonic() - killed_at
        results = [f.result() for f in futures]
    assert restarted_after >= 1.5
    assert any("server" in e for e in errors_seen), "no desk noticed the server was down"
    with TournamentServer.open(organizer_url) as organizer:
        assert organizer.count() == 4 * per_desk  # nothing lost, nothing twice
        for match_id, local in results:
            assert len(local) == per_desk
            assert organizer.events(match_id) == local
    # The organizer's live view came back by itself: the last events were heard.
    listener.stop()
    assert listener.connects >= 2  # once at the start, again after the restart
    assert {(m, per_desk) for m, _ in results} <= heard


def test_a_desk_offline_for_a_whole_match_then_syncing(hall, tmp_path) -> None:
    from referee_desk.store.synthetic import opening_payload
    from referee_desk.tournament.simulate import simulate_match

    path = tmp_path / "offline.sqlite"
    events = simulate_match("R3-T2", opening_payload("R3-T2"), winner="EW", loser_gains=3)
    with TournamentFile.open(path) as tf:
        for event in events:
            tf.append(event, lock=event.type == "match_ended")
        assert sync_state(tf).status == "never"
    report = sync_file(str(path), hall.desk_urls[1])
    assert report.pushed == {"R3-T2": len(events)}
    out = tmp_path / "from-server.jsonl"
    with TournamentServer.open(hall.organizer_url) as organizer:
        write_jsonl(organizer.events("R3-T2"), out)
    # The record read back from the server passes the store's own checks, seals included.
    assert verify_path(out) is None
    assert verify_path(out, against=path) is None
    with TournamentFile.open(path) as tf:  # the lock waits for the organizer to know the key
        assert [c.kind for c in sync_state(tf).conflicts] == ["seal"]
    from referee_desk.store.postgres.seals import approve_offers, key_offers, seals

    with TournamentServer.open(hall.organizer_url) as organizer:
        (offer,) = key_offers(organizer)
        assert len(approve_offers(organizer, [offer.fingerprint])) == 1
    assert sync_file(str(path), hall.desk_urls[1]).seals == 1
    with TournamentFile.open(path) as tf:
        assert sync_state(tf).status == "synced"
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert [(s.match_id, s.valid) for s in seals(organizer)] == [("R3-T2", True)]


def test_two_desks_racing_to_claim_the_same_matches(hall, desk_file) -> None:
    matches = {f"R9-T{n}": 4 for n in range(12)}
    first = desk_file("a", matches)
    second = desk_file("b", {m: 6 for m in matches})
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(
            lambda args: sync_file(*args),
            [(str(first), hall.desk_urls[0]), (str(second), hall.desk_urls[1])],
        )
    for match_id in matches:
        won = [r for r in (a, b) if match_id in r.pushed]
        lost = [r for r in (a, b) if any(c.match_id == match_id for c in r.conflicts)]
        assert len(won) == 1 and len(lost) == 1, match_id
        assert lost[0].conflicts[0].kind == "claimed"
    with TournamentServer.open(hall.organizer_url) as organizer:
        holders = {a.match_id: a.desk_role for a in organizer.assignments()}
        for match_id in matches:
            expected = 4 if holders[match_id] == hall.desk_roles[0] else 6
            assert organizer.head(match_id)[0] == expected
        assert len([c for c in organizer.conflicts() if c.kind == "claimed"]) == len(matches)
