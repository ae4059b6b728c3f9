"""The tournament file's SQL schema, its version and the migrations between versions.

``PRAGMA application_id`` marks a Referee Desk tournament file and
``PRAGMA user_version`` holds the store schema version. Opening a file of an
older version runs the migrations in order, each in one transaction; a newer
version is refused. Other layers keep their own tables in the same file and
version them through ``ensure_extension`` (see ``TournamentFile``).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable

from referee_desk.store.errors import NewerFileError

#: "RDT1" as a big-endian 32-bit integer: marks a Referee Desk tournament file.
APPLICATION_ID = 0x52445431

#: The store schema version this code writes.
STORE_SCHEMA_VERSION = 3
#: The first version with signed seals and a guard (older files are upgraded and signed).
SIGNED_SINCE = 2

#: Value of ``meta.format`` in every tournament file.
FILE_FORMAT = "referee-desk-tournament"

#: Version 0: the prototype's layout (events and meta only, no guards).
SCHEMA_V0 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    type TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    clock_ms INTEGER,
    referee TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    canonical TEXT NOT NULL,
    UNIQUE (match_id, seq)
);
"""

#: Version 0 -> 1: append-only guards, seals of locked matches, people and refusals.
MIGRATE_V0_TO_V1 = """
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS match_seals (
    id INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL,
    head_seq INTEGER NOT NULL,
    head_hash TEXT NOT NULL,
    signature TEXT NOT NULL,
    sealed_at TEXT NOT NULL,
    sealed_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS match_seals_by_match ON match_seals (match_id, id);
CREATE TABLE IF NOT EXISTS people (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('referee', 'committee', 'organizer')),
    pin_salt TEXT NOT NULL,
    pin_hash TEXT NOT NULL,
    kdf TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS match_referees (
    match_id TEXT PRIMARY KEY,
    referee TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS refusals (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    match_id TEXT,
    person TEXT,
    action TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS refusals_append_only_update BEFORE UPDATE ON refusals
BEGIN SELECT RAISE(ABORT, 'refusals are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS refusals_append_only_delete BEFORE DELETE ON refusals
BEGIN SELECT RAISE(ABORT, 'refusals are append-only: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS extensions (name TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    opened_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS session_ends (
    token TEXT PRIMARY KEY,
    ended_at TEXT NOT NULL,
    how TEXT NOT NULL
);
"""


#: Version 1 -> 2: Ed25519 seals (signer named per seal), signers, the signed guard.
#: The old HMAC seals are re-signed (or marked untrusted) by ``TournamentFile.open``,
#: which has the desk's key; the HMAC secret is then deleted from ``meta``.
MIGRATE_V1_TO_V2 = """
CREATE TABLE IF NOT EXISTS signers (
    fingerprint TEXT PRIMARY KEY,
    public_key TEXT NOT NULL,
    label TEXT NOT NULL,
    role TEXT NOT NULL,
    added_at TEXT NOT NULL,
    endorsement TEXT
);
ALTER TABLE match_seals ADD COLUMN key_fingerprint TEXT;
ALTER TABLE match_seals ADD COLUMN scheme TEXT NOT NULL DEFAULT 'hmac-sha256';
CREATE TABLE IF NOT EXISTS access_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    person TEXT,
    action TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS access_log_append_only_update BEFORE UPDATE ON access_log
BEGIN SELECT RAISE(ABORT, 'the access log is append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS access_log_append_only_delete BEFORE DELETE ON access_log
BEGIN SELECT RAISE(ABORT, 'the access log is append-only: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS guards (
    name TEXT PRIMARY KEY,
    content TEXT NOT NULL,
    key_fingerprint TEXT NOT NULL,
    signature TEXT NOT NULL,
    signed_at TEXT NOT NULL
);
"""


#: Version 2 -> 3: seals imported from a desk's own file (issue 20 item 3). A seal is
#: signed over its file's ``tournament_id``, so an imported one names that file
#: (``origin_tournament``; NULL: signed in this file) and the desk key that signed it is
#: kept per desk file in ``imported_signers``, trusted for that file's seals only.
MIGRATE_V2_TO_V3 = """
CREATE TABLE IF NOT EXISTS imported_signers (
    origin_tournament TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    public_key TEXT NOT NULL,
    label TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    PRIMARY KEY (origin_tournament, fingerprint)
);
"""


#: from-version -> SQL script that brings the file to from-version + 1.
def _v0_to_v1(conn: sqlite3.Connection) -> None:
    _run_script(conn, MIGRATE_V0_TO_V1)
    conn.execute(
        "INSERT OR IGNORE INTO meta (key, value) VALUES ('seal_secret', ?)",
        (secrets.token_hex(32),),
    )
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    _run_script(conn, MIGRATE_V1_TO_V2)


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    columns = {r[1] for r in conn.execute("PRAGMA table_info(match_seals)")}
    if "origin_tournament" not in columns:  # a file set back by hand may still have it
        conn.execute("ALTER TABLE match_seals ADD COLUMN origin_tournament TEXT")
    _run_script(conn, MIGRATE_V2_TO_V3)


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    0: _v0_to_v1,
    1: _v1_to_v2,
    2: _v2_to_v3,
}


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    # executescript would COMMIT our transaction; run statement by statement instead.
    for statement in _statements(script):
        conn.execute(statement)


def _statements(script: str) -> list[str]:
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    return statements


def create_current(conn: sqlite3.Connection) -> None:
    """Create every table of the current version (inside the caller's transaction)."""
    _run_script(conn, SCHEMA_V0)
    for version in range(STORE_SCHEMA_VERSION):
        MIGRATIONS[version](conn)
    conn.execute("DELETE FROM meta WHERE key = 'seal_secret'")  # new files: no HMAC at all
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {STORE_SCHEMA_VERSION}")


def migrate(conn: sqlite3.Connection, path: str, from_version: int) -> None:
    """Bring a file of ``from_version`` to the current version, one step per transaction."""
    if from_version > STORE_SCHEMA_VERSION:
        raise NewerFileError(
            f"{path}: made by a newer Referee Desk (store schema version {from_version}; "
            f"this desk knows up to {STORE_SCHEMA_VERSION}); open it with that version"
        )
    for version in range(from_version, STORE_SCHEMA_VERSION):
        conn.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[version](conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
