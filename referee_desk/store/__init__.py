"""The durable store: one append-only SQLite file per tournament, JSON Lines interchange.

Public API (see ``docs/store-api.md``)::

    from referee_desk.store import TournamentFile, verify_path, import_jsonl, export_events
"""

from referee_desk.store import keys
from referee_desk.store.access import COMMITTEE_EVENT_TYPES, ROLES, Session
from referee_desk.store.backup import Backup, backups, make_backup
from referee_desk.store.checks import Problem
from referee_desk.store.errors import (
    AccessRefused,
    AppendConflict,
    AppendRefused,
    DamagedFile,
    ImportConflict,
    ImportRefused,
    NewerFileError,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
    UnreadableFile,
)
from referee_desk.store.interchange import export_events, import_jsonl, verify_path
from referee_desk.store.recovery import restore_backup
from referee_desk.store.schema import STORE_SCHEMA_VERSION
from referee_desk.store.tournament_file import Seal, SealInfo, TournamentFile, open_tournament

__all__ = [
    "COMMITTEE_EVENT_TYPES",
    "ROLES",
    "STORE_SCHEMA_VERSION",
    "AccessRefused",
    "AppendConflict",
    "AppendRefused",
    "Backup",
    "DamagedFile",
    "ImportConflict",
    "ImportRefused",
    "NewerFileError",
    "NotATournamentFile",
    "Problem",
    "Seal",
    "SealInfo",
    "Session",
    "StoreError",
    "StoreWriteError",
    "TournamentFile",
    "UnreadableFile",
    "backups",
    "export_events",
    "import_jsonl",
    "keys",
    "make_backup",
    "open_tournament",
    "restore_backup",
    "verify_path",
]
