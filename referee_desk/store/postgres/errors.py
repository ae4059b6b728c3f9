"""Errors of the PostgreSQL side: each one line, naming the server and what is wrong.

All are ``StoreError`` (a ``ValueError``) so the CLI and the desk handle them like the
file store's errors; ``ServerUnreachable`` is the one a background pusher retries.
"""

from __future__ import annotations

from referee_desk.store.errors import StoreError


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
