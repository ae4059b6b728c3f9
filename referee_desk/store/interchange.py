"""Between tournament files and JSON Lines: export, and import (``importing.py``).

The checks of either kind of record are in ``checks.py``, ``verify`` in ``verify.py``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from referee_desk.store import access
from referee_desk.store.errors import NotATournamentFile, StoreError
from referee_desk.store.importing import ImportReport, check_lines
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.opening import is_sqlite
from referee_desk.store.tournament_file import TournamentFile
from referee_desk.store.verify import verify_path, verify_report


def import_jsonl(
    tf: TournamentFile,
    paths: Sequence[str | os.PathLike[str]],
    *,
    by: access.Session | None = None,
) -> ImportReport:
    """Import JSON Lines files into an open tournament file, all or nothing
    (``importing.Importer``; in a file with PINs ``by`` is checked as at the desk)."""
    return tf.import_jsonl(paths, by=by)


def export_events(
    source: str | os.PathLike[str], output: str | os.PathLike[str], match_id: str | None = None
) -> int:
    """Write a tournament file's (or one match's) events as JSON Lines; returns the count."""
    with TournamentFile.open(source, create=False, read_only=True, check=False) as tf:
        if match_id is not None:
            events = tf.events(match_id)
            if not events:
                raise StoreError(f"{source}: no match {match_id!r} (matches: {_names(tf)})")
        else:
            events = tf.all_events()
            if not events:
                raise StoreError(f"{source}: the tournament file holds no events")
    return write_jsonl(events, output)


def _names(tf: TournamentFile) -> str:
    ids = tf.match_ids()
    return ", ".join(ids[:10]) + (" …" if len(ids) > 10 else "") if ids else "none"


__all__ = [
    "ImportReport",
    "NotATournamentFile",
    "check_lines",
    "export_events",
    "import_jsonl",
    "is_sqlite",
    "verify_path",
    "verify_report",
]
