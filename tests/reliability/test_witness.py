"""Issue 9, items 1, 2 and 7: no false "damaged", no silent loss, no race on backups.

Real processes and real files: a desk that exits without ``close()`` (SQLite then
checkpoints and deletes the ``-wal`` itself), damaged or truncated write-ahead logs
checked against the heads journal, two desks creating one file, and two desks pruning
one backup folder.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from drills import ROOT

from referee_desk.cli.main import main
from referee_desk.store import DamagedFile, TournamentFile, backups
from referee_desk.store.backup import backup_dir, remove_orphans
from referee_desk.store.synthetic import record
from referee_desk.store.witness import journal_path


def run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


UNCLEAN = (
    "import sys\n"
    "from referee_desk.store import TournamentFile, synthetic\n"
    "tf = TournamentFile.open(sys.argv[1])\n"
    "synthetic.record(tf, sys.argv[2], int(sys.argv[3]))\n"
)


def test_unclean_exit_file_opens_clean_and_verifies(tmp_path: Path, capsys) -> None:
    """Repro of item 1: the process exits without close(); SQLite removes the -wal."""
    path = tmp_path / "n.sqlite"
    done = run_python(UNCLEAN, str(path), "M", "5")
    assert done.returncode == 0, done.stderr
    assert not Path(f"{path}-wal").exists()  # SQLite's own checkpoint on exit
    assert main(["verify", str(path)]) == 0, capsys.readouterr().err
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("M")) == 5


def test_desk_killed_while_another_closes_normally(tmp_path: Path) -> None:
    """Desk A is killed while desk B has the file open; B closes normally."""
    path = tmp_path / "cup.sqlite"
    holder = TournamentFile.open(path)
    record(holder, "B", 3)
    code = UNCLEAN + "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
    killed = run_python(code, str(path), "A", "4")
    assert killed.returncode == -9
    holder.close()
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("A")) == 4 and len(tf.events("B")) == 3
        assert tf.checks.verify() is None


def fifty(tmp_path: Path) -> Path:
    """50 acknowledged events still in the -wal (the writer is killed, no checkpoint)."""
    path = tmp_path / "cup.sqlite"
    code = (
        UNCLEAN.replace("TournamentFile.open(sys.argv[1])", "TournamentFile.open(sys.argv[1])")
        + "tf.connection.execute('PRAGMA wal_autocheckpoint=0')\n"
        "synthetic.record(tf, 'N', 25)\n"
        "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = run_python(code, str(path), "M", "25")
    assert done.returncode == -9
    assert Path(f"{path}-wal").stat().st_size > 0
    return path


def damaged_copy(source: Path, folder: Path, rng: random.Random, name: str) -> Path:
    copy = folder / name
    for suffix in ("", "-wal", ".heads"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{copy}{suffix}")
    wal = Path(f"{copy}-wal")
    data = bytearray(wal.read_bytes())
    if rng.random() < 0.5:
        del data[rng.randrange(32, len(data)) :]
    else:
        at = rng.randrange(32, len(data) - 8)
        data[at : at + 8] = bytes(rng.randrange(256) for _ in range(8))
    wal.write_bytes(bytes(data))
    return copy


def wal_drill(source: Path, folder: Path, trials: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    outcomes = {"refused": 0, "intact": 0}
    for trial in range(trials):
        copy = damaged_copy(source, folder, rng, f"copy{trial}.sqlite")
        try:
            with TournamentFile.open(copy, create=False, read_only=True) as tf:
                shown = sum(len(tf.events(m)) for m in tf.match_ids())
        except DamagedFile as error:
            assert "missing" in str(error) or "differs" in str(error) or "damaged" in str(error)
            outcomes["refused"] += 1
        else:
            assert shown == 50, f"trial {trial}: opened with {shown} of 50 events silently"
            outcomes["intact"] += 1
        for suffix in ("", "-wal", "-shm", ".heads"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
    return outcomes


def test_damaged_wal_never_shortens_the_record_silently(tmp_path: Path) -> None:
    """Repro of item 2: every truncated or corrupted -wal is refused or loses nothing."""
    source = fifty(tmp_path)
    outcomes = wal_drill(source, tmp_path, trials=40, seed=9)
    assert outcomes["refused"] > 20


@pytest.mark.slow
def test_damaged_wal_150_variants(tmp_path: Path) -> None:
    source = fifty(tmp_path)
    outcomes = wal_drill(source, tmp_path, trials=150, seed=2026)
    assert sum(outcomes.values()) == 150


def test_truncated_wal_copy_fails_verify_naming_the_missing_events(tmp_path: Path, capsys):
    source = fifty(tmp_path)
    copy = tmp_path / "short.sqlite"
    for suffix in ("", "-wal", ".heads"):
        shutil.copyfile(f"{source}{suffix}", f"{copy}{suffix}")
    wal = Path(f"{copy}-wal")
    wal.write_bytes(wal.read_bytes()[: wal.stat().st_size // 2])
    assert main(["verify", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "short.sqlite.heads" in err and "missing from the file" in err
    assert "match " in err and "event " in err


def test_the_drill_fails_without_the_witness(tmp_path: Path) -> None:
    """Remove the protection (no journal beside the copies): a shortened record slips."""
    source = fifty(tmp_path)
    journal_path(source).unlink()
    with pytest.raises(AssertionError, match="silently"):
        wal_drill(source, tmp_path, trials=40, seed=9)


def test_a_stale_journal_of_another_tournament_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="old") as tf:
        record(tf, "M", 6)
    path.unlink()
    with TournamentFile.open(path, tournament_id="new") as tf:
        record(tf, "M", 2)
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("M")) == 2


def test_restoring_an_older_copy_by_hand_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, backup_every=5) as tf:
        record(tf, "M", 5)
        older = tf.backups.make()
        record(tf, "M", 3)
    shutil.copyfile(older, path)
    with pytest.raises(DamagedFile, match=r"events 6–8 .* missing") as refused:
        TournamentFile.open(path, create=False)
    assert refused.value.key == "store.events_missing"
    assert refused.value.params["match"] == "M"


CREATE = (
    "import sys\n"
    "from referee_desk.store import TournamentFile\n"
    "with TournamentFile.open(sys.argv[1], tournament_id='cup') as tf:\n"
    "    print(tf.tournament_id)\n"
)


def test_two_processes_creating_one_new_file(tmp_path: Path) -> None:
    """Item 7: both desks open it; neither is told the new file is damaged."""
    for attempt in range(6):
        path = tmp_path / f"new{attempt}.sqlite"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", CREATE, str(path)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
                cwd=ROOT,
            )
            for _ in range(2)
        ]
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            assert out.strip() == "cup"


PRUNE = (
    "import sys\n"
    "from referee_desk.store import TournamentFile, synthetic\n"
    "with TournamentFile.open(sys.argv[1], backup_every=1, backup_keep=1) as tf:\n"
    "    for n in range(60):\n"
    "        synthetic.record(tf, sys.argv[2], 1) if n == 0 else tf.append(\n"
    "            synthetic.draft(sys.argv[2], n))\n"
    "print('ok')\n"
)


def test_two_processes_pruning_backups_never_fail_a_saved_event(tmp_path: Path) -> None:
    """Item 7: a backup another desk pruned meanwhile never turns a save into an error."""
    path = tmp_path / "cup.sqlite"
    TournamentFile.open(path).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", PRUNE, str(path), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for name in ("A", "B")
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and out.strip() == "ok", err
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("A")) == 60 and len(tf.events("B")) == 60
    assert 1 <= len(backups(path)) <= 2


def test_orphan_partial_backups_of_killed_desks_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, backup_every=2) as tf:
        record(tf, "M", 2)
    folder = backup_dir(path)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    import socket

    host = socket.gethostname().replace("-", "_")
    orphan = folder / f"cup.sqlite.20260101T000000000000Z.partial-{host}-{dead.stdout.strip()}-ab"
    legacy = folder / "cup.sqlite.20260101T000000000000Z.partial"
    recent_other = folder / "cup.sqlite.20260101T000000000001Z.partial-otherhost-1-ab"
    for item in (orphan, legacy, recent_other):
        item.write_bytes(b"x" * 100)
    os.utime(legacy, (1, 1))
    TournamentFile.open(path, create=False).close()
    assert not orphan.exists() and not legacy.exists()
    assert recent_other.exists()  # another computer's copy may still be in progress
    assert remove_orphans(path) == []


def test_a_journal_that_cannot_be_written_never_fails_a_saved_event(tmp_path: Path) -> None:
    """The event is durable in the file once committed; a journal write failing (full
    disk, a folder in its place) only leaves the journal behind."""
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "M", 2)
    journal_path(path).unlink()
    journal_path(path).mkdir()  # the journal cannot be opened for writing
    with TournamentFile.open(path, create=False) as tf:
        assert record(tf, "M", 2)[-1].seq == 4
        assert tf.witness.failed
        assert tf.checks.verify() is None


def test_a_large_journal_is_compacted_on_a_clean_close_only_when_safe(
    tmp_path: Path, monkeypatch
) -> None:
    from referee_desk.store import tournament_file

    monkeypatch.setattr(tournament_file, "COMPACT_JOURNAL_AT", 2000)
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "M", 30)
        other = TournamentFile.open(path, create=False)  # another desk: not compacted
    assert journal_path(path).stat().st_size > 2000
    other.close()  # the last desk out compacts: one line per match (and the header)
    lines = journal_path(path).read_bytes().splitlines()
    assert len(lines) == 2
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("M")) == 30 and tf.checks.verify() is None
