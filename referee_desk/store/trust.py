"""Is the file's signed guard sound enough to show the file and to sign over it?

One owner for three rules (issue 18):

- **open checks the guard**: a guard that is missing, forged or does not match the
  tables, or that is older than one this computer saw (copied back from a backup), or a
  file key other than the one this computer saw at this place or for this tournament,
  refuses the open (``UntrustedFile``) — the desk would otherwise sign in with planted
  PINs and its next lock would sign over the tamper;
- **nothing is re-signed over a guard that does not verify** (``ready``): every change
  of a guarded table first checks the guard as it was before the change;
- **what was seen is remembered** (``known_files``) after every open, verify and
  signature, so a later rollback or re-keying is named on this computer.

A guard signed by a registered key that the file's key has not endorsed yet (a desk
that just ran ``keys register``) is not tampering: it opens, ``verify`` names the key,
and only that desk (or the file's key, endorsing it) signs over it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from referee_desk.store import guarded_tables, keys, known_files
from referee_desk.store.errors import DamagedFile, StoreError
from referee_desk.store.file_core import FileCore
from referee_desk.store.signatures import Signatures


class UntrustedFile(DamagedFile):
    """The file's signed guard does not hold (tampered, rolled back or re-keyed)."""


@dataclass(frozen=True, slots=True)
class GuardState:
    """The guard as found: why it does not hold (None: it holds), and who signed it."""

    problem: str | None
    signer: str | None
    generation: int
    pending: bool = False  # only the signer's endorsement is missing (not tampering)


class Trust:
    """The guard checks of one open file (``state``, ``problem``, ``ready``, ``remember``)."""

    def __init__(self, core: FileCore, signatures: Signatures) -> None:
        self.core = core
        self.signatures = signatures

    def state(self) -> GuardState:
        """The guard's signature, content and signer, checked against the tables."""
        row = self.core.connection.execute(
            "SELECT content, key_fingerprint FROM guards WHERE name = 'records'"
        ).fetchone()
        signer = row[1] if row else None
        generation = _generation(row[0]) if row else 0
        problem = self.signatures.guard_problem()
        pending = False
        if problem is not None and row is not None:
            info = self.signatures.key_info(signer)
            registered = "not registered by the file's key" in (info.why_not or "")
            if registered and self.signatures.guard_problem(trust_signer=True) is None:
                pending = True
        return GuardState(problem, signer, generation, pending)

    def known_problem(self, state: GuardState | None = None) -> str | None:
        """The file's key or guard generation differs from what this computer saw."""
        state = state or self.state()
        found = self.signatures.root_key()
        tournament = self.core.tournament_id
        if found is None:
            if known_files.key_at(self.core.path) is not None:
                return (
                    "this computer knew this file as signed, but it carries no key now "
                    "(keys removed: possibly forged)"
                )
            return None
        for known, where in (
            (known_files.key_at(self.core.path), f"the file at {self.core.path}"),
            (known_files.key_of(tournament), f"tournament {tournament}"),
            (keys.pinned(tournament), f"tournament {tournament}"),
        ):
            if (
                known is not None
                and known != found
                and not self.signatures.handed_over(known, found)
            ):
                return (
                    f"the file's key is {found}, but this computer knew {where} by key "
                    f"{known} (re-keyed: possibly forged; if this is on purpose, compare "
                    "the fingerprint with the match reports and run: referee-desk keys trust FILE)"
                )
        seen = known_files.generation(self.core.path, found)
        if state.generation < seen:
            return (
                f"the signed record of people, referees and seals is older (generation "
                f"{state.generation}) than the one this computer saw (generation {seen}): "
                "copied back from an older copy or backup (seals may have been removed)"
            )
        return None

    def problem(self) -> str | None:
        """Why the file must not be shown or signed over, or None (see module)."""
        state = self.state()
        if state.problem is not None and not state.pending:
            return state.problem
        return self.known_problem(state)

    def refuse_open(self) -> None:
        """Raise ``UntrustedFile`` when ``problem`` names something (``open`` runs it)."""
        problem = self.problem()
        if problem is not None:
            raise UntrustedFile(
                key="store.untrusted", params={"path": str(self.core.path), "problem": problem}
            )

    def ready(self, signer: keys.Signer, *, endorsing: str | None = None) -> None:
        """Raise unless ``signer`` may sign over the guard as it is now (before a change)."""
        state = self.state()
        problem = state.problem if not state.pending else None
        if state.pending and state.signer not in (signer.fingerprint, endorsing):
            problem = state.problem
        problem = problem or self.known_problem(state)
        if problem is not None:
            raise StoreError(
                key="store.guard_unsound",
                params={"path": str(self.core.path), "problem": problem},
            )

    @contextmanager
    def signed_change(self) -> Iterator[sqlite3.Connection]:
        """A write transaction whose changes the guard covers: checked, then re-signed.

        The guard must verify before the change (nothing signed over a tamper); the
        desk's key re-signs it after, in the same transaction. Other layers write the
        tables they put under the guard (``guard_tables``) only through this.
        """
        signer = keys.desk_signer()
        with self.core.transaction() as conn:
            self.ready(signer)
            yield conn
            self.signatures.sign_guard(signer)
            self.remember_after_commit()

    def guard_tables(self, names: Iterable[str]) -> None:
        """Put another layer's tables under the guard from now on (once; signed).

        Their rows as they are now are signed (a file from before had them unguarded);
        afterwards any change outside ``signed_change`` is named by ``verify`` and open.
        """
        wanted = set(names)
        bad = sorted(n for n in wanted if not guarded_tables.valid_name(n))
        if bad:
            raise ValueError(f"not a table name: {bad[0]!r}")
        held = guarded_tables.guarded_names(self.core.connection)
        if wanted <= set(held):
            return
        with self.signed_change() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                (guarded_tables.META_KEY, json.dumps(sorted(wanted | set(held)))),
            )

    def remember(self) -> None:
        """Record the file's key and guard generation as seen (after open, verify, commit)."""
        key = self.signatures.root_key()
        if key is not None:
            known_files.remember(
                self.core.path, self.core.tournament_id, key, self.state().generation
            )

    def remember_after_commit(self) -> None:
        self.core.after_commit.append(self.remember)

    def accept(self) -> None:
        """Accept the file as it is now on purpose (``keys trust``, a restored backup)."""
        key = self.signatures.root_key()
        if key is not None:
            known_files.accept(
                self.core.path, self.core.tournament_id, key, self.state().generation
            )


def _generation(content: str) -> int:
    try:
        value = json.loads(content).get("generation", 0)
    except (ValueError, AttributeError):
        return 0
    return value if isinstance(value, int) else 0
