"""Errors of the PostgreSQL side: each one line, naming the server and what is wrong.

All but one are ``StoreError`` (a ``ValueError``: refused, the input is wrong) so the CLI
and the desk handle them like the file store's errors; ``ServerUnreachable`` is the one a
background pusher retries. ``ServerFailed`` is the store's failure (``StoreWriteError``,
an ``OSError``): the server answered what no sound PostgreSQL does.
"""

from __future__ import annotations

from referee_desk.store.errors import StoreError, StoreWriteError


class ServerError(StoreError):
    """Base of every error about a tournament server."""


class BadServerAddress(ServerError):
    """The address is not a ``postgresql://user@host:port/db`` URL."""


class ServerUnreachable(ServerError):
    """The server cannot be reached now (down, wrong host or port): retry later."""


class ServerLoginRefused(ServerError):
    """The server refused the user (wrong password, unknown user or database)."""


class NotARefereeDeskServer(ServerError):
    """The database holds no Referee Desk schema (or other things than one)."""


class ServerSchemaMismatch(ServerError):
    """The database was set up by an older or newer Referee Desk."""


class ServerRefused(ServerError):
    """The server refused a write (privileges, row-level security, its own checks)."""


class ServerFailed(StoreWriteError):
    """The server's answer is broken (no row, a NULL where one always comes): a damaged
    server, not a wrong input, so a failure (nothing is written), not a refusal. Its line
    names the query; it has no phrase (``key`` None): the desk shows the line itself."""

    key = None
