"""``server init``: set up a tournament database on an existing PostgreSQL, all or nothing.

One transaction creates the roles (organizer, the desks' group, one login per table,
each with a generated password), the schema and its guards; any refusal rolls it all
back, so a failed init leaves the server as it was.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

import psycopg
from psycopg import sql
from psycopg.abc import Params, QueryNoTemplate

from referee_desk.store.postgres import schema
from referee_desk.store.postgres.connection import check_schema, connect, redact
from referee_desk.store.postgres.ddl import hall as hall_ddl
from referee_desk.store.postgres.ddl import (
    v1_records,
    v2_seals,
    v3_organizer,
    v4_board,
    v5_acceptances,
)
from referee_desk.store.postgres.ddl.chain import ddl
from referee_desk.store.postgres.errors import (
    NotARefereeDeskServer,
    ServerFailed,
    ServerRefused,
)


def _first(
    conn: psycopg.Connection, query: QueryNoTemplate, params: Params | None = None
) -> object:
    """The first column of a query that always answers one row (``ServerFailed`` if not:
    a server that answers none is damaged, the input is not wrong)."""
    row = conn.execute(query, params).fetchone()
    if row is None:
        raise ServerFailed(f"the server answered no row to: {query!r}")
    return row[0]


def _text(conn: psycopg.Connection, query: QueryNoTemplate) -> str:
    """A query's one text answer (``ServerFailed`` for no row or a NULL)."""
    value = _first(conn, query)
    if not isinstance(value, str):
        raise ServerFailed(f"the server answered {value!r} to: {query!r}")
    return value


@dataclass(frozen=True, slots=True)
class Login:
    """A role made by init, with its one-time password (shown once, stored nowhere)."""

    role: str
    password: str
    table_label: str = ""

    def url(self, server_url: str, host: str | None = None) -> str:
        """The address this role connects with (``host`` overrides the server's host)."""
        parts = urlsplit(server_url)
        where = host or parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        return (
            f"postgresql://{quote(self.role)}:{quote(self.password, safe='')}@{where}{port}"
            f"{parts.path}"
        )


@dataclass(frozen=True, slots=True)
class InitReport:
    database: str
    server_id: str
    organizer: Login
    desks: tuple[Login, ...]
    already: bool = False


def init_server(url: str, tables: Sequence[str]) -> InitReport:
    """Create the schema and the roles in the (empty) database of ``url``.

    ``tables`` are the table labels (``1号桌`` …); table n gets the role ``<db>_t<nn>``.
    On a database already at the current schema (``already`` set) only the tables not
    yet there are added (``desks`` lists just those, with their new passwords); nothing
    else changes. Raises a one-line ``ServerError``; on any error nothing is written.
    """
    labels = [label.strip() for label in tables if label.strip()]
    if len(set(labels)) != len(labels):
        raise ValueError("table labels must differ from each other")
    shown = redact(url)
    conn = connect(url, check=False)
    try:
        with conn.transaction():
            database = _text(conn, "SELECT current_database()")
            encoding = _text(conn, "SHOW server_encoding")
            version = schema.installed_version(conn)
        if version is not None and version < schema.SERVER_SCHEMA_VERSION:
            _upgrade(conn, shown, database, version)
            version = schema.SERVER_SCHEMA_VERSION
        if version == schema.SERVER_SCHEMA_VERSION:
            ensure_hall_role(conn, shown, database)
            return _add_tables(conn, shown, database, labels)
        if version is not None:
            check_schema(conn, shown)  # raises: newer
        if encoding != "UTF8":
            raise NotARefereeDeskServer(
                f"{shown}: the database's encoding is {encoding}; Referee Desk needs UTF8 "
                f"(CREATE DATABASE {database} ENCODING 'UTF8' TEMPLATE template0)"
            )
        _refuse_foreign(conn, shown)
        roles = schema.RoleNames.for_database(database)
        wanted = [roles.organizer, roles.desks, roles.hall] + [
            roles.desk(n) for n in range(1, len(labels) + 1)
        ]
        taken = [
            r[0]
            for r in conn.execute(
                "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s) ORDER BY rolname", (wanted,)
            )
        ]
        conn.rollback()
        if taken:
            raise ServerRefused(
                f"{shown}: role {taken[0]} already exists on this server (another tournament "
                "database of the same name?); use a database of another name"
            )
        organizer = Login(roles.organizer, _password())
        desks = tuple(
            Login(roles.desk(n), _password(), label) for n, label in enumerate(labels, start=1)
        )
        server_id = uuid.uuid4().hex
        try:
            with conn.transaction():
                _create(conn, database, roles, organizer, desks, server_id)
        except psycopg.Error as error:
            raise _refusal(shown, "server init", error) from None
        return InitReport(database, server_id, organizer, desks)
    finally:
        conn.close()


