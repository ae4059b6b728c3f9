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
