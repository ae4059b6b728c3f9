"""Desks making their signing key at the same moment end up with one key (issue 9 item 7).

Before, the partial key file was named by process id only and moved over the key with
``os.replace``: threads of one process collided ("cannot store the desk's signing key"),
and of two processes the later one silently replaced a key the first had already signed
with, so the first one's seals no longer matched this computer's key.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from referee_desk.store import keys

SCRIPT = "from referee_desk.store.keys import desk_signer; print(desk_signer().fingerprint)"


def test_processes_making_the_key_at_once_share_one(tmp_path: Path) -> None:
    env = dict(os.environ, REFEREE_DESK_CONFIG_DIR=str(tmp_path / "config"))
    procs = [
        subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    outputs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    on_disk = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert set(outputs) == {on_disk}
    assert not list((tmp_path / "config" / "keys").glob("*.partial"))


def test_threads_making_the_key_at_once_share_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "config"))
    keys._desk_cache.clear()
    start = threading.Barrier(8)
    seen: list[str] = []
    errors: list[BaseException] = []

    def make() -> None:
        start.wait()
        try:
            seen.append(keys.desk_signer().fingerprint)
        except BaseException as error:  # the test reports it below
            errors.append(error)

    threads = [threading.Thread(target=make) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys._desk_cache.clear()
    assert not errors
    assert len(set(seen)) == 1 and seen[0] == keys.desk_signer().fingerprint
