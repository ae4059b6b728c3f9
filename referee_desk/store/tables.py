"""The store's one interface to other layers, on either backend: records and tables.

The tournament layer keeps its organizer data (pairs, the draw, links …) beside the
match records: in the SQLite file's own tables, or in the organizer's schema of the
tournament server. It writes one SQL for both (``?`` placeholders, the subset SQLite
and PostgreSQL share, e.g. ``INSERT … ON CONFLICT … DO UPDATE``) and each backend runs
it. Its tables are declared once (``Extension``: the tables' columns in the SQL both
take, and the changes the store must refuse); each backend writes its own DDL from
that (``ensure_schema``: SQLite's triggers with ``RAISE(ABORT …)``, PostgreSQL's trigger
functions), so no layer above the store writes a table twice or asks which backend it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table of another layer: its columns, in the SQL SQLite and PostgreSQL share
    (``INTEGER``, ``BIGINT``, ``TEXT``, ``PRIMARY KEY``, ``CHECK``, ``UNIQUE``, ``DEFAULT``)."""

    name: str
    columns: str
    #: the extension version that added it (older stores get it on their upgrade)
    since: int = 1


@dataclass(frozen=True, slots=True)
class Refusal:
    """A change the store refuses on a table, with the message the writer gets.

    ``operation`` is ``UPDATE`` (of ``columns`` only, when named) or ``DELETE`` (a
    server refuses ``TRUNCATE`` with it too); ``{op}`` in the message names it.
    """

    name: str
    table: str
    operation: str
    message: str
    columns: tuple[str, ...] = ()
    since: int = 1


@dataclass(frozen=True, slots=True)
class Extension:
    """Another layer's tables and their refusals, at a version (see ``ensure_schema``)."""

    name: str
    version: int
    tables: tuple[TableSpec, ...]
    refusals: tuple[Refusal, ...] = ()

    def added_after(self, stored: int) -> tuple[tuple[TableSpec, ...], tuple[Refusal, ...]]:
        """What a store holding version ``stored`` of it still lacks."""
        return (
            tuple(t for t in self.tables if t.since > stored),
            tuple(r for r in self.refusals if r.since > stored),
        )


def sqlite_ddl(extension: Extension, stored: int) -> list[str]:
    """The statements that bring a tournament file's copy from ``stored`` (SQLite)."""
    tables, refusals = extension.added_after(stored)
    statements = [f"CREATE TABLE IF NOT EXISTS {t.name} (\n{t.columns}\n)" for t in tables]
    for r in refusals:
        what = f"UPDATE OF {', '.join(r.columns)}" if r.columns else r.operation
        message = r.message.format(op=r.operation).replace("'", "''")
        statements.append(
            f"CREATE TRIGGER IF NOT EXISTS {r.name} BEFORE {what} ON {r.table} "
            f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
        )
    return statements


class TableWriter(Protocol):
    """What a write transaction offers (a ``sqlite3.Connection`` is one)."""

    def execute(self, sql: str, params: Params = ...) -> Any: ...

    def executemany(self, sql: str, rows: Iterable[Params]) -> Any: ...


class Tables(Protocol):
    """Reading and writing another layer's tables in the store it opened."""

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

    def ensure_schema(self, extension: Extension) -> None:
        """Create or upgrade ``extension``'s tables and refusals, in this backend's DDL."""
        ...

    def has_extension(self, name: str) -> bool: ...


class FileTables:
    """``Tables`` of a tournament file: its SQLite connection and its transactions."""

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

    def ensure_schema(self, extension: Extension) -> None:
        def migrate(conn: sqlite3.Connection, stored: int) -> None:
            for statement in sqlite_ddl(extension, stored):
                conn.execute(statement)

        self.file.ensure_extension(extension.name, extension.version, migrate)

    def has_extension(self, name: str) -> bool:
        found = self.row("SELECT 1 FROM extensions WHERE name = ?", (name,))
        return found is not None