def upgrade_server(url: str) -> int:
    """Bring a database of an older server schema to the current one; the old version.

    As the superuser (version 2 adds PL/Python). One transaction: a refusal changes
    nothing. Returns the version found (the current one: nothing to do).
    """
    shown = redact(url)
    conn = connect(url, check=False)
    try:
        with conn.transaction():
            database = _text(conn, "SELECT current_database()")
            version = schema.installed_version(conn)
        if version is None:
            check_schema(conn, shown)  # raises: not a Referee Desk database
        assert version is not None
        if version < schema.SERVER_SCHEMA_VERSION:
            _upgrade(conn, shown, database, version)
        elif version > schema.SERVER_SCHEMA_VERSION:
            check_schema(conn, shown)  # raises: newer
        ensure_hall_role(conn, shown, database)
        return version
    finally:
        conn.close()


def _upgrade(conn: psycopg.Connection, shown: str, database: str, version: int) -> None:
    """Apply the migrations after ``version`` in one transaction (1 → 2 → 3 → 4 → 5)."""
    if version not in (1, 2, 3, 4):
        check_schema(conn, shown)  # raises: no migration from there
    organizer = _meta(conn, "organizer_role")
    desks = _meta(conn, "desks_role")
    try:
        with conn.transaction():
            # Another upgrade (or init) at the same moment: the first one migrates, the
            # others find the version it left and have nothing to do.
            conn.execute("LOCK TABLE referee_desk.meta IN EXCLUSIVE MODE")
            if schema.installed_version(conn) != version:
                return
            if version < 2:
                _apply_v2(conn, database, organizer, desks)
            if version < 3:
                _apply_v3(conn, organizer)
            if version < 4:
                _apply_v4(conn, organizer, desks)
            _apply_v5(conn, organizer)
            conn.execute(
                "UPDATE referee_desk.meta SET value = %s WHERE key = 'schema_version'",
                (str(schema.SERVER_SCHEMA_VERSION),),
            )
    except psycopg.Error as error:
        raise _refusal(
            shown, f"upgrading the server schema from version {version}", error
        ) from None


def _apply_v2(conn: psycopg.Connection, database: str, organizer: str, desks: str) -> None:
    """Seals and signing keys, and a check that the server's Ed25519 works (RFC 8032)."""
    conn.execute(
        ddl(
            v2_seals.SCHEMA_V2,
            desks=sql.Identifier(desks).as_string(conn),
            organizer=sql.Identifier(organizer).as_string(conn),
            db=sql.Identifier(database).as_string(conn),
        )
    )
    row = conn.execute(
        "SELECT referee_desk.ed25519_ok(%s, ''::bytea, %s), "
        "referee_desk.ed25519_ok(%s, 'x'::bytea, %s)",
        (
            v2_seals.RFC8032_PUBLIC_KEY,
            v2_seals.RFC8032_SIGNATURE,
            v2_seals.RFC8032_PUBLIC_KEY,
            v2_seals.RFC8032_SIGNATURE,
        ),
    ).fetchone()
    if row != (True, False):
        raise psycopg.errors.RaiseException("the server's Ed25519 check fails RFC 8032 test 1")


def _apply_v3(conn: psycopg.Connection, organizer: str) -> None:
    """The organizer's own schema, for the tournament layer's tables."""
    conn.execute(ddl(v3_organizer.SCHEMA_V3, organizer=sql.Identifier(organizer).as_string(conn)))


def _apply_v4(conn: psycopg.Connection, organizer: str, desks: str) -> None:
    """The table board: heartbeats, settlements of forks, archived branches."""
    conn.execute(
        ddl(
            v4_board.SCHEMA_V4,
            organizer=sql.Identifier(organizer).as_string(conn),
            desks=sql.Identifier(desks).as_string(conn),
        )
    )


