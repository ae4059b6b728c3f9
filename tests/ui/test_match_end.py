"""Each way a match ends (1.5, 8.8, 8.10): the desk announces the winner with the
deciding rule, the referee confirms, and the match is locked."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialogButtonBox

from referee_desk.rules.cards import Rank
from referee_desk.rules.seats import Side
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.violations import (
    CommitteeDecisionDialog,
    CommitteeRulingDialog,
    ConductWarningDialog,
    ForfeitDialog,
)
from tests.ui.conftest import (
    ok,
    play_later_hand_nt,
    play_opening_hand,
    start_clock,
    summary_hand,
    trigger,
)
from tests.ui.test_locking import committee_signs_in


def announced(desk: Any, qtbot: Any) -> MatchEndDialog:
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    return desk.active_dialog


def confirm_and_check_locked(desk: Any, qtbot: Any, reason: str, winner: Side) -> None:
    dialog = announced(desk, qtbot)
    assert dialog.ui.winnerLabel.text() == f"{'N–S' if winner is Side.NS else 'E–W'} wins"
    ok(dialog)
    end = desk.session.state.end
    assert end.recorded and end.reason == reason and end.winner is winner
    assert desk.session.events[-1].type == "match_ended"
    assert desk.session.events[-1].payload == {"reason": reason, "winner": winner.value}
    # locked in the store (issue 5): the seal is over the match_ended event
    assert desk.tf.seals.latest(desk.session.match_id).head_hash == desk.session.events[-1].hash
    # locked: entries are disabled, notes remain; committee rulings once the committee signs in
    assert not desk.ui.actionBid.isEnabled() and not desk.ui.actionHandResult.isEnabled()
    assert desk.ui.actionNote.isEnabled()
    assert not desk.violations.offered["9"].isEnabled()
    sign_in = desk.match.committee_sign_in()
    sign_in.nameEdit.setText("周主任")
    sign_in.pinEdit.setText("246810")
    sign_in.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()
    assert desk.violations.offered["9"].isEnabled() and not desk.violations.offered["1"].isEnabled()
    dialog = desk.entries.open_violation(CommitteeRulingDialog)
    dialog.ui.textEdit.setPlainText("赛后复核，结果维持")
    ok(dialog)
    assert desk.session.events[-1].type == "committee_ruling"
    assert "wins" in desk.ui.statusLine.text()


def _win_hand_holding_declarers(desk: Any) -> None:
    """Defenders take 0 → declarers keep the deal and go up 4 (7.2; capped at A, 1.5)."""
    play_later_hand_nt(desk)
    summary_hand(desk, 0)


def test_pass_a_wins(desk: Any, qtbot: Any) -> None:
    """1.5: the first side to pass A (win a hand as declarers at A) wins at once."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 0)  # 3 → 7
    _win_hand_holding_declarers(desk)  # 7 → J
    _win_hand_holding_declarers(desk)  # J → A (no gain past A)
    assert desk.session.state.levels[Side.NS] == Rank.ACE
    assert desk.session.state.end is None
    _win_hand_holding_declarers(desk)  # won at A: passed A
    dialog = announced(desk, qtbot)
    assert "1.5" in dialog.ui.ruleLabel.text() and "passed A" in dialog.ui.ruleLabel.text()
    confirm_and_check_locked(desk, qtbot, "passed_a", Side.NS)


def test_time_out_by_level(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """1.5: at time-out the side with the higher level wins."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 100)  # N–S 3 → 5
    fake_time.advance(121 * 60)
    desk.display.clock.tick()
    qtbot.waitUntil(lambda: desk.session.state.end is not None, timeout=2000)
    assert desk.ui.clockLabel.text() == "0:00:00"  # it stands where the time ran out
    fake_time.advance(60)
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == "0:00:00"
    dialog = announced(desk, qtbot)
    assert "time-out" in dialog.ui.ruleLabel.text()
    confirm_and_check_locked(desk, qtbot, "time_out", Side.NS)


def test_time_out_equal_levels_deal_decides(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """1.5: at equal levels the side holding the deal for the next hand wins."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N–S declare at 3
    summary_hand(desk, 160)  # defenders E–W take the deal, +0: both still at 3
    state = desk.session.state
    assert state.levels[Side.NS] == state.levels[Side.EW] == Rank.THREE
    assert state.deal_holder is Side.EW
    fake_time.advance(120 * 60 + 1)
    desk.display.clock.tick()
    dialog = announced(desk, qtbot)
    assert dialog.session.state.end.winner is Side.EW
    confirm_and_check_locked(desk, qtbot, "time_out", Side.EW)


def test_forfeit(desk: Any, qtbot: Any) -> None:
    """8.10: the forfeiting side scores 0; the other side advances."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = desk.entries.open_violation(ForfeitDialog)
    dialog.ui.sideCombo.setCurrentIndex(dialog.ui.sideCombo.findData("NS"))
    assert "8.10" in dialog.ui.consequenceLabel.text()
    ok(dialog)
    confirm_and_check_locked(desk, qtbot, "forfeit", Side.EW)


def test_disqualification_after_second_offence(desk: Any, qtbot: Any) -> None:
    """8.8: second conduct offence → committee; its decision disqualifies the side."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    for seat, text in (("E", "讲话"), ("W", "打暗号")):
        dialog = desk.entries.open_violation(ConductWarningDialog)
        dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData(seat))
        dialog.ui.textEdit.setPlainText(text)
        ok(dialog)
    committee_signs_in(desk)  # issue 9: committee entries need its sign-in
    dialog = desk.entries.open_violation(CommitteeDecisionDialog)
    dialog.ui.sideCombo.setCurrentIndex(dialog.ui.sideCombo.findData("EW"))
    dialog.ui.kindCombo.setCurrentIndex(dialog.ui.kindCombo.findData("disqualification"))
    dialog.ui.textEdit.setPlainText("第二次违纪，取消资格")
    ok(dialog)
    assert desk.active_dialog is not dialog, dialog.ui.errorLabel.text()
    desk.match.committee = desk.session.record.committee = None  # the committee leaves the desk
    confirm_and_check_locked(desk, qtbot, "disqualification", Side.NS)


def test_end_dialog_cancel_leaves_match_unlocked_until_confirmed(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = desk.entries.open_violation(ForfeitDialog)
    ok(dialog)
    announced(desk, qtbot).reject()
    assert not desk.session.state.end.recorded
    assert "confirm" in desk.ui.statusLine.text()
    dialog = trigger(desk, "actionEndMatch")
    ok(dialog)
    assert desk.session.state.end.recorded


def test_pass_a_preview_names_the_winner_and_no_next_deal(desk: Any, qtbot: Any) -> None:
    """1.5, issue 10 item 10: the hand that passes A previews "N–S win the match"
    before Enter, and once the match is over no next shuffle or deal is shown."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 0)
    _win_hand_holding_declarers(desk)
    _win_hand_holding_declarers(desk)
    play_later_hand_nt(desk)
    dialog = trigger(desk, "actionHandResult")
    qtbot.keyClicks(dialog.ui.pointsBeforeSpin, "0")
    preview = dialog.ui.previewLabel.text()
    headline = preview.split("</div>")[0]
    assert "N–S win the match (passed A, 1.5)" in headline
    assert "next dealer" not in headline
    ok(dialog)
    announced(desk, qtbot)
    assert desk.ui.nextHandLabel.text() == ""
    seats = [desk.ui.seatTop, desk.ui.seatBottom, desk.ui.seatLeft, desk.ui.seatRight]
    assert not any("deals next" in label.text() for label in seats)
