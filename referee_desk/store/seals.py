"""Locking a match: an Ed25519 signature over its head, by a key outside the file.

The desk's key (``keys.desk_signer``) signs; the file keeps only public keys. Every
lock also re-signs the guard (``signatures``) so a deleted seal is named.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.store import access, keys
from referee_desk.store.errors import StoreError
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore, utc_now
from referee_desk.store.people import People
from referee_desk.store.signatures import SCHEME, KeyInfo, Signatures
from referee_desk.store.trust import Trust
from referee_desk.store.witness import Witness

_SEAL_COLUMNS = (
    "match_id, head_seq, head_hash, signature, sealed_at, sealed_by, key_fingerprint, scheme,"
    " origin_tournament"
)


@dataclass(frozen=True, slots=True)
class Seal:
    """A locked match: its head at locking time and the signature over it."""

    match_id: str
    head_seq: int
    head_hash: str
    signature: str
    sealed_at: str
    sealed_by: str
    key_fingerprint: str | None = None
    scheme: str = SCHEME
    #: The desk file whose ``tournament_id`` the seal was signed over (None: this file).
    origin_tournament: str | None = None


@dataclass(frozen=True, slots=True)
class SealInfo:
    """What a report prints about a lock: which key signed which head, and does it hold."""

    match_id: str
    head_hash: str
    head_seq: int
    signer: str  # the key's label, e.g. "desk ref@desk-3" or "organizer"
    key_fingerprint: str | None
    sealed_at: str
    sealed_by: str  # the person who locked it
    valid: bool
    reason: str | None = None


class Seals:
    """Locks of one file: signing, reading and checking seals; the file's keys."""

    def __init__(
        self,
        core: FileCore,
        log: EventLog,
        signatures: Signatures,
        witness: Witness,
        trust: Trust,
        people: People,
    ) -> None:
        self.core = core
        self.log = log
        self.signatures = signatures
        self.witness = witness
        self.trust = trust
        self.people = people

    def _insert(self, match_id: str, head_seq: int, head_hash: str, by: str) -> Seal:
        """Sign and store a seal inside the caller's transaction, the caller having
        authorized it (``lock`` here, ``Appender.append`` for an event with ``lock``)."""
        signer = keys.desk_signer()
        self.trust.ready(signer)  # never sign a seal and the guard over a tampered record
        at = utc_now()
        signature = self.signatures.sign_seal(signer, match_id, head_seq, head_hash, at, by)
        seal = Seal(match_id, head_seq, head_hash, signature, at, by, signer.fingerprint)
        self.core.connection.execute(
            f"INSERT INTO match_seals ({_SEAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
            (match_id, head_seq, head_hash, signature, at, by, signer.fingerprint, SCHEME),
        )
        self.signatures.sign_guard(signer)
        self.trust.remember_after_commit()
        return seal

    def lock(self, match_id: str, by: str = "", *, session: access.Session | None = None) -> Seal:
        """Lock a match: sign its head with this desk's key (no passphrase needed).

        In a file with PINs it needs ``session``: the match's referee or the committee,
        signed in (issue 18: nobody freezes a live match without a sign-in). After this
        only the committee can add a ruling (which re-seals the new head).
        """
        self.people.authorize_lock(match_id, session)
        by = by or (session.name if session else "")
        with self.core.transaction():
            head_seq, head_hash = self.log.head(match_id)
            if head_seq == 0:
                raise StoreError(key="store.nothing_to_lock", params={"match": match_id})
            seal = self._insert(match_id, head_seq, head_hash, by)
        self.witness.write([("S", match_id, head_seq, head_hash)])
        return seal

    def latest(self, match_id: str) -> Seal | None:
        """The latest seal of a match (None when it is not locked)."""
        row = self.core.connection.execute(
            f"SELECT {_SEAL_COLUMNS} FROM match_seals WHERE match_id = ? ORDER BY id DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        return Seal(*row) if row else None

    def all(self) -> dict[str, Seal]:
        return {m: s for m in self.sealed_ids() if (s := self.latest(m)) is not None}

    def sealed_ids(self) -> list[str]:
        return [
            r[0] for r in self.core.connection.execute("SELECT DISTINCT match_id FROM match_seals")
        ]

    def seal_reason(self, seal: Seal) -> str | None:
        return self.signatures.seal_valid(
            seal.scheme,
            seal.key_fingerprint,
            seal.match_id,
            seal.head_seq,
            seal.head_hash,
            seal.sealed_at,
            seal.sealed_by,
            seal.signature,
            seal.origin_tournament,
        )

    def import_from(self, source: Seals, match_id: str) -> bool:
        """Keep the desk file ``source``'s lock of ``match_id`` here (issue 20 item 3).

        Only a lock that verifies in ``source`` (its guard, its key policy) is taken, and
        only over the same record here; False when there is none or it is already kept.
        """
        seal, info = source.latest(match_id), source.seal_info(match_id)
        if seal is None or info is None:
            return False
        if not info.valid:
            raise StoreError(
                key="store.imported_seal_unverified",
                params={"path": str(source.core.path), "match": match_id, "reason": info.reason},
            )
        origin = seal.origin_tournament or source.core.tournament_id
        if seal.origin_tournament is None:
            public_key = source.signatures.public_key(seal.key_fingerprint or "") or ""
            label = info.signer
        else:
            kept = source.signatures.imported_signer(origin, seal.key_fingerprint) or ("", "")
            public_key, label = kept
        return self.keep_imported(seal, origin, public_key, label)

    def keep_imported(self, seal: Seal, origin: str, public_key: str, label: str) -> bool:
        """Keep a desk's seal, verified in the desk's own file, over the same record here.

        The caller (``import_from``) checked it there; here the store
        checks it again against the key given and the record in this file, and keeps it
        (with the desk key, for that desk file only) under a re-signed guard. False: this
        very seal is already kept. Refused: it does not verify or the record differs.
        """
        problem = self.signatures.imported_seal_problem(
            origin,
            seal.key_fingerprint,
            seal.match_id,
            seal.head_seq,
            seal.head_hash,
            seal.sealed_at,
            seal.sealed_by,
            seal.signature,
            public_key=public_key,
        )
        if problem is not None:
            raise StoreError(
                key="store.imported_seal_refused",
                params={"match": seal.match_id, "reason": problem},
            )
        head = self.log.head(seal.match_id)
        if head != (seal.head_seq, seal.head_hash):
            raise StoreError(
                key="store.imported_seal_other_record",
                params={"match": seal.match_id, "head": head[0], "sealed": seal.head_seq},
            )
        latest = self.latest(seal.match_id)
        if latest is not None and (latest.signature, latest.origin_tournament) == (
            seal.signature,
            origin,
        ):
            return False
        signer = keys.desk_signer()
        with self.core.transaction() as conn:
            self.trust.ready(signer)  # never sign the guard over a tampered record
            self.signatures.keep_imported_signer(origin, public_key, label)
            conn.execute(
                f"INSERT INTO match_seals ({_SEAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    seal.match_id,
                    seal.head_seq,
                    seal.head_hash,
                    seal.signature,
                    seal.sealed_at,
                    seal.sealed_by,
                    seal.key_fingerprint,
                    SCHEME,
                    origin,
                ),
            )
            self.signatures.sign_guard(signer)
            self.trust.remember_after_commit()
        self.witness.write([("S", seal.match_id, seal.head_seq, seal.head_hash)])
        return True

    def seal_info(self, match_id: str) -> SealInfo | None:
        """The latest lock of a match as a report prints it (None when not locked)."""
        seal = self.latest(match_id)
        if seal is None:
            return None
        reason = self.seal_reason(seal)
        if reason is None:
            at = self.log.head(match_id)
            events_ok = at[0] >= seal.head_seq
            row = self.core.connection.execute(
                "SELECT hash FROM events WHERE match_id = ? AND seq = ?",
                (match_id, seal.head_seq),
            ).fetchone()
            if not events_ok or row is None or row[0] != seal.head_hash:
                reason = "the record differs from the locked one"
        if seal.origin_tournament is None:
            label = self.signatures.key_info(seal.key_fingerprint).label
        else:
            kept = self.signatures.imported_signer(seal.origin_tournament, seal.key_fingerprint)
            label = f"{kept[1] if kept else '?'} (imported from desk file {seal.origin_tournament})"
        return SealInfo(
            match_id,
            seal.head_hash,
            seal.head_seq,
            label,
            seal.key_fingerprint,
            seal.sealed_at,
            seal.sealed_by,
            reason is None,
            reason,
        )

    @property
    def key_fingerprint(self) -> str | None:
        """The file's key: the organizer's when adopted, else the first key that signed."""
        return self.signatures.root_key()

    def accept_key(self) -> str:
        """Accept the file's current key and guard on this computer, on purpose.

        For ``keys trust`` (after comparing the fingerprint with the match reports) and
        a restored backup; the guard itself must still verify (``StoreError`` if not).
        """
        path = self.core.path
        state = self.trust.state()
        key = self.key_fingerprint
        if key is None:
            raise StoreError(key="store.nothing_signed", params={"path": str(path)})
        if state.problem is not None and not state.pending:
            raise StoreError(
                key="store.untrusted_not_accepted",
                params={"path": str(path), "problem": state.problem},
            )
        keys.pin(self.core.tournament_id, key)
        self.trust.accept()
        return key

    def signers(self) -> list[KeyInfo]:
        """Every key registered in the file, with whether the file's key vouches for it."""
        rows = self.core.connection.execute("SELECT fingerprint FROM signers ORDER BY rowid")
        return [self.signatures.key_info(r[0]) for r in rows.fetchall()]

    def adopt_organizer_key(
        self, organizer: keys.Signer, *, previous: keys.Signer | None = None
    ) -> None:
        """Make the organizer's key the file's key (it endorses every key signed so far).

        Rotating a key the file already has needs the ``previous`` organizer key; a lost
        one cannot be replaced in place (see README, "Keeping records safe").
        """
        current = self.signatures.organizer_key()
        rotating = current is not None and current != organizer.fingerprint
        if rotating and (previous is None or previous.fingerprint != current):
            raise StoreError(
                key="store.organizer_key_rotation",
                params={"path": str(self.core.path), "current": current},
            )
        old_root = self.signatures.root_key()
        desk = keys.desk_signer()
        handing = previous if rotating else desk if old_root == desk.fingerprint else None
        with self.core.transaction() as conn:
            self.trust.ready(organizer)
            self.signatures.register(organizer)
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('organizer_key', ?)",
                (organizer.fingerprint,),
            )
            if handing is not None and old_root is not None:
                # The old file key hands over: computers that knew it accept the new one.
                self.signatures.hand_over(handing, organizer.fingerprint)
            self.signatures.register(keys.desk_signer())
            for (fingerprint,) in conn.execute("SELECT fingerprint FROM signers").fetchall():
                if fingerprint != organizer.fingerprint:
                    self.signatures.endorse(organizer, fingerprint)
            conn.execute(
                "INSERT INTO access_log (at, person, action) VALUES (?, ?, ?)",
                (utc_now(), "organizer", f"adopted organizer key {organizer.fingerprint}"),
            )
            self.signatures.sign_guard(organizer)
        keys.pin(self.core.tournament_id, organizer.fingerprint)
        self.trust.accept()

    def endorse_desk_key(self, organizer: keys.Signer, fingerprint: str) -> None:
        """The file's key vouches for another desk's key (registered by its first lock,
        or given here by fingerprint after ``register_desk_key`` on that desk)."""
        if organizer.fingerprint != self.signatures.root_key():
            raise StoreError(
                key="store.not_the_file_key",
                params={"path": str(self.core.path), "key": organizer.fingerprint},
            )
        with self.core.transaction() as conn:
            self.trust.ready(organizer, endorsing=fingerprint)
            try:
                self.signatures.endorse(organizer, fingerprint)
            except KeyError:
                raise StoreError(
                    key="store.unknown_key",
                    params={"path": str(self.core.path), "key": fingerprint},
                ) from None
            conn.execute(
                "INSERT INTO access_log (at, person, action) VALUES (?, ?, ?)",
                (utc_now(), organizer.label, f"endorsed key {fingerprint}"),
            )
            self.signatures.sign_guard(organizer)
            self.trust.remember_after_commit()

    def register_desk_key(self) -> str:
        """Put this desk's public key into the file (to be endorsed); its fingerprint."""
        signer = keys.desk_signer()
        with self.core.transaction():
            self.trust.ready(signer)  # a row planted behind the store's back is not signed
            self.signatures.register(signer)
            self.signatures.sign_guard(signer)
            self.trust.remember_after_commit()
        return signer.fingerprint
