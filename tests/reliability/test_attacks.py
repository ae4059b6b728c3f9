"""Issue 18: forgeries and bypasses, performed with only what the attacker has.

The attacker has write access to the tournament file, its heads journal and its
rolling backups (``<file>.backups/``), never the desk's config folder (its keys and
what it remembers of the files it saw). Every test ends with the desk's own verdict:
``referee-desk verify`` must not say OK, and the desk must not sign over the forgery.
Small counts by default; ``-m slow`` repeats each forgery at full counts.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee_desk.cli.main import main
from referee_desk.store import StoreError, TournamentFile
from referee_desk.store.keys import Signer
from referee_desk.store.rows import INSERT_SQL, SELECT_COLUMNS, from_row, to_row
from referee_desk.store.signatures import Signatures, seal_message
from referee_desk.store.synthetic import record
from tests.reliability.tamper import forged_after

GUARDED = ("guards", "match_seals", "signers")


def make_file(path: Path, *, backup_every: int | None = None) -> None:
    with TournamentFile.open(path, tournament_id="cup-18", backup_every=backup_every) as tf:
        record(tf, "r1-t1", 6)
        record(tf, "r1-t2", 4)
        tf.seals.lock("r1-t1", "王裁判")
        record(tf, "r1-t3", 3)
        tf.seals.lock("r1-t3", "王裁判")


def raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER IF EXISTS events_append_only_update")
    conn.execute("DROP TRIGGER IF EXISTS events_append_only_delete")
    return conn


def forge_match(conn: sqlite3.Connection, match_id: str, keep: int) -> tuple[int, str]:
    """Replace a match after ``keep`` events by a plausible note (valid chain); new head."""
    rows = conn.execute(
        f"SELECT {SELECT_COLUMNS} FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
    ).fetchall()
    events = [from_row(r)[0] for r in rows]
    note = forged_after(events[keep - 1], keep + 1)
    conn.execute("DELETE FROM events WHERE match_id = ? AND seq > ?", (match_id, keep))
    conn.execute(INSERT_SQL, to_row(note))
    return note.seq, note.hash


def drop_journal(path: Path) -> None:
    """The attacker rewrites the heads journal too (a file without one starts afresh)."""
    Path(f"{path}.heads").unlink(missing_ok=True)


def verdict(path: Path, capsys, *args: str) -> tuple[int, str]:
    code = main(["verify", str(path), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def desk_does_not_sign_over(path: Path) -> None:
    """The desk's next writable open and lock must not launder the forgery."""
    try:
        with TournamentFile.open(path, create=False) as tf:
            record(tf, "r9-t9", 2)
            tf.seals.lock("r9-t9", "王裁判")
    except StoreError:
        return  # refused: nothing signed


def downgrade(path: Path, *, strip_signed_tables: bool) -> None:
    """Item 1: forge a locked match, re-seal it with an HMAC secret the attacker sets,
    drop the Ed25519 columns and claim store version 1."""
    conn = raw(path)
    secret = os.urandom(32).hex()
    seq, head = forge_match(conn, "r1-t1", 3)
    message = f"referee-desk seal v1\nr1-t1\n{seq}\n{head}".encode()
    signature = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()
    conn.execute(
        "UPDATE match_seals SET head_seq = ?, head_hash = ?, signature = ? WHERE match_id = ?",
        (seq, head, signature, "r1-t1"),
    )
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('seal_secret', ?)", (secret,))
    conn.execute("ALTER TABLE match_seals DROP COLUMN key_fingerprint")
    conn.execute("ALTER TABLE match_seals DROP COLUMN scheme")
    if strip_signed_tables:
        for table in ("signers", "guards", "access_log"):
            conn.execute(f"DROP TABLE {table}")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    drop_journal(path)


@pytest.mark.parametrize("strip", [False, True], ids=["as-reported", "signed-tables-dropped"])
def test_item1_downgrade_laundering_is_refused(tmp_path: Path, capsys, strip: bool) -> None:
    """Item 1: an upgrade never signs what it cannot verify with a key it already trusts."""
    path = tmp_path / "cup.sqlite"
    make_file(path)
    downgrade(path, strip_signed_tables=strip)
    desk_does_not_sign_over(path)  # today: the upgrade re-signs the forged seal
    code, text = verdict(path, capsys)
    assert code != 0, text
    code, text = verdict(path, capsys, "--key", real_key(path))
    assert code != 0, text


def test_item1_downgrade_as_reported_on_a_computer_that_never_saw_the_file(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    path = tmp_path / "cup.sqlite"
    make_file(path)
    downgrade(path, strip_signed_tables=False)
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "other-computer"))
    desk_does_not_sign_over(path)
    code, text = verdict(path, capsys)
    assert code != 0 and "older store version" in text, text


def real_key(path: Path) -> str:
    """The genuine file key, as printed on the match report."""
    from referee_desk.store.keys import desk_signer

    return desk_signer().fingerprint


