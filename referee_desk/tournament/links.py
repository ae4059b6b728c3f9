"""Records kept under a desk's own match id, counted for a drawn match.

A table's desk may record a match under its own id (``GL2026-R1-T1``); a link says
which drawn match that record decides. Links are recorded once and never guessed:
``tournament.importing`` links only when the record's two pairs meet in exactly one
drawn match, and the organizer links the rest by hand.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from referee_desk.store.tournament_file import TournamentFile, utc_now
from referee_desk.tournament.errors import TournamentError

if TYPE_CHECKING:
    from referee_desk.tournament.model import TournamentMatch


class RecordLinksMixin:
    """The links part of ``Tournament`` (its file, connection and writes)."""

    file: TournamentFile
    conn: sqlite3.Connection
    _exec: Callable[..., None]
    invalidate: Callable[[], None]
    match: Callable[[str], TournamentMatch]

    def link(self, record_id: str, match_id: str, by: str = "") -> None:
        """Count the record ``record_id`` as the result of drawn match ``match_id``.

        For desks that recorded a match under their own id. Recorded once; a record
        already under the drawn id, or a second link to the same match, is refused.
        """
        self.match(match_id)
        if not self.file.events(record_id):
            raise TournamentError(
                f"no record of match {record_id!r} in this file (import it first)"
            )
        if record_id == match_id:
            raise TournamentError(f"{record_id!r} is already the drawn match id: no link needed")
        if self.file.events(match_id):
            raise TournamentError(f"match {match_id} already has a record under its own id")
        clash = self.conn.execute(
            "SELECT record_id, match_id FROM tournament_links WHERE record_id = ? OR match_id = ?",
            (record_id, match_id),
        ).fetchone()
        if clash:
            raise TournamentError(f"record {clash[0]} is already linked to match {clash[1]}")
        self._exec(
            "INSERT INTO tournament_links VALUES (?, ?, ?, ?)", (record_id, match_id, utc_now(), by)
        )
        self.invalidate()

    def links(self) -> dict[str, str]:
        """drawn match id -> record id, for records kept under another id."""
        rows = self.conn.execute("SELECT match_id, record_id FROM tournament_links").fetchall()
        return dict(rows)

    def record_id(self, match_id: str) -> str:
        """The id under which the file holds this match's record."""
        return self.links().get(match_id, match_id)
