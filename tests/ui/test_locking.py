"""Issue 5, who may change what, at the desk: confirming the end locks the match in the
store (HMAC seal over the head hash, printed on the match report); afterwards the
match's referee may add notes (issue 4) and only the committee can add a ruling; every
refused attempt is shown in its dialog and recorded by the store."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QDialogButtonBox

from referee_desk.match import new_event
from referee_desk.store import AccessRefused, TournamentFile
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.violations import CommitteeRulingDialog, ForfeitDialog
from referee_desk.ui.record import StoreMatchRecord
from tests.ui.conftest import ok, play_opening_hand, start_clock, trigger

COMMITTEE, COMMITTEE_PIN = "周主任", "246810"


def forfeit_and_confirm(desk: Any, qtbot: Any) -> None:
    """8.10: a forfeit ends the match; the referee confirms the announced end."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = desk.entries.open_violation(ForfeitDialog)
    dialog.ui.sideCombo.setCurrentIndex(dialog.ui.sideCombo.findData("NS"))
    ok(dialog)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    ok(desk.active_dialog)
    assert desk.session.events[-1].type == "match_ended"


def committee_signs_in(desk: Any, pin: str = COMMITTEE_PIN) -> Any:
    dialog = desk.match.committee_sign_in()
    dialog.nameEdit.setText(COMMITTEE)
    dialog.pinEdit.setText(pin)
    dialog.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()
    return dialog


def add_note(desk: Any, text: str) -> Any:
    dialog = trigger(desk, "actionNote")
    assert isinstance(dialog, ReasonDialog)
    dialog.ui.reasonCombo.setEditText(text)
    ok(dialog)
    return dialog


def rule(desk: Any, text: str) -> Any:
    dialog = desk.entries.open_violation(CommitteeRulingDialog)
    dialog.ui.textEdit.setPlainText(text)
    ok(dialog)
    return dialog


def pdf_text(path: Path) -> str:
    return re.sub(r"\s+", "", "".join(p.extract_text() or "" for p in PdfReader(path).pages))


def test_confirming_the_end_locks_the_match_and_the_report_prints_the_seal(
    desk: Any, qtbot: Any, tmp_path: Path
) -> None:
    """Issue 5: a locked match carries a keyed signature over its head hash, and the
    head hash printed on the match report exposes a forgery."""
    match_id = desk.session.match_id
    assert desk.tf.seals.latest(match_id) is None
    forfeit_and_confirm(desk, qtbot)
    seal = desk.tf.seals.latest(match_id)
    assert seal is not None and seal.head_hash == desk.session.events[-1].hash
    assert seal.head_seq == len(desk.session.events)
    assert desk.tf.checks.verify() is None
    report = tmp_path / "report.pdf"
    assert desk.match.export_report(report)
    assert seal.head_hash in pdf_text(report)
    # Reopened elsewhere (another desk), the lock holds: no more play can be entered.
    with TournamentFile.open(desk.tf.path) as other:
        late = new_event(desk.session.events, "clock_paused", {"reason": "x"}, "王磊")
        with pytest.raises(AccessRefused, match="only notes and committee rulings can follow"):
            other.append(late)
        assert other.people.refusals()[-1]["action"] == "append clock_paused"


def test_after_the_lock_notes_follow_and_only_the_committee_rules(desk: Any, qtbot: Any) -> None:
    """Issue 4: only notes and committee rulings can follow; issue 5: after a match is
    locked only the committee role can add a ruling; each refusal is recorded."""
    match_id = desk.session.match_id
    forfeit_and_confirm(desk, qtbot)
    locked_at = desk.tf.seals.latest(match_id).head_hash
    # The match's referee adds a note: accepted, and the seal follows the new head.
    add_note(desk, "赛后双方签字确认")
    assert desk.active_dialog is None
    assert desk.session.events[-1].type == "note"
    assert desk.tf.seals.latest(match_id).head_hash == desk.session.events[-1].hash != locked_at
    # No committee signed in: the ruling item is off, and the store refuses it anyway.
    assert not desk.violations.offered["9"].isEnabled()
    count = len(desk.session.events)
    dialog = rule(desk, "改判")
    assert desk.active_dialog is dialog
    assert "only the arbitration committee can add a ruling" in dialog.ui.errorLabel.text()
    assert dialog.ui.textEdit.toPlainText() == "改判"  # the entry stays in its dialog
    assert len(desk.tf.events(match_id)) == count
    dialog.reject()
    # The committee's first member registers with a PIN; a wrong PIN is refused later.
    committee_signs_in(desk)
    assert desk.match.committee is not None and desk.match.committee.role == "committee"
    desk.match.committee = None
    desk.session.record.committee = None
    wrong = committee_signs_in(desk, "000000")
    assert desk.active_dialog is wrong and "wrong name or PIN" in wrong.errorLabel.text()
    wrong.reject()
    committee_signs_in(desk)
    assert desk.violations.offered["9"].isEnabled()
    rule(desk, "8.11: 经仲裁委员会裁定, 维持原判")
    assert desk.active_dialog is None
    ruling = desk.tf.events(match_id)[-1]
    assert (ruling.type, ruling.referee) == ("committee_ruling", COMMITTEE)
    assert desk.tf.seals.latest(match_id).head_hash == ruling.hash
    assert desk.tf.checks.verify() is None
    refused = [(r["action"], r["reason"]) for r in desk.tf.people.refusals()]
    assert refused[0] == (
        "append committee_ruling",
        "the match is locked; only the arbitration committee can add a ruling",
    )
    assert refused[1] == (f"sign in as {COMMITTEE}", "wrong name or PIN")


