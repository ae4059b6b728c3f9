"""Pushing desks' files to the real server: byte-identical, idempotent, forks refused."""

from __future__ import annotations

import psycopg
import pytest

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import push, sync_file, sync_state
from referee_desk.store.synthetic import draft, record


def test_push_sends_every_event_byte_identical(hall, desk_file) -> None:
    path = desk_file("t1", {"R1-T1": 12, "R2-T1": 5})
    report = sync_file(str(path), hall.desk_urls[0])
    assert report.pushed == {"R1-T1": 12, "R2-T1": 5}
    assert report.conflicts == ()
    with TournamentServer.open(hall.organizer_url) as server, TournamentFile.open(path) as tf:
        for match_id in ("R1-T1", "R2-T1"):
            local = tf.events(match_id)
            assert server.events(match_id) == local
            assert server.canonical_texts(match_id) == [
                e.canonical_json().decode("utf-8") for e in local
            ]
            assert server.head(match_id) == tf.head(match_id)


def test_push_is_idempotent_and_sends_only_new_events(hall, desk_file) -> None:
    path = desk_file("t1", {"R1-T1": 6})
    assert sync_file(str(path), hall.desk_urls[0]).total_pushed == 6
    again = sync_file(str(path), hall.desk_urls[0])
    assert again.total_pushed == 0 and again.unchanged == ("R1-T1",)
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 3)
    assert sync_file(str(path), hall.desk_urls[0]).pushed == {"R1-T1": 3}
    with TournamentServer.open(hall.organizer_url) as server:
        assert server.count() == 9


def test_a_file_pushed_again_after_losing_its_sync_marks_sends_nothing(hall, desk_file, tmp_path):
    """Idempotent by (match_id, seq, hash), not by what the desk remembers."""
    path = desk_file("t1", {"R1-T1": 6})
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(path.read_bytes())  # before any push: no sync marks in the copy
    assert sync_file(str(path), hall.desk_urls[0]).total_pushed == 6
    report = sync_file(str(copy), hall.desk_urls[0])
    assert report.total_pushed == 0 and report.conflicts == ()


def test_fork_is_refused_reported_and_recorded_on_the_server(hall, desk_file, tmp_path) -> None:
    path = desk_file("t1", {"R1-T1": 4})
    fork_path = tmp_path / "fork.sqlite"
    fork_path.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 2)
    with TournamentFile.open(fork_path) as tf:
        tf.append(draft("R1-T1", 4, text="另一台电脑上的记录"))
    assert sync_file(str(path), hall.desk_urls[0]).total_pushed == 6
    report = sync_file(str(fork_path), hall.desk_urls[0])
    assert report.total_pushed == 0
    (conflict,) = report.conflicts
    assert (conflict.match_id, conflict.seq, conflict.kind) == ("R1-T1", 5, "fork")
    with TournamentServer.open(hall.organizer_url) as server:
        assert server.head("R1-T1")[0] == 6  # never merged
        (seen,) = server.conflicts()
        assert (seen.match_id, seen.seq, seen.kind) == ("R1-T1", 5, "fork")
        assert seen.reported_by == hall.desk_roles[0]
        with TournamentFile.open(path) as tf:
            assert seen.server_hash == tf.events("R1-T1")[4].hash
    with TournamentFile.open(fork_path) as tf:
        state = sync_state(tf)
        assert state.status == "conflict"
        assert [(c.match_id, c.seq) for c in state.conflicts] == [("R1-T1", 5)]


def test_sync_state_counts_waiting_events_without_the_network(hall, desk_file) -> None:
    path = desk_file("t1", {"R1-T1": 3})
    with TournamentFile.open(path) as tf:
        assert sync_state(tf).status == "never"
        with TournamentServer.open(hall.desk_urls[0]) as server:
            push(tf, server)
        assert sync_state(tf).status == "synced"
        record(tf, "R1-T1", 4)
        state = sync_state(tf)
        assert (state.status, state.waiting) == ("waiting", 4)


def test_a_desk_cannot_push_a_match_assigned_to_another(hall, desk_file) -> None:
    with TournamentServer.open(hall.organizer_url) as organizer:
        organizer.assign("R1-T2", "2号桌", None)
    path = desk_file("t1", {"R1-T2": 3})
    (conflict,) = sync_file(str(path), hall.desk_urls[0]).conflicts
    assert conflict.kind == "claimed" and hall.desk_roles[1] in conflict.reason
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert organizer.count() == 0
        assert [c.kind for c in organizer.conflicts()] == ["claimed"]


