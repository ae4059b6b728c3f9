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


class ServerRecords:
    """The records side of a tournament opened on the server (the organizer's view)."""

    read_only = False

    def __init__(self, server: TournamentServer) -> None:
        self.server = server
        self._seals: dict[str, ServerSeal] | None = None

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
        """match id -> (number of events, hash of the last one)."""
        return self.server.heads()

    def refresh(self) -> None:
        """Forget what was read of the seals (new ones may have landed)."""
        self._seals = None

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
            seq=found.head_seq,
            signer=found.signer_label,
            key_fingerprint=found.key_fingerprint,
            signed_at=found.sealed_at,
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
