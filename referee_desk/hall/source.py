"""Where the hall page reads the tournament: the server as its read-only role, or a file.

On a server the page connects with the organizer's address and, before reading
anything, ``SET ROLE <db>_hall`` (made by ``server init``): from then on that
connection reads names, matches and results only and writes nothing, whatever the
page asks. A tournament file is opened read-only. Every read opens its own handle, so
a server that restarted is simply read again next time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from referee_desk.store.opener import is_server_address, shown
from referee_desk.store.postgres.address import redact
from referee_desk.store.postgres.connection import connect
from referee_desk.store.postgres.errors import ServerRefused, ServerUnreachable
from referee_desk.store.postgres.schema import ORGANIZER_SCHEMA
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.tables import to_format
from referee_desk.store.postgres.tournament_records import ServerRecords
from referee_desk.store.tables import Params
from referee_desk.tournament.repository import Tournament


class HallTables:
    """The tournament's tables read as the hall role (``Tables``, read-only)."""

    read_only = True

    def __init__(self, server: TournamentServer) -> None:
        self.server = server
        self.conn = server.connection
        self.conn.execute("SELECT set_config('search_path', %s, false)", (ORGANIZER_SCHEMA,))

    def rows(self, statement: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return self._run(statement, params).fetchall()

    def row(self, statement: str, params: Params = ()) -> tuple[Any, ...] | None:
        return self._run(statement, params).fetchone()

    def _run(self, statement: str, params: Params):
        try:
            return self.conn.execute(to_format(statement), tuple(params))
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            raise ServerUnreachable(
                f"{self.server.shown}: lost the server: {_line(error)}"
            ) from None
        except psycopg.Error as error:
            raise ServerRefused(f"{self.server.shown}: refused: {_line(error)}") from None

    def transaction(self):
        raise ServerRefused(f"{self.server.shown}: the hall page writes nothing")

    def has_extension(self, name: str) -> bool:
        return self.row("SELECT 1 FROM extensions WHERE name = ?", (name,)) is not None

    def ensure_extension(self, name: str, version: int, migrate: Any) -> None:
        raise ServerRefused(f"{self.server.shown}: the hall page writes nothing")


class _HallRecords(ServerRecords):
    read_only = True


def hall_connection(url: str) -> psycopg.Connection:
    """A connection on the organizer's address that reads as the hall role from now on."""
    conn = connect(url, autocommit=True)
    try:
        row = conn.execute("SELECT value FROM referee_desk.meta WHERE key = 'hall_role'").fetchone()
        if row is None:
            raise ServerRefused(
                f"{redact(url)}: this server has no role for the hall page yet; the server's "
                "superuser runs: referee-desk server upgrade URL"
            )
        try:
            conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(row[0])))
        except psycopg.errors.InsufficientPrivilege:
            raise ServerRefused(
                f"{redact(url)}: user {conn.info.user} may not read as {row[0]}; "
                "the hall page takes the organizer's address"
            ) from None
    except BaseException:
        conn.close()
        raise
    return conn


class HallSource:
    """Opens the tournament for one read (``with source.tournament() as t``)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.on_server = is_server_address(address)
        self.shown = shown(address)
        if not self.on_server and not Path(address).is_file():
            raise FileNotFoundError(f"{address}: no such tournament file")

    @contextmanager
    def tournament(self) -> Iterator[Tournament]:
        if not self.on_server:
            with Tournament.open(self.address, read_only=True) as t:
                yield t
            return
        conn = hall_connection(self.address)
        server = TournamentServer(self.address, conn)
        try:
            t = Tournament(_HallRecords(server), HallTables(server), server)
        except BaseException:
            server.close()
            raise
        with t:
            yield t


def _line(error: BaseException) -> str:
    return " ".join(str(error).split())
