"""The store's collaborators on their own: heads journal, event log, backups, people,
signatures and the guard's wording — each over a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee_desk.match.envelope import GENESIS_HASH
from referee_desk.store import TournamentFile, backups
from referee_desk.store.backup import RollingBackups
from referee_desk.store.event_log import EventLog
from referee_desk.store.file_core import FileCore
from referee_desk.store.keys import Signer, fingerprint_of, signature_ok
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.store.signatures import differences
from referee_desk.store.synthetic import record, sealed_match
from referee_desk.store.witness import Witness, compare, parse


def test_journal_lines_round_trip_and_a_torn_tail_is_ignored(tmp_path: Path) -> None:
    witness = Witness(tmp_path / "cup.sqlite")
    witness.rebuild("cup", {"m1": (2, "a" * 64)}, {})
    witness.token = "t1"
    witness.write([("E", "m1", 3, "b" * 64), ("S", "m1", 3, "b" * 64)])
    witness.write([("E", '比赛\t"2"', 1, "c" * 64)])
    witness.close()
    data = witness.path.read_bytes()
    seen = parse(data + b"E\t9\tdead")  # a line cut off by a crash
    assert seen.tournament_id == "cup" and seen.damaged_line is None
    assert max(seen.events["m1"]) == 3 and seen.events["m1"][3].token == "t1"
    assert seen.seals == {"m1": 3}
    assert '比赛\t"2"' in seen.events
    broken = data.replace(b"\tb" + b"b" * 63, b"\tX" + b"b" * 63, 1)
    assert parse(broken).damaged_line == 3


def test_compare_names_the_first_missing_or_changed_event() -> None:
    seen = parse(b"")
    seen.see("E", "m", 5, "h5", "t", 1)
    seen.see("S", "m", 5, "h5", "t", 2)

    def head(have: int, digest: str):
        return lambda match_id, seq: (have, digest)

    missing = compare(seen, head(3, ""), head(5, ""), "x.heads")
    assert missing is not None and (missing.match_id, missing.seq) == ("m", 4)
    assert "events 4–5" in missing.reason
    changed = compare(seen, head(5, "other"), head(5, ""), "x.heads")
    assert changed is not None and "differs" in changed.reason
    unlocked = compare(seen, head(5, "h5"), head(0, ""), "x.heads")
    assert unlocked is not None and "seal deleted" in unlocked.reason
    assert compare(seen, head(6, "h5"), head(5, ""), "x.heads") is None


def test_event_log_reads_heads(tmp_path: Path) -> None:
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        log = EventLog(FileCore(tf.path, tf.connection, read_only=False))
        assert log.head("m") == (0, GENESIS_HASH) and log.match_ids() == []
        assert not hasattr(log, "insert")  # read-only: append and import are the writers
        events = sealed_match("m", 4)
        with tf.transaction() as conn:
            conn.executemany(INSERT_SQL, [to_row(e) for e in events])
        assert log.head("m") == (4, events[-1].hash)
        assert log.hash_at("m", 2) == events[1].hash and log.hash_at("m", 9) is None
        assert log.events("m") == events and log.count() == 4
        assert tf.checks.chains() is None


def test_rolling_backups_count_and_never_fail_after_a_commit(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        rolling = RollingBackups(tf.connection, path, every=2, keep=2)
        rolling.after_append()
        assert backups(path) == []
        rolling.after_append()
        assert len(backups(path)) == 1 and rolling.since == 0
        folder = Path(f"{path}.backups")
        for item in folder.iterdir():
            item.unlink()
        folder.rmdir()
        folder.write_text("not a folder")  # another process broke the folder
        rolling.after_append()
        rolling.after_append()  # skipped silently: the event was saved already
        assert rolling.since == 0


def test_people_issue_sessions_that_only_they_accept(tmp_path: Path) -> None:
    with (
        TournamentFile.open(tmp_path / "a.sqlite") as a,
        TournamentFile.open(tmp_path / "b.sqlite") as b,
    ):
        for tf in (a, b):
            tf.people.add_person("王裁判", "referee", "739155")
        session = a.people.login("王裁判", "739155")
        assert a.people.is_issued(session) and not b.people.is_issued(session)
        assert session.token and repr(session).count(session.token) == 0  # not printed


def test_signatures_verify_only_under_the_signing_key() -> None:
    signer = Signer(Ed25519PrivateKey.generate(), "desk", "desk")
    other = Signer(Ed25519PrivateKey.generate(), "desk", "desk")
    signature = signer.sign(b"message")
    assert signature_ok(signer.public_key, b"message", signature)
    assert not signature_ok(other.public_key, b"message", signature)
    assert not signature_ok(signer.public_key, b"messagE", signature)
    assert not signature_ok("zz", b"message", signature)
    assert len(fingerprint_of(signer.public_key)) == 32


def test_guard_differences_are_worded_per_table() -> None:
    signed = {
        "meta": {"a": "1"},
        "people": [["王", "referee", "s", "h", "k"]],
        "match_referees": {"m": "王"},
        "seals": [["m", 3, "h", "sig", "t", "王", "fp"]],
        "signers": [],
    }
    same = {k: (list(v) if isinstance(v, list) else dict(v)) for k, v in signed.items()}
    assert differences(signed, same) is None
    assert "seal" in (differences(signed, {**same, "seals": []}) or "")
    changed = {**same, "people": [["王", "referee", "s", "other", "k"]]}
    assert "'王' was changed" in (differences(signed, changed) or "")
    assert "referee assignment" in (differences(signed, {**same, "match_referees": {}}) or "")
    assert "'a'" in (differences(signed, {**same, "meta": {"a": "2"}}) or "")


def test_the_guard_covers_what_the_store_writes(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "m", 3)
        tf.seals.lock("m")
        tf.people.add_person("王裁判", "referee", "739155")
        assert tf.signatures.guard_problem() is None
        conn = sqlite3.connect(path)
        conn.execute("UPDATE people SET role = 'committee'")
        conn.commit()
        conn.close()
        assert "王裁判" in (tf.signatures.guard_problem() or "")


@pytest.mark.parametrize("role", ["referee", "committee", "organizer"])
def test_each_role_can_sign_in(tmp_path: Path, role: str) -> None:
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        tf.people.add_person("某人", role, "739155")
        assert tf.people.login("某人", "739155", role=role).role == role
