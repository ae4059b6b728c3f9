"""Matches of the tournament's draw that a table can start now (pairs known, no record).

Read through the tournament layer when the file holds a tournament; a desk's own file
(no tournament in it) simply has none. The file is never changed here.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from referee_desk.store import TournamentFile


@dataclass(frozen=True, slots=True)
class DrawnMatch:
    match_id: str
    label: str
    payload: dict[str, Any]


def _has_tournament(tf: TournamentFile) -> bool:
    try:
        row = tf.connection.execute("SELECT 1 FROM extensions WHERE name = 'tournament'").fetchone()
    except sqlite3.Error:
        return False
    return row is not None


def ready_matches(tf: TournamentFile) -> list[DrawnMatch]:
    """Drawn matches whose two pairs are known and that have no record yet."""
    if not _has_tournament(tf):
        return []
    from referee_desk.tournament.repository import Tournament

    try:
        tournament = Tournament(tf)
        if not tournament.drawn:
            return []
        recorded = set(tf.match_ids()) | set(tournament.record_links.all().values())
        out = []
        for state in tournament.state().matches:
            match_id = state.match.match_id
            if state.status != "ready" or match_id in recorded:
                continue
            payload = tournament.opening_payload(match_id)
            pairs = payload["pairs"]
            label = (
                f"{match_id} · {payload['round']} · {payload['table']} · "
                f"{pairs['NS']} – {pairs['EW']}"
            )
            out.append(DrawnMatch(match_id, label, payload))
        return out
    except (ValueError, KeyError, sqlite3.Error):
        return []


def drawn_match_of_record(tf: TournamentFile, record_id: str) -> Any | None:
    """The drawn match a desk's record counts for (for its report's title), if any."""
    if not _has_tournament(tf):
        return None
    from referee_desk.exports.drawn_match import drawn_match
    from referee_desk.tournament.repository import Tournament

    try:
        tournament = Tournament(tf)
        if not tournament.drawn:
            return None
        for state in tournament.state().matches:
            match_id = state.match.match_id
            if tournament.record_id(match_id) == record_id:
                return drawn_match(tournament, match_id)
    except (ValueError, KeyError, sqlite3.Error):
        return None
    return None
