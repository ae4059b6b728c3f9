"""Other layers' tables behind one interface, on either backend of the store.

The tournament layer keeps its organizer data (pairs, the draw, links …) beside the
match records: in the SQLite file's own tables, or in the organizer's schema of the
tournament server. It writes one SQL for both (``?`` placeholders, the subset SQLite
and PostgreSQL share, e.g. ``INSERT … ON CONFLICT … DO UPDATE``) and each backend runs
it; only the DDL differs, so ``ensure_extension`` passes the backend's own connection
and ``dialect`` says which one it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from referee_desk.store.tournament_file import TournamentFile

Params = Sequence[Any]


class TableWriter(Protocol):
    """What a write transaction offers (a ``sqlite3.Connection`` is one)."""

    def execute(self, sql: str, params: Params = ...) -> Any: ...

    def executemany(self, sql: str, rows: Iterable[Params]) -> Any: ...


class Tables(Protocol):
    """Reading and writing another layer's tables in the store it opened."""

    dialect: str
    """``"sqlite"`` or ``"postgresql"``: which DDL ``ensure_extension``'s migrate runs."""

    @property
    def read_only(self) -> bool: ...

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]: ...

    def row(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None: ...

    def transaction(self) -> AbstractContextManager[TableWriter]: ...

    def ensure_extension(
        self, name: str, version: int, migrate: Callable[[Any, int], None]
    ) -> None: ...

    def has_extension(self, name: str) -> bool: ...


class FileTables:
    """``Tables`` of a tournament file: its SQLite connection and its transactions."""

    dialect = "sqlite"

    def __init__(self, file: TournamentFile) -> None:
        self.file = file

    @property
    def read_only(self) -> bool:
        return self.file.read_only

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return self.file.connection.execute(sql, tuple(params)).fetchall()

    def row(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None:
        return self.file.connection.execute(sql, tuple(params)).fetchone()

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return self.file.transaction()

    def ensure_extension(
        self, name: str, version: int, migrate: Callable[[sqlite3.Connection, int], None]
    ) -> None:
        self.file.ensure_extension(name, version, migrate)

    def has_extension(self, name: str) -> bool:
        found = self.row("SELECT 1 FROM extensions WHERE name = ?", (name,))
        return found is not None
