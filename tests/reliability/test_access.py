"""Issue 5, who may change what: PINs as salted scrypt hashes, the match's referee,
the committee after locking, and every refused attempt recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.match import new_event
from referee_desk.store import AccessRefused, TournamentFile
from referee_desk.store.people import People
from referee_desk.store.synthetic import draft, record


@pytest.fixture
def guarded(tmp_path: Path):
    tf = TournamentFile.open(tmp_path / "cup.sqlite")
    record(tf, "r1-t1", 3, referee="王裁判")  # entered before PINs were set up
    tf.people.add_person("王裁判", "referee", "739155")
    tf.people.add_person("李裁判", "referee", "739155")
    tf.people.add_person("周主任", "committee", "246810")
    tf.people.assign_referee("r1-t1", "王裁判")
    yield tf
    tf.close()


def test_pins_are_stored_only_as_salted_scrypt_hashes(guarded: TournamentFile) -> None:
    rows = guarded.connection.execute("SELECT name, pin_salt, pin_hash, kdf FROM people").fetchall()
    assert {r[0] for r in rows} == {"王裁判", "李裁判", "周主任"}
    same_pin = [r for r in rows if r[0] in ("王裁判", "李裁判")]
    assert same_pin[0][1] != same_pin[1][1] and same_pin[0][2] != same_pin[1][2]  # salted
    assert all(r[3].startswith("scrypt:") for r in rows)
    guarded.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = guarded.path.read_bytes()
    assert b"739155" not in raw and b"246810" not in raw


def test_wrong_pin_is_refused_and_recorded(guarded: TournamentFile) -> None:
    with pytest.raises(AccessRefused, match="wrong name or PIN"):
        guarded.people.login("王裁判", "000000")
    with pytest.raises(AccessRefused):
        guarded.people.login("无名氏", "739155")
    assert [r["action"] for r in guarded.people.refusals()] == [
        "sign in as 王裁判",
        "sign in as 无名氏",
    ]
    assert guarded.people.login("王裁判", "739155").role == "referee"


def test_only_the_matchs_referee_enters_events(guarded: TournamentFile) -> None:
    with pytest.raises(AccessRefused, match="sign in with your PIN"):
        guarded.append(draft("r1-t1", 3))
    other = guarded.people.login("李裁判", "739155")
    with pytest.raises(AccessRefused, match="not this match's referee"):
        guarded.append(draft("r1-t1", 3), by=other)
    committee = guarded.people.login("周主任", "246810")
    with pytest.raises(AccessRefused, match="the referee does"):
        guarded.append(draft("r1-t1", 1), by=committee)  # clock_started is the referee's
    assert len(guarded.events("r1-t1")) == 3
    assert len(guarded.people.refusals()) == 3
    referee = guarded.people.login("王裁判", "739155")
    assert guarded.append(draft("r1-t1", 3), by=referee).referee == "王裁判"


def _ruling(tf: TournamentFile, by: str) -> object:
    return new_event(
        tf.events("r1-t1"),
        "committee_ruling",
        {"text": "8.11: 经仲裁委员会裁定, 本局维持原判"},
        by,
        now="2026-11-29T11:00:00.000Z",
    )


def test_after_locking_only_the_committee_adds_a_ruling(guarded: TournamentFile) -> None:
    """Issue 5: after a match is locked only the committee role can add a ruling;
    issue 4: only notes (the match's referee) and committee rulings can follow."""
    referee = guarded.people.login("王裁判", "739155")
    other = guarded.people.login("李裁判", "739155")
    committee = guarded.people.login("周主任", "246810")
    seal = guarded.seals.lock("r1-t1", "周主任", session=committee)
    with pytest.raises(AccessRefused, match="only the arbitration committee can add a ruling"):
        guarded.append(_ruling(guarded, "王裁判"), by=referee)
    with pytest.raises(AccessRefused, match="only notes and committee rulings can follow"):
        guarded.append(draft("r1-t1", 1), by=referee)  # clock_started
    with pytest.raises(AccessRefused, match="sign in with your PIN"):
        guarded.append(draft("r1-t1", 3))
    with pytest.raises(AccessRefused, match="not this match's referee"):
        guarded.append(draft("r1-t1", 3), by=other)
    assert len(guarded.events("r1-t1")) == 3
    note = guarded.append(draft("r1-t1", 3), by=referee)  # the referee's note may follow
    assert guarded.seals.latest("r1-t1").head_hash == note.hash != seal.head_hash  # re-sealed
    stored = guarded.append(_ruling(guarded, "周主任"), by=committee)
    assert guarded.seals.latest("r1-t1").head_hash == stored.hash  # re-sealed again
    assert guarded.checks.verify() is None
    assert [(r["person"], r["action"]) for r in guarded.people.refusals()] == [
        ("王裁判", "append committee_ruling"),
        ("王裁判", "append clock_started"),
        (None, "append note"),
        ("李裁判", "append note"),
    ]


def test_the_guard_is_what_refuses(guarded: TournamentFile, monkeypatch) -> None:
    """Remove the protection and the same attempt goes through: the test can fail."""
    other = guarded.people.login("李裁判", "739155")
    monkeypatch.setattr(People, "authorize", lambda *args: None)
    assert guarded.append(draft("r1-t1", 3), by=other).seq == 4
