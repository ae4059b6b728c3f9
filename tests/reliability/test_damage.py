"""Issue 5, damaged files: truncated, overwritten, or missing their WAL.

Opening never crashes and never shows a silently shortened match: it either opens
with every committed event or refuses with a ``StoreError`` naming the damage.
Rolling backups let the referee recover.
"""

from __future__ import annotations

import random
import shutil
import signal
from pathlib import Path

import pytest
from drills import committed, start_writer

from referee_desk.store import (
    DamagedFile,
    StoreError,
    TournamentFile,
    backups,
    restore_backup,
)
from referee_desk.store.synthetic import record


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("orig") / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        for table in range(3):
            record(tf, f"r1-t{table}", 40)
        tf.seals.lock("r1-t0", "组委会")
        events = {m: tf.events(m) for m in tf.match_ids()}
    return path, events


def open_outcome(path: Path, expected: dict) -> str:
    """'refused' or 'intact'; fails the test on a crash or a shortened match."""
    try:
        tf = TournamentFile.open(path, create=False)
    except StoreError as error:
        assert str(error) and "\n" not in str(error)
        return "refused"
    try:
        shown = {m: tf.events(m) for m in tf.match_ids()}
    except StoreError:
        return "refused"
    finally:
        tf.close()
    assert shown == expected, "opened with a different (shortened or altered) record"
    return "intact"


def damage_drill(original: tuple[Path, dict], tmp_path: Path, trials: int, seed: int) -> dict:
    source, expected = original
    size = source.stat().st_size
    rng = random.Random(seed)
    outcomes: dict[str, int] = {}
    for trial in range(trials):
        copy = tmp_path / f"copy{trial}.sqlite"
        shutil.copyfile(source, copy)
        data = bytearray(copy.read_bytes())
        if trial % 2 == 0:
            kind = "truncated"
            del data[rng.randrange(0, size) :]
        else:
            kind = "overwritten"
            for _ in range(rng.randint(1, 8)):
                at = rng.randrange(0, size)
                data[at : at + 4] = rng.randbytes(4)
        copy.write_bytes(bytes(data))
        result = open_outcome(copy, expected)
        outcomes[f"{kind}/{result}"] = outcomes.get(f"{kind}/{result}", 0) + 1
        for suffix in ("", "-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
    return outcomes


def test_truncated_and_overwritten_copies(original: tuple[Path, dict], tmp_path: Path) -> None:
    outcomes = damage_drill(original, tmp_path, trials=60, seed=3)
    assert sum(outcomes.values()) == 60
    assert outcomes.get("truncated/refused", 0) > 0


@pytest.mark.slow
def test_truncated_and_overwritten_copies_many(original, tmp_path: Path) -> None:
    outcomes = damage_drill(original, tmp_path, trials=1000, seed=11)
    assert sum(outcomes.values()) == 1000


def test_overwritten_event_bytes_are_named(original: tuple[Path, dict], tmp_path: Path) -> None:
    """Bytes changed inside an event's stored text: the chain names the damage."""
    source, _ = original
    for replacement in ("第8条记录".encode(), "第7条记录".encode()[::-1]):  # valid, not UTF-8
        copy = tmp_path / "copy.sqlite"
        data = bytearray(source.read_bytes())
        at = data.find("第7条记录".encode())
        assert at > 0
        data[at : at + len(replacement)] = replacement
        copy.write_bytes(bytes(data))
        with pytest.raises(DamagedFile, match=r"damaged: .*match r1-t\d, event \d+"):
            TournamentFile.open(copy, create=False)


def test_missing_wal_after_a_crash_is_refused_not_shortened(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    writer = start_writer(path, "w", 2, "30")
    out, _ = writer.communicate(timeout=60)
    assert "closed" in out
    writer = start_writer(path, "w", 2)
    assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    lines = [writer.stdout.readline() for _ in range(10)]
    writer.send_signal(signal.SIGKILL)
    writer.communicate()
    assert len(committed(lines)) == 10
    copy = tmp_path / "copy.sqlite"
    shutil.copyfile(path, copy)  # the main file and its heads journal; the -wal is lost
    shutil.copyfile(f"{path}.heads", f"{copy}.heads")
    with pytest.raises(DamagedFile, match=r"witnessed in copy.sqlite.heads .* missing"):
        TournamentFile.open(copy, create=False)
    # With its WAL the original recovers everything reported committed.
    with TournamentFile.open(path, create=False) as tf:
        for match_id, seq, digest in committed(lines):
            assert tf.events(match_id)[seq - 1].hash == digest


def test_missing_wal_after_a_clean_close_loses_nothing(original, tmp_path: Path) -> None:
    source, expected = original
    copy = tmp_path / "copy.sqlite"
    shutil.copyfile(source, copy)
    assert not Path(f"{source}-wal").exists() or Path(f"{source}-wal").stat().st_size == 0
    assert open_outcome(copy, expected) == "intact"


def test_rolling_backups_and_restore(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, backup_every=10, backup_keep=3) as tf:
        record(tf, "r1-t1", 35)
    kept = backups(path)
    assert len(kept) == 3  # every 10 events and on close, pruned to 3
    with TournamentFile.open(kept[0].path, create=False, read_only=True) as newest:
        assert len(newest.events("r1-t1")) == 35
    data = bytearray(path.read_bytes())
    del data[len(data) // 2 :]
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError):
        TournamentFile.open(path, create=False)
    aside = restore_backup(kept[0], path)
    assert aside.exists()  # the damaged file is kept, never deleted
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("r1-t1")) == 35
        assert tf.checks.verify() is None


def test_restore_refuses_a_damaged_backup(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, backup_every=5) as tf:
        record(tf, "m", 5)
    bad = backups(path)[0]
    bad.path.write_bytes(bad.path.read_bytes()[:2000])
    with pytest.raises(StoreError, match="backup"):
        restore_backup(bad, path)
    with TournamentFile.open(path, create=False) as tf:
        assert len(tf.events("m")) == 5
