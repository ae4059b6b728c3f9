"""The event envelope and the hash chain: what every recorded event carries.

The envelope is shared by the match layer (which defines payloads per event type
and replays them) and the store (which persists envelopes and never interprets
payloads). Each match has its own chain: an event's ``hash`` is the SHA-256 of the
previous event's hash (``GENESIS_HASH`` for the first) followed by the event's
canonical JSON, so exporting one match keeps it verifiable on its own.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

#: Version of the event envelope and payload schema written by this code.
SCHEMA_VERSION = 1

#: The "previous hash" of a match's first event.
GENESIS_HASH = "0" * 64

#: Envelope fields that enter the canonical JSON (everything but ``hash``).
HASHED_FIELDS = (
    "schema_version",
    "match_id",
    "seq",
    "type",
    "recorded_at",
    "clock_ms",
    "referee",
    "payload",
    "prev_hash",
)


@dataclass(frozen=True, slots=True)
class Event:
    """One recorded thing that happened at the table.

    ``seq`` is 1-based and gapless within a match; ``recorded_at`` is ISO 8601 UTC
    with milliseconds and a ``Z`` (``2026-11-29T14:02:11.000Z``); ``clock_ms`` is
    the match clock's elapsed running time when the event was entered (None before
    the clock starts); ``referee`` is who entered it.
    """

    match_id: str
    seq: int
    type: str
    recorded_at: str
    clock_ms: int | None
    referee: str
    payload: dict[str, Any] = field(default_factory=dict)
    prev_hash: str = GENESIS_HASH
    hash: str = ""
    schema_version: int = SCHEMA_VERSION

    def canonical_json(self) -> bytes:
        """UTF-8 JSON of the hashed fields: sorted keys, no spaces, non-ASCII kept."""
        data = {name: getattr(self, name) for name in HASHED_FIELDS}
        return canonical_dumps(data).encode("utf-8")

    def computed_hash(self) -> str:
        return compute_hash(self.prev_hash, self.canonical_json())

    def sealed(self, prev_hash: str) -> Event:
        """This event linked after ``prev_hash``, with its own hash filled in."""
        linked = replace(self, prev_hash=prev_hash, hash="")
        return replace(linked, hash=linked.computed_hash())

    def to_dict(self) -> dict[str, Any]:
        """The JSON Lines form (all fields, ``hash`` included)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Build from the JSON Lines form; the caller validates against the schema."""
        return cls(
            match_id=data["match_id"],
            seq=data["seq"],
            type=data["type"],
            recorded_at=data["recorded_at"],
            clock_ms=data.get("clock_ms"),
            referee=data["referee"],
            payload=data.get("payload", {}),
            prev_hash=data["prev_hash"],
            hash=data["hash"],
            schema_version=data.get("schema_version", SCHEMA_VERSION),
        )


def canonical_dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def compute_hash(prev_hash: str, canonical: bytes) -> str:
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()


def verify_chain(events: list[Event]) -> int | None:
    """Index of the first event whose link or hash is wrong, or None if intact.

    Checks seq continuity (1, 2, 3 … within the match), the previous-hash link and
    each event's own hash.
    """
    prev = GENESIS_HASH
    for index, event in enumerate(events):
        if event.seq != index + 1 or event.prev_hash != prev:
            return index
        if event.hash != event.computed_hash():
            return index
        prev = event.hash
    return None
