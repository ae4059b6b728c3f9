"""Locking a match: a keyed signature (HMAC-SHA256) over its head at locking time."""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.match.envelope import Event
from referee_desk.store import signing
from referee_desk.store.errors import DamagedFile, StoreError
from referee_desk.store.file_core import FileCore, utc_now
from referee_desk.store.verify import Problem


@dataclass(frozen=True, slots=True)
class Seal:
    """A locked match: its head at locking time and the keyed signature over it."""

    match_id: str
    head_seq: int
    head_hash: str
    signature: str
    sealed_at: str
    sealed_by: str


class SealsMixin(FileCore):
    """``lock_match`` and the seals of ``TournamentFile`` (uses ``head`` from reading)."""

    def _secret(self) -> str:
        row = self.connection.execute("SELECT value FROM meta WHERE key = 'seal_secret'").fetchone()
        if row is None:
            raise DamagedFile(f"{self.path}: the tournament's seal secret is missing")
        return row[0]

    def _insert_seal(self, match_id: str, head_seq: int, head_hash: str, by: str) -> Seal:
        signature = signing.sign(self._secret(), match_id, head_seq, head_hash)
        seal = Seal(match_id, head_seq, head_hash, signature, utc_now(), by)
        self.connection.execute(
            "INSERT INTO match_seals (match_id, head_seq, head_hash, signature, sealed_at, "
            "sealed_by) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, head_seq, head_hash, signature, seal.sealed_at, by),
        )
        return seal

    def lock_match(self, match_id: str, by: str = "") -> Seal:
        """Lock a match: sign its head hash with the tournament's secret.

        After this only the committee can add a ruling (which re-seals the new head).
        """
        with self.transaction():
            head_seq, head_hash = self.head(match_id)
            if head_seq == 0:
                raise StoreError(f"match {match_id}: no events to lock")
            seal = self._insert_seal(match_id, head_seq, head_hash, by)
        self.witness.write([("S", match_id, head_seq, head_hash)])
        return seal

    def seal(self, match_id: str) -> Seal | None:
        """The latest seal of a match (None when it is not locked)."""
        row = self.connection.execute(
            "SELECT match_id, head_seq, head_hash, signature, sealed_at, sealed_by "
            "FROM match_seals WHERE match_id = ? ORDER BY id DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        return Seal(*row) if row else None

    def seals(self) -> dict[str, Seal]:
        return {m: s for m in self._sealed_ids() if (s := self.seal(m)) is not None}

    def _sealed_ids(self) -> list[str]:
        return [r[0] for r in self.connection.execute("SELECT DISTINCT match_id FROM match_seals")]

    def seal_problem(self, match_id: str, events: list[Event]) -> Problem | None:
        """Does the match record agree with its keyed seal? (None when not locked.)"""
        seal = self.seal(match_id)
        if seal is None:
            return None
        if not signing.signature_ok(
            self._secret(), match_id, seal.head_seq, seal.head_hash, seal.signature
        ):
            return Problem("the lock's signature is not valid (seal forged)", match_id)
        if len(events) < seal.head_seq:
            return Problem(
                f"missing: the match was locked at event {seal.head_seq} but the record ends "
                f"at event {len(events)} (events deleted)",
                match_id,
                len(events) + 1,
            )
        at = events[seal.head_seq - 1]
        if at.hash != seal.head_hash:
            return Problem(
                "differs from the locked record: head hash at locking was "
                f"{seal.head_hash[:16]}…, the record has {at.hash[:16]}… (rewritten)",
                match_id,
                at.seq,
            )
        if len(events) > seal.head_seq:
            extra = events[seal.head_seq]
            return Problem("event added after the match was locked", match_id, extra.seq)
        return None
