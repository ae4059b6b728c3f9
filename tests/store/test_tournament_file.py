"""The tournament file: append-only, one transaction per event, hash-chained per match."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from referee_desk.match.envelope import GENESIS_HASH, verify_chain
from referee_desk.store import (
    AppendConflict,
    AppendRefused,
    NewerFileError,
    StoreWriteError,
    TournamentFile,
)
from referee_desk.store.synthetic import draft, record


def test_append_assigns_seq_and_chains_each_match(tfile: TournamentFile) -> None:
    a = record(tfile, "r1-t1", 4)
    b = record(tfile, "r1-t2", 3)
    assert [e.seq for e in a] == [1, 2, 3, 4]
    assert [e.seq for e in b] == [1, 2, 3]
    assert a[0].prev_hash == GENESIS_HASH and b[0].prev_hash == GENESIS_HASH
    assert all(e.prev_hash == p.hash for p, e in itertools.pairwise(a))
    assert verify_chain(tfile.events("r1-t1")) is None
    assert tfile.events("r1-t1") == a
    assert tfile.match_ids() == ["r1-t1", "r1-t2"]
    assert tfile.events("nope") == []


def test_each_append_is_committed_before_it_returns(tfile: TournamentFile) -> None:
    """Issue 3: each event is committed in its own transaction before the caller returns."""
    event = tfile.append(draft("r1-t1", 0))
    other = sqlite3.connect(tfile.path)
    try:
        row = other.execute("SELECT hash FROM events WHERE match_id = 'r1-t1'").fetchone()
    finally:
        other.close()
    assert row == (event.hash,)
    assert not tfile.connection.in_transaction


def test_file_settings_are_wal_and_full_sync(tfile: TournamentFile) -> None:
    assert tfile.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert tfile.connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_reopened_file_holds_the_same_events(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with TournamentFile.open(path) as tf:
        written = record(tf, "m", 5)
    with TournamentFile.open(path, create=False) as tf:
        assert tf.events("m") == written
        assert tf.checks.verify() is None


@pytest.mark.parametrize(
    "sql",
    ["UPDATE events SET referee = 'x'", "DELETE FROM events WHERE seq = 2"],
)
def test_events_table_refuses_update_and_delete(tfile: TournamentFile, sql: str) -> None:
    record(tfile, "m", 3)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        tfile.connection.execute(sql)
    assert len(tfile.events("m")) == 3


def _without_fork_settlement(text: str) -> str:
    """The code less the one place events may leave the server: the organizer settling a
    fork for the desk's branch (issue 21, ``settle_fork``), which first copies the same
    rows into the append-only ``archived_events`` (the server's trigger refuses a
    removal of any row not archived so)."""
    start = text.find("CREATE FUNCTION REFEREE_DESK.SETTLE_FORK(")
    if start < 0:
        return text
    end = text.index("END $$;", start)
    body = text[start:end]
    archive = body.index("INSERT INTO ARCHIVED_EVENTS")
    assert archive < body.index("DELETE FROM EVENTS"), "settle_fork deletes before archiving"
    assert body.count("DELETE FROM EVENTS") == 1
    return text[:start] + text[end:]


def test_no_update_or_delete_of_events_in_the_code() -> None:
    """Issue 3: append only, no UPDATE or DELETE of events anywhere in the code (but the
    archived settlement of a fork on the server, checked in ``_without_fork_settlement``)."""
    root = Path(__file__).resolve().parents[2] / "referee_desk"
    offenders = []
    for source in root.rglob("*.py"):
        text = _without_fork_settlement(source.read_text(encoding="utf-8").upper())
        if "UPDATE EVENTS" in text or "DELETE FROM EVENTS" in text:
            offenders.append(str(source))
    assert offenders == []


def test_unique_match_and_seq(tfile: TournamentFile) -> None:
    first = record(tfile, "m", 1)[0]
    with pytest.raises(sqlite3.IntegrityError):
        tfile.connection.execute(
            "INSERT INTO events (match_id, seq, type, recorded_at, clock_ms, referee, payload, "
            "prev_hash, hash, schema_version, canonical) VALUES ('m', 1, 'note', ?, 0, 'x', '{}',"
            " ?, ?, 1, '{}')",
            (first.recorded_at, GENESIS_HASH, first.hash),
        )


def test_stale_writer_gets_append_conflict(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with TournamentFile.open(path) as desk_a, TournamentFile.open(path) as desk_b:
        record(desk_a, "m", 2)
        seen_by_b = len(desk_b.events("m"))
        desk_a.append(draft("m", 2))  # A records event 3 while B still shows 2
        with pytest.raises(AppendConflict, match="another desk recorded"):
            desk_b.append(draft("m", seen_by_b), expected_seq=seen_by_b + 1)
        # The draft's own seq is an expected-sequence check too.
        stale = draft("m", 3)
        with pytest.raises(AppendConflict):
            desk_b.append(stale.__class__(**{**stale.to_dict(), "seq": 3}))
        ok = desk_b.append(draft("m", 3), expected_seq=4)
        assert ok.seq == 4
        assert [e.seq for e in desk_a.events("m")] == [1, 2, 3, 4]
        assert desk_a.append(draft("m", 4)).seq == 5  # A's cache catches up with B's event


def test_event_the_state_cannot_accept_is_refused_and_not_written(tfile: TournamentFile) -> None:
    # A clock_started before match_opened: nothing to start.
    with pytest.raises(AppendRefused):
        tfile.append(draft("m", 1))
    assert tfile.events("m") == []
    record(tfile, "m", 2)
    bogus = draft("m", 2).__class__(**{**draft("m", 2).to_dict(), "type": "no_such_event"})
    with pytest.raises(AppendRefused):
        tfile.append(bogus)
    assert len(tfile.events("m")) == 2


def test_meta_records_version_tournament_and_creation(tfile: TournamentFile) -> None:
    meta = tfile.meta()
    assert meta["format"] == "referee-desk-tournament"
    assert meta["tournament_id"] == "cup-2026"
    assert meta["store_schema_version"] == "3"
    assert meta["created_at"].endswith("Z")
    assert "seal_secret" not in meta


def test_other_layers_add_versioned_tables(tfile: TournamentFile) -> None:
    calls = []

    def migrate(conn: sqlite3.Connection, from_version: int) -> None:
        calls.append(from_version)
        if from_version < 1:
            conn.execute("CREATE TABLE t_rounds (number INTEGER PRIMARY KEY, name TEXT)")
        if from_version < 2:
            conn.execute("ALTER TABLE t_rounds ADD COLUMN started_at TEXT")

    tfile.ensure_extension("tournament", 2, migrate)
    tfile.ensure_extension("tournament", 2, migrate)  # already there: no call
    assert calls == [0]
    with tfile.transaction() as conn:
        conn.execute("INSERT INTO t_rounds VALUES (1, '第一轮', NULL)")
    with pytest.raises(NewerFileError, match="newer Referee Desk"):
        tfile.ensure_extension("tournament", 1, migrate)


def test_read_only_handle_refuses_appends_clearly(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "m", 2)
    with TournamentFile.open(path, read_only=True) as tf:
        with pytest.raises(StoreWriteError, match="read-only"):
            tf.append(draft("m", 2))
        assert len(tf.events("m")) == 2
