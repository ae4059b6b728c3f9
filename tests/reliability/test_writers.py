"""Issue 5: two desks writing at once, a full disk, a read-only file.

Two processes append to the same tournament file at the same time, also to one
shared match through the expected-sequence check: nothing is lost or duplicated
and sequence numbers have no gaps; a stale writer gets ``AppendConflict``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from drills import ROOT, committed, start_writer

from referee_desk.match.envelope import verify_chain
from referee_desk.store import AppendConflict, StoreWriteError, TournamentFile
from referee_desk.store.synthetic import draft, record


def test_two_desk_processes_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "shared-t9", 2)  # the match both desks append to
    writers = [start_writer(path, name, 2, "80", "--shared", "shared-t9") for name in "ab"]
    outputs = [w.communicate(timeout=120) for w in writers]
    for writer, (_out, err) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, err
    reported = [c for out, _ in outputs for c in committed(out.splitlines(keepends=True))]
    assert len(reported) == 160
    with TournamentFile.open(path, create=False) as tf:
        assert tf.checks.verify() is None
        for match_id in tf.match_ids():
            events = tf.events(match_id)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            assert verify_chain(events) is None
        stored = {(e.match_id, e.seq, e.hash) for e in tf.all_events()}
        assert set(reported) <= stored
        assert len(set(reported)) == 160  # no event reported twice
        assert len(tf.events("shared-t9")) == 2 + 80
        assert tf.count() == 2 + 160


def test_stale_writer_in_another_process_gets_a_conflict(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as desk:
        record(desk, "m", 2)
        seen = desk.head("m")[0]
        other = start_writer(path, "x", 1, "1", "--shared", "m")  # appends to its own match
        other.communicate(timeout=60)
        script = (
            "from referee_desk.store import TournamentFile\n"
            "from referee_desk.store.synthetic import draft\n"
            f"tf = TournamentFile.open({str(path)!r})\n"
            "tf.append(draft('m', 2))\n"
            "tf.close()\n"
        )
        subprocess.run(
            [sys.executable, "-c", script],
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        with pytest.raises(AppendConflict, match="another desk recorded"):
            desk.append(draft("m", seen), expected_seq=seen + 1)
        assert [e.seq for e in desk.events("m")] == [1, 2, 3]


def test_full_disk_fails_clearly_and_leaves_the_file_consistent(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "m", 3)
        pages = tf.connection.execute("PRAGMA page_count").fetchone()[0]
        tf.connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own disk-full path
        stored = 3
        with pytest.raises(StoreWriteError, match="not saved: the disk is full"):
            for _ in range(500):
                tf.append(draft("m", stored, text="长" * 900))
                stored += 1
        unsaved = draft("m", stored, text="长" * 900)
        assert len(tf.events("m")) == stored
        assert tf.checks.verify() is None
        tf.connection.execute("PRAGMA max_page_count = 1073741823")
        assert tf.append(unsaved).seq == stored + 1  # the entry the desk kept saves later
    with TournamentFile.open(path, create=False) as tf:
        assert tf.checks.verify() is None


@pytest.mark.skipif(not hasattr(os, "setuid"), reason="needs POSIX users")
def test_read_only_file_opens_for_reading_and_refuses_appends(tmp_path: Path) -> None:
    """A file the desk's user cannot write (run as an unprivileged user: root ignores modes)."""
    folder = Path(tempfile.mkdtemp(prefix="rd-ro-", dir="/tmp"))
    path = folder / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "m", 3)
    path.chmod(0o444)
    folder.chmod(0o555)
    script = (
        "import os, sys\n"
        "from referee_desk.store import TournamentFile, StoreWriteError\n"
        "from referee_desk.store.synthetic import draft\n"
        "from referee_desk.store.match_checks import MatchChecker\n"
        "MatchChecker().problem(draft('warm-up', 0))  # load everything while still root\n"
        "os.setgid(65534); os.setuid(65534)\n"
        f"tf = TournamentFile.open({str(path)!r}, create=False)\n"
        "print(tf.read_only, len(tf.events('m')))\n"
        "try:\n"
        "    tf.append(draft('m', 3))\n"
        "except StoreWriteError as error:\n"
        "    print(error)\n"
        "tf.close()\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            cwd="/",
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)
    if "Operation not permitted" in done.stderr:
        pytest.skip("cannot switch to an unprivileged user here")
    assert done.returncode == 0, done.stderr
    first, message = done.stdout.splitlines()[:2]
    assert first == "True 3"
    assert message.startswith("not saved: the file is read-only")
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("m")) == 3 and tf.checks.verify() is None
    shutil.rmtree(folder, ignore_errors=True)
