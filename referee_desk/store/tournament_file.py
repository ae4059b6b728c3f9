"""One tournament, one SQLite file: the durable, append-only record of every match.

Each event is validated by the match layer, sealed into its match's hash chain and
committed in its own transaction (WAL, ``synchronous=FULL``) before ``append``
returns. Events are never updated or deleted: ``file_append`` only inserts them, and
triggers refuse an UPDATE or DELETE even from SQL. Other layers keep their own tables
in the same file through ``ensure_extension`` and ``transaction``.

``TournamentFile`` is assembled from one mixin per purpose:

- ``file_core``: the open connection, ``transaction``, ``ensure_extension``, backups;
- ``file_open``: opening, integrity/chain checks, migrations, clean-close and WAL marks;
- ``file_append``: ``append`` (seq check, authorization, sealing, match-layer validation);
- ``file_access``: people, PINs, referee assignment, refusals;
- ``file_seals``: ``lock_match`` and the keyed seals;
- ``file_read``: events, heads, meta, ``verify``.
"""

from __future__ import annotations

import os
from typing import Any

from referee_desk.store.file_access import AccessMixin
from referee_desk.store.file_append import AppendingMixin
from referee_desk.store.file_core import utc_now
from referee_desk.store.file_open import SQLITE_MAGIC, OpeningMixin
from referee_desk.store.file_read import ReadingMixin
from referee_desk.store.file_seals import Seal, SealsMixin


class TournamentFile(OpeningMixin, AppendingMixin, AccessMixin, SealsMixin, ReadingMixin):
    """An open tournament file. Use ``TournamentFile.open(path)``; close it when done.

    ``connection`` is the underlying ``sqlite3.Connection`` (autocommit mode): other
    layers read it freely and write inside ``with tf.transaction():``. They must
    never write the ``events`` table, which only ``append`` and ``import`` fill.
    """


def open_tournament(path: str | os.PathLike[str], **options: Any) -> TournamentFile:
    """Shorthand for ``TournamentFile.open``."""
    return TournamentFile.open(path, **options)


__all__ = ["SQLITE_MAGIC", "Seal", "TournamentFile", "open_tournament", "utc_now"]
