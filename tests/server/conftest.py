"""Fixtures for the server tests: one private PostgreSQL cluster per test session.

Skipped with the reason when the server binaries are absent, except under CI (``CI``
set), where a missing server fails the run instead of hiding the tests.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from pg_cluster import PrivateCluster, find_bin_dir, missing_reason, start_cluster


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PrivateCluster]:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the server tests: {missing_reason()}")
        pytest.skip(missing_reason())
    cluster = start_cluster(bin_dir)
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        cluster.remove()


@pytest.fixture
def pg_database(pg_cluster: PrivateCluster) -> Iterator[str]:
    """A fresh empty database on the private cluster; yields the superuser's URL of it."""
    import psycopg

    name = f"cup{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield pg_cluster.url(name)


class Hall:
    """An initialized tournament database: the admin's, organizer's and desks' addresses."""

    def __init__(self, admin_url: str, report) -> None:
        self.admin_url = admin_url
        self.report = report
        self.organizer_url = report.organizer.url(admin_url)
        self.desk_urls = [d.url(admin_url) for d in report.desks]
        self.desk_roles = [d.role for d in report.desks]


@pytest.fixture
def hall(pg_database: str) -> Hall:
    """Three tables, claims open: a hall whose tournament the organizer keeps in a file
    and published (``server publish URL cup.sqlite``), so desks record their own ids.
    ``tournament create`` on it closes claims until its draw, as on a fresh server."""
    from referee_desk.store.postgres.init import init_server
    from referee_desk.store.postgres.server import TournamentServer

    made = Hall(pg_database, init_server(pg_database, ["1号桌", "2号桌", "3号桌"]))
    with TournamentServer.open(made.organizer_url) as organizer:
        organizer.set_claims(True)
    return made


@pytest.fixture
def fresh_hall(pg_database: str) -> Hall:
    """Three tables just as ``server init`` leaves them: claims closed."""
    from referee_desk.store.postgres.init import init_server

    return Hall(pg_database, init_server(pg_database, ["1号桌", "2号桌", "3号桌"]))


@pytest.fixture
def desk_file(tmp_path):
    """A factory of desk files holding synthetic matches: desk_file(name, {match: n})."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.synthetic import record

    def make(name: str, matches: dict[str, int]):
        path = tmp_path / f"{name}.sqlite"
        with TournamentFile.open(path, tournament_id="cup-2026") as tf:
            for match_id, count in matches.items():
                record(tf, match_id, count)
        return path

    return make
