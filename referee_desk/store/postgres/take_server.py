"""The desk that lost a settled fork takes the server's record of the match, in one step.

A desk file is append-only, so the match's losing branch cannot be cut out of it. The
file is kept whole beside itself instead (``<file>.forked-<match>-<time>.sqlite``, with
its heads journal: nothing is lost), and a fresh file takes its place holding every
other match's events as they were and the server's record of the match, byte for byte
(each checked and replayed on import). Locks of the other matches stay in the kept copy
and on the server.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from referee_desk.store import TournamentFile
from referee_desk.store.errors import StoreError
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.marks import utc_now
from referee_desk.store.postgres.server import TournamentServer


@dataclass(frozen=True, slots=True)
class TakeReport:
    match_id: str
    kept_as: Path  # the old file, whole
    server_events: int  # the server's record of the match now in the file
    other_events: int  # the other matches' events carried over


def take_server_record(path: str | Path, server: TournamentServer, match_id: str) -> TakeReport:
    """Replace the desk's record of ``match_id`` by the server's; the old file kept whole."""
    path = Path(path)
    ours = server.events(match_id)
    if not ours:
        raise StoreError(f"{server.shown}: the server holds no record of match {match_id}")
    stamp = utc_now().replace(":", "").replace("-", "").replace(".", "")
    kept = path.with_name(f"{path.stem}.forked-{match_id}-{stamp}{path.suffix}")
    with TournamentFile.open(path, create=False) as tf:
        tournament_id = tf.tournament_id
        others = [e for m in tf.match_ids() if m != match_id for e in tf.events(m)]
        mine = tf.events(match_id)
        if [e.hash for e in mine] == [e.hash for e in ours[: len(mine)]]:
            raise StoreError(
                f"{path}: match {match_id} is not forked here (the file's record is part of "
                "the server's); a sync brings the rest"
            )
        _copy(tf.connection, kept)
    heads = Path(f"{path}.heads")
    if heads.exists():
        shutil.copy2(heads, Path(f"{kept}.heads"))
    with TournamentFile.open(kept, create=False, read_only=True) as check:
        if check.count() != len(others) + len(mine):
            raise StoreError(f"{kept}: the kept copy is incomplete; nothing changed")
    with tempfile.TemporaryDirectory(prefix="referee-desk-take-") as folder:
        fresh = Path(folder) / path.name
        lines = Path(folder) / "records.jsonl"
        write_jsonl(others + ours, lines)
        with TournamentFile.open(fresh, tournament_id=tournament_id) as new:
            new.import_jsonl([lines])
        for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm"), heads):
            leftover.unlink(missing_ok=True)
        os.replace(fresh, path)
        fresh_heads = Path(f"{fresh}.heads")
        if fresh_heads.exists():
            os.replace(fresh_heads, heads)
    return TakeReport(match_id, kept, len(ours), len(others))


def _copy(conn: sqlite3.Connection, target: Path) -> None:
    dest = sqlite3.connect(target)
    try:
        conn.backup(dest)
        dest.execute("PRAGMA journal_mode=DELETE")
    finally:
        dest.close()
