"""The heads journal's grouped fsync (issue 9, append throughput): one fsync per event.

Each event line reaches the kernel before ``append`` returns (so a killed desk never
loses it) and is fsynced by a short-lived background thread within ``SYNC_SECONDS`` or
after ``SYNC_LINES`` lines; seal lines, backups and close fsync at once. Real files,
real threads, a real SIGKILLed process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee_desk.store import DamagedFile, TournamentFile
from referee_desk.store import witness as witness_module
from referee_desk.store.synthetic import draft, record
from referee_desk.store.witness import GroupSync, journal_path, parse

ROOT = Path(__file__).resolve().parents[2]


def eventually(condition, what: str, limit: float = 20.0) -> None:
    """Poll ``condition`` (a behaviour that must happen, not a speed: the limit is generous)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


@pytest.fixture
def never_by_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grouped lines wait an hour: only the line count, a seal, a backup or close sync."""
    monkeypatch.setattr(witness_module, "SYNC_SECONDS", 3600.0)


def test_a_grouped_line_is_in_the_journal_when_append_returns(
    tmp_path: Path, never_by_time: None
) -> None:
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        event = tf.append(draft("M", 0))
        assert tf.witness._sync is not None and tf.witness._sync.pending == 1  # not yet fsynced
        seen = parse(journal_path(tf.path).read_bytes())  # ... but already in the file
        assert seen.events["M"][1].digest == event.hash
    assert tf.witness._sync is None  # closed: synced


def test_grouped_lines_are_fsynced_soon_after_they_were_written(tmp_path: Path) -> None:
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        record(tf, "M", 3)
        sync = tf.witness._sync
        assert sync is not None
        eventually(lambda: sync.pending == 0, "the grouped fsync")
        thread = sync._thread
        assert thread is not None and thread.is_alive()  # waits for the next lines
    eventually(lambda: not thread.is_alive(), "the sync thread ending on close")


def test_the_line_count_triggers_the_fsync_and_close_stops_the_thread(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "j.heads", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    failures: list[int] = []
    sync = GroupSync(fd, lambda: failures.append(1), seconds=3600.0, lines=3)
    try:
        os.write(fd, b"a\n")
        sync.wrote(1)
        assert sync.pending == 1 and sync._thread is not None
        os.write(fd, b"b\nc\n")
        sync.wrote(2)
        eventually(lambda: sync.pending == 0, "the fsync after 3 lines")
        os.write(fd, b"d\n")
        sync.wrote(1)
        assert sync.pending == 1
        sync.close()
        assert sync.pending == 0
        thread = sync._thread
        eventually(lambda: not thread.is_alive(), "the waiting thread ending after close")
        sync.now()  # closed: touches nothing
    finally:
        os.close(fd)
    assert failures == []


def test_a_failing_fsync_marks_the_journal_failed(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "j.heads", os.O_WRONLY | os.O_CREAT, 0o644)
    os.close(fd)  # fdatasync now fails (EBADF): a real OS error
    failures: list[int] = []
    GroupSync(fd, lambda: failures.append(1)).now()
    assert failures == [1]


def test_seals_and_backups_fsync_at_once(tmp_path: Path, never_by_time: None) -> None:
    with TournamentFile.open(tmp_path / "cup.sqlite", backup_every=3) as tf:
        record(tf, "M", 2)
        sync = tf.witness._sync
        assert sync is not None and sync.pending == 2
        record(tf, "M", 1)  # the third event: a rolling backup, the journal first
        assert sync.pending == 0
        record(tf, "M", 1)
        assert sync.pending == 1
        tf.seals.lock("M")
        assert sync.pending == 0
        record(tf, "N", 1)
        tf.append(draft("N", 1), lock=True)  # locking with the event: durable at once
        assert sync.pending == 0


KILLED_BEFORE_ANY_FSYNC = (
    "import os, signal, sys\n"
    "from referee_desk.store import TournamentFile, synthetic, witness\n"
    "witness.SYNC_SECONDS = 3600.0\n"
    "witness.SYNC_LINES = 10_000\n"
    "tf = TournamentFile.open(sys.argv[1])\n"
    "tf.connection.execute('PRAGMA wal_autocheckpoint=0')\n"
    "synthetic.record(tf, 'M', 30)\n"
    "assert tf.witness._sync.pending == 30\n"
    "os.kill(os.getpid(), signal.SIGKILL)\n"
)


def test_a_killed_desk_never_loses_its_unsynced_journal_lines(tmp_path: Path) -> None:
    """The previous design wrote lines late on a thread; a killed desk's last events then
    went missing from the journal and a damaged -wal dropped them unnoticed."""
    path = tmp_path / "cup.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", KILLED_BEFORE_ANY_FSYNC, str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == -9, done.stderr
    seen = parse(journal_path(path).read_bytes())
    assert max(seen.events["M"]) == 30
    copy = tmp_path / "short.sqlite"
    for suffix in ("", "-wal", ".heads"):
        shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    wal = Path(f"{copy}-wal")
    wal.write_bytes(wal.read_bytes()[: wal.stat().st_size // 2])
    with pytest.raises(DamagedFile, match=r"events \d+–30 were saved and witnessed"):
        TournamentFile.open(copy, create=False, read_only=True)
    with TournamentFile.open(path, create=False) as tf:  # the undamaged original: all 30
        assert len(tf.events("M")) == 30 and tf.checks.verify() is None


def test_zeroed_blocks_left_by_a_power_cut_are_no_damage(tmp_path: Path) -> None:
    """Unsynced lines can come back as zeros (the size grew, the bytes did not arrive);
    lines written after the restart follow them and are read."""
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        record(tf, "M", 2)
    journal = journal_path(tf.path)
    journal.write_bytes(journal.read_bytes() + b"\0" * 300)
    with TournamentFile.open(tmp_path / "cup.sqlite", create=False) as tf:
        record(tf, "M", 2)
        assert tf.checks.verify() is None
    seen = parse(journal.read_bytes())
    assert seen.damaged_line is None and max(seen.events["M"]) == 4
    broken = journal.read_bytes().replace(b"\0" * 300, b"\0" * 299 + b"X")
    assert parse(broken).damaged_line is not None  # anything but zeros is still damage
    lines = journal.read_bytes().split(b"\n")
    cut = b"\n".join([*lines[:2], lines[2][:20] + b"\0" * 100 + lines[3], *lines[4:]])
    seen = parse(cut)  # a line cut off at a zeroed block, the next line after the zeros
    assert seen.damaged_line is None and max(seen.events["M"]) == 4


EXITS_WITHOUT_CLOSE = (
    "import os, sys\n"
    "from referee_desk.store import TournamentFile, synthetic, witness\n"
    "witness.SYNC_SECONDS = 3600.0\n"
    "real = os.fdatasync\n"
    "def watched(fd):\n"
    "    real(fd)\n"
    "    print('fdatasync', flush=True)\n"
    "os.fdatasync = watched\n"
    "tf = TournamentFile.open(sys.argv[1])\n"
    "synthetic.record(tf, 'M', 3)\n"
    "print('pending', tf.witness._sync.pending, flush=True)\n"
)


def test_a_desk_exiting_without_close_still_syncs_what_waits(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", EXITS_WITHOUT_CLOSE, str(tmp_path / "cup.sqlite")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["pending 3", "fdatasync"]  # at exit


def test_a_line_torn_by_a_kill_inside_write_is_no_damage_and_hides_nothing(
    tmp_path: Path,
) -> None:
    """SIGKILL can stop ``os.write`` at a page boundary, leaving a line's first part.

    The next session ends that part with a newline before its own lines, so they are
    read (before, they were glued to the fragment: the journal read as damaged there and
    every later event went unwitnessed, seen once in the 200-kill drill).
    """
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "M", 2)
    journal = journal_path(path)
    whole = journal.read_bytes()
    last = whole.rstrip(b"\n").rsplit(b"\n", 1)[1]
    for cut in (1, 3, 30, len(last) - 3):  # inside each kind of field, the checksum last
        journal.write_bytes(whole + last[:cut])
        with TournamentFile.open(path, create=False) as tf:
            record(tf, "M", 1)
            assert tf.checks.verify() is None
            head = tf.head("M")[0]
        seen = parse(journal.read_bytes())
        assert seen.damaged_line is None and max(seen.events["M"]) == head
        whole = journal.read_bytes()
    damaged = whole + b'E\t9\tnot-a-digest\t"M"\t-\t00000000\n'  # whole shape, wrong: damage
    assert parse(damaged).damaged_line is not None
    assert parse(whole + b"junk\n").damaged_line is not None
