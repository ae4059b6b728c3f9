"""Issue 9, item 3: seals and the guard are Ed25519 signatures by keys outside the file.

Forgers with the file (but not the key) rewrite a locked match and rebuild its chain,
delete a seal, swap a PIN hash, re-assign a referee, or bring a key of their own:
``verify`` names each. Old HMAC-sealed files are checked as before and re-signed.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile, backups
from referee_desk.store import keys as keys_module
from referee_desk.store.keys import Signer, desk_signer
from referee_desk.store.rows import INSERT_SQL, SELECT_COLUMNS, from_row, to_row
from referee_desk.store.signatures import Signatures, seal_message
from referee_desk.store.synthetic import record
from referee_desk.store.trust import UntrustedFile
from referee_desk.store.witness import journal_path
from tests.reliability.tamper import change_payload


@pytest.fixture
def locked(tmp_path: Path) -> Path:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id=f"cup-{tmp_path.name}", backup_every=5) as tf:
        record(tf, "r1-t1", 8)
        tf.seals.lock("r1-t1", "王裁判")
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
        tf.people.add_person("王裁判", "referee", "739155")
        tf.people.assign_referee("r1-t1", "王裁判")
    conn = raw(locked)
    conn.execute(statement)
    conn.close()
    verify_fails(locked, capsys, *words)


def test_seal_info_and_key_fingerprint_for_reports(locked: Path) -> None:
    with TournamentFile.open(locked, create=False, read_only=True) as tf:
        info = tf.seal_info("r1-t1")
        assert info is not None and info.valid and info.reason is None
        assert info.head_seq == 8 and info.head_hash == tf.head("r1-t1")[1]
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
    # Accepting the new key on purpose (after comparing the report) clears the alarm.
    assert main(["keys", "trust", str(copy)]) == 0
    assert main(["verify", str(copy)]) == 0
    assert main(["keys", "trust", str(locked)]) == 0  # the fixture's own tournament again


def test_a_desk_that_created_the_file_accepts_the_organizers_handover(tmp_path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="handover-cup") as tf:
        record(tf, "m1", 3)
        tf.seals.lock("m1")
        organizer = Signer(Ed25519PrivateKey.generate(), "organizer", "organizer")
        tf.seals.adopt_organizer_key(organizer)  # on the creating desk: it signs the handover
    keys_module.pin("handover-cup", desk_signer().fingerprint)  # what this desk knew
    with TournamentFile.open(path, create=False, read_only=True) as tf:
        assert tf.key_fingerprint == organizer.fingerprint
        assert tf.checks.verify() is None  # the desk's own key handed the file over
    keys_module.pin("handover-cup", "0" * 32)  # a key that never handed over
    with TournamentFile.open(path, create=False, read_only=True, check=False) as tf:
        problem = tf.checks.verify()
        assert problem is not None and "this computer knew" in str(problem)
    with pytest.raises(UntrustedFile, match="this computer knew"):  # issue 18: open checks it
        TournamentFile.open(path, create=False, read_only=True)
