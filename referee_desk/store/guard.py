"""The signed guard of a file's records, and the one place it is re-signed.

The guard is one signed snapshot (``signatures.snapshot``) of ``meta``, ``people``,
``match_referees``, ``match_seals`` and ``signers``, with a *generation* that grows by
one at each re-sign. Every change of those tables goes through ``Guard.changing``: it
checks the guard *before* the change and re-signs it after, so a desk never signs over
records someone changed behind its back (that would launder the change).

A guard holds when its signature verifies under a key the file trusts (or one the
signer vouches for right now: its own key, a key being endorsed), the tables equal the
signed snapshot, and its generation is not below the highest one this computer has
seen signed for the tournament's file at this place (``keys.guard_generation_seen``):
an older guard copied from a backup, with the seals it covered, is refused there.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from referee_desk.store import keys
from referee_desk.store.errors import DamagedFile
from referee_desk.store.file_core import FileCore
from referee_desk.store.keys import Signer, fingerprint_of, signature_ok
from referee_desk.store.signatures import (
    Signatures,
    canonical,
    differences,
    guard_message,
    snapshot,
)
from referee_desk.store.stamps import utc_now

_WHAT = "the record of people, referees and seals"


def write_guard(signatures: Signatures, signer: Signer, generation: int) -> None:
    """Sign the current tables as the guard, unchecked (inside a transaction).

    The store only calls this through ``Guard.changing``. (Anyone with the file can run
    this code too; without a trusted key the result does not verify.)
    """
    signatures.register(signer)
    data: dict[str, Any] = {**snapshot(signatures.conn), "generation": generation}
    content = canonical(data)
    at = utc_now()
    signature = signer.sign(guard_message(signatures.tournament_id(), content, at))
    signatures.conn.execute(
        "INSERT OR REPLACE INTO guards (name, content, key_fingerprint, signature, signed_at)"
        " VALUES ('records', ?, ?, ?, ?)",
        (content, signer.fingerprint, signature, at),
    )


def generation_of(content: str) -> int:
    """A guard's generation (0 for guards written before generations were)."""
    try:
        value = json.loads(content).get("generation", 0)
    except (ValueError, AttributeError):
        return 0
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class Guard:
    """The guard of one open file: checking it, and re-signing it around a change."""

    def __init__(self, core: FileCore, signatures: Signatures) -> None:
        self.core = core
        self.signatures = signatures

    def _row(self) -> tuple[str, str, str, str] | None:
        return self.core.connection.execute(
            "SELECT content, key_fingerprint, signature, signed_at FROM guards "
            "WHERE name = 'records'"
        ).fetchone()

    def generation(self) -> int:
        row = self._row()
        return generation_of(row[0]) if row else 0

    def problem(
        self,
        *,
        vouched: Collection[str] = (),
        registered_ok: bool = False,
        older_ok: bool = False,
    ) -> str | None:
        """Why the guard does not hold, or None.

        ``vouched``: keys the caller trusts besides the file's policy (its own key, a
        key it is endorsing); ``registered_ok``: any registered key will do (opening).
        ``older_ok``: a backup, older by nature, is being checked.
        """
        row = self._row()
        if row is None:
            return f"{_WHAT} (its signed guard) is missing (deleted)"
        content, fingerprint, signature, at = row
        info = self.signatures.key_info(fingerprint)
        public_key = self.signatures.public_key(fingerprint) or ""
        intact = bool(public_key) and fingerprint_of(public_key) == fingerprint
        vouched_for = intact and (registered_ok or fingerprint in vouched)
        if not info.trusted and not vouched_for:
            return f"{_WHAT}: {info.why_not}"
        if not signature_ok(
            public_key, guard_message(self.signatures.tournament_id(), content, at), signature
        ):
            return f"{_WHAT}: signature by key {fingerprint} does not verify (forged)"
        try:
            signed = json.loads(content)
        except ValueError:
            return f"{_WHAT} is unreadable"
        if not isinstance(signed, dict):
            return f"{_WHAT} is unreadable"
        changed = differences(signed, snapshot(self.core.connection))
        if changed is not None:
            return changed
        generation = generation_of(content)
        seen = keys.guard_generation_seen(self.core.tournament_id, self.core.path)
        if not older_ok and generation < seen:
            return (
                f"{_WHAT} is an older signed copy (generation {generation}) than this "
                f"computer saw signed for this file (generation {seen}): rolled back, e.g. "
                "the guard and seals copied from a backup"
            )
        return None

    def remember(self) -> None:
        """This computer saw the guard hold: an older one is refused here from now on."""
        if self.problem() is None:
            keys.see_guard_generation(self.core.tournament_id, self.core.path, self.generation())

    @contextmanager
    def changing(
        self, signer: Signer, *, vouched: Collection[str] = (), first: bool = False
    ) -> Iterator[None]:
        """Check the guard, let the caller change the guarded tables, re-sign them.

        Inside the caller's transaction. Raises ``DamagedFile`` (nothing changed, nothing
        signed) when the guard does not hold; ``first``: a file that has no guard yet
        (being created, or upgraded from a version without one) may get its first.
        """
        row = self._row()
        if not (first and row is None):
            why = self.problem(vouched={signer.fingerprint, *vouched})
            if why is not None:
                path = self.core.path
                raise DamagedFile(
                    f"{path}: damaged: {why}; nothing was signed over it (run verify)"
                ).keyed("store.damaged", file=path.name, detail=why)
        generation = generation_of(row[0]) + 1 if row else 1
        yield
        write_guard(self.signatures, signer, generation)
        tournament_id, path = self.core.tournament_id, self.core.path
        self.core.after_commit(lambda: keys.see_guard_generation(tournament_id, path, generation))
