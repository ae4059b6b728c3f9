"""Giving the drawn matches to the tables' desks on the tournament server.

Each drawn match with a table goes to that table's desk, with its drawn opening
(``Tournament.opening_payload``) once its pairs are known, so the desk pulls it when it
opens the match. Run again after each round: later matches gain their openings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from referee_desk.tournament.draw_table import DrawTable
from referee_desk.tournament.errors import DrawError

if TYPE_CHECKING:
    from referee_desk.store.postgres.server import TournamentServer


class DrawnMatches(Protocol):
    """What publishing reads of a tournament (a ``Tournament`` is one): its drawn
    matches (``draw_table``) and the opening each one's desk records."""

    @property
    def draw_table(self) -> DrawTable: ...

    def opening_payload(self, match_id: str) -> dict[str, Any]: ...


@dataclass
class PublishReport:
    published: list[str] = field(default_factory=list)
    """Matches given with their opening."""
    waiting: list[str] = field(default_factory=list)
    """Matches given to their desk whose pairs are not known yet."""
    no_desk: list[tuple[str, str]] = field(default_factory=list)
    """(match, table) for tables the server has no desk for."""


def publish(t: DrawnMatches, server: TournamentServer) -> PublishReport:
    """Assign every drawn match that has a table to that table's desk on ``server``."""
    report = PublishReport()
    labels = {d.table_label for d in server.desks()}
    for match in t.draw_table.matches():
        if not match.table:
            continue
        if match.table not in labels:
            report.no_desk.append((match.match_id, match.table))
            continue
        try:
            opening = t.opening_payload(match.match_id)
        except DrawError:
            opening = None
        server.assign(match.match_id, match.table, opening)
        (report.waiting if opening is None else report.published).append(match.match_id)
    return report
