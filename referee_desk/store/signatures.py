"""Ed25519 seals of locked matches and the signed guard of the file's other records.

Seals: each locked match's head (seq, hash), with when and by whom, signed by a key
from the config folder (``keys``). The guard: one signed snapshot of ``meta``,
``people``, ``match_referees``, ``match_seals`` and ``signers`` (and the tables another
layer put under it, ``guarded_tables``), re-signed by the store whenever it changes
them, so rows changed, added or deleted behind its back (a seal deleted to unlock a
match, a PIN hash swapped, a referee re-assigned) are named.

Trust: every signature must verify under the public key it names, and that key must
be registered in the file (``signers``) and be the file's key or endorsed by it. The
file's key is the organizer's once adopted (``meta.organizer_key``), else the first key
that signed in the file (the desk that created it).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from referee_desk.store.guarded_tables import (
    foreign_trigger,
    table_differences,
    tables_snapshot,
)
from referee_desk.store.keys import Signer, fingerprint_of, signature_ok
from referee_desk.store.stamps import utc_now

SCHEME = "ed25519"
LEGACY_SCHEME = "hmac-sha256"


def seal_message(
    tournament_id: str, match_id: str, seq: int, head_hash: str, sealed_at: str, sealed_by: str
) -> bytes:
    return (
        f"referee-desk seal v2\n{tournament_id}\n{match_id}\n{seq}\n{head_hash}\n"
        f"{sealed_at}\n{sealed_by}"
    ).encode()


def endorsement_message(tournament_id: str, public_key: str, label: str) -> bytes:
    return f"referee-desk signer v1\n{tournament_id}\n{public_key}\n{label}".encode()


def handover_message(tournament_id: str, new_fingerprint: str) -> bytes:
    return f"referee-desk handover v1\n{tournament_id}\n{new_fingerprint}".encode()


def guard_message(tournament_id: str, content: str, signed_at: str) -> bytes:
    return f"referee-desk guard v1\n{tournament_id}\n{signed_at}\n{content}".encode()


@dataclass(frozen=True, slots=True)
class KeyInfo:
    fingerprint: str
    label: str
    role: str
    trusted: bool
    why_not: str | None


def snapshot(conn: sqlite3.Connection) -> dict[str, Any]:
    """What the guard covers, as plain data (the same on every computer)."""
    data = {
        "meta": dict(conn.execute("SELECT key, value FROM meta ORDER BY key").fetchall()),
        "people": [
            list(r)
            for r in conn.execute(
                "SELECT name, role, pin_salt, pin_hash, kdf FROM people ORDER BY name"
            )
        ],
        "match_referees": dict(
            conn.execute("SELECT match_id, referee FROM match_referees ORDER BY match_id")
        ),
        "seals": [
            # An imported seal's origin is part of it; a file's own seals read as before
            # (guards signed before version 3 still match).
            list(r[:7]) + ([r[7]] if r[7] is not None else [])
            for r in conn.execute(
                "SELECT match_id, head_seq, head_hash, signature, sealed_at, sealed_by,"
                " key_fingerprint, origin_tournament FROM match_seals ORDER BY id"
            )
        ],
        "signers": [
            list(r)
            for r in conn.execute(
                "SELECT fingerprint, public_key, label, role, endorsement FROM signers "
                "ORDER BY fingerprint"
            )
        ],
    } | _imported_signers(conn)
    return data | tables_snapshot(conn)


def _imported_signers(conn: sqlite3.Connection) -> dict[str, Any]:
    """The desk keys kept for imported seals (absent while there are none)."""
    rows = [
        list(r)
        for r in conn.execute(
            "SELECT origin_tournament, fingerprint, public_key, label FROM imported_signers "
            "ORDER BY origin_tournament, fingerprint"
        )
    ]
    return {"imported_signers": rows} if rows else {}


def canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def differences(signed: dict[str, Any], now: dict[str, Any]) -> str | None:
    """The first difference between the signed snapshot and the file, in words."""
    before_seals = {tuple(s[:3]) for s in signed.get("seals", [])}
    after_seals = {tuple(s[:3]) for s in now["seals"]}
    for match_id, seq, _hash in sorted(before_seals - after_seals):
        return f"match {match_id}: its seal (locked at event {seq}) was removed"
    for match_id, seq, _hash in sorted(after_seals - before_seals):
        return f"match {match_id}: a seal at event {seq} was added behind the store's back"
    if signed.get("seals") != now["seals"]:
        return "a seal's signature, time or signer was changed"
    old_people = {p[0]: p for p in signed.get("people", [])}
    new_people = {p[0]: p for p in now["people"]}
    for name in sorted(set(old_people) | set(new_people)):
        if old_people.get(name) != new_people.get(name):
            what = (
                "removed"
                if name not in new_people
                else "added"
                if name not in old_people
                else "changed (role or PIN)"
            )
            return f"person {name!r} was {what} behind the store's back"
    old_refs, new_refs = signed.get("match_referees", {}), now["match_referees"]
    for match_id in sorted(set(old_refs) | set(new_refs)):
        if old_refs.get(match_id) != new_refs.get(match_id):
            return f"match {match_id}: its referee assignment was changed behind the store's back"
    changed_table = table_differences(signed, now)
    if changed_table is not None:
        return changed_table
    old_meta, new_meta = signed.get("meta", {}), now["meta"]
    for key in sorted(set(old_meta) | set(new_meta)):
        if old_meta.get(key) != new_meta.get(key):
            return f"the file's fact {key!r} was changed behind the store's back"
    if signed.get("imported_signers") != now.get("imported_signers"):
        return "the keys kept for imported seals were changed behind the store's back"
    if signed.get("signers") != now["signers"]:
        return "the list of signing keys was changed behind the store's back"
    return None


class Signatures:
    """Seals, signer registry and guard of one open file (over its connection)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def tournament_id(self) -> str:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'tournament_id'").fetchone()
        return row[0] if row else ""

    def organizer_key(self) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'organizer_key'").fetchone()
        return row[0] if row else None

    def root_key(self) -> str | None:
        """The file's key: the organizer's once adopted, else the first key that signed."""
        return self.organizer_key() or self.first_key()

    def first_key(self) -> str | None:
        row = self.conn.execute("SELECT fingerprint FROM signers ORDER BY rowid LIMIT 1").fetchone()
        return row[0] if row else None

    # ------------------------------------------------------------- writing

    def register(self, signer: Signer, endorsement: str | None = None) -> None:
        """Put ``signer``'s public key into the file (inside the caller's transaction)."""
        self.conn.execute(
            "INSERT OR IGNORE INTO signers (fingerprint, public_key, label, role, added_at,"
            " endorsement) VALUES (?, ?, ?, ?, ?, ?)",
            (signer.fingerprint, signer.public_key, signer.label, signer.role, utc_now(), None),
        )
        if endorsement is not None:
            self.conn.execute(
                "UPDATE signers SET endorsement = ? WHERE fingerprint = ?",
                (endorsement, signer.fingerprint),
            )

    def keep_imported_signer(self, origin: str, public_key: str, label: str) -> None:
        """Keep the desk key that signed a seal imported from the desk file ``origin``
        (inside the caller's transaction, which then re-signs the guard)."""
        self.conn.execute(
            "INSERT OR IGNORE INTO imported_signers (origin_tournament, fingerprint,"
            " public_key, label, imported_at) VALUES (?, ?, ?, ?, ?)",
            (origin, fingerprint_of(public_key), public_key, label, utc_now()),
        )

    def imported_signer(self, origin: str, fingerprint: str | None) -> tuple[str, str] | None:
        """(public key, label) of the desk key kept for seals from ``origin``, or None."""
        row = self.conn.execute(
            "SELECT public_key, label FROM imported_signers "
            "WHERE origin_tournament = ? AND fingerprint = ?",
            (origin, fingerprint or ""),
        ).fetchone()
        return (row[0], row[1]) if row else None

    def endorse(self, organizer: Signer, fingerprint: str) -> None:
        """The organizer vouches for a registered desk key (inside a transaction)."""
        row = self.conn.execute(
            "SELECT public_key, label FROM signers WHERE fingerprint = ?", (fingerprint,)
        ).fetchone()
        if row is None:
            raise KeyError(fingerprint)
        signature = organizer.sign(endorsement_message(self.tournament_id(), row[0], row[1]))
        self.conn.execute(
            "UPDATE signers SET endorsement = ? WHERE fingerprint = ?", (signature, fingerprint)
        )

    def hand_over(self, old: Signer, new_fingerprint: str) -> None:
        """The old file key signs the new one's fingerprint (inside a transaction)."""
        signature = old.sign(handover_message(self.tournament_id(), new_fingerprint))
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('key_handover', ?)",
            (f"{old.fingerprint}:{new_fingerprint}:{signature}",),
        )

    def handed_over(self, old_fingerprint: str, new_fingerprint: str) -> bool:
        """Did ``old`` (a key this computer knew) hand the file over to ``new``?"""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'key_handover'").fetchone()
        if row is None or row[0].count(":") != 2:
            return False
        old, new, signature = row[0].split(":")
        public_key = self.public_key(old)
        return (
            old == old_fingerprint
            and new == new_fingerprint
            and public_key is not None
            and fingerprint_of(public_key) == old
            and signature_ok(public_key, handover_message(self.tournament_id(), new), signature)
        )

    def sign_seal(
        self, signer: Signer, match_id: str, seq: int, head_hash: str, at: str, by: str
    ) -> str:
        self.register(signer)
        return signer.sign(seal_message(self.tournament_id(), match_id, seq, head_hash, at, by))

    def sign_guard(self, signer: Signer) -> None:
        """Re-sign the snapshot of the guarded tables (inside the caller's transaction)."""
        self.register(signer)
        data = snapshot(self.conn)
        data["generation"] = self.guard_generation() + 1  # an older guard is refused
        content = canonical(data)
        at = utc_now()
        signature = signer.sign(guard_message(self.tournament_id(), content, at))
        self.conn.execute(
            "INSERT OR REPLACE INTO guards (name, content, key_fingerprint, signature, signed_at)"
            " VALUES ('records', ?, ?, ?, ?)",
            (content, signer.fingerprint, signature, at),
        )

    # ------------------------------------------------------------- checking

    def key_info(self, fingerprint: str | None) -> KeyInfo:
        """Is this key registered, and trusted by the file's policy?"""
        fingerprint = fingerprint or ""
        row = self.conn.execute(
            "SELECT public_key, label, role, endorsement FROM signers WHERE fingerprint = ?",
            (fingerprint,),
        ).fetchone()
        if row is None:
            return KeyInfo(fingerprint, "?", "?", False, f"key {fingerprint} is not registered")
        public_key, label, role, endorsement = row
        if fingerprint_of(public_key) != fingerprint:
            return KeyInfo(fingerprint, label, role, False, f"key {fingerprint} was altered")
        root = self.root_key()
        if root is None or root == fingerprint:
            return KeyInfo(fingerprint, label, role, True, None)
        boss = self.conn.execute(
            "SELECT public_key FROM signers WHERE fingerprint = ?", (root,)
        ).fetchone()
        message = endorsement_message(self.tournament_id(), public_key, label)
        if boss is None or fingerprint_of(boss[0]) != root:
            return KeyInfo(fingerprint, label, role, False, f"the file's key {root} is missing")
        if endorsement and signature_ok(boss[0], message, endorsement):
            return KeyInfo(fingerprint, label, role, True, None)
        return KeyInfo(
            fingerprint,
            label,
            role,
            False,
            f"key {fingerprint} ({label}) was not registered by the file's key {root} "
            "(the organizer endorses it with: referee-desk keys endorse FILE KEY)",
        )

    def public_key(self, fingerprint: str) -> str | None:
        row = self.conn.execute(
            "SELECT public_key FROM signers WHERE fingerprint = ?", (fingerprint,)
        ).fetchone()
        return row[0] if row else None

    def seal_valid(
        self,
        scheme: str,
        fingerprint: str | None,
        match_id: str,
        seq: int,
        head_hash: str,
        at: str,
        by: str,
        signature: str,
        origin: str | None = None,
    ) -> str | None:
        """Why a seal row does not hold, or None.

        ``origin``: the desk file an imported seal was signed in (None: this file); its
        key must be the one kept for that desk file (see ``imported_seal_problem``).
        """
        if origin is not None:
            return self.imported_seal_problem(
                origin, fingerprint, match_id, seq, head_hash, at, by, signature
            )
        if scheme != SCHEME:
            return (
                "the lock carries an old keyed (HMAC) seal, whose secret was kept in the file "
                "itself: anyone with the file could have made it, so it proves nothing; check "
                "the match against its printed report, then lock it again"
            )
        info = self.key_info(fingerprint)
        if not info.trusted:
            return f"the lock's signer cannot be trusted: {info.why_not}"
        public_key = self.public_key(info.fingerprint) or ""
        message = seal_message(self.tournament_id(), match_id, seq, head_hash, at, by)
        if not signature_ok(public_key, message, signature):
            return (
                f"the lock's signature by key {info.fingerprint} ({info.label}) does not "
                "verify (seal forged)"
            )
        return None

    def imported_seal_problem(
        self,
        origin: str,
        fingerprint: str | None,
        match_id: str,
        seq: int,
        head_hash: str,
        at: str,
        by: str,
        signature: str,
        public_key: str | None = None,
    ) -> str | None:
        """Why a seal signed in the desk file ``origin`` does not hold here, or None.

        Trust rule: the desk key is trusted for seals of that desk file only, because the
        store kept it on import after the desk file's own guard and key policy verified
        the seal there; this file's guard covers the kept key and the seal, so neither
        can be added or changed here without the guard naming it. ``public_key``: check
        against this key instead of the kept one (before keeping it, on import).
        """
        if public_key is None:
            kept = self.imported_signer(origin, fingerprint)
            if kept is None:
                return (
                    f"the imported lock's key {fingerprint} was not kept for desk file "
                    f"{origin} (seal planted)"
                )
            public_key = kept[0]
        if fingerprint_of(public_key) != fingerprint:
            return f"the imported lock's key {fingerprint} was altered"
        message = seal_message(origin, match_id, seq, head_hash, at, by)
        if not signature_ok(public_key, message, signature):
            return (
                f"the imported lock's signature by key {fingerprint} (desk file {origin}) "
                "does not verify (seal forged)"
            )
        return None

    def guard_generation(self) -> int:
        """How many times the guard was signed (0: never, or a guard before counting)."""
        row = self.conn.execute("SELECT content FROM guards WHERE name = 'records'").fetchone()
        try:
            value = json.loads(row[0]).get("generation", 0) if row else 0
        except (ValueError, AttributeError):
            return 0
        return value if isinstance(value, int) else 0

    def guard_problem(self, *, trust_signer: bool = False) -> str | None:
        """Why the guarded tables do not match their last signed snapshot, or None.

        ``trust_signer``: accept a registered, unaltered key the file's key has not
        endorsed yet (the signature and the content are still checked).
        """
        planted = foreign_trigger(self.conn)
        if planted is not None:
            return planted
        row = self.conn.execute(
            "SELECT content, key_fingerprint, signature, signed_at FROM guards "
            "WHERE name = 'records'"
        ).fetchone()
        if row is None:
            return "the signed record of people, referees and seals is missing (deleted)"
        content, fingerprint, signature, at = row
        info = self.key_info(fingerprint)
        pending = trust_signer and "not registered by the file's key" in (info.why_not or "")
        if not info.trusted and not pending:
            return f"the record of people, referees and seals: {info.why_not}"
        public_key = self.public_key(info.fingerprint) or ""
        if not signature_ok(
            public_key, guard_message(self.tournament_id(), content, at), signature
        ):
            return (
                f"the record of people, referees and seals: signature by key "
                f"{info.fingerprint} does not verify (forged)"
            )
        try:
            signed = json.loads(content)
        except ValueError:
            return "the record of people, referees and seals is unreadable"
        return differences(signed, snapshot(self.conn))
