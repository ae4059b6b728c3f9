"""The draw as written: its row (time, seed, frozen ruleset and settings, groups), the
drawn matches with their tables and referees, and the drawings of lots.

Its own object, public as ``Tournament.draw_table`` and used directly
(``t.draw_table.matches()``), so the tournament handle keeps only when the draw is made
and what it then refuses: ``DrawTable`` owns these tables' SQL and columns. The draw and the lots
are written once (the store refuses changes to them); assignments may be edited.
"""

from __future__ import annotations

import json
from typing import Any

from referee_desk.rules.ruleset import Ruleset
from referee_desk.store.tables import Tables, TableWriter
from referee_desk.store.tournament_file import utc_now
from referee_desk.tournament.errors import DrawError, TournamentError
from referee_desk.tournament.model import Settings, Slot, TournamentMatch
from referee_desk.tournament.schema import json_column


class DrawTable:
    """``tournament_draw``, ``tournament_matches`` and ``tournament_lots`` of one store."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def row(self) -> Any:
        """The draw's row (None: not drawn yet)."""
        return self.tables.row("SELECT * FROM tournament_draw WHERE id = 1")

    def insert(
        self,
        conn: TableWriter,
        when: str | None,
        seed: int,
        ruleset: Ruleset,
        settings: Settings,
        groups: dict[str, list[int]],
        matches: list[TournamentMatch],
    ) -> None:
        """Write the draw and its matches in the caller's transaction, once."""
        added = conn.execute(
            "INSERT INTO tournament_draw VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (
                when or utc_now(),
                seed,
                json_column(ruleset.to_dict()),
                json_column(settings.to_dict()),
                json_column(groups),
            ),
        )
        if added.rowcount != 1:  # another organizer session drew meanwhile: all rolled back
            raise DrawError("the draw is made: cannot draw again any more")
        conn.executemany(
            "INSERT INTO tournament_matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    m.match_id,
                    m.stage,
                    m.round,
                    m.position,
                    json_column(m.slot_a.to_dict()),
                    json_column(m.slot_b.to_dict()),
                    int(m.third_place),
                    m.table,
                    m.referee,
                    i,
                )
                for i, m in enumerate(matches)
            ],
        )

    def groups(self) -> dict[str, list[int]]:
        d = self.row()
        return {k: list(v) for k, v in json.loads(d[5]).items()} if d else {}

    def matches(self) -> list[TournamentMatch]:
        rows = self.tables.rows(
            "SELECT match_id, stage, round, position, slot_a, slot_b, third_place, table_name, "
            "referee FROM tournament_matches ORDER BY ord"
        )
        return [
            TournamentMatch(
                r[0],
                r[1],
                r[2],
                r[3],
                Slot.from_dict(json.loads(r[4])),
                Slot.from_dict(json.loads(r[5])),
                table=r[7],
                referee=r[8],
                third_place=bool(r[6]),
            )
            for r in rows
        ]

    def match(self, match_id: str) -> TournamentMatch:
        for m in self.matches():
            if m.match_id == match_id:
                return m
        raise TournamentError(f"no match {match_id!r} in this tournament")

    def assign(self, match_id: str, table: str | None = None, referee: str | None = None) -> None:
        """Put a match on a table and/or give it a referee (organizer data, editable)."""
        m = self.match(match_id)
        with self.tables.signed_transaction() as writer:
            writer.execute(
                "UPDATE tournament_matches SET table_name = ?, referee = ? WHERE match_id = ?",
                (
                    m.table if table is None else table,
                    m.referee if referee is None else referee,
                    match_id,
                ),
            )

    def record_lots(self, group: str, lots: dict[int, int], by: str = "") -> None:
        """Record a drawing of lots for tied pairs of a group (lower lot ranks higher)."""
        members = self.groups().get(group)
        if members is None:
            raise TournamentError(f"no group {group!r} in this tournament")
        strangers = sorted(int(p) for p in lots if int(p) not in members)
        if strangers:
            raise TournamentError(f"pair {strangers[0]} is not in group {group}")
        held = self.lots().get(group, {})
        again = sorted(int(p) for p in lots if int(p) in held)
        if again:
            pair = again[0]
            raise TournamentError(
                f"group {group}: pair {pair} drew lot {held[pair]} already "
                "(a drawing of lots is recorded once)"
            )
        now = utc_now()
        with self.tables.signed_transaction() as conn:
            conn.executemany(
                "INSERT INTO tournament_lots VALUES (?, ?, ?, ?, ?)",
                [(group, int(p), int(v), now, by) for p, v in lots.items()],
            )

    def lots(self) -> dict[str, dict[int, int]]:
        out: dict[str, dict[int, int]] = {}
        for g, p, v in self.tables.rows("SELECT grp, pair_id, lot FROM tournament_lots"):
            out.setdefault(g, {})[p] = v
        return out
