"""Connecting to a tournament server: the address, the login, the schema check.

Every psycopg failure that a person can cause (a mistyped address, a wrong password,
a server that is down, a database that is not a Referee Desk one) becomes a one-line
``ServerError``; nothing here writes.
"""

from __future__ import annotations

import logging
import os
import re
from typing import TypedDict

import psycopg

from referee_desk.store.postgres import password, schema
from referee_desk.store.postgres.address import (
    ESCAPES_HINT,
    has_raw_at,
    is_server_url,
    redact,
    scrub,
)
from referee_desk.store.postgres.errors import (
    BadServerAddress,
    NotARefereeDeskServer,
    ServerLoginRefused,
    ServerSchemaMismatch,
    ServerUnreachable,
)

#: Seconds to wait for a server before calling it unreachable.
CONNECT_TIMEOUT = 5


#: TCP settings so a network that goes silent (a dropped hall Wi-Fi, not a server that is
#: down) ends a connection within about half a minute instead of TCP's many minutes: the
#: desk's pusher retries and the organizer's view says it is not live.
class _Liveness(TypedDict):
    """The libpq keepalive parameters, typed so ``connect(**TCP_LIVENESS)`` checks."""

    keepalives: int
    keepalives_idle: int
    keepalives_interval: int
    keepalives_count: int
    tcp_user_timeout: int


TCP_LIVENESS: _Liveness = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 20_000,  # milliseconds
}


class _AbortedPipelineNotice(logging.Filter):
    """Drops psycopg's warning that it could not end a batch insert's pipeline after the
    error that aborted it: that error is raised too and reported as one line; the
    warning would print a second, raw line beside it (e.g. an import racing a desk)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("error ignored terminating")


logging.getLogger("psycopg").addFilter(_AbortedPipelineNotice())


def connect(url: str, *, autocommit: bool = False, check: bool = True) -> psycopg.Connection:
    """Open a connection; with ``check`` the database must hold the current schema."""
    if not is_server_url(url):
        raise BadServerAddress(
            f"{url}: not a server address; write postgresql://user:password@host:port/database"
        )
    shown = redact(url)
    try:
        conn = _login(url, shown, autocommit)
    except psycopg.ProgrammingError as error:
        raise BadServerAddress(
            f"{shown}: not a valid server address ({scrub(_line(error), url)}); {ESCAPES_HINT}"
        ) from None
    except psycopg.OperationalError as error:
        raise login_error(shown, error, url) from None
    if check:
        try:
            check_schema(conn, shown)
        except BaseException:
            conn.close()
            raise
    return conn


def _login(url: str, shown: str, autocommit: bool) -> psycopg.Connection:
    """Connect with the password from the address, ``PGPASSWORD``, the pass file (libpq
    reads it), or else the terminal's answer (``password.ask``); see ``password``."""
    given = password.has_password(url) or bool(os.environ.get("PGPASSWORD"))
    if not given:
        password.check_pass_file(shown)
    typed = None if given else password.typed(url)
    try:  # a password=None (none typed yet) is left out of the connection string
        return psycopg.connect(
            url,
            autocommit=autocommit,
            connect_timeout=CONNECT_TIMEOUT,
            password=typed or None,
            **TCP_LIVENESS,
        )
    except psycopg.OperationalError as error:
        text = _line(error)
        if given or not ("no password supplied" in text or "password authentication" in text):
            raise
        password.forget(url)
        answer = password.ask(url, shown)
        if answer is None:
            raise
    try:
        return psycopg.connect(
            url,
            autocommit=autocommit,
            connect_timeout=CONNECT_TIMEOUT,
            password=answer,
            **TCP_LIVENESS,
        )
    except psycopg.OperationalError:
        password.forget(url)
        raise


def login_error(
    shown: str, error: psycopg.Error, url: str = ""
) -> ServerUnreachable | ServerLoginRefused:
    text = scrub(_line(error), url)
    if "no password supplied" in text:
        return ServerLoginRefused(
            f"{shown}: no password for this address: keep it in the pass file "
            f"({password.pass_file()}) with: referee-desk server remember ADDRESS, "
            "or run the command at a terminal to be asked for it"
        )
    if "password authentication failed" in text:
        found = re.match(r"^[a-z]+://([^:/@]+)", shown)
        user = found.group(1) if found else "?"
        return ServerLoginRefused(f"{shown}: the server refused user {user}: wrong password")
    if "does not exist" in text or "not permitted to log in" in text:
        return ServerLoginRefused(f"{shown}: {_strip_prefix(text)}")
    if "no pg_hba.conf entry" in text:
        return ServerLoginRefused(
            f"{shown}: the server does not let this computer in (pg_hba.conf): {text}"
        )
    if "invalid" in text and "port" in text:
        return ServerUnreachable(f"{shown}: not a valid server address ({text})")
    hint = f"; {ESCAPES_HINT}" if has_raw_at(url) else ""
    return ServerUnreachable(f"{shown}: cannot reach the server: {_strip_prefix(text)}{hint}")


def check_schema(conn: psycopg.Connection, shown: str) -> int:
    """The schema version; refuses a database without it or of another version."""
    try:
        version = schema.installed_version(conn)
    except psycopg.errors.InsufficientPrivilege:
        conn.rollback()
        user = conn.info.user
        raise ServerLoginRefused(
            f"{shown}: user {user} is none of this tournament's roles (the organizer or a "
            "table's desk): the server lets it read nothing"
        ) from None
    if not conn.autocommit:
        conn.rollback()  # leave no transaction open behind a read
    if version is None:
        raise NotARefereeDeskServer(
            f"{shown}: not a Referee Desk database (no {schema.SCHEMA} schema); "
            "the organizer runs: referee-desk server init URL"
        )
    if version < schema.SERVER_SCHEMA_VERSION:
        raise ServerSchemaMismatch(
            f"{shown}: set up by an older Referee Desk (server schema version {version}; "
            f"this one needs {schema.SERVER_SCHEMA_VERSION}); the server's superuser runs: "
            "referee-desk server upgrade URL"
        )
    if version > schema.SERVER_SCHEMA_VERSION:
        raise ServerSchemaMismatch(
            f"{shown}: set up by a newer Referee Desk (server schema version {version}; "
            f"this one knows up to {schema.SERVER_SCHEMA_VERSION}); update this desk"
        )
    return version


def _line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _strip_prefix(text: str) -> str:
    for prefix in ("connection failed: ", "connection is bad: "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text
