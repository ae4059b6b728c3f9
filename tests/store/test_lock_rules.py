"""Locking in a file without registered people (the sample tournament, a club's first
file): the lock still holds. Issue 4: after the end only notes and committee rulings can
follow; issue 5: only the committee role can add a ruling; each refusal is recorded."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee_desk.match import new_event
from referee_desk.store import AccessRefused, AppendConflict, AppendRefused, TournamentFile
from referee_desk.store.synthetic import draft, record


def ruling(tf: TournamentFile, match_id: str) -> object:
    return new_event(
        tf.events(match_id),
        "committee_ruling",
        {"text": "8.11: 维持原判"},
        "周主任",
        now="2026-11-29T11:00:00.000Z",
    )


def test_append_can_lock_in_the_same_transaction(tfile: TournamentFile) -> None:
    """``lock=True`` (the desk passes it with match_ended): the seal is over that event."""
    record(tfile, "r1-t1", 2)
    stored = tfile.append(draft("r1-t1", 2), lock=True)
    seal = tfile.seals.latest("r1-t1")
    assert seal is not None and (seal.head_seq, seal.head_hash) == (3, stored.hash)
    assert tfile.checks.verify() is None


def test_a_refused_locking_append_does_not_lock(tfile: TournamentFile) -> None:
    """One transaction: when the event is refused, the match is not locked either."""
    record(tfile, "r1-t1", 2)
    with pytest.raises(AppendConflict):
        tfile.append(draft("r1-t1", 2), expected_seq=7, lock=True)
    with pytest.raises(AppendRefused):
        tfile.append(replace(draft("r1-t1", 2), payload={"txet": 1}), lock=True)
    assert tfile.seals.latest("r1-t1") is None and len(tfile.events("r1-t1")) == 2


def test_without_people_notes_follow_the_lock_but_rulings_need_the_committee(
    tfile: TournamentFile,
) -> None:
    record(tfile, "r1-t1", 3)
    locked = tfile.seals.lock("r1-t1")
    with pytest.raises(AccessRefused, match="only notes and committee rulings can follow"):
        tfile.append(draft("r1-t1", 1))  # clock_started
    with pytest.raises(AccessRefused, match="only the arbitration committee can add a ruling"):
        tfile.append(ruling(tfile, "r1-t1"))
    assert len(tfile.events("r1-t1")) == 3
    note = tfile.append(draft("r1-t1", 3))  # no PINs in this file: the desk's note
    assert tfile.seals.latest("r1-t1").head_hash == note.hash != locked.head_hash
    assert tfile.checks.verify() is None
    assert [(r["person"], r["action"]) for r in tfile.people.refusals()] == [
        (None, "append clock_started"),
        (None, "append committee_ruling"),
    ]
    tfile.people.add_person("周主任", "committee", "246810")
    committee = tfile.people.login("周主任", "246810", role="committee")
    stored = tfile.append(ruling(tfile, "r1-t1"), by=committee)
    assert stored.referee == "周主任" and tfile.seals.latest("r1-t1").head_hash == stored.hash
    assert tfile.checks.verify() is None


def test_committee_sign_in_refuses_other_roles(tfile: TournamentFile) -> None:
    tfile.people.add_person("王裁判", "referee", "739155")
    with pytest.raises(AccessRefused, match="registered as referee, not committee"):
        tfile.people.login("王裁判", "739155", role="committee")
    assert tfile.people.refusals()[-1]["action"] == "sign in as 王裁判 (committee)"
    assert tfile.people.person_role("王裁判") == "referee" and tfile.people.person_role("x") is None
    assert tfile.people.people_with_role("referee") == ["王裁判"]
