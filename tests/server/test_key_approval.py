"""Issue 18 item 11: a table's password alone cannot get keys approved in bulk.

With only a table's address, a desk inserts 1,000 fake key offers. ``server keys
--approve all`` (the README's step) used to register every one of them; now it asks
about each key, shown with the table that offered it, and only at a terminal, and
elsewhere takes fingerprints only.
"""

from __future__ import annotations

import hashlib
import os
import pty
import secrets
import select
import subprocess
import sys
import time

import psycopg

from referee_desk.store.postgres.seals import key_offers, signers
from referee_desk.store.postgres.server import TournamentServer

FAKES = 1_000


def _offer_fakes(desk_url: str, count: int) -> list[str]:
    """What an attacker with 1号桌's password does: raw INSERTs into the offers."""
    keys = [secrets.token_hex(32) for _ in range(count)]
    rows = [(hashlib.sha256(bytes.fromhex(k)).hexdigest()[:32], k, "desk 1号桌") for k in keys]
    with psycopg.connect(desk_url) as conn, conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO referee_desk.key_offers (fingerprint, public_key, label) "
            "VALUES (%s, %s, %s)",
            rows,
        )
    return [r[0] for r in rows]


def _cli(*argv: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee_desk.cli.main", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


def _registered(url: str) -> list[str]:
    with TournamentServer.open(url) as organizer:
        return [s.fingerprint for s in signers(organizer)]


def test_approve_all_off_a_terminal_registers_none_of_1000_fake_offers(hall) -> None:
    fakes = _offer_fakes(hall.desk_urls[0], FAKES)
    done = _cli("server", "keys", hall.organizer_url, "--approve", "all", stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert "--approve FINGERPRINT" in done.stderr and "nothing registered" in done.stderr
    assert _registered(hall.organizer_url) == []

    listed = _cli("server", "keys", hall.organizer_url)
    assert listed.returncode == 0, listed.stderr
    assert f"offered by 1号桌 ({hall.desk_roles[0]}), not registered: {FAKES}" in listed.stdout
    assert "one desk has one key" in listed.stdout
    assert f"… and {FAKES - 10} more from 1号桌" in listed.stdout

    named = _cli("server", "keys", hall.organizer_url, "--approve", fakes[7])
    assert named.returncode == 0, named.stderr
    assert f"registered key {fakes[7]} offered by 1号桌 ({hall.desk_roles[0]})" in named.stdout
    assert _registered(hall.organizer_url) == [fakes[7]]
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert len(key_offers(organizer)) == FAKES - 1


def test_approve_all_at_a_terminal_asks_key_by_key_with_its_table(hall) -> None:
    fakes = _offer_fakes(hall.desk_urls[0], FAKES)
    master, slave = pty.openpty()
    argv = ["server", "keys", hall.organizer_url, "--approve", "all"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_desk.cli.main", *argv],
        stdin=slave,
        stderr=slave,
        stdout=subprocess.PIPE,
        text=True,
    )
    os.close(slave)
    seen = b""
    try:
        # no to the first key, yes to the second, then stop
        for asked, answer in enumerate((b"n\n", b"y\n", b"q\n"), start=1):
            deadline = time.monotonic() + 60
            while seen.count(b"[y/n/q]") < asked:
                assert time.monotonic() < deadline, seen[-500:]
                assert proc.poll() is None, f"never asked: {seen[-500:]!r}"
                if select.select([master], [], [], 0.5)[0]:
                    seen += os.read(master, 65536)
            os.write(master, answer)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
        os.close(master)
    shown = seen.decode("utf-8", "replace")
    assert proc.returncode == 0, shown
    assert f"1号桌 ({hall.desk_roles[0]}) offered {FAKES} key(s)" in shown
    assert f"key {fakes[0]} (1号桌 ({hall.desk_roles[0]})" in shown
    assert _registered(hall.organizer_url) == [fakes[1]]
    assert f"registered key {fakes[1]}" in out
