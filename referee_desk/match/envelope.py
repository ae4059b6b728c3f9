"""The event envelope and the hash chain: what every recorded event carries.

The envelope is shared by the match layer (which defines payloads per event type
and replays them) and the store (which persists envelopes and never interprets
payloads). Each match has its own chain: an event's ``hash`` is the SHA-256 of the
previous event's hash (``GENESIS_HASH`` for the first) followed by the event's
canonical JSON, so exporting one match keeps it verifiable on its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
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
        get = data.get
        return cls(  # positional, in the fields' order: one is read per recorded event
            data["match_id"],
            data["seq"],
            data["type"],
            data["recorded_at"],
            get("clock_ms"),
            data["referee"],
            get("payload", {}),
            data["prev_hash"],
            data["hash"],
            get("schema_version", SCHEMA_VERSION),
        )


def _canonical_encoder() -> Any:
    """``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)``'s own C
    encoder, made once instead of on every call (the same bytes; None without the C part)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    return make(
        None, json.JSONEncoder().default, json.encoder.encode_basestring, None,
        ":", ",", True, False, True,
    )  # fmt: skip


_ENCODE = _canonical_encoder()


def canonical_dumps(data: Any) -> str:
    """Sorted keys, no spaces, non-ASCII kept: the text every hash covers."""
    if _ENCODE is None or isinstance(data, str):
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "".join(_ENCODE(data, 0))


def compute_hash(prev_hash: str, canonical: bytes) -> str:
    from hashlib import sha256  # here, not at import: a replay hashes nothing (OpenSSL loads)

    return sha256(prev_hash.encode("ascii") + canonical).hexdigest()


#: One link of a match's chain as a checker sees it: match id, seq, prev_hash, hash, the
#: canonical JSON that was hashed (text) and, when that text was stored rather than
#: computed, the canonical JSON of the stored fields (None: computed, nothing to compare).
Link = tuple[str, int, str, str, str, str | None]


def chain_fault(
    links: Iterable[Link],
    match_id: str | None = None,
    *,
    after: tuple[int, str] = (0, GENESIS_HASH),
) -> tuple[int, str] | None:
    """(index, reason) of the first link that breaks one match's chain, or None.

    The one chain checker (the store's files, JSON Lines records, the PDF report and
    ``replay`` all use it): every event belongs to ``match_id`` (default: the first
    event's), seqs run 1, 2, 3 …, each ``prev_hash`` is the previous ``hash``, a stored
    canonical JSON is the one of the stored fields, and each hash is SHA-256 of the
    previous hash and the canonical JSON. ``after`` (count, hash of the last event) goes on
    checking a chain whose start was checked already (a record read as it streams).
    """
    from hashlib import sha256  # see compute_hash

    done, prev = after
    for index, (owner, seq, prev_hash, digest, canonical, fields) in enumerate(links):
        if match_id is None:
            match_id = owner
        if owner != match_id:
            return index, f"belongs to match {owner!r}"
        if seq != done + index + 1:
            return index, (
                f"sequence broken: expected event {done + index + 1} here, found {seq} "
                "(an event was deleted, inserted or moved)"
            )
        if prev_hash != prev:
            return index, "hash chain broken: prev_hash does not match the previous event"
        if fields is not None and fields != canonical:
            return index, "stored canonical JSON differs from the stored fields"
        if digest != sha256((prev_hash + canonical).encode("utf-8")).hexdigest():
            return index, "hash chain broken: the event's content does not match its hash"
        prev = digest
    return None


def event_links(events: Iterable[Event]) -> Iterator[Link]:
    """The links of events whose canonical JSON is computed (``chain_fault``'s input)."""
    for e in events:
        yield e.match_id, e.seq, e.prev_hash, e.hash, e.canonical_json().decode("utf-8"), None


def verify_chain(events: list[Event]) -> int | None:
    """Index of the first event whose match, seq, link or hash is wrong, or None if intact."""
    fault = chain_fault(event_links(events))
    return None if fault is None else fault[0]
