"""``Tables`` on the tournament server: the organizer's own schema, in the shared SQL.

The tournament layer writes its SQL with ``?`` placeholders (SQLite's); here they
become psycopg's ``%s`` and the connection's search path is the organizer's schema, so
the very statements that run on a tournament file run on the server. Write
transactions map the server's refusals (a frozen draw's trigger, a privilege) to one
``ServerRefused`` line naming the server, as the file maps its own to ``StoreWriteError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg

from referee_desk.store.postgres.errors import (
    ServerError,
    ServerRefused,
    ServerSchemaMismatch,
    ServerUnreachable,
)
from referee_desk.store.postgres.schema import ORGANIZER_SCHEMA
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.tables import Extension, Params

#: The trigger function every refusal calls with its message (in the organizer's schema).
REFUSE_FUNCTION = "tournament_refuse"


def postgres_ddl(extension: Extension, stored: int) -> list[str]:
    """The statements that bring the server's copy of ``extension`` from ``stored``."""
    tables, refusals = extension.added_after(stored)
    statements = [f"CREATE TABLE {t.name} (\n{t.columns}\n)" for t in tables]
    if refusals:
        statements.append(
            f"CREATE OR REPLACE FUNCTION {REFUSE_FUNCTION}() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$"
        )
    for r in refusals:
        what = f"UPDATE OF {', '.join(r.columns)}" if r.columns else r.operation
        message = r.message.format(op=r.operation).replace("'", "''")
        statements.append(
            f"CREATE TRIGGER {r.name} BEFORE {what} ON {r.table} FOR EACH ROW "
            f"EXECUTE FUNCTION {REFUSE_FUNCTION}('{message}')"
        )
        if r.operation == "DELETE":  # TRUNCATE skips row triggers: refused as a statement
            message = r.message.format(op="TRUNCATE").replace("'", "''")
            statements.append(
                f"CREATE TRIGGER {r.name}_truncate BEFORE TRUNCATE ON {r.table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {REFUSE_FUNCTION}('{message}')"
            )
    return statements


def to_format(statement: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return statement.replace("%", "%%").replace("?", "%s")


class _Writer:
    """The ``TableWriter`` of one server transaction."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def execute(self, statement: str, params: Params = ()) -> Any:
        if params:
            return self.conn.execute(to_format(statement), tuple(params))
        return self.conn.execute(statement)

    def executemany(self, statement: str, rows: Iterable[Params]) -> Any:
        with self.conn.cursor() as cur:
            cur.executemany(to_format(statement), [tuple(r) for r in rows])


class ServerTables:
    """Another layer's tables in the organizer's schema of an open ``TournamentServer``."""

    read_only = False

    def __init__(self, server: TournamentServer) -> None:
        if server.is_desk:
            raise ServerRefused(
                f"{server.shown}: this is a table's address ({server.role}); the tournament "
                "itself opens with the organizer's address"
            )
        self.server = server
        self.conn = server.connection
        # Only the schema's owner: the organizer may plant views, functions and triggers
        # in its own schema, which would run with the rights of anyone else reading it
        # (a superuser's address would hand the organizer the whole server).
        found = self.conn.execute(
            "SELECT pg_get_userbyid(nspowner) = current_user AND current_user = session_user "
            "FROM pg_namespace WHERE nspname = %s",
            (ORGANIZER_SCHEMA,),
        ).fetchone()
        if not found or not found[0]:
            raise ServerRefused(
                f"{server.shown}: user {server.role} may not use the tournament's tables "
                "(only the organizer's address opens the tournament)"
            )
        self.conn.execute("SELECT set_config('search_path', %s, false)", (ORGANIZER_SCHEMA,))

    def rows(self, statement: str, params: Params = ()) -> list[tuple[Any, ...]]:
        try:
            return self.conn.execute(to_format(statement), tuple(params)).fetchall()
        except psycopg.Error as error:
            raise self._refusal(error) from None

    def row(self, statement: str, params: Params = ()) -> tuple[Any, ...] | None:
        try:
            return self.conn.execute(to_format(statement), tuple(params)).fetchone()
        except psycopg.Error as error:
            raise self._refusal(error) from None

    @contextmanager
    def transaction(self) -> Iterator[_Writer]:
        try:
            with self.conn.transaction():
                yield _Writer(self.conn)
        except psycopg.Error as error:
            raise self._refusal(error) from None

    def signed_transaction(self) -> AbstractContextManager[_Writer]:
        """The same as ``transaction``: the organizer's schema is the organizer's alone
        (no desk or other role reaches it), so there is no file guard to re-sign."""
        return self.transaction()

    def guard(self, names: Iterable[str]) -> None:
        """Nothing to do on the server (see ``signed_transaction``)."""

    def has_extension(self, name: str) -> bool:
        return self.row("SELECT 1 FROM extensions WHERE name = ?", (name,)) is not None

    def ensure_schema(self, extension: Extension) -> None:
        """The extension's tables and refusals in PostgreSQL's DDL (``postgres_ddl``)."""

        def migrate(writer: _Writer, stored: int) -> None:
            for statement in postgres_ddl(extension, stored):
                writer.execute(statement)

        self.ensure_extension(extension.name, extension.version, migrate)

    def ensure_extension(
        self, name: str, version: int, migrate: Callable[[_Writer, int], None]
    ) -> None:
        """Create or upgrade the layer's tables (``migrate(writer, from_version)``), atomically.

        The row of ``name`` is locked while it runs, so two organizer sessions opening a
        new server at once migrate it once.
        """
        with self.transaction() as writer:
            writer.execute("LOCK TABLE extensions IN SHARE ROW EXCLUSIVE MODE")
            found = self.conn.execute(
                "SELECT version FROM extensions WHERE name = %s", (name,)
            ).fetchone()
            stored = found[0] if found else 0
            if stored > version:
                raise ServerSchemaMismatch(
                    f"{self.server.shown}: made by a newer Referee Desk ({name} tables "
                    f"version {stored}; this one knows up to {version})"
                )
            if stored == version:
                return
            migrate(writer, stored)
            self.conn.execute(
                "INSERT INTO extensions (name, version) VALUES (%s, %s) ON CONFLICT (name) "
                "DO UPDATE SET version = EXCLUDED.version, installed_by = session_user, "
                "installed_at = now()",
                (name, version),
            )

    def _refusal(self, error: psycopg.Error) -> ServerError:
        text = " ".join(str(error).split())
        if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
            return ServerUnreachable(f"{self.server.shown}: lost the server: {text}")
        return ServerRefused(f"{self.server.shown}: refused: {text}")
