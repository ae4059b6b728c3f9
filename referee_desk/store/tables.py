"""The store's one interface to other layers, on either backend: records and tables.

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
    import os

    from referee_desk.match.envelope import Event
    from referee_desk.store.interchange import ImportReport
    from referee_desk.store.seals import SealInfo
    from referee_desk.store.tournament_file import TournamentFile

Params = Sequence[Any]


class Records(Protocol):
    """The match records of a store as the tournament layer reads them.

    A ``TournamentFile`` is one; on the server, ``postgres.tournament_records.ServerRecords``.
    """

    @property
    def path(self) -> Any: ...

    @property
    def read_only(self) -> bool: ...

    @property
    def key_fingerprint(self) -> str | None: ...

    def match_ids(self) -> list[str]: ...

    def events(self, match_id: str) -> list[Event]: ...

    def heads(self) -> dict[str, tuple[int, str]]: ...

    def seal_info(self, match_id: str) -> SealInfo | None: ...

    def import_jsonl(self, paths: Sequence[str | os.PathLike[str]]) -> ImportReport: ...

    def close(self) -> None: ...


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

    def signed_transaction(self) -> AbstractContextManager[TableWriter]:
        """A write of tables put under the store's guard (``guard``): re-signs it."""
        ...

    def guard(self, names: Iterable[str]) -> None:
        """Put these tables under the store's guard (a file's signed guard; see
        ``store.guarded_tables``): rows changed outside ``signed_transaction`` are named."""
        ...

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

    def signed_transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return self.file.trust.signed_change()

    def guard(self, names: Iterable[str]) -> None:
        self.file.trust.guard_tables(names)

    def ensure_extension(
        self, name: str, version: int, migrate: Callable[[sqlite3.Connection, int], None]
    ) -> None:
        self.file.ensure_extension(name, version, migrate)

    def has_extension(self, name: str) -> bool:
        found = self.row("SELECT 1 FROM extensions WHERE name = ?", (name,))
        return found is not None