def _apply_v5(conn: psycopg.Connection, organizer: str, hall: str | None = None) -> None:
    """Claims closed until the draw, the server's after-lock rule, organizer acceptances."""
    conn.execute(ddl(v5_acceptances.SCHEMA_V5, organizer=sql.Identifier(organizer).as_string(conn)))
    if hall is None:  # a hall role made before version 5
        row = conn.execute("SELECT value FROM referee_desk.meta WHERE key = 'hall_role'").fetchone()
        hall = row[0] if row else None
    if hall:
        _apply_hall_v5(conn, hall)


def _apply_hall_v5(conn: psycopg.Connection, hall: str) -> None:
    conn.execute(ddl(hall_ddl.HALL_ROLE_V5, hall=sql.Identifier(hall).as_string(conn)))


def _apply_hall(conn: psycopg.Connection, database: str, organizer: str, hall: str) -> None:
    """The hall page's read-only role: its grants (``ddl.hall.HALL_ROLE``)."""
    conn.execute(
        ddl(
            hall_ddl.HALL_ROLE,
            organizer=sql.Identifier(organizer).as_string(conn),
            hall=sql.Identifier(hall).as_string(conn),
            db=sql.Identifier(database).as_string(conn),
        )
    )


def ensure_hall_role(conn: psycopg.Connection, shown: str, database: str) -> None:
    """Add the hall page's read-only role to a server made before it (once; as superuser)."""
    if _meta(conn, "hall_role"):
        return
    hall = schema.RoleNames.for_database(database).hall
    organizer = _meta(conn, "organizer_role")
    try:
        with conn.transaction():
            conn.execute("LOCK TABLE referee_desk.meta IN EXCLUSIVE MODE")
            if conn.execute("SELECT 1 FROM referee_desk.meta WHERE key = 'hall_role'").fetchone():
                return
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (hall,)).fetchone():
                conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(hall)))
            _apply_hall(conn, database, organizer, hall)
            _apply_hall_v5(conn, hall)
            conn.execute(
                "INSERT INTO referee_desk.meta (key, value) VALUES ('hall_role', %s)", (hall,)
            )
    except psycopg.Error as error:
        raise _refusal(shown, "adding the hall page's read-only role", error) from None


def _refusal(shown: str, what: str, error: psycopg.Error) -> ServerRefused:
    """One line naming the cause, with what to do for the usual ones."""
    text = _line(error)
    if isinstance(error, psycopg.errors.InsufficientPrivilege):
        return ServerRefused(
            f"{shown}: {text}; run {what} as the server's superuser (e.g. postgres)"
        )
    if "plpython3u" in text or "cryptography" in text:
        return ServerRefused(
            f"{shown}: {what} refused: the server lacks PL/Python with cryptography "
            f"(install {schema.PLPYTHON_PACKAGES} on the server): {text}"
        )
    return ServerRefused(f"{shown}: {what} refused: {text}")


def _add_tables(
    conn: psycopg.Connection, shown: str, database: str, labels: Sequence[str]
) -> InitReport:
    """Add the tables not yet on a ready server, in one transaction."""
    server_id = _meta(conn, "server_id")
    roles = schema.RoleNames.for_database(database)
    organizer = Login(roles.organizer, "")
    rows = conn.execute("SELECT role, table_label FROM referee_desk.desks").fetchall()
    conn.rollback()
    known = {label for _, label in rows}
    numbers = [
        int(role.rsplit("_t", 1)[1]) for role, _ in rows if role.rsplit("_t", 1)[1].isdigit()
    ]
    start = max(numbers, default=0) + 1
    new = [label for label in labels if label not in known]
    desks = tuple(
        Login(roles.desk(n), _password(), label) for n, label in enumerate(new, start=start)
    )
    if not desks:
        return InitReport(database, server_id, organizer, (), already=True)
    try:
        with conn.transaction():
            for desk in desks:
                conn.execute(
                    sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE {}").format(
                        sql.Identifier(desk.role),
                        sql.Literal(desk.password),
                        sql.Identifier(roles.desks),
                    )
                )
                conn.execute(
                    "INSERT INTO referee_desk.desks (role, table_label) VALUES (%s, %s)",
                    (desk.role, desk.table_label),
                )
    except psycopg.Error as error:
        raise ServerRefused(f"{shown}: adding tables refused: {_line(error)}") from None
    return InitReport(database, server_id, organizer, desks, already=True)


