"""Upgrading files sealed with the old keyed seal (HMAC-SHA256, secret in ``meta``).

That secret sat in the file itself, so anyone with the file could re-sign a forgery.
On upgrade each old seal is checked as before: one that holds is re-signed with this
desk's Ed25519 key (``sealed_by`` and the time kept); one that does not stays marked
``hmac-sha256`` and ``verify`` refuses it. Then the secret is deleted from the file.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3

from referee_desk.store.keys import Signer
from referee_desk.store.signatures import SCHEME, Signatures


def _hmac_ok(secret_hex: str, match_id: str, seq: int, head_hash: str, sig: str) -> bool:
    message = f"referee-desk seal v1\n{match_id}\n{seq}\n{head_hash}".encode()
    expected = hmac.new(bytes.fromhex(secret_hex), message, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, sig)


def convert(conn: sqlite3.Connection, signatures: Signatures, signer: Signer) -> int:
    """Re-sign every old seal that holds (inside the caller's transaction); returns count."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'seal_secret'").fetchone()
    secret = row[0] if row else None
    converted = 0
    old = conn.execute(
        "SELECT id, match_id, head_seq, head_hash, signature, sealed_at, sealed_by "
        "FROM match_seals WHERE scheme != ?",
        (SCHEME,),
    ).fetchall()
    for seal_id, match_id, seq, head_hash, signature, at, by in old:
        if secret is None or not _hmac_ok(secret, match_id, seq, head_hash, signature):
            continue
        new = signatures.sign_seal(signer, match_id, seq, head_hash, at, by)
        conn.execute(
            "UPDATE match_seals SET signature = ?, key_fingerprint = ?, scheme = ? WHERE id = ?",
            (new, signer.fingerprint, SCHEME, seal_id),
        )
        converted += 1
    conn.execute("DELETE FROM meta WHERE key = 'seal_secret'")
    return converted
