"""``ServerRecords``: the match records of a tournament server, read as a file's are.

The tournament layer reads a store's records through a handful of calls (events,
match ids, heads, seal info, import); a ``TournamentFile`` answers them from its file,
this class from the server, so standings, links and every document come out the same
from either. Imports go through the store's own JSON Lines checks (chain, replay of
every event) before one server transaction adds what the server lacks; a record the
server holds differently is refused as the file refuses it (``ImportConflict``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg

from referee_desk.match.envelope import Event
from referee_desk.store.errors import ImportConflict
from referee_desk.store.interchange import ImportReport, check_lines
from referee_desk.store.jsonl import LineEvent, read_jsonl
from referee_desk.store.postgres.errors import ServerRefused, ServerUnreachable
from referee_desk.store.postgres.seals import ServerSeal, seals
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import INSERT_SQL
from referee_desk.store.seals import SealInfo


@dataclass(frozen=True, slots=True)
class Vouch:
    """How much of a record the server vouches for (issue 18 item 12).

    A desk's file enforces its sign-in rules (PINs, the committee) before it takes an
    event; the server cannot, since a table's password lets raw SQL in. What proves the
    file took a desk's events is the desk's seal (its key, registered by the organizer,
    signs the head when the match is locked), or the organizer's word (events it pushed
    itself, or a head it accepted by name: ``TournamentServer.accept``). ``length`` is the
    number of events from the first that count, ``None`` all of them; ``why`` says what
    is not vouched for.
    """

    length: int | None
    why: str = ""


class ServerRecords:
    """The records side of a tournament opened on the server (the organizer's view)."""

    read_only = False

    def __init__(self, server: TournamentServer) -> None:
        self.server = server
        self._seals: dict[str, ServerSeal] | None = None
        self._vouched: dict[str, Vouch] | None = None
        self._labels: dict[str, str] | None = None
        self._recorded_by: dict[str, str] | None = None

    @property
    def path(self) -> str:
        """How the store is named in messages (the address without its password)."""
        return self.server.shown

    @property
    def key_fingerprint(self) -> str:
        """A server has no single file key: each seal names its own (``seal_info``)."""
        return ""

    def close(self) -> None:
        self.server.close()

    def match_ids(self) -> list[str]:
        return self.server.match_ids()

    def events(self, match_id: str) -> list[Event]:
        return self.server.events(match_id)

    def heads(self) -> dict[str, tuple[int, str]]:
        """match id -> (number of events, hash of the last one).

        Read afresh each time, and so is what the server vouches for (``vouched``): a
        seal or an acceptance may have landed since."""
        self._vouched = None
        self._recorded_by = None
        return self.server.heads()

    def refresh(self) -> None:
        """Forget what was read of the seals (new ones may have landed)."""
        self._seals = None
        self._vouched = None
        self._recorded_by = None

    def vouched(self, match_id: str) -> Vouch:
        """How much of ``match_id``'s record counts (``Vouch``): the events up to the
        furthest seal by a registered key or head the organizer accepted, and beyond it
        only events the organizer pushed itself."""
        if self._vouched is None:
            self._vouched = self._vouch_all()
        return self._vouched.get(match_id, Vouch(None))

    def _vouch_all(self) -> dict[str, Vouch]:
        covered = self.server.vouched_heads()
        out: dict[str, Vouch] = {}
        for match_id, last in self.server.last_desk_events().items():
            held = covered.get(match_id, 0)
            if last <= held:
                continue
            where = self.recorded_at(match_id) or "a desk"
            first = held + 1
            events = f"event {first}" if first == last else f"events {first}–{last}"
            out[match_id] = Vouch(
                held,
                f"{events} came from {where}'s address and no seal by a desk key registered "
                "on the server covers them (the desk locks the match with its key: "
                "server keys approves the key), nor did the organizer accept them "
                f"(server accept URL {match_id})",
            )
        return out

    def _desk_labels(self) -> dict[str, str]:
        if self._labels is None:
            self._labels = {d.role: d.table_label for d in self.server.desks()}
        return self._labels

    def recorded_at(self, match_id: str) -> str | None:
        """The table (its label) whose desk pushed the record's first event, or None when
        the organizer did (an import, a copy) or the server does not hold it."""
        if self._recorded_by is None:
            self._recorded_by = self.server.recorded_by()
        role = self._recorded_by.get(match_id)
        if role is None:
            return None
        return self._desk_labels().get(role)

    def given_to(self, match_id: str) -> str | None:
        """The table (its label) the server gives ``match_id`` to, or None (also for the
        hall page's role, which does not see the assignments)."""
        try:
            found = self.server.assignment(match_id)
        except psycopg.errors.InsufficientPrivilege:
            return None
        if found is None or found.desk_role is None:
            return None
        return self._desk_labels().get(found.desk_role)

    def seal_info(self, match_id: str) -> SealInfo | None:
        """The latest seal the server took for the match, checked again here."""
        if self._seals is None:
            self._seals = {s.match_id: s for s in seals(self.server)}
        found = self._seals.get(match_id)
        if found is None:
            return None
        return SealInfo(
            match_id=found.match_id,
            head_hash=found.head_hash,
            head_seq=found.head_seq,
            signer=found.signer_label,
            key_fingerprint=found.key_fingerprint,
            sealed_at=found.sealed_at,
            sealed_by=found.sealed_by,
            valid=found.valid,
            reason=None if found.valid else "the signature does not verify here",
        )

    def import_jsonl(self, paths: Sequence[str | os.PathLike[str]]) -> ImportReport:
        """Add the records of JSON Lines files to the server, all or nothing.

        As ``interchange.import_jsonl`` does for a file: every line checked and replayed
        first; events the server holds identically are skipped; a record the server holds
        differently, or a locked one that would grow, raises ``ImportConflict``.
        """
        items: list[LineEvent] = []
        for path in paths:
            items.extend(read_jsonl(path))
        grouped = check_lines(items)
        heads = self.server.heads()
        locked = {s.match_id for s in seals(self.server)}
        added: dict[str, int] = {}
        unchanged: list[str] = []
        rows: list[tuple[str, int, str, str, str]] = []
        for match_id, group in grouped.items():
            present = self.server.hashes(match_id) if match_id in heads else []
            for item, old in zip(group, present, strict=False):
                if item.event.hash != old:
                    raise _conflict(item, "the server records this match differently from here on")
            new = group[len(present) :]
            if not new:
                unchanged.append(match_id)
                continue
            if match_id in locked:
                raise _conflict(new[0], "the match is locked on the server")
            rows.extend(
                (e.match_id, e.seq, e.prev_hash, e.hash, e.canonical_json().decode("utf-8"))
                for e in (i.event for i in new)
            )
            added[match_id] = len(new)
        if rows:
            self._insert(rows)
        return ImportReport(added, tuple(unchanged))

    def _insert(self, rows: list[tuple[str, int, str, str, str]]) -> None:
        conn = self.server.connection
        try:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(INSERT_SQL, rows)
        except psycopg.errors.UniqueViolation:
            raise ServerRefused(
                f"{self.server.shown}: the same match grew meanwhile (a desk's push or another "
                "import); "
                "nothing imported, import again"
            ) from None
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            text = " ".join(str(error).split())
            raise ServerUnreachable(
                f"{self.server.shown}: lost the server during the import; nothing imported "
                f"(one transaction), import again: {text}"
            ) from None
        except psycopg.Error as error:
            text = " ".join(str(error).split())
            raise ServerRefused(f"{self.server.shown}: import refused: {text}") from None


def _conflict(item: LineEvent, reason: str) -> ImportConflict:
    return ImportConflict(
        item.file,
        item.line,
        f"{reason} (conflict; nothing imported)",
        match_id=item.event.match_id,
        seq=item.event.seq,
    )
