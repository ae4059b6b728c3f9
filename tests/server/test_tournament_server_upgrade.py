"""Issue 13, "a server of an older schema": a real version-2 server meets the tournament.

Version 2 (signing keys and seals, no organizer's schema) is made as the previous
release made it: init with version 3's step left out. Tournament and export commands
refuse it in one line naming ``server upgrade``; ``server upgrade`` and ``server init``
bring it to version 3 with its events kept, and the tournament then lives on it.
"""

from __future__ import annotations

import psycopg
import pytest

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.postgres import init as init_module
from referee_desk.store.postgres import schema
from referee_desk.store.postgres.init import init_server
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import push


@pytest.fixture
def version_2(pg_database, desk_file, monkeypatch):
    """(admin URL, organizer URL, desk file) of a version 2 server holding 7 events."""
    with monkeypatch.context() as old:
        old.setattr(schema, "SERVER_SCHEMA_VERSION", 2)
        old.setattr(init_module, "_apply_v3", lambda *args: None)
        old.setattr(init_module, "_apply_v4", lambda *args: None)
        old.setattr(init_module, "_apply_v5", lambda *args: None)
        report = init_server(pg_database, ["1号桌", "2号桌"])
        path = desk_file("t1", {"R1-T1": 7})
        with (
            TournamentFile.open(path) as tf,
            TournamentServer.open(report.desks[0].url(pg_database)) as desk,
        ):
            assert push(tf, desk).total_pushed == 7
    with psycopg.connect(pg_database) as admin:
        assert admin.execute(
            "SELECT value FROM referee_desk.meta WHERE key = 'schema_version'"
        ).fetchone() == ("2",)
        assert admin.execute(
            "SELECT to_regnamespace('referee_desk_organizer') IS NULL"
        ).fetchone() == (True,)
    return pg_database, report.organizer.url(pg_database), path


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _events_kept(organizer_url: str, path) -> None:
    with TournamentFile.open(path) as tf, TournamentServer.open(organizer_url) as server:
        assert server.meta()["schema_version"] == "5"
        assert [e.hash for e in server.events("R1-T1")] == [e.hash for e in tf.events("R1-T1")]


def test_tournament_commands_on_a_version_2_server_say_to_upgrade_it(
    version_2, tmp_path, capsys
) -> None:
    _, organizer_url, _ = version_2
    secret = organizer_url.split(":")[2].split("@")[0]
    for argv in (
        ("tournament", "create", organizer_url, "--name", "桂林杯"),
        ("tournament", "standings", organizer_url),
        ("tournament", "import-records", organizer_url),
        ("export", "results", organizer_url, "-o", str(tmp_path / "r.pdf")),
        ("server", "publish", organizer_url),
    ):
        code, out, err = _run(capsys, *argv)
        assert code != 0, argv
        assert len(err.strip().splitlines()) == 1, err
        assert "older Referee Desk (server schema version 2; this one needs 5)" in err, err
        assert "referee-desk server upgrade URL" in err, err
        assert secret not in out + err
    assert not (tmp_path / "r.pdf").exists()
    with psycopg.connect(version_2[0]) as admin:  # nothing written meanwhile
        assert admin.execute(
            "SELECT to_regnamespace('referee_desk_organizer') IS NULL"
        ).fetchone() == (True,)


def test_server_upgrade_brings_version_2_to_3_with_its_events(version_2, capsys) -> None:
    admin_url, organizer_url, path = version_2
    code, out, _ = _run(capsys, "server", "upgrade", admin_url)
    assert code == 0 and "server schema upgraded from version 2 to 5" in out
    _events_kept(organizer_url, path)
    code, out, err = _run(capsys, "tournament", "create", organizer_url, "--name", "桂林杯")
    assert code == 0, err
    assert "tables (the server's desks): 1号桌, 2号桌" in out
    code, out, err = _run(capsys, "tournament", "import-records", organizer_url)
    assert code == 0, err
    assert "not in the draw (imported, not used): R1-T1" in out
    code, out, _ = _run(capsys, "server", "upgrade", admin_url)
    assert code == 0 and "already at version 5" in out


def test_server_init_on_a_version_2_database_migrates_it(version_2, capsys) -> None:
    admin_url, organizer_url, path = version_2
    code, out, err = _run(capsys, "server", "init", admin_url, "--tables", "1号桌,2号桌,3号桌")
    assert code == 0 and "1 tables added" in out, err
    _events_kept(organizer_url, path)
    with TournamentServer.open(organizer_url) as server:
        assert [d.table_label for d in server.desks()] == ["1号桌", "2号桌", "3号桌"]
    code, _, err = _run(capsys, "tournament", "create", organizer_url, "--name", "桂林杯")
    assert code == 0, err


def test_two_upgrades_at_once_upgrade_once_and_both_say_so(
    pg_cluster, desk_file, monkeypatch, tmp_path
) -> None:
    import uuid

    from racing import race

    admins = []
    for _ in range(4):
        name = f"up{uuid.uuid4().hex[:8]}"
        with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        admins.append(pg_cluster.url(name))
    with monkeypatch.context() as old:
        old.setattr(schema, "SERVER_SCHEMA_VERSION", 2)
        old.setattr(init_module, "_apply_v3", lambda *args: None)
        old.setattr(init_module, "_apply_v4", lambda *args: None)
        old.setattr(init_module, "_apply_v5", lambda *args: None)
        for admin in admins:
            init_server(admin, ["1号桌"])
    first, second = race(
        tmp_path,
        [[["server", "upgrade", admin] for admin in admins] for _ in range(2)],
    )
    for admin, a, b in zip(admins, first, second, strict=True):
        assert (a[0], b[0]) == (0, 0), (a, b)
        for _, out, _ in (a, b):
            assert "upgraded from version 2 to 5" in out or "already at version 5" in out
        with psycopg.connect(admin) as conn:
            assert conn.execute(
                "SELECT value FROM referee_desk.meta WHERE key = 'schema_version'"
            ).fetchone() == ("5",)


def test_server_upgrade_brings_version_3_to_4_the_table_board(
    pg_database, desk_file, monkeypatch, capsys
) -> None:
    """A version 3 server (the previous release) gets heartbeats and settlements, events kept."""
    from referee_desk.store.postgres.pusher import BackgroundPusher
    from referee_desk.tournament.table_board import table_board

    with monkeypatch.context() as old:
        old.setattr(schema, "SERVER_SCHEMA_VERSION", 3)
        old.setattr(init_module, "_apply_v4", lambda *args: None)
        old.setattr(init_module, "_apply_v5", lambda *args: None)
        report = init_server(pg_database, ["1号桌"])
        path = desk_file("t1", {"R1-T1": 5})
        with (
            TournamentFile.open(path) as tf,
            TournamentServer.open(report.desks[0].url(pg_database)) as desk,
        ):
            assert push(tf, desk).total_pushed == 5
    with psycopg.connect(pg_database) as admin:
        assert admin.execute("SELECT to_regclass('referee_desk.heartbeats')").fetchone() == (None,)
    code, out, _ = _run(capsys, "server", "upgrade", pg_database)
    assert code == 0 and "server schema upgraded from version 3 to 5" in out
    with BackgroundPusher(path, report.desks[0].url(pg_database), interval=0.2) as pusher:
        assert pusher.wait_until(lambda s: pusher.heartbeats > 0, timeout=30)
    with TournamentServer.open(report.organizer.url(pg_database)) as server:
        assert server.meta()["schema_version"] == "5"
        assert len(server.events("R1-T1")) == 5
        (row,) = table_board(server).rows
        assert row.table == "1号桌" and len(row.laptops) == 1
