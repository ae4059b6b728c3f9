"""Whether a match record is sealed, as the match report prints it.

The one place the exports ask the store about seals: ``TournamentFile.seal_info``
(head hash, head seq, signer, the Ed25519 key's fingerprint, sealed at, whether the
signature verifies) becomes the ``SealStatus`` the report prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee_desk.store import TournamentFile


@dataclass(frozen=True, slots=True)
class SealStatus:
    head_hash: str
    head_seq: int | None
    signer: str
    fingerprint: str
    """The signing key's fingerprint; empty for a keyed (HMAC) seal, which has none."""
    sealed_at: str
    valid: bool | None
    """True/False when the signature was checked; None when the store does not say."""

    def matches(self, head_hash: str) -> bool:
        """Whether the seal covers the record's last event (nothing added since)."""
        return self.head_hash == head_hash


def seal_status(tf: TournamentFile, record_id: str) -> SealStatus | None:
    """The seal of ``record_id`` in the tournament file ``tf``; None when it is not sealed."""
    info = tf.seal_info(record_id)
    if info is None:
        return None
    return SealStatus(
        head_hash=info.head_hash,
        head_seq=info.head_seq,
        signer=info.signer or info.sealed_by,
        fingerprint=info.key_fingerprint or tf.key_fingerprint or "",
        sealed_at=info.sealed_at,
        valid=info.valid,
    )


def file_fingerprint(tf: Any) -> str:
    """The fingerprint of the key that signs this file's seals ("" when it has none)."""
    value = getattr(tf, "key_fingerprint", "")
    if callable(value):
        value = value()
    return str(value or "")
