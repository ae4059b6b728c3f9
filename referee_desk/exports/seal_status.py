"""Whether a match record is sealed, as the match report prints it.

The one place the exports ask the store about seals. A store that signs with public
keys offers ``TournamentFile.seal_info(match_id)`` (head hash, seq, signer, key
fingerprint, signed at, valid); an older store offers only ``seal(match_id)`` (the
head hash under a keyed signature, no fingerprint). Both become a ``SealStatus``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SealStatus:
    head_hash: str
    seq: int | None
    signer: str
    fingerprint: str
    """The signing key's fingerprint; empty for a keyed (HMAC) seal, which has none."""
    signed_at: str
    valid: bool | None
    """True/False when the signature was checked; None when the store does not say."""

    def matches(self, head_hash: str) -> bool:
        """Whether the seal covers the record's last event (nothing added since)."""
        return self.head_hash == head_hash


def seal_status(tf: Any, record_id: str) -> SealStatus | None:
    """The seal of ``record_id`` in the tournament file ``tf``; None when it is not sealed."""
    seal_info = getattr(tf, "seal_info", None)
    if callable(seal_info):
        info = seal_info(record_id)
        if info is None:
            return None
        return SealStatus(
            head_hash=str(getattr(info, "head_hash", "")),
            seq=getattr(info, "seq", None),
            signer=str(getattr(info, "signer", "") or getattr(info, "signer_name", "")),
            fingerprint=str(
                getattr(info, "key_fingerprint", "") or getattr(tf, "key_fingerprint", "") or ""
            ),
            signed_at=str(getattr(info, "signed_at", "")),
            valid=getattr(info, "valid", None),
        )
    seal = tf.seal(record_id)
    if seal is None:
        return None
    return SealStatus(
        head_hash=seal.head_hash,
        seq=seal.head_seq,
        signer=seal.sealed_by,
        fingerprint="",
        signed_at=seal.sealed_at,
        valid=None,
    )


def file_fingerprint(tf: Any) -> str:
    """The fingerprint of the key that signs this file's seals ("" when it has none)."""
    value = getattr(tf, "key_fingerprint", "")
    if callable(value):
        value = value()
    return str(value or "")
