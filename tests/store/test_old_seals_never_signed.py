"""Issue 18 item 1: an old keyed (HMAC) seal is never signed with a desk's key.

Its secret sat in the file, so a forger can downgrade a file and HMAC a forged match
(drop the signed tables to look like a genuine version-1 file); a computer that never
saw the file must not launder it by re-signing on upgrade. A genuine old seal is
flagged until someone checks the match and locks it again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.keys import Signer, desk_signer
from referee_desk.store.synthetic import record
from referee_desk.store.witness import Witness
from tests.store.test_signatures import raw, rewrite_tail


@pytest.fixture
def locked(tmp_path: Path) -> Path:
    """r1-t1 locked at event 8 (a backup holds it before the lock), r1-t2 open."""
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id=f"trust-{tmp_path.name}", backup_every=5) as tf:
        record(tf, "r1-t1", 8)
        tf.seals.lock("r1-t1", "王裁判")
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


def test_a_downgraded_forgery_is_never_resigned_on_another_computer(
    locked: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    """A desk that never saw the file upgrades it, but signs no old HMAC seal: the
    forged match stays flagged, with and without ``--key``."""
    real = desk_signer().fingerprint
    downgrade_with_forged_hmac_seals(locked, drop_guard=True)
    desk = other_computer(monkeypatch, tmp_path, "desk2")
    with TournamentFile.open(locked, create=False) as tf:  # upgraded
        seal = tf.seals.latest("r1-t1")
        assert seal is not None and seal.scheme == "hmac-sha256" and seal.key_fingerprint is None
        assert "seal_secret" not in tf.meta()
        record(tf, "r1-t3", 3)
        tf.seals.lock("r1-t3")  # an ordinary lock afterwards does not re-sign it either
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
        assert tf.seals.lock("m1", "王裁判").head_hash == head
    assert main(["verify", str(path)]) == 0