def test_two_desks_claiming_one_match_first_one_keeps_it(hall, desk_file) -> None:
    first = desk_file("t1", {"R1-T9": 3})
    second = desk_file("t2", {"R1-T9": 5})
    assert sync_file(str(first), hall.desk_urls[0]).pushed == {"R1-T9": 3}
    (conflict,) = sync_file(str(second), hall.desk_urls[1]).conflicts
    assert conflict.kind == "claimed"
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert organizer.head("R1-T9")[0] == 3
        assert organizer.assignment("R1-T9").desk_role == hall.desk_roles[0]
        # Given to the second desk, whose record extends the first's: its push goes through.
        organizer.assign("R1-T9", "2号桌", None)
    report = sync_file(str(second), hall.desk_urls[1])
    assert report.pushed == {"R1-T9": 2} and report.conflicts == ()
    with TournamentFile.open(second) as tf:
        assert sync_state(tf).status == "synced"


def test_pull_gives_a_desk_the_drawn_opening_of_its_match(hall) -> None:
    opening = {"tournament": "桂林杯", "round": "第1轮", "table": "1号桌"}
    with TournamentServer.open(hall.organizer_url) as organizer:
        organizer.assign("KO-R1-M001", "1号桌", opening)
    with TournamentServer.open(hall.desk_urls[0]) as desk:
        assert desk.opening("KO-R1-M001") == opening
    with TournamentServer.open(hall.desk_urls[1]) as other:
        assert other.opening("KO-R1-M001") is None  # row-level security: not its match


def test_desk_role_cannot_update_or_delete_events(hall, desk_file) -> None:
    path = desk_file("t1", {"R1-T1": 3})
    sync_file(str(path), hall.desk_urls[0])
    for statement in (
        "UPDATE referee_desk.events SET canonical = canonical",
        "DELETE FROM referee_desk.events",
        "TRUNCATE referee_desk.events",
    ):
        with (
            psycopg.connect(hall.desk_urls[0]) as conn,
            pytest.raises(psycopg.errors.InsufficientPrivilege),
        ):
            conn.execute(statement)


def test_two_pushers_of_one_desk_at_once_send_each_event_once(hall, desk_file) -> None:
    from concurrent.futures import ThreadPoolExecutor

    path = desk_file("t1", {f"R1-T{n}": 40 for n in range(6)})
    with ThreadPoolExecutor(3) as pool:
        reports = list(pool.map(lambda _: sync_file(str(path), hall.desk_urls[0]), range(3)))
    assert all(r.conflicts == () for r in reports)
    assert sum(r.total_pushed for r in reports) == 240
    with TournamentServer.open(hall.organizer_url) as server, TournamentFile.open(path) as tf:
        assert server.count() == 240
        assert all(server.events(m) == tf.events(m) for m in tf.match_ids())


def test_a_file_behind_the_server_is_named_not_pushed_and_not_a_server_conflict(
    hall, desk_file, tmp_path
) -> None:
    path = desk_file("t1", {"R1-T1": 4})
    older = tmp_path / "restored.sqlite"
    older.write_bytes(path.read_bytes())  # as a backup restored after more was recorded
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 3)
    sync_file(str(path), hall.desk_urls[0])
    (conflict,) = sync_file(str(older), hall.desk_urls[0]).conflicts
    assert (conflict.kind, conflict.seq) == ("behind", 5)
    assert "the server holds 7 events, this file 4" in conflict.reason
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert organizer.conflicts() == [] and organizer.head("R1-T1")[0] == 7


def test_awkward_text_is_stored_byte_for_byte(hall, tmp_path) -> None:
    """Quotes, backslashes, tabs, U+2028, astral characters: same text, same hash."""
    path = tmp_path / "t1.sqlite"
    awkward = '引号"与\\反斜杠\t制表\u2028行分隔 🀄 \u00e9\u0301 end'
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 2)
        tf.append(draft("R1-T1", 2, text=awkward))
    assert sync_file(str(path), hall.desk_urls[0]).pushed == {"R1-T1": 3}
    with TournamentServer.open(hall.organizer_url) as server, TournamentFile.open(path) as tf:
        (stored,) = server.canonical_texts("R1-T1")[2:]
        local = tf.events("R1-T1")[2]
        assert stored.encode("utf-8") == local.canonical_json()
        assert server.events("R1-T1")[2].payload["text"] == awkward