def replay_guard(path: Path) -> None:
    """Item 2: copy the guard, seals and signers back from a backup made before the locks."""
    backups = sorted(Path(f"{path}.backups").glob("*.sqlite"), key=lambda p: p.stat().st_mtime)
    source = None
    for candidate in backups:
        probe = sqlite3.connect(candidate)
        if probe.execute("SELECT COUNT(*) FROM match_seals").fetchone()[0] == 0:
            source = candidate
        probe.close()
    assert source is not None, "no backup from before the locks"
    conn = raw(path)
    conn.execute("ATTACH DATABASE ? AS old", (str(source),))
    for table in GUARDED:
        conn.execute(f"DELETE FROM main.{table}")
        conn.execute(f"INSERT INTO main.{table} SELECT * FROM old.{table}")
    conn.execute("DETACH DATABASE old")
    forge_match(conn, "r1-t1", 3)
    conn.close()
    drop_journal(path)


def test_item2_a_guard_replayed_from_a_rolling_backup_is_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cup.sqlite"
    make_file(path, backup_every=2)
    replay_guard(path)
    code, text = verdict(path, capsys)
    assert code != 0 and "older" in text, text
    code, text = verdict(path, capsys, "--key", real_key(path))
    assert code != 0, text
    desk_does_not_sign_over(path)
    assert verdict(path, capsys)[0] != 0


