"""The tournament server's schema: tables, guards, row-level security, notifications.

Everything lives in the PostgreSQL schema ``referee_desk``; ``meta`` holds its version.
The server guards itself, whoever connects:

- ``events`` is append-only: UNIQUE (match_id, seq); triggers refuse UPDATE, DELETE and
  TRUNCATE (for every role, the owner included), and desk roles hold neither privilege;
- the hash chain is checked on insert: ``hash = sha256(prev_hash || canonical)``, where
  ``canonical`` is the exact canonical JSON text the desk hashed (so an event is
  byte-identical on the server and in the desk's file), ``prev_hash`` is the previous
  event's hash (64 zeros for event 1), no gap;
- a desk role may read and insert only events of matches assigned to it (row-level
  security); a match nobody holds is claimed by the first desk that records it;
- every inserted event is announced by ``NOTIFY referee_desk_events`` (committed rows only);
- (version 2) a seal (a locked match's Ed25519 signature) is checked on insert: its key
  must be one the organizer registered (``signers``), its head must be the server's
  event at that seq, and the signature must verify over the very message the store
  signs (``referee_desk.store.signatures.seal_message``), in PL/Python with
  ``cryptography`` (Debian: postgresql-plpython3-15, python3-cryptography).

- (version 3) the organizer's own schema ``referee_desk_organizer`` holds the
  tournament layer's tables (info, pairs, the draw …), as a tournament file holds them
  beside its events; the organizer owns it (creates and migrates them through
  ``ServerTables.ensure_extension``), desk roles have no access to it at all.

- (version 4) the table board: desks' heartbeats (by desk key), the organizer's
  settlements of forks and the branches they archived.

- (version 5) claims closed from ``server init`` until the organizer's draw (or
  ``server publish`` of a file's draw); after a lock only notes and committee events
  follow; the organizer's acceptances of records no registered desk key sealed.

Role names come from the database name: ``<db>_organizer``, ``<db>_desks`` (the group
every desk role is in) and ``<db>_t01`` … for the tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import psycopg

#: The PostgreSQL schema holding every Referee Desk table.
SCHEMA = "referee_desk"
#: Version of the server schema this code writes and needs.
SERVER_SCHEMA_VERSION = 5
#: (version 3) The schema the organizer owns, for the tournament layer's own tables.
ORGANIZER_SCHEMA = "referee_desk_organizer"
#: ``meta.format`` of every Referee Desk server database.
SERVER_FORMAT = "referee-desk-server"
#: Channel of the per-event notifications (payload: JSON match_id, seq, hash, desk).
EVENTS_CHANNEL = "referee_desk_events"
#: Channel of the conflict notifications.
CONFLICTS_CHANNEL = "referee_desk_conflicts"
#: What a server lacking PL/Python needs (named in init's refusal).
PLPYTHON_PACKAGES = "postgresql-plpython3-<version> and python3-cryptography"


@dataclass(frozen=True, slots=True)
class RoleNames:
    """The roles of one tournament database."""

    prefix: str

    @classmethod
    def for_database(cls, database: str) -> RoleNames:
        prefix = re.sub(r"[^a-z0-9_]", "_", database.lower())[:40] or "rd"
        if prefix[0].isdigit():
            prefix = f"rd_{prefix}"
        return cls(prefix)

    @property
    def organizer(self) -> str:
        return f"{self.prefix}_organizer"

    @property
    def desks(self) -> str:
        return f"{self.prefix}_desks"

    @property
    def hall(self) -> str:
        """The hall page's read-only role (no login; the organizer reads as it)."""
        return f"{self.prefix}_hall"

    def desk(self, number: int) -> str:
        return f"{self.prefix}_t{number:02d}"


def installed_version(conn: psycopg.Connection) -> int | None:
    """The server schema version of the database, or None when it is not a Referee Desk one."""
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f"{SCHEMA}.meta",)).fetchone()
    if not row or not row[0]:
        return None
    found = conn.execute(
        f"SELECT value FROM {SCHEMA}.meta WHERE key IN ('format', 'schema_version') ORDER BY key"
    ).fetchall()
    values = [r[0] for r in found]
    if len(values) != 2 or values[0] != SERVER_FORMAT:
        return None
    try:
        return int(values[1])
    except ValueError:
        return None
