"""Issue 18, items 1–4: forgeries by someone with the file, its journal and its backups.

The attacker writes the tournament file (raw SQL), its heads journal and
``<file>.backups/``, and has this code; not the desk's config folder (its keys and what
the computer remembers). Each test performs the attack, then does what the desk does
next (open it, lock a match, ``verify``) and checks that the forgery is named and
nothing is re-signed over it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import shutil
import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee_desk.cli.main import main
from referee_desk.store import DamagedFile, TournamentFile, access, backups
from referee_desk.store.guard import write_guard
from referee_desk.store.keys import Signer, desk_signer
from referee_desk.store.signatures import Signatures, seal_message
from referee_desk.store.synthetic import record
from referee_desk.store.witness import Witness
from tests.store.test_signatures import raw, rewrite_tail


@pytest.fixture
def locked(tmp_path: Path) -> Path:
    """r1-t1 locked at event 8 (a backup holds it before the lock), r1-t2 open."""
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id=f"trust-{tmp_path.name}", backup_every=5) as tf:
        record(tf, "r1-t1", 8)
        tf.lock_match("r1-t1", "王裁判")
        record(tf, "r1-t2", 4)
    return path


def rebuild_journal(path: Path) -> None:
    """The attacker writes a journal that agrees with the forged file (no seal lines
    for matches whose seals are gone)."""
    conn = sqlite3.connect(path)
    tournament_id = conn.execute("SELECT value FROM meta WHERE key = 'tournament_id'").fetchone()
    heads = {
        m: (s, h)
        for m, s, h in conn.execute(
            "SELECT match_id, seq, hash FROM events e WHERE seq = "
            "(SELECT MAX(seq) FROM events WHERE match_id = e.match_id)"
        )
    }
    rows = conn.execute("SELECT match_id, head_seq, head_hash FROM match_seals")
    seals = {m: (s, h) for m, s, h in rows}
    conn.close()
    Witness(path).rebuild(tournament_id[0], heads, seals)


def verify_fails(path: Path, capsys, *words: str, key: str | None = None) -> str:
    args = ["verify", str(path), *(["--key", key] if key else [])]
    assert main(args) == 1
    err = capsys.readouterr().err
    for word in words:
        assert word in err, err
    return err


def other_computer(monkeypatch, tmp_path: Path, name: str) -> Signer:
    """Switch to a computer account that never saw the file (its own config folder)."""
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / name))
    return desk_signer()


# ------------------------------------------------------------ item 1: downgrade laundering


def downgrade_with_forged_hmac_seals(path: Path, *, drop_guard: bool) -> None:
    """Rewrite the locked match, put an HMAC secret in ``meta``, drop the seal's signer
    columns, HMAC the seals with that secret and set the version back to 1."""
    conn = raw(path)
    head = rewrite_tail(conn, "r1-t1", keep=3)
    secret = secrets.token_hex(32)
    conn.execute("INSERT INTO meta (key, value) VALUES ('seal_secret', ?)", (secret,))
    conn.execute("UPDATE match_seals SET head_hash = ?", (head,))
    conn.execute("ALTER TABLE match_seals DROP COLUMN key_fingerprint")
    conn.execute("ALTER TABLE match_seals DROP COLUMN scheme")
    for seal_id, match_id, seq, digest in conn.execute(
        "SELECT id, match_id, head_seq, head_hash FROM match_seals"
    ).fetchall():
        message = f"referee-desk seal v1\n{match_id}\n{seq}\n{digest}".encode()
        signature = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()
        conn.execute("UPDATE match_seals SET signature = ? WHERE id = ?", (signature, seal_id))
    if drop_guard:  # look exactly like a version-1 file: it had no guard and no keys
        conn.execute("DROP TABLE guards")
        conn.execute("DROP TABLE signers")
        conn.execute("DROP TABLE access_log")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    rebuild_journal(path)


@pytest.mark.parametrize("drop_guard", [True, False])
def test_a_downgraded_forgery_is_refused_by_the_desk_that_knew_the_file(
    locked: Path, capsys, drop_guard: bool
) -> None:
    downgrade_with_forged_hmac_seals(locked, drop_guard=drop_guard)
    with pytest.raises(DamagedFile, match="claims an older version"):
        TournamentFile.open(locked, create=False)
    conn = sqlite3.connect(locked)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1  # nothing upgraded
    conn.close()


@pytest.mark.parametrize("drop_guard", [True, False])
def test_a_downgraded_forgery_is_never_resigned_on_another_computer(
    locked: Path, tmp_path: Path, monkeypatch, capsys, drop_guard: bool
) -> None:
    """A desk that never saw the file upgrades it, but signs no old HMAC seal: the
    forged match stays flagged, with and without ``--key``."""
    real = desk_signer().fingerprint
    downgrade_with_forged_hmac_seals(locked, drop_guard=drop_guard)
    desk = other_computer(monkeypatch, tmp_path, "desk2")
    if not drop_guard:
        # The old guard is still there and no longer matches: nothing is signed over it.
        with pytest.raises(DamagedFile, match="nothing was signed"):
            TournamentFile.open(locked, create=False)
        return
    with TournamentFile.open(locked, create=False) as tf:  # upgraded
        seal = tf.seal("r1-t1")
        assert seal is not None and seal.scheme == "hmac-sha256" and seal.key_fingerprint is None
        assert "seal_secret" not in tf.meta()
        record(tf, "r1-t3", 3)
        tf.lock_match("r1-t3")  # an ordinary lock afterwards does not re-sign it either
    verify_fails(locked, capsys, "r1-t1", "HMAC", "proves nothing")
    verify_fails(locked, capsys, "r1-t1", "HMAC", key=desk.fingerprint)
    verify_fails(locked, capsys, key=real)


def make_v1_file(path: Path) -> str:
    """A genuine version-1 file: one match locked with the old HMAC seal."""
    from referee_desk.store.rows import INSERT_SQL, to_row
    from referee_desk.store.schema import FILE_FORMAT, MIGRATE_V0_TO_V1, SCHEMA_V0
    from referee_desk.store.synthetic import sealed_match

    events = sealed_match("m1", 5)
    secret = secrets.token_hex(32)
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V0 + MIGRATE_V0_TO_V1)
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)",
        [("format", FILE_FORMAT), ("tournament_id", "v1-cup"), ("seal_secret", secret)],
    )
    conn.executemany(INSERT_SQL, [to_row(e) for e in events])
    message = f"referee-desk seal v1\nm1\n5\n{events[-1].hash}".encode()
    signature = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()
    conn.execute(
        "INSERT INTO match_seals (match_id, head_seq, head_hash, signature, sealed_at,"
        " sealed_by) VALUES ('m1', 5, ?, ?, '2026-01-01T00:00:00Z', '王裁判')",
        (events[-1].hash, signature),
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    return events[-1].hash


def test_a_genuine_old_seal_stays_flagged_until_locked_again(tmp_path: Path, capsys) -> None:
    """The rule for real old files: an HMAC seal proves nothing (its secret was in the
    file), so it is reported until someone checks the match and locks it again."""
    path = tmp_path / "old.sqlite"
    head = make_v1_file(path)
    with TournamentFile.open(path, create=False) as tf:
        assert tf.seal_info("m1") is not None and not tf.seal_info("m1").valid
    verify_fails(path, capsys, "m1", "HMAC")
    with TournamentFile.open(path, create=False) as tf:
        assert tf.lock_match("m1", "王裁判").head_hash == head
    assert main(["verify", str(path)]) == 0


# ------------------------------------------------- item 2: the guard replayed from a backup


def test_a_guard_replayed_from_the_desks_own_backup_is_refused(locked: Path, capsys) -> None:
    before_lock = [
        b
        for b in backups(locked)
        if sqlite3.connect(b.path).execute("SELECT COUNT(*) FROM match_seals").fetchone()[0] == 0
    ]
    assert before_lock, "the fixture keeps a backup made before the lock"
    conn = raw(locked)
    conn.execute("ATTACH DATABASE ? AS old", (str(before_lock[0].path),))
    for table in ("guards", "match_seals", "signers"):
        conn.execute(f"DELETE FROM main.{table}")
        conn.execute(f"INSERT INTO main.{table} SELECT * FROM old.{table}")
    conn.execute("DETACH DATABASE old")
    rewrite_tail(conn, "r1-t1", keep=3)
    conn.close()
    rebuild_journal(locked)
    err = verify_fails(locked, capsys, "older signed copy", "rolled back")
    assert "generation" in err
    verify_fails(locked, capsys, "older signed copy", key=desk_signer().fingerprint)
    with pytest.raises(DamagedFile, match="older signed copy"):
        TournamentFile.open(locked, create=False)


def test_restoring_a_backup_on_purpose_is_accepted(locked: Path) -> None:
    from referee_desk.store import restore_backup

    oldest = backups(locked)[-1]
    restore_backup(oldest, locked)
    with TournamentFile.open(locked, create=False) as tf:
        assert tf.verify() is None


# ------------------------------------- item 3: nothing is re-signed over a broken guard


def delete_seal_and_forge(path: Path) -> None:
    conn = raw(path)
    conn.execute("DELETE FROM match_seals WHERE match_id = 'r1-t1'")
    rewrite_tail(conn, "r1-t1", keep=3)
    conn.close()
    rebuild_journal(path)


def add_committee_member(path: Path) -> None:
    salt, digest, kdf = access.hash_pin("1111")
    conn = raw(path)
    conn.execute("INSERT INTO people VALUES ('黑客', 'committee', ?, ?, ?)", (salt, digest, kdf))
    conn.close()


def delete_organizer(path: Path) -> None:
    conn = raw(path)
    conn.execute("DELETE FROM people WHERE role = 'organizer'")
    conn.close()


@pytest.mark.parametrize(
    ("attack", "words"),
    [
        (delete_seal_and_forge, "seal (locked at event 8) was removed"),
        (add_committee_member, "person '黑客' was added"),
        (delete_organizer, "person '主办' was removed"),
    ],
)
def test_guard_tampers_are_refused_at_opening_and_never_resigned(
    locked: Path, capsys, attack, words: str
) -> None:
    with TournamentFile.open(locked, create=False) as tf:
        tf.add_person("主办", "organizer", "482913")
    attack(locked)
    with pytest.raises(DamagedFile, match=re.escape(words)):
        TournamentFile.open(locked, create=False)
    # A program that opens without the checks still cannot get anything re-signed.
    with TournamentFile.open(locked, create=False, check=False) as tf:
        with pytest.raises(DamagedFile, match="nothing was signed"):
            tf.lock_match("r1-t2")
        with pytest.raises(DamagedFile, match="nothing was signed"):
            tf.register_desk_key()
        assert tf.seal("r1-t2") is None
    verify_fails(locked, capsys, words)


def test_a_guard_signed_by_the_attackers_own_key_is_never_signed_over(locked, capsys) -> None:
    """The attacker registers a key of their own and signs the tampered records with it:
    the file opens (a desk's ``keys register`` looks the same until it is endorsed), but
    no desk signs over it and ``verify`` names the key."""
    add_committee_member(locked)
    forger = Signer(Ed25519PrivateKey.generate(), "desk forger@elsewhere", "desk")
    conn = raw(locked)
    write_guard(Signatures(conn), forger, 1000)
    conn.close()
    with TournamentFile.open(locked, create=False) as tf:
        record(tf, "r1-t4", 3)
        with pytest.raises(DamagedFile, match=forger.fingerprint):
            tf.lock_match("r1-t4")
    verify_fails(locked, capsys, forger.fingerprint)


# ------------------------------------------ item 4: re-keyed under a new tournament id


def rekey(path: Path, tournament_id: str | None = None) -> Signer:
    """Replace every key and signature with the attacker's own (and maybe the id)."""
    conn = raw(path)
    if tournament_id is not None:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'tournament_id'", (tournament_id,))
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
    write_guard(book, forger, 1000)
    conn.close()
    rebuild_journal(path)
    return forger


def test_rekeying_under_a_new_tournament_id_is_caught_where_the_file_was_made(
    locked: Path, capsys
) -> None:
    real = desk_signer().fingerprint
    forger = rekey(locked, tournament_id="a-brand-new-id")
    verify_fails(locked, capsys, "this computer knew the file at", real, forger.fingerprint)
    with pytest.raises(DamagedFile, match="re-keyed"):
        TournamentFile.open(locked, create=False)


@pytest.mark.parametrize(("new_id", "first_sight"), [(None, "open"), ("another-id", "verify")])
def test_a_second_desk_pins_the_file_key_at_first_sight(
    locked: Path, tmp_path: Path, monkeypatch, capsys, new_id: str | None, first_sight: str
) -> None:
    other_computer(monkeypatch, tmp_path, "desk2")
    if first_sight == "open":
        with TournamentFile.open(locked, create=False) as tf:
            record(tf, "r1-t3", 2)
    else:
        assert main(["verify", str(locked)]) == 0
    forger = rekey(locked, tournament_id=new_id)
    verify_fails(locked, capsys, "this computer knew", forger.fingerprint)


def test_a_backup_copied_back_by_hand_is_accepted_with_keys_trust(locked: Path, capsys) -> None:
    """The README's by-hand restore: refused as a rollback until accepted on purpose."""
    oldest = backups(locked)[-1]
    locked.with_name("cup.sqlite.heads").rename(locked.with_name("aside.heads"))
    shutil.copyfile(oldest.path, locked)
    verify_fails(locked, capsys, "rolled back")
    assert main(["keys", "trust", str(locked)]) == 0
    assert main(["verify", str(locked)]) == 0
