"""Issue 9, item 3: seals and the guard are Ed25519 signatures by keys outside the file.

Forgers with the file (but not the key) rewrite a locked match and rebuild its chain,
delete a seal, swap a PIN hash, re-assign a referee, or bring a key of their own:
``verify`` names each. Old HMAC-sealed files are checked as before and re-signed.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee_desk.cli.main import main
from referee_desk.store import StoreError, TournamentFile, backups
from referee_desk.store import keys as keys_module
from referee_desk.store.keys import Signer, create_organizer_key, desk_signer, organizer_signer
from referee_desk.store.rows import INSERT_SQL, SELECT_COLUMNS, from_row, to_row
from referee_desk.store.schema import FILE_FORMAT, MIGRATE_V0_TO_V1, SCHEMA_V0
from referee_desk.store.signatures import Signatures, seal_message
from referee_desk.store.synthetic import record, sealed_match
from referee_desk.store.witness import journal_path
from tests.reliability.tamper import change_payload


@pytest.fixture
def locked(tmp_path: Path) -> Path:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id=f"cup-{tmp_path.name}", backup_every=5) as tf:
        record(tf, "r1-t1", 8)
        tf.lock_match("r1-t1", "王裁判")
        record(tf, "r1-t2", 4)
    return path


def raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    for trigger in ("events_append_only_update", "events_append_only_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    return conn


def rewrite_tail(conn: sqlite3.Connection, match_id: str, keep: int) -> str:
    """Rewrite a match after ``keep`` events and rebuild its chain; the new head hash."""
    rows = conn.execute(
        f"SELECT {SELECT_COLUMNS} FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
    ).fetchall()
    events = [from_row(r)[0] for r in rows]
    forged = events[:keep]
    for event in events[keep:]:
        forged.append(change_payload(event, random.Random(event.seq)).sealed(forged[-1].hash))
    conn.execute("DELETE FROM events WHERE match_id = ? AND seq > ?", (match_id, keep))
    conn.executemany(INSERT_SQL, [to_row(e) for e in forged[keep:]])
    return forged[-1].hash


def verify_fails(path: Path, capsys, *words: str) -> str:
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    for word in words:
        assert word in err, err
    return err


def test_no_secret_of_any_kind_in_the_file_or_its_backups(locked: Path) -> None:
    private = desk_signer().private_key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    for item in [locked, *(b.path for b in backups(locked))]:
        data = item.read_bytes()
        assert private not in data and private.hex().encode() not in data
        conn = sqlite3.connect(item)
        assert conn.execute("SELECT value FROM meta WHERE key = 'seal_secret'").fetchone() is None
        conn.close()


def test_forged_chain_resigned_with_the_forgers_own_key_fails_verify(locked, capsys) -> None:
    """Repro of item 3: rewrite a locked match, rebuild the chain, re-sign — refused."""
    conn = raw(locked)
    head = rewrite_tail(conn, "r1-t1", keep=3)
    forger = Signer(Ed25519PrivateKey.generate(), "desk forger@elsewhere", "desk")
    book = Signatures(conn)
    at, by = conn.execute("SELECT sealed_at, sealed_by FROM match_seals").fetchone()
    book.register(forger)
    signature = forger.sign(seal_message(book.tournament_id(), "r1-t1", 8, head, at, by))
    conn.execute(
        "UPDATE match_seals SET head_hash = ?, signature = ?, key_fingerprint = ?",
        (head, signature, forger.fingerprint),
    )
    book.sign_guard(forger)
    conn.close()
    journal_path(locked).unlink()  # the forger removes the witness too
    verify_fails(locked, capsys, "r1-t1", forger.fingerprint, "not registered by the file's key")


def test_forged_seal_signature_is_named(locked, capsys) -> None:
    conn = raw(locked)
    head = rewrite_tail(conn, "r1-t1", keep=3)
    conn.execute("UPDATE match_seals SET head_hash = ?", (head,))
    conn.close()
    verify_fails(locked, capsys, "r1-t1", "does not verify (seal forged)")


def test_deleting_the_seal_does_not_unlock_the_match_silently(locked, capsys) -> None:
    conn = raw(locked)
    conn.execute("DELETE FROM match_seals")
    conn.close()
    journal_path(locked).unlink()  # even without the witness, the signed guard tells
    verify_fails(locked, capsys, "r1-t1", "seal", "removed")


def test_deleted_seal_is_also_named_by_the_witness(locked, capsys) -> None:
    conn = raw(locked)
    conn.execute("DELETE FROM match_seals")
    conn.execute("DELETE FROM guards")
    conn.close()
    verify_fails(locked, capsys, "r1-t1")


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ("UPDATE people SET pin_hash = 'ab' WHERE name = '王裁判'", ("王裁判", "changed")),
        ("INSERT INTO people VALUES ('黑客', 'committee', 'aa', 'bb', 'scrypt:n=2')", ("黑客",)),
        ("UPDATE match_referees SET referee = '黑客'", ("r1-t1", "referee")),
        ("UPDATE meta SET value = 'other' WHERE key = 'created_at'", ("created_at",)),
        ("DELETE FROM guards", ("missing",)),
    ],
)
def test_people_referees_and_meta_are_guarded(locked, capsys, statement, words) -> None:
    with TournamentFile.open(locked, create=False) as tf:
        tf.add_person("王裁判", "referee", "739155")
        tf.assign_referee("r1-t1", "王裁判")
    conn = raw(locked)
    conn.execute(statement)
    conn.close()
    verify_fails(locked, capsys, *words)


def test_seal_info_and_key_fingerprint_for_reports(locked: Path) -> None:
    with TournamentFile.open(locked, create=False, read_only=True) as tf:
        info = tf.seal_info("r1-t1")
        assert info is not None and info.valid and info.reason is None
        assert info.seq == 8 and info.head_hash == tf.head("r1-t1")[1]
        assert info.key_fingerprint == desk_signer().fingerprint == tf.key_fingerprint
        assert info.signer.startswith("desk ") and info.sealed_by == "王裁判"
        assert tf.seal_info("r1-t2") is None
    conn = raw(locked)
    rewrite_tail(conn, "r1-t1", keep=2)
    conn.close()
    with TournamentFile.open(locked, create=False, read_only=True, check=False) as tf:
        info = tf.seal_info("r1-t1")
        assert info is not None and not info.valid and "differs" in (info.reason or "")


def test_verify_says_which_key_signed_what(locked: Path, capsys) -> None:
    assert main(["verify", str(locked)]) == 0
    out = capsys.readouterr().out
    assert desk_signer().fingerprint in out and "r1-t1" in out


def test_a_rekeyed_file_is_caught_by_this_computers_pin_and_by_key(locked, capsys) -> None:
    """A forger replaces every key and signature with their own: self-consistent, but the
    file's key is not the one this computer (or the report) knows."""
    copy = locked.with_name("rekeyed.sqlite")
    shutil.copyfile(locked, copy)
    conn = raw(copy)
    forger = Signer(Ed25519PrivateKey.generate(), "desk forger@elsewhere", "desk")
    conn.execute("DELETE FROM signers")
    book = Signatures(conn)
    book.register(forger)
    for seal_id, match_id, seq, head, at, by in conn.execute(
        "SELECT id, match_id, head_seq, head_hash, sealed_at, sealed_by FROM match_seals"
    ).fetchall():
        sig = forger.sign(seal_message(book.tournament_id(), match_id, seq, head, at, by))
        conn.execute(
            "UPDATE match_seals SET signature = ?, key_fingerprint = ? WHERE id = ?",
            (sig, forger.fingerprint, seal_id),
        )
    book.sign_guard(forger)
    conn.close()
    verify_fails(copy, capsys, "this computer knew", forger.fingerprint)
    real = desk_signer().fingerprint
    assert main(["verify", str(copy), "--key", real]) == 1
    assert real in capsys.readouterr().err
    assert main(["verify", str(locked), "--key", real]) == 0