def new_password(url: str, who: str) -> Login:
    """A fresh password for a table's desk (``1号桌`` or its role) or ``organizer``.

    For a lost address sheet: run as the server's superuser; the old password stops
    working at once. Raises a one-line ``ServerError``.
    """
    shown = redact(url)
    conn = connect(url)
    try:
        with conn.transaction():
            organizer = _text(
                conn, "SELECT value FROM referee_desk.meta WHERE key = 'organizer_role'"
            )
            row = conn.execute(
                "SELECT role, table_label FROM referee_desk.desks "
                "WHERE role = %s OR table_label = %s",
                (who, who),
            ).fetchone()
            if who in ("organizer", organizer):
                login = Login(organizer, _password())
            elif row is not None:
                login = Login(row[0], _password(), row[1])
            else:
                raise ServerRefused(f"{shown}: no desk {who!r} on this server")
            try:
                conn.execute(
                    sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                        sql.Identifier(login.role), sql.Literal(login.password)
                    )
                )
            except psycopg.errors.InsufficientPrivilege as error:
                raise ServerRefused(
                    f"{shown}: {_line(error)}; run it as the server's superuser"
                ) from None
        return login
    finally:
        conn.close()


def _create(
    conn: psycopg.Connection,
    database: str,
    roles: schema.RoleNames,
    organizer: Login,
    desks: Sequence[Login],
    server_id: str,
) -> None:
    def ident(name: str) -> str:
        return sql.Identifier(name).as_string(conn)

    def create_login(login: Login, group: str | None) -> None:
        statement = sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
            sql.Identifier(login.role), sql.Literal(login.password)
        )
        if group:
            statement += sql.SQL(" IN ROLE {}").format(sql.Identifier(group))
        conn.execute(statement)

    conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(roles.desks)))
    create_login(organizer, None)
    for desk in desks:
        create_login(desk, roles.desks)
    conn.execute(
        ddl(
            v1_records.SCHEMA_V1,
            desks=ident(roles.desks),
            organizer=ident(roles.organizer),
            db=ident(database),
        )
    )
    _apply_v2(conn, database, roles.organizer, roles.desks)
    _apply_v3(conn, roles.organizer)
    _apply_v4(conn, roles.organizer, roles.desks)
    # The hall role reads the organizer's schema (version 3): made with it.
    hall = _first(conn, "SELECT to_regnamespace(%s) IS NOT NULL", (schema.ORGANIZER_SCHEMA,))
    if hall:
        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(roles.hall)))
        _apply_hall(conn, database, roles.organizer, roles.hall)
    _apply_v5(conn, roles.organizer, roles.hall if hall else "")
    conn.cursor().executemany(
        "INSERT INTO referee_desk.meta (key, value) VALUES (%s, %s)",
        [
            ("format", schema.SERVER_FORMAT),
            ("schema_version", str(schema.SERVER_SCHEMA_VERSION)),
            ("server_id", server_id),
            ("created_at", _now(conn)),
            ("organizer_role", roles.organizer),
            ("desks_role", roles.desks),
        ]
        + ([("hall_role", roles.hall)] if hall else []),
    )
    conn.cursor().executemany(
        "INSERT INTO referee_desk.desks (role, table_label) VALUES (%s, %s)",
        [(d.role, d.table_label) for d in desks],
    )


def _refuse_foreign(conn: psycopg.Connection, shown: str) -> None:
    """Refuse a database that already holds tables of something else."""
    row = conn.execute(
        "SELECT n.nspname || '.' || c.relname FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
        "AND n.nspname NOT LIKE 'pg_toast%%' AND n.nspname NOT LIKE 'pg_temp%%' "
        "ORDER BY 1 LIMIT 1"
    ).fetchone()
    schema_row = conn.execute(
        "SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema.SCHEMA,)
    ).fetchone()
    conn.rollback()
    if row is not None or schema_row is not None:
        what = f"table {row[0]}" if row is not None else f"a schema {schema.SCHEMA} of another kind"
        raise NotARefereeDeskServer(
            f"{shown}: not a Referee Desk database: it already holds {what}; "
            "create an empty database for the tournament (createdb) and init that"
        )


def _meta(conn: psycopg.Connection, key: str) -> str:
    row = conn.execute("SELECT value FROM referee_desk.meta WHERE key = %s", (key,)).fetchone()
    conn.rollback()
    return row[0] if row else ""


def _now(conn: psycopg.Connection) -> str:
    return _text(
        conn, "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
    )


def _password() -> str:
    return secrets.token_urlsafe(12)


def _line(error: BaseException) -> str:
    return " ".join(str(error).split())
