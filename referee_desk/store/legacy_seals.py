"""Upgrading files sealed with the old keyed seal (HMAC-SHA256, secret in ``meta``).

That secret sat in the file itself, so anyone with the file could make a "valid" old
seal over a forged match (issue 18, downgrade laundering): an old seal proves nothing,
and no upgrade signs one with this desk's key, on this computer or any other. Old seals
stay marked ``hmac-sha256``; ``verify`` flags each such match until the referee checks it
against its printed report and locks it again. The secret is deleted from the file.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from pathlib import Path

from referee_desk.store import known_files
from referee_desk.store.keys import Signer
from referee_desk.store.signatures import SCHEME, Signatures


def _hmac_ok(secret_hex: str, match_id: str, seq: int, head_hash: str, sig: str) -> bool:
    message = f"referee-desk seal v1\n{match_id}\n{seq}\n{head_hash}".encode()
    expected = hmac.new(bytes.fromhex(secret_hex), message, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, sig)


#: Tables and columns only a file of store version 2 or later has.
_SIGNED_TABLES = ("signers", "guards", "access_log")
_SIGNED_COLUMNS = ("key_fingerprint", "scheme")


def downgrade_problem(conn: sqlite3.Connection, path: Path) -> str | None:
    """Why a file that claims an older store version must not be upgraded, or None.

    Upgrading re-signs old keyed seals with this desk's key; the secret that checks
    them sits in the file, so anyone can forge them. A genuine old file has never been
    signed: one with signed-file tables, or one at a place where this computer knew a
    signed file (issue 18, downgrade laundering), was turned back and is refused.
    """
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    found = [t for t in _SIGNED_TABLES if t in tables]
    if "match_seals" in tables:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(match_seals)")}
        found += [f"match_seals.{c}" for c in _SIGNED_COLUMNS if c in columns]
    if found:
        return (
            f"it claims an older store version but holds what only signed files have "
            f"({', '.join(found)}): turned back to launder forged seals; it is not upgraded"
        )
    known = known_files.key_at(path)
    if known is not None:
        return (
            f"it claims an older store version, but this computer knew it signed by key "
            f"{known}: turned back to launder forged seals; it is not upgraded"
        )
    return None


def convert(conn: sqlite3.Connection, signatures: Signatures, signer: Signer) -> int:
    """Drop the old keyed-seal secret (inside the caller's transaction); returns how many
    old seals stay flagged. Nothing is signed: the secret was in the file, so what it
    "verifies" may be anyone's forgery (``signatures`` and ``signer`` are not used for
    that reason, kept so the caller's upgrade step reads the same)."""
    del signatures, signer
    flagged = conn.execute(
        "SELECT COUNT(*) FROM match_seals WHERE scheme != ?", (SCHEME,)
    ).fetchone()[0]
    conn.execute("DELETE FROM meta WHERE key = 'seal_secret'")
    return int(flagged)