def test_organizer_key_passphrase_adoption_and_endorsement(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "organizer-home"))
    with pytest.raises(StoreError) as short:
        create_organizer_key("short")
    assert short.value.key == "store.passphrase_too_short"
    organizer = create_organizer_key("correct horse battery")
    with pytest.raises(StoreError) as wrong:
        organizer_signer("wrong horse battery")
    assert wrong.value.key == "store.wrong_passphrase"
    assert organizer_signer("correct horse battery").fingerprint == organizer.fingerprint
    key_file = keys_module.keys_dir() / keys_module.ORGANIZER_KEY
    assert b"ENCRYPTED" in key_file.read_bytes()
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="org-cup") as tf:
        record(tf, "m1", 4)
        tf.lock_match("m1", "王裁判")
        tf.adopt_organizer_key(organizer)
        assert tf.key_fingerprint == organizer.fingerprint
        assert tf.verify() is None
    # Another desk (its own config folder, its own key) locks a match unendorsed.
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "desk-2"))
    with TournamentFile.open(path, create=False) as tf:
        record(tf, "m2", 3)
        tf.lock_match("m2", "李裁判")
        other = desk_signer().fingerprint
        problem = tf.verify()
        assert problem is not None and other in str(problem) and "not registered" in str(problem)
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "organizer-home"))
    with TournamentFile.open(path, create=False, check=False) as tf:
        tf.endorse_desk_key(organizer_signer("correct horse battery"), other)
        assert tf.verify() is None
        assert {k.fingerprint for k in tf.signers() if k.trusted} >= {other, organizer.fingerprint}
        rotated = Signer(Ed25519PrivateKey.generate(), "organizer", "organizer")
        with pytest.raises(StoreError) as refused:
            tf.adopt_organizer_key(rotated)
        assert refused.value.key == "store.organizer_key_rotation"
        tf.adopt_organizer_key(rotated, previous=organizer)
        assert tf.key_fingerprint == rotated.fingerprint and tf.verify() is None


