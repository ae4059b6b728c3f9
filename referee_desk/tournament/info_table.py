"""The tournament's own row: its name, dates, venue, tables and referees, and the
settings and ruleset chosen before the draw (``tournament_info``).

Its own object, public as ``Tournament.info_table`` (``t.info_table.update(info)``), so
the tournament handle keeps only a tournament's rules (what the draw freezes, what it
refuses once drawn): ``InfoTable`` owns the row's SQL and columns. A
second creation, even racing another organizer session, is refused cleanly.

The draw freezes the choice of settings and ruleset: ``choose`` refuses after it inside
its own write's transaction, whichever path asks (``t.configure`` or ``t.info_table``
directly), under a lock on a server that the draw's write waits for (and takes itself,
to write the choice it was planned from: ``choice_in``).
"""

from __future__ import annotations

import json
from typing import Any

from referee_desk.rules.ruleset import Ruleset
from referee_desk.store.tables import Tables
from referee_desk.tournament.draw_closes import refuse_if_drawn_in
from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.model import Settings, TournamentInfo
from referee_desk.tournament.schema import json_column


class InfoTable:
    """The ``tournament_info`` row of one store (``path`` names it in refusals)."""

    def __init__(self, tables: Tables, path: str, *, on_server: bool) -> None:
        self.tables = tables
        self.path = path
        self.on_server = on_server

    def row(self) -> Any:
        """The row (None: no tournament here yet)."""
        return self.tables.row("SELECT * FROM tournament_info WHERE id = 1")

    def info(self) -> TournamentInfo:
        r = self.row()
        return TournamentInfo(
            name=r[1],
            start_date=r[2],
            end_date=r[3],
            venue=r[4],
            organizer=r[5],
            tables=tuple(json.loads(r[6])),
            referees=tuple(json.loads(r[7])),
        )

    def settings_json(self) -> str:
        """The settings as chosen before the draw (JSON)."""
        return self.row()[8]

    def ruleset_json(self) -> str:
        """The ruleset as chosen before the draw (JSON)."""
        return self.row()[9]

    def insert(self, info: TournamentInfo, settings: Settings | None, ruleset: Ruleset) -> None:
        """The tournament's row, once: a second creation, even racing, is refused cleanly."""
        held = self.row()
        if held is not None:
            raise TournamentError(f"{self.path}: already holds tournament {held[1]!r}")
        with self.tables.signed_transaction() as conn:
            added = conn.execute(
                "INSERT INTO tournament_info (id, name, start_date, end_date, venue, organizer, "
                "tables_json, referees_json, settings_json, ruleset_json) "
                "VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                (
                    *_info_columns(info),
                    json_column((settings or Settings()).to_dict()),
                    json_column(ruleset.to_dict()),
                ),
            )
            if added.rowcount != 1:  # another organizer session created one meanwhile
                raise TournamentError(f"{self.path}: already holds a tournament (just created)")

    def update(self, info: TournamentInfo) -> None:
        """Edit name, dates, venue, organizer, tables and referees."""
        self._exec(
            "UPDATE tournament_info SET name=?, start_date=?, end_date=?, venue=?, organizer=?, "
            "tables_json=?, referees_json=? WHERE id = 1",
            _info_columns(info),
        )

    def choose(self, settings: Settings | None, ruleset: Ruleset | None) -> None:
        """Keep a new choice of settings and/or ruleset (each its own transaction), only
        before the draw: refused inside each write's transaction, so a draw another
        organizer session made meanwhile is seen (on a server the lock waits for it)."""
        if settings is not None:
            self._choose(
                "UPDATE tournament_info SET settings_json = ? WHERE id = 1",
                json_column(settings.to_dict()),
            )
        if ruleset is not None:
            self._choose(
                "UPDATE tournament_info SET ruleset_json = ? WHERE id = 1",
                json_column(ruleset.to_dict()),
            )

    def lock(self, conn: Any, mode: str) -> None:
        """On a server, lock the row's table for this transaction (a file's is exclusive)."""
        if self.on_server:
            conn.execute(f"LOCK TABLE tournament_info IN {mode} MODE")

    @staticmethod
    def choice_in(conn: Any) -> tuple[Settings, Ruleset]:
        """The settings and ruleset chosen, as this transaction sees them."""
        found = conn.execute(
            "SELECT settings_json, ruleset_json FROM tournament_info WHERE id = 1"
        ).fetchone()
        return Settings.from_dict(json.loads(found[0])), Ruleset.from_dict(json.loads(found[1]))

    def _choose(self, sql: str, value: str) -> None:
        with self.tables.signed_transaction() as writer:
            self.lock(writer, "SHARE ROW EXCLUSIVE")
            refuse_if_drawn_in(writer, "change the settings or the ruleset")
            writer.execute(sql, (value,))

    def _exec(self, sql: str, params: tuple[Any, ...]) -> None:
        with self.tables.signed_transaction() as writer:
            writer.execute(sql, params)


def _info_columns(info: TournamentInfo) -> tuple[str, ...]:
    """The row's name, dates, venue, organizer, tables and referees, in column order
    (as both the creation and an edit write them)."""
    return (
        info.name,
        info.start_date,
        info.end_date,
        info.venue,
        info.organizer,
        json_column(list(info.tables)),
        json_column(list(info.referees)),
    )