def delete_seal(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM match_seals WHERE match_id = 'r1-t1'")
    forge_match(conn, "r1-t1", 3)


def plant_committee(conn: sqlite3.Connection) -> None:
    from referee_desk.store.access import hash_pin

    salt, digest, kdf = hash_pin("1111")
    conn.execute(
        "INSERT INTO people (name, role, pin_salt, pin_hash, kdf) VALUES (?, ?, ?, ?, ?)",
        ("冒充者", "committee", salt, digest, kdf),
    )


def delete_organizer(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM people WHERE role = 'organizer'")


@pytest.mark.parametrize("tamper", [delete_seal, plant_committee, delete_organizer])
def test_item3_the_next_lock_does_not_launder_a_guard_tamper(tmp_path: Path, capsys, tamper):
    path = tmp_path / "cup.sqlite"
    make_file(path)
    with TournamentFile.open(path, create=False) as tf:
        tf.people.add_person("主办方", "organizer", "2468")
    conn = raw(path)
    tamper(conn)
    conn.close()
    drop_journal(path)
    with pytest.raises(StoreError, match="cannot be trusted"):
        TournamentFile.open(path, create=False)  # open checks the guard
    desk_does_not_sign_over(path)
    code, text = verdict(path, capsys)
    assert code != 0, text


def rekey(path: Path, tournament_id: str) -> None:
    """Item 4: replace every key and signature with the attacker's, under a new id."""
    conn = raw(path)
    forger = Signer(Ed25519PrivateKey.generate(), "desk forger@elsewhere", "desk")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'tournament_id'", (tournament_id,))
    conn.execute("DELETE FROM signers")
    book = Signatures(conn)
    book.register(forger)
    forge_match(conn, "r1-t1", 3)
    seq, head = conn.execute(
        "SELECT seq, hash FROM events WHERE match_id = 'r1-t1' ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    conn.execute(
        "UPDATE match_seals SET head_seq = ?, head_hash = ? WHERE match_id = 'r1-t1'", (seq, head)
    )
    for seal_id, match_id, seq, head, at, by in conn.execute(
        "SELECT id, match_id, head_seq, head_hash, sealed_at, sealed_by FROM match_seals"
    ).fetchall():
        sig = forger.sign(seal_message(tournament_id, match_id, seq, head, at, by))
        conn.execute(
            "UPDATE match_seals SET signature = ?, key_fingerprint = ? WHERE id = ?",
            (sig, forger.fingerprint, seal_id),
        )
    book.sign_guard(forger)
    conn.close()
    drop_journal(path)


def test_item4_rekeying_with_a_new_tournament_id_on_the_creating_computer(tmp_path, capsys):
    path = tmp_path / "cup.sqlite"
    make_file(path)
    rekey(path, "another-cup")
    code, text = verdict(path, capsys)
    assert code != 0 and "this computer knew" in text, text


def test_item4_a_second_computer_pins_at_first_sight(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "cup.sqlite"
    make_file(path)
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "second-desk"))
    assert verdict(path, capsys)[0] == 0  # the second computer sees the genuine file once
    rekey(path, "another-cup")
    code, text = verdict(path, capsys)
    assert code != 0 and "this computer knew" in text, text


@pytest.mark.slow
@pytest.mark.parametrize("round_", range(20))
def test_full_count_forgeries(tmp_path: Path, capsys, round_: int) -> None:
    """The slow suite repeats every forgery (20 rounds, fresh files each)."""
    for name, attack in (
        ("down", lambda p: downgrade(p, strip_signed_tables=bool(round_ % 2))),
        ("replay", replay_guard),
        ("seal", lambda p: _tamper(p, delete_seal)),
        ("rekey", lambda p: rekey(p, f"cup-{round_}")),
    ):
        path = tmp_path / f"{name}.sqlite"
        make_file(path, backup_every=2)
        attack(path)
        desk_does_not_sign_over(path)
        code, text = verdict(path, capsys)
        assert code != 0, (name, text)


def _tamper(path: Path, change) -> None:
    conn = raw(path)
    change(conn)
    conn.close()
    drop_journal(path)


def test_item7_raw_insert_then_register_desk_key_does_not_resign(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cup.sqlite"
    make_file(path)
    with TournamentFile.open(path, create=False) as tf:
        with tf.transaction() as conn:
            plant_committee(conn)
        with pytest.raises(StoreError, match="does not verify"):
            tf.seals.register_desk_key()
    assert verdict(path, capsys)[0] != 0


def test_item7_a_referee_cannot_re_register_a_committee_members_pin(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    with TournamentFile.open(path, tournament_id="club-18") as tf:
        tf.people.add_person("王裁判", "referee", "739155")
        tf.people.add_person("周主任", "committee", "246810")
        referee = tf.people.login("王裁判", "739155")
        with pytest.raises(StoreError, match="registered already"):
            tf.people.add_person("周主任", "committee", "1111", by=referee)
        with pytest.raises(StoreError):
            tf.people.login("周主任", "1111")
        assert tf.people.login("周主任", "246810").role == "committee"


def _guess(path: str, tries: int, queue) -> None:
    found = 0
    with TournamentFile.open(path, create=False) as tf:
        for guess in range(tries):
            try:
                tf.people.login("王裁判", f"{1000 + guess:04d}")
                found += 1
            except StoreError as error:
                if "wrong name or PIN" in str(error):
                    found += 1  # a PIN really checked (wrong)
    queue.put(found)


def test_item8_racing_processes_check_no_more_pins_than_the_lockout_allows(tmp_path) -> None:
    import multiprocessing

    path = tmp_path / "club.sqlite"
    with TournamentFile.open(path, tournament_id="club-18") as tf:
        tf.people.add_person("王裁判", "referee", "739155")
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_guess, args=(str(path), 8, queue)) for _ in range(4)]
    for worker in workers:
        worker.start()
    checked = sum(queue.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert checked <= 6, f"{checked} PINs checked by 4 racing desks (lockout after 5)"


def test_item8_no_sign_in_where_the_count_cannot_be_written(tmp_path) -> None:
    path = tmp_path / "club.sqlite"
    with TournamentFile.open(path, tournament_id="club-18") as tf:
        tf.people.add_person("王裁判", "referee", "739155")
    with TournamentFile.open(path, create=False, read_only=True) as tf:
        for guess in range(3):
            with pytest.raises(StoreError, match="could not be counted"):
                tf.people.login("王裁判", f"{guess:04d}")
        with pytest.raises(StoreError, match="could not be counted"):
            tf.people.login("王裁判", "739155")


def test_item7_lock_match_needs_a_sign_in_in_a_file_with_pins(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    with TournamentFile.open(path, tournament_id="club-18") as tf:
        tf.people.add_person("王裁判", "referee", "739155")
        tf.people.add_person("李裁判", "referee", "739156")
        referee = tf.people.login("王裁判", "739155")
        tf.people.assign_referee("r1-t1", "王裁判")
        from referee_desk.store.synthetic import draft

        tf.append(draft("r1-t1", 0, "王裁判"), by=referee)
        with pytest.raises(StoreError, match="sign in"):
            tf.seals.lock("r1-t1")
        with pytest.raises(StoreError, match="not this match's referee"):
            tf.seals.lock("r1-t1", session=tf.people.login("李裁判", "739156"))
        assert tf.seals.latest("r1-t1") is None
        assert tf.seals.lock("r1-t1", session=referee).sealed_by == "王裁判"


def test_item6_import_into_a_file_with_pins_needs_a_sign_in(tmp_path: Path, capsys) -> None:
    """Item 6: another referee's events brought in by ``import --into``, no sign-in."""
    from referee_desk.store.interchange import export_events
    from referee_desk.store.synthetic import draft

    other = tmp_path / "other.sqlite"
    with TournamentFile.open(other, tournament_id="club-18") as tf:
        record(tf, "r1-t1", 3, referee="李裁判")
    export_events(other, tmp_path / "rec.jsonl")
    path = tmp_path / "club.sqlite"
    with TournamentFile.open(path, tournament_id="club-18") as tf:
        tf.people.add_person("王裁判", "referee", "739155")
        tf.people.assign_referee("r1-t1", "王裁判")
        tf.append(draft("r9-t9", 0, "王裁判"), by=tf.people.login("王裁判", "739155"))
    assert main(["import", str(tmp_path / "rec.jsonl"), "--into", str(path)]) == 1
    assert "sign in" in capsys.readouterr().err
    with TournamentFile.open(path, create=False, read_only=True) as tf:
        assert tf.events("r1-t1") == []
