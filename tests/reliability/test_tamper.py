"""Issue 5, tampering: verify catches every mutation and names the first bad event.

Mutations of exported JSON Lines and of the tournament file itself: one payload
field changed, two events reordered, one deleted, one inserted. A forger who
rewrites the tail and recomputes the whole chain is caught by the keyed seal of
the locked match (``verify --against TOURNAMENT``).
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from tamper import change_payload, mutate_file, mutate_lines

from referee_desk.cli.main import main
from referee_desk.match.envelope import Event
from referee_desk.store import TournamentFile
from referee_desk.store import checks as checks_module
from referee_desk.store.interchange import export_events, verify_path
from referee_desk.store.jsonl import read_jsonl, write_jsonl
from referee_desk.store.synthetic import record


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Event]]:
    folder = tmp_path_factory.mktemp("cup")
    path = folder / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        for table in range(3):
            match_id = f"r2-t{table}"
            record(tf, match_id, 12 + table)
            tf.seals.lock(match_id, "组委会")
    log = folder / "cup.jsonl"
    export_events(path, log)
    return path, log, [i.event for i in read_jsonl(log)]


def jsonl_drill(cup, tmp_path: Path, trials: int, seed: int) -> dict[str, int]:
    path, _, events = cup
    rng = random.Random(seed)
    kinds: dict[str, int] = {}
    target = tmp_path / "mutated.jsonl"
    for _ in range(trials):
        lines, kind, (match_id, line) = mutate_lines(events, rng)
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        found = verify_path(target, against=path)
        assert found is not None, kind
        assert found.match_id == match_id, (kind, str(found))
        if line is not None:
            assert found.line == line, (kind, str(found))
            alone = verify_path(target)  # the chain alone names it too
            assert alone is not None and alone.line == line, (kind, str(alone))
        else:  # a tail deletion or a well-forged extra event: the lock tells
            assert found.seq is not None, (kind, str(found))
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def file_drill(cup, tmp_path: Path, trials: int, seed: int) -> dict[str, int]:
    path, _, _ = cup
    rng = random.Random(seed)
    kinds: dict[str, int] = {}
    for trial in range(trials):
        copy = tmp_path / f"mutated{trial % 2}.sqlite"
        shutil.copyfile(path, copy)
        conn = sqlite3.connect(copy, isolation_level=None)
        kind, (match_id, seq) = mutate_file(conn, rng)
        conn.close()
        found = verify_path(copy)
        assert found is not None, kind
        assert (found.match_id, found.seq) == (match_id, seq), (kind, str(found))
        kinds[kind] = kinds.get(kind, 0) + 1
        for suffix in ("", "-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
    return kinds


def test_jsonl_mutations_are_caught(cup, tmp_path: Path) -> None:
    kinds = jsonl_drill(cup, tmp_path, trials=100, seed=1)
    assert set(kinds) == {"change", "reorder", "delete", "insert"}


def test_tournament_file_mutations_are_caught(cup, tmp_path: Path) -> None:
    kinds = file_drill(cup, tmp_path, trials=100, seed=1)
    assert set(kinds) == {"change", "reorder", "delete", "insert"}


@pytest.mark.slow
def test_1000_mutations_each(cup, tmp_path: Path) -> None:
    assert sum(jsonl_drill(cup, tmp_path, trials=1000, seed=7).values()) == 1000
    assert sum(file_drill(cup, tmp_path, trials=1000, seed=7).values()) == 1000


def forge_tail(events: list[Event], match_id: str, keep: int) -> list[Event]:
    """Rewrite a match after its first ``keep`` events and recompute the whole chain."""
    own = [e for e in events if e.match_id == match_id]
    forged = own[:keep]
    for event in own[keep:]:
        forged.append(change_payload(event, random.Random(event.seq)).sealed(forged[-1].hash))
    return forged


def test_forged_self_consistent_chain_is_exposed_by_the_lock(cup, tmp_path: Path, capsys) -> None:
    path, _, events = cup
    forged = forge_tail(events, "r2-t1", keep=5)
    log = tmp_path / "forged.jsonl"
    write_jsonl(forged, log)
    assert verify_path(log) is None  # self-consistent: the chain alone cannot tell
    found = verify_path(log, against=path)
    assert found is not None and found.match_id == "r2-t1"
    assert "locked record" in found.reason
    assert main(["verify", str(log), "--against", str(path)]) == 1
    assert "r2-t1" in capsys.readouterr().err
    assert main(["verify", str(log)]) == 0


def test_forged_chain_inside_the_tournament_file_breaks_the_seal(cup, tmp_path: Path) -> None:
    path, _, events = cup
    copy = tmp_path / "forged.sqlite"
    shutil.copyfile(path, copy)
    forged = forge_tail(events, "r2-t0", keep=3)
    conn = sqlite3.connect(copy, isolation_level=None)
    conn.execute("DROP TRIGGER events_append_only_delete")
    conn.execute("DELETE FROM events WHERE match_id = 'r2-t0' AND seq > 3")
    from referee_desk.store.rows import INSERT_SQL, to_row

    conn.executemany(INSERT_SQL, [to_row(e) for e in forged[3:]])
    conn.close()
    found = verify_path(copy)
    assert found is not None and found.match_id == "r2-t0" and "locked" in found.reason


def test_the_drill_fails_without_the_hash_chain(cup, tmp_path: Path, monkeypatch) -> None:
    """Remove the protection (chain check) and the drill must notice something slips."""
    monkeypatch.setattr(checks_module, "chain_problem", lambda *a, **k: None)
    with pytest.raises(AssertionError):
        jsonl_drill(cup, tmp_path, trials=40, seed=1)


def test_the_forgery_passes_without_the_seal(cup, tmp_path: Path, monkeypatch) -> None:
    """Remove the protection (seal check) and the forged log is accepted."""
    path, _, events = cup
    log = tmp_path / "forged.jsonl"
    write_jsonl(forge_tail(events, "r2-t1", keep=5), log)
    monkeypatch.setattr(checks_module.Checks, "seal_problem", lambda self, m, e: None)
    assert verify_path(log, against=path) is None


def test_reordered_lines_across_matches_are_not_tampering(cup, tmp_path: Path) -> None:
    """Each match has its own chain: interleaving whole matches changes no record."""
    events = cup[2]
    lines = [json.dumps(e.to_dict(), ensure_ascii=False) for e in events]
    lines.reverse()
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join(lines), encoding="utf-8")
    assert verify_path(mixed) is not None  # reversed within each match: broken
    by_match = sorted(events, key=lambda e: (e.match_id != "r2-t2", e.match_id))
    write_jsonl(by_match, mixed)
    assert verify_path(mixed) is None
    assert replace(events[0]) == events[0]
