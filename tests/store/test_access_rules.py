"""Issue 9, item 4: access checks the API can no longer skip.

Committee rulings need a committee sign-in always; people and referee assignments need
an organizer sign-in once the file has an organizer; a ``Session`` built by hand is
refused; every change is recorded; repeated wrong PINs lock the name out.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from referee_desk.match import new_event
from referee_desk.store import AccessRefused, Session, TournamentFile
from referee_desk.store.access import LOCKOUT_AFTER, lockout_seconds
from referee_desk.store.synthetic import record


def ruling(tf: TournamentFile, match_id: str):
    return new_event(
        tf.events(match_id),
        "committee_ruling",
        {"text": "改判"},
        "王裁判",
        "2026-11-29T14:00:00.000Z",
    )


def test_a_referee_alone_cannot_enter_a_committee_ruling(tfile: TournamentFile) -> None:
    """Repro: before, a referee (or nobody, in a file without PINs) entered a ruling."""
    record(tfile, "m", 3)
    with pytest.raises(AccessRefused) as nobody:
        tfile.append(ruling(tfile, "m"))
    assert nobody.value.key == "store.committee_needed"
    tfile.people.add_person("王裁判", "referee", "739155")
    referee = tfile.people.login("王裁判", "739155")
    with pytest.raises(AccessRefused, match="only the arbitration committee"):
        tfile.append(ruling(tfile, "m"), by=referee)
    tfile.people.add_person("周主任", "committee", "246810")
    committee = tfile.people.login("周主任", "246810", role="committee")
    assert tfile.append(ruling(tfile, "m"), by=committee).type == "committee_ruling"
    assert [r["action"] for r in tfile.people.refusals()].count("append committee_ruling") == 2


def test_a_forged_session_is_refused(tfile: TournamentFile) -> None:
    record(tfile, "m", 3, referee="王裁判")
    tfile.people.add_person("王裁判", "referee", "739155")
    tfile.people.add_person("周主任", "committee", "246810")
    for forged in (Session("周主任", "committee"), Session("周主任", "committee", "ab" * 16)):
        with pytest.raises(AccessRefused) as refused:
            tfile.append(ruling(tfile, "m"), by=forged)
        assert refused.value.key == "store.session_forged"
    with TournamentFile.open(tfile.path, create=False) as other:
        elsewhere = other.people.login("周主任", "246810", role="committee")
    with pytest.raises(AccessRefused, match="not issued by this file"):
        tfile.append(ruling(tfile, "m"), by=elsewhere)
    assert len(tfile.events("m")) == 3


def organized(tf: TournamentFile) -> Session:
    tf.people.add_person("组委", "organizer", "135790")  # bootstrap: the first organizer
    return tf.people.login("组委", "135790")


def test_people_and_assignments_need_the_organizer(tfile: TournamentFile) -> None:
    boss = organized(tfile)
    with pytest.raises(AccessRefused) as refused:
        tfile.people.add_person("王裁判", "referee", "739155")
    assert refused.value.key == "store.organizer_needed"
    with pytest.raises(AccessRefused):
        tfile.people.assign_referee("m", "王裁判")
    tfile.people.add_person("王裁判", "referee", "739155", by=boss)
    referee = tfile.people.login("王裁判", "739155")
    with pytest.raises(AccessRefused, match="only the organizer"):
        tfile.people.add_person("李裁判", "referee", "739155", by=referee)
    with pytest.raises(AccessRefused, match="not issued"):
        tfile.people.assign_referee("m", "王裁判", by=Session("组委", "organizer"))
    tfile.people.assign_referee("m", "王裁判", by=boss)
    assert tfile.people.match_referee("m") == "王裁判"
    actions = [(e["person"], e["action"]) for e in tfile.people.access_log()]
    assert (None, "register 组委 as organizer") in actions
    assert ("组委", "register 王裁判 as referee") in actions
    assert ("组委", "assign 王裁判 to match m") in actions
    assert len(tfile.people.refusals()) >= 4


def test_bootstrap_without_an_organizer_never_overwrites_a_person(tfile: TournamentFile) -> None:
    tfile.people.add_person("王裁判", "referee", "739155")  # self-registration (README)
    with pytest.raises(AccessRefused) as refused:
        tfile.people.add_person("王裁判", "referee", "000000")  # someone resetting her PIN
    assert refused.value.key == "store.already_registered"
    assert tfile.people.login("王裁判", "739155").role == "referee"
    tfile.people.add_person("周主任", "committee", "246810")  # the first committee member
    with pytest.raises(AccessRefused):
        tfile.people.add_person("钱主任", "committee", "246810")


def test_repeated_wrong_pins_lock_the_name_out_and_are_recorded(tfile: TournamentFile) -> None:
    """Before, 10,000 PINs could be tried in 8 minutes; now the fifth failure locks."""
    tfile.people.add_person("王裁判", "referee", "739155")
    for guess in range(LOCKOUT_AFTER):
        with pytest.raises(AccessRefused) as wrong:
            tfile.people.login("王裁判", f"{guess:06d}")
        assert wrong.value.key == "store.wrong_pin"
    with pytest.raises(AccessRefused) as locked:
        tfile.people.login("王裁判", "739155")  # even the right PIN, during the lockout
    assert locked.value.key == "store.pin_locked_out"
    assert 0 < locked.value.params["seconds"] <= lockout_seconds(LOCKOUT_AFTER)
    reasons = [r["reason"] for r in tfile.people.refusals()]
    assert reasons.count("wrong name or PIN") == LOCKOUT_AFTER and "locked out" in reasons[-1]
    # Once the lockout has passed (the last failure moved back in time), the PIN works.
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat().replace("+00:00", "Z")
    with TournamentFile.open(tfile.path, create=False) as other:
        other.connection.execute("DROP TRIGGER refusals_append_only_update")
        other.connection.execute("UPDATE refusals SET at = ?", (past,))
    assert tfile.people.login("王裁判", "739155").role == "referee"
    assert lockout_seconds(LOCKOUT_AFTER + 3) == 8 * lockout_seconds(LOCKOUT_AFTER)


def test_lockout_holds_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        tf.people.add_person("王裁判", "referee", "739155")
        for guess in range(LOCKOUT_AFTER):
            with pytest.raises(AccessRefused):
                tf.people.login("王裁判", f"{guess:06d}")
    with TournamentFile.open(path, create=False) as tf, pytest.raises(AccessRefused) as locked:
        tf.people.login("王裁判", "739155")
    assert locked.value.key == "store.pin_locked_out"


def test_a_committee_member_alone_does_not_make_referees_sign_in(tfile: TournamentFile) -> None:
    """The first committee sign-in of a club's file registers the member; the referees of
    that file go on without PINs until a referee or organizer is registered."""
    record(tfile, "m", 2)
    tfile.people.add_person("周主任", "committee", "246810")
    assert not tfile.people.access_enabled()
    note = new_event(
        tfile.events("m"), "note", {"text": "记"}, "王裁判", "2026-11-29T14:00:00.000Z"
    )
    assert tfile.append(note).seq == 3  # no sign-in needed
    tfile.people.add_person("王裁判", "referee", "739155")
    assert tfile.people.access_enabled()
    with pytest.raises(AccessRefused, match="sign in"):
        tfile.append(new_event(tfile.events("m"), "note", {"text": "再记"}, "王裁判"))
