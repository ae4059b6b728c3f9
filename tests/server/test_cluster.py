"""The private cluster fixture itself: a real server, local only, not run as root."""

from __future__ import annotations

import os

import psycopg
import pytest


def test_private_cluster_answers_on_loopback_only(pg_cluster) -> None:
    with psycopg.connect(pg_cluster.url()) as conn:
        addresses = conn.execute("SHOW listen_addresses").fetchone()[0]
        version = conn.execute("SHOW server_version_num").fetchone()[0]
        encoding = conn.execute("SHOW server_encoding").fetchone()[0]
    assert addresses == "127.0.0.1"
    assert int(version) >= 120000
    assert encoding == "UTF8"


def test_server_processes_do_not_run_as_root(pg_cluster) -> None:
    pid = int((pg_cluster.data / "postmaster.pid").read_text().split()[0])
    assert os.stat(f"/proc/{pid}").st_uid != 0


def test_wrong_password_is_refused(pg_cluster) -> None:
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(pg_cluster.url(password="wrong"), connect_timeout=5).close()
