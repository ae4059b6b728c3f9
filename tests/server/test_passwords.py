"""Issue 18 item 13: a server password is never on a command line nor echoed.

The address is written without its password; the password comes from the pass file
(``PGPASSFILE`` / ``~/.pgpass``, mode 0600, written by ``server remember``) or a
question at the terminal. A pass file others can read is refused with the fix. Whatever
the command (replay, import, verify, sync, server), its output never holds a password.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from referee_desk.store.postgres.server import TournamentServer


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    return url.replace(f":{parts.password}@", "@", 1)


def _password(url: str) -> str:
    from urllib.parse import unquote

    return unquote(urlsplit(url).password or "")


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PGPASSWORD", None)
    env["PGPASSFILE"] = str(tmp_path / "pgpass")
    env.update(more)
    return env


def _cli(env: dict[str, str], *argv: str, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "referee_desk.cli.main", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def test_sync_follow_runs_with_no_password_on_its_command_line(hall, desk_file, tmp_path) -> None:
    desk_url = hall.desk_urls[0]
    secret = _password(desk_url)
    address = _without_password(desk_url)
    env = _env(tmp_path)
    kept = _cli(env, "server", "remember", address, stdin=secret + "\n")
    assert kept.returncode == 0, kept.stderr
    assert secret not in kept.stdout + kept.stderr
    assert (Path(env["PGPASSFILE"]).stat().st_mode & 0o777) == 0o600

    path = desk_file("t1", {"R1-T1": 4})
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_desk.cli.main", "sync", str(path), address, "--follow"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        with TournamentServer.open(hall.organizer_url) as organizer:
            while organizer.heads().get("R1-T1", (0, ""))[0] < 4:
                assert time.monotonic() < deadline, "sync --follow pushed nothing"
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.2)
                organizer.connection.rollback()
        cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes()  # while it runs, pushing
        assert address.encode() in cmdline  # the very process, with its arguments
        assert secret.encode() not in cmdline
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert secret not in out + err


def test_a_pass_file_others_can_read_is_refused_with_the_fix(hall, tmp_path) -> None:
    env = _env(tmp_path)
    address = _without_password(hall.organizer_url)
    pass_file = Path(env["PGPASSFILE"])
    pass_file.write_text(f"*:*:*:*:{_password(hall.organizer_url)}\n")
    pass_file.chmod(0o644)
    done = _cli(env, "verify", address)
    assert done.returncode == 2
    assert f"the pass file {pass_file} can be read by other users" in done.stderr
    assert f"chmod 600 {pass_file}" in done.stderr
    pass_file.chmod(0o600)
    done = _cli(env, "verify", address)  # signed in: the (empty) server is read
    assert done.returncode == 1 and "no events" in done.stderr, done.stderr
    assert "pass file" not in done.stderr


def test_no_password_anywhere_says_where_to_put_it(hall, tmp_path) -> None:
    done = _cli(_env(tmp_path), "server", "status", _without_password(hall.organizer_url))
    assert done.returncode == 2
    assert "no password for this address" in done.stderr
    assert "referee-desk server remember" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ("replay", "{url}"),
        ("import", "{record}", "--into", "{url}"),
        ("verify", "{url}"),
        ("sync", "{file}", "{url}"),
        ("server", "status", "{url}"),
        ("server", "keys", "{url}"),
        ("tournament", "standings", "{url}"),
        ("export", "jsonl", "{url}", "-o", "{out}"),
        ("export", "results", "{url}", "-o", "{out}.pdf"),
        ("tournament", "copy", "{url}", "{out}.sqlite"),
        ("replay", "{url}", "--match", "R1-T2"),
        ("server", "collect", "{url}", "{file}"),
        ("keys", "show", "{url}"),
    ],
)
@pytest.mark.parametrize("wrong", [False, True], ids=["right", "wrong"])
def test_no_output_ever_holds_the_password(hall, desk_file, tmp_path, argv, wrong) -> None:
    """Right or wrong, a password given in the address is never printed back."""
    url = hall.desk_urls[1]
    if wrong:
        url = url.replace(f":{urlsplit(url).password}@", ":Wr0ngPassw0rd-x@", 1)
    secret = _password(url)
    file = desk_file("t2", {"R1-T2": 3})
    record = tmp_path / "rec.jsonl"
    record.write_text("")
    fields = {"url": url, "file": str(file), "record": str(record), "out": str(tmp_path / "o")}
    done = _cli(_env(tmp_path), *(a.format(**fields) for a in argv))
    assert secret not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "***" in done.stdout + done.stderr or done.returncode == 0
