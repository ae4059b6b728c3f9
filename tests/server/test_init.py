"""``referee-desk server init`` on the real server, and the one-line refusals of bad input."""

from __future__ import annotations

import re

import psycopg
import pytest

from referee_desk.cli.main import main
from referee_desk.store.postgres.errors import NotARefereeDeskServer, ServerRefused
from referee_desk.store.postgres.init import init_server
from referee_desk.store.postgres.server import TournamentServer


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _roles(admin_url: str, prefix: str) -> list[str]:
    with psycopg.connect(admin_url) as conn:
        rows = conn.execute(
            "SELECT rolname FROM pg_roles WHERE rolname LIKE %s ORDER BY 1", (prefix + "%",)
        ).fetchall()
    return [r[0] for r in rows]


def _database(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_init_prints_an_address_per_table_that_logs_in(pg_database, capsys) -> None:
    code, out, err = _run(capsys, "server", "init", pg_database, "--tables", "1号桌,2号桌")
    assert code == 0, err
    urls = dict(re.findall(r"^\s+(\S+)\s+(postgresql://\S+)$", out, re.M))
    assert set(urls) == {"organizer", "1号桌", "2号桌"}
    db = _database(pg_database)
    with TournamentServer.open(urls["2号桌"]) as desk:
        assert desk.is_desk and desk.role == f"{db}_t02"
    with TournamentServer.open(urls["organizer"]) as organizer:
        assert [d.table_label for d in organizer.desks()] == ["1号桌", "2号桌"]
        assert organizer.meta()["schema_version"] == "5"
    assert _roles(pg_database, db) == [
        f"{db}_desks",
        f"{db}_hall",
        f"{db}_organizer",
        f"{db}_t01",
        f"{db}_t02",
    ]


def test_init_twice_changes_nothing(hall, capsys) -> None:
    code, out, _ = _run(capsys, "server", "init", hall.admin_url, "--tables", "1号桌,3号桌")
    assert code == 0 and "already a Referee Desk server" in out
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert len(organizer.desks()) == 3


def test_init_again_adds_only_the_new_tables(hall, capsys) -> None:
    code, out, _ = _run(capsys, "server", "init", hall.admin_url, "--tables", "1号桌,9号桌")
    assert code == 0 and "1 tables added" in out and "organizer" not in out
    (url,) = re.findall(r"^\s+9号桌\s+(postgresql://\S+)$", out, re.M)
    db = _database(hall.admin_url)
    with TournamentServer.open(url) as desk:
        assert desk.is_desk and desk.role == f"{db}_t04"
    with TournamentServer.open(hall.desk_urls[0]) as first:  # old passwords still work
        assert first.role == hall.desk_roles[0]


@pytest.mark.parametrize(
    ("address", "code", "says"),
    [
        ("http://127.0.0.1/cup", 1, "not a server address"),
        ("postgresql://u:p@[::1/cup", 1, "not a valid server address"),
        ("postgresql://rd:pw@127.0.0.1:1/cup", 2, "cannot reach the server"),
    ],
)
def test_bad_addresses_get_one_line(capsys, address, code, says) -> None:
    got, out, err = _run(capsys, "server", "init", address, "--tables", "1号桌")
    assert (got, out) == (code, "")
    assert says in err and len(err.strip().splitlines()) == 1


def test_wrong_password_gets_one_line_and_no_password_echoed(pg_database, capsys) -> None:
    url = re.sub(r":[^:@/]+@", ":wrong-secret@", pg_database)
    code, _, err = _run(capsys, "sync", "nofile.sqlite", url, "--lang", "en")
    assert code == 2 and "wrong password" in err and "wrong-secret" not in err
    code, _, err = _run(capsys, "sync", "nofile.sqlite", url)  # the desk's language
    assert code == 2 and "密码不对" in err and "wrong-secret" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_database_that_is_not_a_referee_desk_one(pg_database, capsys, desk_file) -> None:
    path = desk_file("t1", {"R1-T1": 2})
    code, _, err = _run(capsys, "sync", str(path), pg_database)
    assert code == 1 and "not a Referee Desk database" in err
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("CREATE TABLE public.invoices (id int)")
    with pytest.raises(NotARefereeDeskServer, match=r"public\.invoices"):
        init_server(pg_database, ["1号桌"])
    with psycopg.connect(pg_database) as conn:
        assert conn.execute("SELECT to_regnamespace('referee_desk')").fetchone()[0] is None
    assert _roles(pg_database, _database(pg_database)) == []


def test_a_server_of_an_older_schema_is_refused_by_desks_and_init(hall, desk_file, capsys):
    with psycopg.connect(hall.admin_url, autocommit=True) as conn:
        conn.execute("UPDATE referee_desk.meta SET value = '0' WHERE key = 'schema_version'")
    path = desk_file("t1", {"R1-T1": 2})
    code, _, err = _run(capsys, "sync", str(path), hall.desk_urls[0])
    assert code == 1 and "older Referee Desk (server schema version 0" in err
    code, _, err = _run(capsys, "server", "init", hall.admin_url, "--tables", "1号桌")
    assert code == 1 and "older Referee Desk" in err and len(err.strip().splitlines()) == 1


def test_a_failed_init_leaves_nothing_half_written(pg_cluster, pg_database) -> None:
    """A role that may create roles but not schemas: the roles it made are rolled back."""
    db = _database(pg_database)
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE limited_{db} LOGIN CREATEROLE PASSWORD 'pw'")
        conn.execute(f'GRANT CONNECT ON DATABASE "{db}" TO limited_{db}')
    url = pg_cluster.url(db, user=f"limited_{db}", password="pw")
    with pytest.raises(ServerRefused, match="permission denied") as refused:
        init_server(url, ["1号桌", "2号桌"])
    assert "\n" not in str(refused.value)
    assert _roles(pg_database, db) == []
    with psycopg.connect(pg_database) as conn:
        assert conn.execute("SELECT to_regnamespace('referee_desk')").fetchone()[0] is None


def test_init_refuses_when_a_role_of_that_name_exists(pg_cluster, pg_database) -> None:
    db = _database(pg_database)
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {db}_t02")
    with pytest.raises(ServerRefused, match=f"role {db}_t02 already exists"):
        init_server(pg_database, ["1号桌", "2号桌"])
    assert _roles(pg_database, db) == [f"{db}_t02"]


def test_a_database_that_does_not_exist(pg_cluster, capsys) -> None:
    code, _, err = _run(capsys, "server", "init", pg_cluster.url("nosuchdb"), "--tables", "1号桌")
    assert code == 2 and 'database "nosuchdb" does not exist' in err
    assert len(err.strip().splitlines()) == 1


def test_a_new_password_replaces_a_lost_one(hall, capsys) -> None:
    code, out, _ = _run(capsys, "server", "password", hall.admin_url, "2号桌")
    assert code == 0
    (fresh,) = re.findall(r"postgresql://\S+", out)
    with TournamentServer.open(fresh) as desk:
        assert desk.role == hall.desk_roles[1]
    code, _, err = _run(capsys, "sync", "x.sqlite", hall.desk_urls[1], "--lang", "en")
    assert code == 2 and "wrong password" in err
    code, _, err = _run(capsys, "server", "password", hall.admin_url, "9号桌")
    assert code == 1 and "no desk '9号桌'" in err
    code, _, err = _run(capsys, "server", "password", hall.desk_urls[0], "organizer")
    assert code == 1 and "superuser" in err


def test_connections_end_when_the_network_goes_silent(hall) -> None:
    """TCP keepalives and a user timeout: a dropped Wi-Fi ends a connection in ~30 s."""
    from referee_desk.store.postgres.connection import TCP_LIVENESS, connect

    conn = connect(hall.organizer_url)
    try:
        given = conn.info.get_parameters()
    finally:
        conn.close()
    for name, value in TCP_LIVENESS.items():
        assert given.get(name) == str(value), name
