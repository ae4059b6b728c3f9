"""Issue 5, crash safety: a writer killed with SIGKILL at random moments loses nothing.

After every kill the file opens, every hash chain verifies, and every event the
writer reported committed (``append`` had returned) is there, exactly once, and is
witnessed in the heads journal (its line reached the kernel before ``append``
returned, even though its fsync is grouped).
"""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest
from drills import committed, start_writer

from referee_desk.store import TournamentFile
from referee_desk.store.witness import journal_path, parse


def kill_drill(path: Path, kills: int, seed: int) -> int:
    rng = random.Random(seed)
    reported: list[tuple[str, int, str]] = []
    for _ in range(kills):
        writer = start_writer(path, "k", 3)
        assert writer.stdout is not None
        first = writer.stdout.readline()  # "ready": the file is open
        assert first == "ready\n", writer.stderr.read() if writer.stderr else first
        early: list[str] = []
        if rng.random() < 0.8:  # most kills once appends flow, some while it starts up
            early.append(writer.stdout.readline())
        time.sleep(rng.uniform(0.0, 0.25))
        writer.send_signal(signal.SIGKILL)
        rest = writer.stdout.read()
        writer.wait()
        writer.stdout.close()
        if writer.stderr is not None:
            writer.stderr.close()
        reported.extend(committed([*early, *rest.splitlines(keepends=True)]))
        seen = parse(journal_path(path).read_bytes())
        for match_id, seq, digest in reported:
            assert seen.events[match_id][seq].digest == digest, ("not witnessed", match_id, seq)
        with TournamentFile.open(path, create=False) as tf:  # check=True: integrity + chains
            assert tf.checks.chains() is None
            for match_id, seq, digest in {r for r in reported}:
                rows = tf.connection.execute(
                    "SELECT hash FROM events WHERE match_id = ? AND seq = ?", (match_id, seq)
                ).fetchall()
                assert rows == [(digest,)], (match_id, seq)
            assert tf.count() >= len(reported)
    with TournamentFile.open(path, create=False) as tf:
        assert tf.checks.verify() is None
    return len(reported)


def test_sigkill_at_random_moments_loses_no_committed_event(tmp_path: Path) -> None:
    total = kill_drill(tmp_path / "cup.sqlite", kills=20, seed=5)
    assert total > 20  # the drill did kill writers in the middle of work


@pytest.mark.slow
def test_sigkill_200_times(tmp_path: Path) -> None:
    total = kill_drill(tmp_path / "cup.sqlite", kills=200, seed=2026)
    assert total > 200
