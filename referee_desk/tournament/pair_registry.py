"""The pairs of one tournament: registration, edits and seeds, in its store's tables.

Its own object, public as ``Tournament.pairs``: the registry owns the pair rows and
their checks (names as entered, one pair per seed, the next free id) and is read
directly (``t.pairs.all()``); the tournament says when the draw has closed
registration, and the registry refuses a write after it inside the write's own transaction
(whether the handle or ``t.pairs`` is asked).
Two organizer sessions may work at once on a server: every write checks again inside
its transaction, under a lock there (a file's transaction is exclusive anyway).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from referee_desk.store.tables import Tables
from referee_desk.tournament.draw_closes import refuse_if_drawn_in
from referee_desk.tournament.errors import PairError
from referee_desk.tournament.model import Pair
from referee_desk.tournament.pairs_io import validate_name

PAIR_COLUMNS = "pair_id, player1, player2, club, seed"


class PairRegistry:
    def __init__(self, tables: Tables, *, on_server: bool) -> None:
        self.tables = tables
        self.on_server = on_server

    def all(self) -> list[Pair]:
        rows = self.tables.rows(f"SELECT {PAIR_COLUMNS} FROM tournament_pairs ORDER BY pair_id")
        return [Pair(*r) for r in rows]

    def add(self, pairs: Iterable[tuple[str, str, str, int | None]]) -> list[Pair]:
        """Register pairs with the next free ids: all of them or, on any bad row, none."""
        found = self.tables.row("SELECT COALESCE(MAX(pair_id), 0) + 1 FROM tournament_pairs")
        first = int(found[0]) if found else 1
        new = [
            Pair(
                first + i,
                validate_name(p1, f"pair {first + i}, player 1"),
                validate_name(p2, f"pair {first + i}, player 2"),
                validate_name(club, f"pair {first + i}, club"),
                seed,
            )
            for i, (p1, p2, club, seed) in enumerate(pairs)
        ]
        taken = {p.seed: p.pair_id for p in self.all() if p.seed is not None}
        for pair in new:
            if pair.seed is None:
                continue
            if pair.seed in taken:
                raise PairError(f"seed {pair.seed} is already pair {taken[pair.seed]}'s")
            taken[pair.seed] = pair.pair_id
        with self.tables.signed_transaction() as conn:
            # Another organizer session may register or draw meanwhile: check again
            # inside the transaction (a file's is exclusive; on a server the lock makes
            # it so, and a draw's lock waits for it).
            self.lock(conn, "SHARE ROW EXCLUSIVE")
            refuse_if_drawn_in(conn, "add a pair")
            if _next_pair_id(conn) != first:
                raise PairError(
                    "another organizer registered pairs meanwhile: nothing added, add them again"
                )
            conn.executemany(
                "INSERT INTO tournament_pairs VALUES (?, ?, ?, ?, ?)",
                [(p.pair_id, p.player1, p.player2, p.club, p.seed) for p in new],
            )
        return new

    def update(self, pair: Pair, refuse_if_drawn: Callable[[str], None]) -> None:
        """Edit names or club (always); the seed only while ``refuse_if_drawn`` lets it."""
        old = {p.pair_id: p for p in self.all()}.get(pair.pair_id)
        if old is None:
            raise PairError(f"no pair {pair.pair_id} in this tournament")
        pair = replace(
            pair,
            player1=validate_name(pair.player1, f"pair {pair.pair_id}, player 1"),
            player2=validate_name(pair.player2, f"pair {pair.pair_id}, player 2"),
            club=validate_name(pair.club, f"pair {pair.pair_id}, club"),
        )
        if pair.seed != old.seed:
            refuse_if_drawn(f"change the seed of pair {pair.pair_id}")
            self._check_seed(pair)
        with self.tables.signed_transaction() as conn:
            if pair.seed != old.seed:
                self.lock(conn, "SHARE ROW EXCLUSIVE")
                refuse_if_drawn_in(conn, f"change the seed of pair {pair.pair_id}")
            conn.execute(
                "UPDATE tournament_pairs SET player1=?, player2=?, club=?, seed=? WHERE pair_id=?",
                (pair.player1, pair.player2, pair.club, pair.seed, pair.pair_id),
            )

    def remove(self, pair_id: int) -> None:
        """Remove a pair: only before the draw, checked inside the transaction (the draw
        closes registration whichever path asks, the handle or ``t.pairs`` directly)."""
        with self.tables.signed_transaction() as conn:
            self.lock(conn, "SHARE ROW EXCLUSIVE")
            refuse_if_drawn_in(conn, f"remove pair {pair_id}")
            conn.execute("DELETE FROM tournament_pairs WHERE pair_id = ?", (pair_id,))

    def lock(self, conn: Any, mode: str) -> None:
        """On a server, lock the pairs for this transaction (a file's is exclusive)."""
        if self.on_server:
            conn.execute(f"LOCK TABLE tournament_pairs IN {mode} MODE")

    @staticmethod
    def held_in(conn: Any) -> list[Pair]:
        """The pairs as this transaction sees them."""
        rows = conn.execute(
            f"SELECT {PAIR_COLUMNS} FROM tournament_pairs ORDER BY pair_id"
        ).fetchall()
        return [Pair(*r) for r in rows]

    def _check_seed(self, pair: Pair) -> None:
        if pair.seed is None:
            return
        clash = self.tables.row(
            "SELECT pair_id FROM tournament_pairs WHERE seed = ? AND pair_id != ?",
            (pair.seed, pair.pair_id),
        )
        if clash:
            raise PairError(f"seed {pair.seed} is already pair {clash[0]}'s")


def _next_pair_id(conn: Any) -> int:
    found = conn.execute("SELECT COALESCE(MAX(pair_id), 0) + 1 FROM tournament_pairs")
    return int(found.fetchone()[0])