def make_v1_file(path: Path, *, forge: bool) -> str:
    """A file as the previous desk wrote it: version 1, an HMAC seal, secret in meta."""
    events = sealed_match("r1-t1", 5)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(SCHEMA_V0)
    conn.executescript(MIGRATE_V0_TO_V1)
    secret = "11" * 32
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)",
        [("format", FILE_FORMAT), ("tournament_id", "v1-cup"), ("seal_secret", secret)],
    )
    conn.executemany(INSERT_SQL, [to_row(e) for e in events])
    head = events[-1].hash
    message = f"referee-desk seal v1\nr1-t1\n5\n{head}".encode()
    signature = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()
    if forge:
        signature = "0" * 64
    conn.execute(
        "INSERT INTO match_seals (match_id, head_seq, head_hash, signature, sealed_at, sealed_by)"
        " VALUES ('r1-t1', 5, ?, ?, '2026-11-29T10:00:00.000Z', '王裁判')",
        (head, signature),
    )
    conn.execute("PRAGMA application_id = 1380209713")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    return head


def test_old_hmac_seals_are_checked_and_resigned_on_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite"
    head = make_v1_file(path, forge=False)
    with TournamentFile.open(path, create=False) as tf:
        assert tf.meta()["store_schema_version"] == "2"
        seal = tf.seal("r1-t1")
        assert seal is not None and seal.scheme == "ed25519" and seal.head_hash == head
        assert seal.sealed_by == "王裁判"
        assert tf.verify() is None
        assert "seal_secret" not in dict(tf.connection.execute("SELECT key, value FROM meta"))


def test_an_old_hmac_seal_that_does_not_hold_is_refused_after_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite"
    make_v1_file(path, forge=True)
    with TournamentFile.open(path, create=False) as tf:
        problem = tf.verify()
        assert problem is not None and "HMAC" in str(problem) and problem.match_id == "r1-t1"
