"""Schema versioning: older files migrate, newer and foreign files are refused clearly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee_desk.store import (
    NewerFileError,
    NotATournamentFile,
    TournamentFile,
    backups,
)
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.schema import FILE_FORMAT, SCHEMA_V0, STORE_SCHEMA_VERSION
from referee_desk.store.synthetic import record, sealed_match


def make_v0_file(path: Path) -> list:
    """A file as the prototype wrote it: version 0, no guards, no seals, no sessions."""
    events = sealed_match("r1-t1", 5)
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V0)
    conn.execute("INSERT INTO meta VALUES ('format', ?)", (FILE_FORMAT,))
    conn.execute("INSERT INTO meta VALUES ('tournament_id', 'old-cup')")
    conn.executemany(INSERT_SQL, [to_row(e) for e in events])
    conn.execute("PRAGMA journal_mode=WAL")
    conn.commit()
    conn.close()
    return events


def test_version_0_file_is_migrated_with_a_backup_first(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    events = make_v0_file(path)
    with TournamentFile.open(path, create=False) as tf:
        assert tf.meta()["store_schema_version"] == str(STORE_SCHEMA_VERSION)
        assert tf.events("r1-t1") == events
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            tf.connection.execute("DELETE FROM events")
        assert tf.seals.lock("r1-t1").head_hash == events[-1].hash  # seals work after it
        assert tf.checks.verify() is None
    saved = backups(path)
    assert len(saved) == 1
    raw = sqlite3.connect(saved[0].path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 0  # the pre-migration copy
    raw.close()


def test_read_only_open_of_an_old_file_explains(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    make_v0_file(path)
    with pytest.raises(NewerFileError, match="older Referee Desk"):
        TournamentFile.open(path, read_only=True)


def test_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "m", 2)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {STORE_SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(NewerFileError, match="made by a newer Referee Desk"):
        TournamentFile.open(path)


def test_non_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("这不是数据库\n", encoding="utf-8")
    with pytest.raises(NotATournamentFile, match="not a Referee Desk tournament file"):
        TournamentFile.open(path)
    assert path.read_text(encoding="utf-8") == "这不是数据库\n"


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE contacts (name TEXT)")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(NotATournamentFile, match="SQLite file, but not a Referee Desk"):
        TournamentFile.open(path)
    assert path.read_bytes() == before


def test_missing_file_without_create(tmp_path: Path) -> None:
    with pytest.raises(NotATournamentFile, match="no such tournament file"):
        TournamentFile.open(tmp_path / "absent.sqlite", create=False)
    assert not (tmp_path / "absent.sqlite").exists()
