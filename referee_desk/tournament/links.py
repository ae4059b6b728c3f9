"""Records kept under a desk's own match id, counted for a drawn match.

A table's desk may record a match under its own id (``GL2026-R1-T1``); a link says
which drawn match that record decides. Links are recorded once and never guessed:
``tournament.importing`` links only when the record's two pairs meet in exactly one
drawn match, and the organizer links the rest by hand.
"""

from __future__ import annotations

from typing import Any

from referee_desk.store.file_core import utc_now
from referee_desk.store.tables import Tables
from referee_desk.tournament.errors import TournamentError


class RecordLinks:
    """The links of one tournament, in its tables; the records say what exists."""

    def __init__(self, tables: Tables, records: Any) -> None:
        self.tables = tables
        self.records = records

    def add(self, record_id: str, match_id: str, by: str = "") -> None:
        """Count record ``record_id`` for drawn match ``match_id`` (the caller checked the id).

        Recorded once; a record already under the drawn id, or a second link to the
        same match, is refused.
        """
        if not self.records.events(record_id):
            raise TournamentError(
                f"no record of match {record_id!r} in this tournament (import it first)"
            )
        if record_id == match_id:
            raise TournamentError(f"{record_id!r} is already the drawn match id: no link needed")
        if self.records.events(match_id):
            raise TournamentError(f"match {match_id} already has a record under its own id")
        self._refuse_clash(record_id, match_id)
        with self.tables.signed_transaction() as writer:  # links are under the guard
            added = writer.execute(
                "INSERT INTO tournament_links VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (record_id, match_id, utc_now(), by),
            )
        if added.rowcount != 1:  # another organizer session linked one meanwhile
            self._refuse_clash(record_id, match_id)
            raise TournamentError(f"record {record_id} or match {match_id} was linked meanwhile")

    def _refuse_clash(self, record_id: str, match_id: str) -> None:
        clash = self.tables.row(
            "SELECT record_id, match_id FROM tournament_links WHERE record_id = ? OR match_id = ?",
            (record_id, match_id),
        )
        if clash:
            raise TournamentError(f"record {clash[0]} is already linked to match {clash[1]}")

    def entries(self) -> list[tuple[str, str, str]]:
        """(record id, drawn match id, linked by) of every link; ``import`` = found on import."""
        return [
            (r, m, b)
            for r, m, b in self.tables.rows(
                "SELECT record_id, match_id, linked_by FROM tournament_links ORDER BY match_id"
            )
        ]

    def all(self) -> dict[str, str]:
        """drawn match id -> record id, for records kept under another id."""
        return dict(self.tables.rows("SELECT match_id, record_id FROM tournament_links"))
