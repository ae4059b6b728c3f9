"""One opener for every store: a tournament file's name or a tournament server's address.

Callers (the CLI, the desk, the tournament layer, the hall page, the exports) never test
an address's prefix nor the type of what they got: ``open_store(address)`` decides,
once, and returns one ``Store`` with its records, its tables and, on a server, the
connection behind them. ``shown(address)`` is how any of them names the store in a
message: a server's address without its password (the one redaction owner is
``postgres.address``; the password itself is resolved by ``postgres.password``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee_desk.store.postgres.address import is_server_url, redact
from referee_desk.store.tables import FileTables, Records, Tables
from referee_desk.store.tournament_file import TournamentFile

if TYPE_CHECKING:
    from referee_desk.store.postgres.server import TournamentServer


def is_server_address(address: str | os.PathLike[str]) -> bool:
    """Whether ``address`` names a tournament server (else a file): the one place asked."""
    return is_server_url(os.fspath(address))


def shown(address: str | os.PathLike[str]) -> str:
    """How a store is named in any output: a server's address without its password."""
    text = os.fspath(address)
    return redact(text) if is_server_address(text) else text


@dataclass(frozen=True, slots=True)
class Store:
    """An opened store: what the layers above read and write, whichever backend.

    ``records`` answers events, match ids, heads, seal info and imports; ``tables``
    runs another layer's SQL in the same store; ``server`` is the connection of a
    tournament server (None for a file); ``name`` is how messages name it.
    """

    records: Records
    tables: Tables
    server: TournamentServer | None
    name: str

    @property
    def on_server(self) -> bool:
        return self.server is not None

    @property
    def read_only(self) -> bool:
        return self.tables.read_only

    def close(self) -> None:
        self.records.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(
    address: str | os.PathLike[str],
    *,
    create: bool = False,
    read_only: bool = False,
    tournament_id: str | None = None,
) -> Store:
    """Open the store ``address`` names: a server (its address) or a tournament file.

    ``create`` makes a missing file (a server is never created here: ``server init``
    does); ``read_only`` opens a file for reading (a server's rights are its role's).
    Errors are the backend's own one-line ``StoreError``s, the password never in them.
    """
    text = os.fspath(address)
    if is_server_address(text):
        from referee_desk.store.postgres.server import TournamentServer
        from referee_desk.store.postgres.tables import ServerTables
        from referee_desk.store.postgres.tournament_records import ServerRecords

        server = TournamentServer.open(text)
        try:
            return Store(ServerRecords(server), ServerTables(server), server, server.shown)
        except BaseException:
            server.close()
            raise
    file = TournamentFile.open(
        Path(text), create=create, read_only=read_only, tournament_id=tournament_id or None
    )
    return Store(file, FileTables(file), None, text)
