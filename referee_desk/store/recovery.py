"""Restoring a damaged tournament file from one of its backups.

``restore_backup`` checks the backup by opening it (so it sits above ``TournamentFile``,
unlike ``backup``, which the open file itself uses) and never deletes the damaged file:
it moves it aside first.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from referee_desk.store.backup import Backup, stamp
from referee_desk.store.errors import DamagedFile
from referee_desk.store.tournament_file import TournamentFile


def restore_backup(backup: Backup | str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """Replace the (damaged) tournament file by a backup after checking the backup.

    Returns where the damaged file was moved (``<file>.damaged-<stamp>``); its WAL and
    shared-memory files move with it. Raises ``StoreError`` if the backup is itself bad.
    """
    source = backup.path if isinstance(backup, Backup) else Path(backup)
    with TournamentFile.open(source, create=False, read_only=True) as checked:
        problem = checked.checks.verify()
    if problem is not None:
        raise DamagedFile(
            key="store.backup_damaged", params={"backup": str(source), "problem": str(problem)}
        )
    aside = Path(f"{os.fspath(path)}.damaged-{stamp()}")
    for suffix in ("", "-wal", "-shm"):
        current = Path(f"{os.fspath(path)}{suffix}")
        if current.exists():
            os.replace(current, Path(f"{aside}{suffix}"))
    # The heads journal witnessed the newer, damaged record: it goes aside too, and the
    # restored file starts a fresh one on its next open.
    journal = Path(f"{os.fspath(path)}.heads")
    if journal.exists():
        os.replace(journal, Path(f"{journal}.{aside.name.rpartition('.')[2]}"))
    partial = Path(f"{os.fspath(path)}.restoring")
    shutil.copyfile(source, partial)
    os.replace(partial, path)
    # Restoring is on purpose: this computer accepts the backup's (older) guard here.
    with TournamentFile.open(path, create=False, read_only=True, check=False) as restored:
        restored.trust.accept()
    return aside
