"""Rolling automatic backups of a tournament file (SQLite online backup).

Backups live beside the file in ``<file>.backups/``, newest kept, older pruned.
``restore_backup`` never deletes the damaged file: it moves it aside first.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: How many backups are kept per tournament file by default.
DEFAULT_KEEP = 5


@dataclass(frozen=True, slots=True)
class Backup:
    path: Path
    made_at: str  # ISO 8601 UTC
    size: int


def backup_dir(path: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(path)}.backups")


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def make_backup(
    conn: sqlite3.Connection, path: str | os.PathLike[str], keep: int = DEFAULT_KEEP
) -> Path:
    """Copy the live database (consistent snapshot) into the backup folder; prune."""
    folder = backup_dir(path)
    folder.mkdir(exist_ok=True)
    target = folder / f"{Path(path).name}.{_stamp()}.sqlite"
    partial = target.with_suffix(".partial")
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
                (_stamp(),),
            )
            dest.commit()
    finally:
        dest.close()
    os.replace(partial, target)
    for old in backups(path)[keep:]:
        old.path.unlink(missing_ok=True)
    return target


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
        except ValueError:
            continue
        found.append(Backup(item, made.isoformat(timespec="milliseconds"), item.stat().st_size))
    return sorted(found, key=lambda b: b.made_at, reverse=True)


def restore_backup(backup: Backup | str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """Replace the (damaged) tournament file by a backup after checking the backup.

    Returns where the damaged file was moved (``<file>.damaged-<stamp>``); its WAL and
    shared-memory files move with it. Raises ``StoreError`` if the backup is itself bad.
    """
    from referee_desk.store.tournament_file import TournamentFile

    source = backup.path if isinstance(backup, Backup) else Path(backup)
    with TournamentFile.open(source, create=False, read_only=True) as checked:
        problem = checked.verify()
    if problem is not None:
        from referee_desk.store.errors import DamagedFile

        raise DamagedFile(f"backup {source} is damaged too: {problem}")
    aside = Path(f"{os.fspath(path)}.damaged-{_stamp()}")
    for suffix in ("", "-wal", "-shm"):
        current = Path(f"{os.fspath(path)}{suffix}")
        if current.exists():
            os.replace(current, Path(f"{aside}{suffix}"))
    partial = Path(f"{os.fspath(path)}.restoring")
    shutil.copyfile(source, partial)
    os.replace(partial, path)
    return aside
