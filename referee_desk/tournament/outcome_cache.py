"""Outcomes kept between runs, trusted only as this computer wrote them (issue 18 item 5).

Replaying every record for each standings is what the cache saves. Its table sits in
the store beside the records, where whoever has the file (or its backups) can write
it, so an entry counts only when its HMAC verifies under a secret derived from this
computer's desk key (in the config folder, never in the file or on the server). Any
other entry — changed behind the desk's back, or written by another computer — is a
miss: the record is replayed and the entry written again. The standings therefore
always follow the records; the cache only makes them fast. What this process derived
itself is kept in memory as well (by store and match), so a reader that cannot write
the table or verify its entries (the hall page, another computer) replays each record
once, not on every read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from referee_desk.store import keys
from referee_desk.store.errors import StoreError
from referee_desk.store.tables import Tables

_LABEL = b"referee-desk outcome cache v1\n"
#: (store, match id) -> (cache key, outcome as a dict), as derived in this process.
_DERIVED: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
_DERIVED_MAX = 50_000


def _secret(*, create: bool) -> bytes | None:
    """The HMAC key: a hash of this computer's desk key (None: no key, no cache).

    Reading never makes a desk key; writing does (as the desk's first signature would).
    """
    if not create and not (keys.keys_dir() / keys.DESK_KEY).exists():
        return None
    try:
        raw = keys.desk_signer().private_key.private_bytes_raw()
    except (StoreError, OSError, ValueError):
        return None
    return hashlib.sha256(_LABEL + raw).digest()


def _mac(secret: bytes, match_id: str, key: str, outcome_json: str) -> str:
    message = f"{match_id}\n{key}\n{outcome_json}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


class OutcomeCache:
    """The ``tournament_outcome_cache`` rows of one store, checked on the way in."""

    def __init__(self, tables: Tables, where: str) -> None:
        self.tables = tables
        self.where = where

    def load(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """match id -> (cache key, outcome as a dict), for entries this computer wrote
        (and what this process derived for this store)."""
        found = {m: entry for (w, m), entry in _DERIVED.items() if w == self.where}
        secret = _secret(create=False)
        if secret is None:
            return found
        for match_id, stamped, outcome_json in self.tables.rows(
            "SELECT match_id, head_hash, outcome_json FROM tournament_outcome_cache"
        ):
            key, _, mac = str(stamped).rpartition(":")
            if not hmac.compare_digest(mac, _mac(secret, match_id, key, outcome_json)):
                continue  # not written by this computer as it stands: replayed
            try:
                found[match_id] = (key, json.loads(outcome_json))
            except ValueError:
                continue
        return found

    def save(self, fresh: list[tuple[str, str, str]]) -> None:
        """Keep (match id, cache key, outcome JSON) rows, each stamped with its HMAC."""
        if len(_DERIVED) + len(fresh) > _DERIVED_MAX:
            _DERIVED.clear()
        for match_id, key, outcome_json in fresh:
            _DERIVED[(self.where, match_id)] = (key, json.loads(outcome_json))
        if not fresh or self.tables.read_only:
            return
        secret = _secret(create=True)
        if secret is None:
            return
        rows = [(m, f"{k}:{_mac(secret, m, k, o)}", o) for m, k, o in fresh]
        with self.tables.transaction() as writer:
            writer.executemany(
                "INSERT INTO tournament_outcome_cache VALUES (?, ?, ?) ON CONFLICT (match_id) "
                "DO UPDATE SET head_hash = excluded.head_hash, "
                "outcome_json = excluded.outcome_json",
                rows,
            )