def test_first_sign_in_registers_the_referee_and_guards_the_match(window: Any) -> None:
    """A file without registered people: the referee's first sign-in sets their PIN
    (stored hashed by the store); afterwards another name cannot enter this match's
    events, and a wrong PIN is refused; both refusals are recorded."""
    dialog = trigger(window, "actionOpenMatch")
    ui = dialog.ui
    for edit, text in (
        (ui.roundEdit, "1"),
        (ui.tableEdit, "2"),
        (ui.seatNEdit, "a"),
        (ui.seatEEdit, "b"),
        (ui.seatSEdit, "c"),
        (ui.seatWEdit, "d"),
        (ui.refereeNameEdit, "王磊"),
        (ui.refereePinEdit, "2468"),
    ):
        edit.setText(text)
    ui.pairNsCombo.setEditText("甲")
    ui.pairEwCombo.setEditText("乙")
    ok(dialog)
    assert window.active_dialog is None
    tf = window.tf
    assert tf.people.person_role("王磊") == "referee" and tf.people.access_enabled()
    match_id = window.session.match_id
    assert isinstance(window.session.record, StoreMatchRecord)
    assert window.session.record.signed_in.name == "王磊"
    # Another referee registers and signs in, but this match is not theirs.
    other = trigger(window, "actionOpenMatch")
    other.ui.matchCombo.setCurrentIndex(other.ui.matchCombo.findData(match_id))
    other.ui.refereeNameEdit.setText("李裁判")
    other.ui.refereePinEdit.setText("1357")
    ok(other)
    assert window.active_dialog is None
    note = trigger(window, "actionNote")
    note.ui.reasonCombo.setEditText("冒名记录")
    ok(note)
    assert window.active_dialog is note
    assert "not this match's referee" in note.ui.errorLabel.text()
    note.reject()
    # The right name with a wrong PIN is refused at sign-in.
    again = trigger(window, "actionOpenMatch")
    again.ui.matchCombo.setCurrentIndex(again.ui.matchCombo.findData(match_id))
    again.ui.refereeNameEdit.setText("王磊")
    again.ui.refereePinEdit.setText("9999")
    ok(again)
    assert window.active_dialog is again and "wrong name or PIN" in again.ui.errorLabel.text()
    again.reject()
    assert [r["person"] for r in tf.people.refusals()] == ["李裁判", None]
    assert [e.type for e in tf.events(match_id)] == ["match_opened"]


def test_without_the_lock_the_referee_could_keep_recording(
    desk: Any, qtbot: Any, monkeypatch: Any
) -> None:
    """Remove the protection (the desk no longer locks at the end) and the store accepts
    more play after match_ended: the lock is what refuses it."""
    monkeypatch.setattr(
        StoreMatchRecord,
        "append",
        lambda self, event: self.tf.append(event, expected_seq=event.seq, by=self.signed_in),
    )
    forfeit_and_confirm(desk, qtbot)
    assert desk.tf.seals.latest(desk.session.match_id) is None
    # Issue 9 item 4: even without the lock a ruling needs the committee's sign-in.
    rule(desk, "无委员会也不能改判")
    assert desk.tf.events(desk.session.match_id)[-1].type == "match_ended"
    assert "committee" in desk.tf.people.refusals()[-1]["reason"]
