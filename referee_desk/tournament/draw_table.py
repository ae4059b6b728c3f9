"""The draw as written: its row (time, seed, frozen ruleset and settings, groups), the
drawn matches with their tables and referees, and the drawings of lots.

Its own object, public as ``Tournament.draw_table`` and used directly
(``t.draw_table.matches()``), so the tournament handle keeps only how the draw is planned
and what it then refuses: ``DrawTable`` owns these tables' SQL and columns. The draw and the lots
are written once (the store refuses changes to them); assignments may be edited.

The draw's one writing path is ``write``, which owns its checks whoever calls it
(``Tournament.draw`` or a caller of ``t.draw_table``): in its own transaction, under the
pairs' and the info's locks on a server, it refuses a draw made meanwhile, pairs that
changed since the plan (another organizer registered one) and a choice of settings or
ruleset changed since it; after it commits, the handle's ``on_drawn`` guards a server's
claims (``Tournament.guard_server_claims``), so no desk claims a drawn match.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from referee_desk.rules.ruleset import Ruleset
from referee_desk.store.tables import Tables, TableWriter
from referee_desk.store.tournament_file import utc_now
from referee_desk.tournament.draw_closes import closed
from referee_desk.tournament.errors import DrawError, TournamentError
from referee_desk.tournament.info_table import InfoTable
from referee_desk.tournament.model import Pair, Settings, Slot, TournamentMatch
from referee_desk.tournament.pair_registry import PairRegistry
from referee_desk.tournament.schema import json_column


class DrawTable:
    """``tournament_draw``, ``tournament_matches`` and ``tournament_lots`` of one store.

    ``pairs`` and ``info`` are the same store's parts the draw is checked against;
    ``on_drawn`` runs after the draw is written (the handle's guard of a server's claims).
    """

    def __init__(
        self,
        tables: Tables,
        pairs: PairRegistry,
        info: InfoTable,
        on_drawn: Callable[[], None],
    ) -> None:
        self.tables = tables
        self.pairs = pairs
        self.info = info
        self.on_drawn = on_drawn

    def row(self) -> Any:
        """The draw's row (None: not drawn yet)."""
        return self.tables.row("SELECT * FROM tournament_draw WHERE id = 1")

    def write(
        self,
        pairs: list[Pair],
        when: str | None,
        seed: int,
        ruleset: Ruleset,
        settings: Settings,
        groups: dict[str, list[int]],
        matches: list[TournamentMatch],
    ) -> None:
        """Write the draw planned from ``pairs``, ``settings`` and ``ruleset``, once, then
        guard a server's claims (``on_drawn``); nothing is written if any check fails."""
        with self.tables.signed_transaction() as conn:
            # The draw is of the pairs registered and the choice made when it is written:
            # a registration or a choice by another organizer session meanwhile makes it
            # refused, never left out (their writes' locks wait for these, and these for them).
            self.pairs.lock(conn, "SHARE")
            self.info.lock(conn, "SHARE")
            if self.pairs.held_in(conn) != pairs:
                raise DrawError(
                    "the pairs changed while drawing (another organizer registered one): "
                    "nothing drawn, draw again"
                )
            if self.info.choice_in(conn) != (settings, ruleset):
                raise DrawError(
                    "the settings or the ruleset changed while drawing (another organizer "
                    "chose them): nothing drawn, draw again"
                )
            self._insert(conn, when, seed, ruleset, settings, groups, matches)
        self.on_drawn()

    @staticmethod
    def _insert(
        conn: TableWriter,
        when: str | None,
        seed: int,
        ruleset: Ruleset,
        settings: Settings,
        groups: dict[str, list[int]],
        matches: list[TournamentMatch],
    ) -> None:
        """The draw's row and its matches in ``write``'s transaction, once."""
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
            raise closed("draw again")
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
