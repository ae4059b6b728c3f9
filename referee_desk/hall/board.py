"""The organizer's table board on the web: the same board as the desk's 桌况 section.

Read with the organizer's own rights (heartbeats and conflicts are the organizer's to
see), only for a visitor who gave the organizer's password. What a table's state is
(offline, settled or open conflicts, two laptops on one address) is decided once, in
``tournament.table_board``; this page only lays it out.
"""

from __future__ import annotations

from referee_desk.store.postgres.server import TournamentServer
from referee_desk.tournament.table_board import TableBoard, table_board


def read_board(url: str) -> TableBoard:
    """The board now, from the organizer's address."""
    with TournamentServer.open(url) as server:
        return table_board(server)
