"""Rolling automatic backups of a tournament file (SQLite online backup).

Backups live beside the file in ``<file>.backups/``, newest kept, older pruned.
``restore_backup`` never deletes the damaged file: it moves it aside first.

Several desks may back up the same file at once: each writes its own uniquely named
``*.partial-<host>-<pid>-<random>`` copy and renames it; pruning tolerates a backup
another desk removed first. Partial copies left by killed desks are removed when their
process is gone (or after an hour, for another computer's).
"""

from __future__ import annotations

import os
import secrets
import socket
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: How many backups are kept per tournament file by default.
DEFAULT_KEEP = 5

#: A partial copy of another computer older than this (seconds) is abandoned.
ABANDONED_AFTER = 3600


@dataclass(frozen=True, slots=True)
class Backup:
    path: Path
    made_at: str  # ISO 8601 UTC
    size: int


def backup_dir(path: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(path)}.backups")


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def make_backup(
    conn: sqlite3.Connection, path: str | os.PathLike[str], keep: int = DEFAULT_KEEP
) -> Path:
    """Copy the live database (consistent snapshot) into the backup folder; prune."""
    folder = backup_dir(path)
    folder.mkdir(exist_ok=True)
    target = folder / f"{Path(path).name}.{stamp()}.sqlite"
    host = socket.gethostname().replace("-", "_")
    partial = target.with_suffix(f".partial-{host}-{os.getpid()}-{secrets.token_hex(4)}")
    dest = sqlite3.connect(partial)
    try:
        conn.backup(dest)
        dest.execute("PRAGMA journal_mode=DELETE")
        # The copy is complete in itself: no desk session is open on it.
        tables = {r[0] for r in dest.execute("SELECT name FROM sqlite_master")}
        if {"sessions", "session_ends"} <= tables:
            dest.execute(
                "INSERT INTO session_ends (token, ended_at, how) SELECT token, ?, 'backup' "
                "FROM sessions WHERE token NOT IN (SELECT token FROM session_ends)",
                (stamp(),),
            )
            dest.commit()
    except BaseException:
        dest.close()
        partial.unlink(missing_ok=True)
        raise
    dest.close()
    os.replace(partial, target)
    for old in backups(path)[keep:]:
        old.path.unlink(missing_ok=True)
    remove_orphans(path)
    return target


def remove_orphans(path: str | os.PathLike[str]) -> list[Path]:
    """Delete partial copies whose writer is gone; returns what was removed."""
    folder = backup_dir(path)
    removed: list[Path] = []
    try:
        items = list(folder.iterdir())
    except OSError:
        return removed
    host = socket.gethostname().replace("-", "_")
    for item in items:
        suffix = item.name.rpartition(".")[2]
        if not suffix.startswith("partial"):
            continue
        parts = suffix.split("-")
        try:
            age = time.time() - item.stat().st_mtime
        except OSError:
            continue  # removed by another desk meanwhile
        mine = len(parts) == 4 and parts[1] == host and parts[2].isdigit()
        if mine and (int(parts[2]) == os.getpid() or _alive(int(parts[2]))):
            continue
        if not mine and age < ABANDONED_AFTER:
            continue
        item.unlink(missing_ok=True)
        removed.append(item)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def backups(path: str | os.PathLike[str]) -> list[Backup]:
    """The backups of a tournament file, newest first."""
    folder = backup_dir(path)
    if not folder.is_dir():
        return []
    found = []
    prefix = f"{Path(path).name}."
    for item in folder.iterdir():
        if not (item.name.startswith(prefix) and item.suffix == ".sqlite"):
            continue
        stamp = item.name[len(prefix) : -len(".sqlite")]
        try:
            made = datetime.strptime(stamp, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
            size = item.stat().st_size
        except ValueError:
            continue
        except FileNotFoundError:
            continue  # another desk pruned it meanwhile
        found.append(Backup(item, made.isoformat(timespec="milliseconds"), size))
    return sorted(found, key=lambda b: (b.made_at, b.path.name), reverse=True)


class RollingBackups:
    """The automatic backups of one open file: every ``every`` events and on close."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        every: int | None,
        keep: int,
        before: Callable[[], None] | None = None,
    ) -> None:
        self.connection = connection
        self.path = path
        self.every = every
        self.keep = keep
        self.before = before  # e.g. the heads journal's fsync: durable before any backup
        self.since = 0  # events appended since the last backup

    def make(self) -> Path:
        """Write a backup now (SQLite online backup); returns its path."""
        self.since = 0
        if self.before is not None:
            self.before()
        return make_backup(self.connection, self.path, self.keep)

    def after_append(self) -> None:
        """Count one committed event; back up when due. Never fails the saved event:
        another desk pruning the same folder, a full disk or a vanished folder only
        skip this backup (the next one is tried ``every`` events later)."""
        self.since += 1
        if self.every and self.since >= self.every:
            with suppress(OSError, sqlite3.Error):
                self.make()

    def on_close(self) -> None:
        if self.every and self.since:
            with suppress(OSError, sqlite3.Error):
                self.make()
