"""Upgrading files sealed with the old keyed seal (HMAC-SHA256, secret in ``meta``).

That secret sat in the file itself, so anyone with the file could make a "valid" old
seal over a forged match, set the file's version back and wait for a desk to upgrade
it. So an upgrade never signs an old seal: the desk signs only what it can verify with
a key it already trusts, and no key outside the file ever vouched for an HMAC seal.
Every old seal stays marked ``hmac-sha256``; ``verify`` reports the match as locked by
an unverifiable seal until someone who checked it against the printed match report
locks it again. The secret is deleted from the file (older backups still hold it).

A file this computer already knew as a signed one (its key pinned, or a guard seen) is
never "upgraded" from an older version: that is a downgrade, refused as damage.
"""

from __future__ import annotations

import os
import sqlite3

from referee_desk.store import keys
from referee_desk.store.signatures import SCHEME


def downgraded(tournament_id: str, path: str | os.PathLike[str]) -> str | None:
    """Why an older-version file of this tournament (or at this place) is a forgery
    here, or None."""
    if not keys.file_pins(tournament_id, path) and not keys.guard_generation_seen(
        tournament_id, path
    ):
        return None
    return (
        f"this computer knew tournament {tournament_id} as a signed file of the current "
        "version; this copy claims an older version (set back: possibly forged)"
    )


def convert(conn: sqlite3.Connection) -> int:
    """Drop the old secret, leaving old seals marked (inside a transaction); their count."""
    count = conn.execute(
        "SELECT COUNT(*) FROM match_seals WHERE scheme != ?", (SCHEME,)
    ).fetchone()[0]
    conn.execute("DELETE FROM meta WHERE key = 'seal_secret'")
    return count
