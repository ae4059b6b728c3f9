"""The private cluster fixture itself: a real server, local only, not run as root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def _run_without_server(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    """The cluster test in a child pytest that cannot find the server binaries."""
    clean = {k: v for k, v in os.environ.items() if k != "CI"}
    clean.update(REFEREE_DESK_PG_BIN=str(tmp_path / "no-postgres-here"), **env)
    target = (
        f"{Path(__file__).parent / 'test_cluster.py'}::test_server_processes_do_not_run_as_root"
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-rs", target],
        capture_output=True,
        text=True,
        env=clean,
        timeout=120,
    )  # fmt: skip


def test_missing_server_binaries_skip_with_the_reason_but_fail_under_ci(tmp_path) -> None:
    skipped = _run_without_server(tmp_path)
    assert skipped.returncode == 0, skipped.stdout
    assert "1 skipped" in skipped.stdout and "install Debian's 'postgresql'" in skipped.stdout
    failed = _run_without_server(tmp_path, CI="true")
    assert failed.returncode == 1
    assert "CI must run the server tests" in failed.stdout
