"""Keyed seals of locked matches: HMAC-SHA256 over the match's head hash.

The per-tournament secret lives only in the organizer's tournament file (never in
an exported log). A forger who rewrites a match and recomputes its whole hash
chain cannot produce the seal, so ``verify --against TOURNAMENT`` exposes them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_secret() -> str:
    return secrets.token_hex(32)


def seal_message(match_id: str, head_seq: int, head_hash: str) -> bytes:
    return f"referee-desk seal v1\n{match_id}\n{head_seq}\n{head_hash}".encode()


def sign(secret_hex: str, match_id: str, head_seq: int, head_hash: str) -> str:
    key = bytes.fromhex(secret_hex)
    return hmac.new(key, seal_message(match_id, head_seq, head_hash), hashlib.sha256).hexdigest()


def signature_ok(secret_hex: str, match_id: str, head_seq: int, head_hash: str, sig: str) -> bool:
    return hmac.compare_digest(sign(secret_hex, match_id, head_seq, head_hash), sig)
