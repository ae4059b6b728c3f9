"""Whole workflows through the real window: every entry goes through a dialog or a key,
is written to the tournament file, and the replayed state is checked afterwards."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from referee_desk.rules.cards import Rank
from referee_desk.rules.seats import Seat, Side
from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.trick import TrickDialog
from tests.ui.conftest import (
    bid,
    close_bidding,
    ok,
    play_opening_hand,
    press,
    start_clock,
    summary_hand,
    trigger,
    types,
)


def _reread(window: Any) -> list[str]:
    """The event types as the tournament file holds them (committed = on disk)."""
    assert window.tf is not None and window.session is not None
    return [e.type for e in window.tf.events(window.session.match_id)]


def test_open_a_new_match_with_sign_in(window: Any) -> None:
    dialog = trigger(window, "actionOpenMatch")
    assert isinstance(dialog, OpenMatchDialog)
    shown = dialog.ui.rulesetView.toPlainText()
    for name in (
        "match_minutes = 120",
        "think_seconds = 10",
        "misplay_points_per_card = 10",
        "last_trick = multiply",
        "at_time_out = finish_hand",
    ):
        assert name in shown  # every parameter value is shown before confirming
    ui = dialog.ui
    ui.roundEdit.setText("2")
    ui.tableEdit.setText("3")
    ui.pairNsCombo.setEditText("甲队")
    ui.pairEwCombo.setEditText("乙队")
    ui.refereeNameEdit.setText("王磊")
    ok(dialog)
    assert window.active_dialog is dialog  # refused: names missing, dialog stays open
    assert "N" in ui.errorLabel.text() and ui.errorLabel.text()
    for edit, name in (
        (ui.seatNEdit, "张三"),
        (ui.seatEEdit, "李四"),
        (ui.seatSEdit, "王五"),
        (ui.seatWEdit, "赵六"),
    ):
        edit.setText(name)
    ok(dialog)
    assert window.active_dialog is None
    state = window.session.state
    assert state.info.seats[Seat.N] == "张三" and state.info.pairs[Side.EW] == "乙队"
    assert state.info.table == "3"
    assert window.session.events[0].referee == "王磊"
    assert "张三" in window.ui.seatTop.text() or "张三" in window.ui.seatBottom.text()
    assert _reread(window) == ["match_opened"]
    assert window.settings.referee_name == "王磊"


def test_existing_match_is_offered_and_reopened(desk: Any) -> None:
    start_clock(desk)
    match_id = desk.session.match_id
    dialog = trigger(desk, "actionOpenMatch")
    index = dialog.ui.matchCombo.findData(match_id)
    assert index > 0
    dialog.ui.matchCombo.setCurrentIndex(index)
    dialog.ui.refereeNameEdit.setText("王磊")
    ok(dialog)
    assert desk.session.match_id == match_id
    assert types(desk) == ["match_opened", "clock_started"]


def test_pin_is_checked_by_the_store(window: Any) -> None:
    window.tf.people.add_person("王磊", "referee", "2468")
    dialog = trigger(window, "actionOpenMatch")
    ui = dialog.ui
    for edit, text in (
        (ui.roundEdit, "1"),
        (ui.tableEdit, "1"),
        (ui.seatNEdit, "a"),
        (ui.seatEEdit, "b"),
        (ui.seatSEdit, "c"),
        (ui.seatWEdit, "d"),
        (ui.refereeNameEdit, "王磊"),
        (ui.refereePinEdit, "0000"),
    ):
        edit.setText(text)
    ui.pairNsCombo.setEditText("甲")
    ui.pairEwCombo.setEditText("乙")
    ok(dialog)
    assert window.active_dialog is dialog
    assert "PIN" in ui.errorLabel.text()
    assert window.tf.match_ids() == []
    ui.refereePinEdit.setText("2468")
    ok(dialog)
    assert window.active_dialog is None
    assert window.session.events[0].referee == "王磊"


def test_clock_start_pause_with_reason_and_resume(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """1.5: the referee can pause and resume; every pause is recorded with its reason."""
    assert desk.ui.pausedLabel.isVisible() or not desk.isVisible()
    press(qtbot, desk, Qt.Key.Key_P)
    assert desk.session.state.clock.running
    fake_time.advance(600)
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == "1:50:00"
    dialog = press(qtbot, desk, Qt.Key.Key_P)
    assert isinstance(dialog, ReasonDialog)
    ok(dialog)
    assert desk.active_dialog is dialog  # a reason is required
    dialog.ui.reasonCombo.setEditText("裁决争议")
    ok(dialog)
    state = desk.session.state
    assert not state.clock.running and state.clock.paused_reason == "裁决争议"
    fake_time.advance(300)  # paused: the display does not move
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == "1:50:00"
    assert "裁决争议" in desk.ui.pausedLabel.text()
    press(qtbot, desk, Qt.Key.Key_P)
    assert desk.session.state.clock.running
    fake_time.advance(60)
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == "1:49:00"
    assert _reread(desk)[-3:] == ["clock_started", "clock_paused", "clock_resumed"][-3:]


def test_bids_refusal_stays_open_then_close_bidding(desk: Any, qtbot: Any) -> None:
    """2.1: the opening bid is one LJ plus level cards; a refused bid is shown in place."""
    start_clock(desk)
    dialog = press(qtbot, desk, Qt.Key.Key_B)
    assert isinstance(dialog, BidDialog)
    dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData("E"))
    qtbot.keyClicks(dialog.ui.cardsEdit, "H7")
    before = list(desk.session.events)
    ok(dialog)
    assert desk.active_dialog is dialog
    assert "2.1" in dialog.ui.errorLabel.text()
    assert desk.session.events == before  # nothing half-recorded (not even hand_started)
    assert dialog.ui.cardsEdit.text() == "H7"  # what was typed is kept
    dialog.ui.cardsEdit.setText("lj h3")
    ok(dialog)
    assert dialog.ui.errorLabel.text() == ""
    assert dialog.ui.cardsEdit.text() == ""  # stays open for the next bid
    hand = desk.session.state.current_hand
    assert [(str(b.seat), b.cards) for b in hand.bids] == [("E", ("LJ", "H3"))]
    # E cannot counter their own bid (2.1)
    dialog.ui.kindCombo.setCurrentIndex(dialog.ui.kindCombo.findData("counter"))
    dialog.ui.cardsEdit.setText("LJ S3 S3")
    ok(dialog)
    assert "2.1" in dialog.ui.errorLabel.text() or dialog.ui.errorLabel.text()
    dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData("S"))
    ok(dialog)
    assert dialog.ui.errorLabel.text() == ""
    close_bidding(dialog)  # defaults: the last standing bidder and suit
    assert desk.active_dialog is None
    hand = desk.session.state.current_hand
    assert hand.status == "playing" and str(hand.dealer) == "S" and hand.trump.value == "S"
    assert hand.declarers is Side.NS
    assert "♠" in desk.ui.trumpLabel.text()
    assert "(dealer)" in desk.ui.seatBottom.text()  # S nearest the referee by default


def test_summary_hand_preview_then_commit(desk: Any, qtbot: Any) -> None:
    """RULES 11: defenders 155, declarers win a last trick of pairs with 25 points:
    D = 155 − 25 × 2 = 105 → declarers +2 (7.2)."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = press(qtbot, desk, Qt.Key.Key_R)
    assert isinstance(dialog, HandSummaryDialog)
    dialog.ui.pointsBeforeSpin.setValue(155)
    dialog.ui.lastTrickPointsSpin.setValue(25)
    dialog.ui.lastTrickCardsSpin.setValue(2)
    dialog.ui.winnerCombo.setCurrentIndex(dialog.ui.winnerCombo.findData("NS"))
    preview = dialog.ui.previewLabel.text()
    assert "105" in preview and "7.2" in preview
    assert "hand_summary" not in types(desk)  # nothing recorded before Enter
    ok(dialog)
    state = desk.session.state
    assert state.levels[Side.NS] == Rank.FIVE and state.levels[Side.EW] == Rank.THREE
    assert state.next_dealer is Seat.S  # kept the deal: the dealer's partner deals (7)
    assert "5" in desk.ui.nsLevelLabel.text()
    assert _reread(desk)[-1] == "hand_summary"


def test_summary_refused_input_keeps_dialog(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    dialog = trigger(desk, "actionHandResult")  # no hand in play: refused
    assert dialog.ui.errorLabel.text()
    ok(dialog)
    assert desk.active_dialog is dialog
    assert "hand_summary" not in types(desk)
    dialog.reject()


def test_trick_by_trick_with_keyboard_and_picker(desk: Any, qtbot: Any) -> None:
    """6.1/6.5: the running winner shows as cards are typed; trumps ruff a side suit."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # level 3, trump ♥, N deals and leads
    dialog = press(qtbot, desk, Qt.Key.Key_T)
    assert isinstance(dialog, TrickDialog)
    assert dialog.ui.play1Label.text().startswith("N")
    assert dialog.ui.play2Label.text().startswith("W")  # play goes N → W → S → E
    qtbot.keyClicks(dialog.ui.play1Edit, "SK")
    qtbot.keyClicks(dialog.ui.play2Edit, "SA")
    assert "West" in dialog.ui.winnerLabel.text() and "10" in dialog.ui.winnerLabel.text()
    dialog.ui.play3Edit.setFocus()
    QApplication.processEvents()
    dialog._focused = dialog.ui.play3Edit
    dialog.picker.findChild(
        type(dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok)), "card_H4"
    ).click()
    assert dialog.ui.play3Edit.text() == "H4"
    assert "South" in dialog.ui.winnerLabel.text()
    qtbot.keyClicks(dialog.ui.play4Edit, "S5")
    assert "15" in dialog.ui.winnerLabel.text()
    ok(dialog)
    assert desk.active_dialog is dialog  # open for the next trick
    hand = desk.session.state.current_hand
    assert len(hand.tricks) == 1
    trick = hand.tricks[0]
    assert trick.winner is Seat.S and trick.points == 15
    assert dialog.ui.play1Label.text().startswith("S")  # the winner leads next
    # a play with the wrong number of cards is refused with the reason
    qtbot.keyClicks(dialog.ui.play1Edit, "D9")
    qtbot.keyClicks(dialog.ui.play2Edit, "D10 D10")
    assert dialog.ui.errorLabel.text()
    dialog.reject()
    assert len(desk.session.state.current_hand.tricks) == 1


def test_card_completer_completes_the_last_token(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = trigger(desk, "actionTrick")
    completer = dialog.ui.play1Edit.completer()
    dialog.ui.play1Edit.setText("S5 h1")
    completer.setCompletionPrefix(completer.splitPath(dialog.ui.play1Edit.text())[0])
    model = completer.completionModel()
    assert model.rowCount() == 1 and model.index(0, 0).data() == "H10"
    index = model.mapToSource(model.index(0, 0))
    assert completer.pathFromIndex(index) == "S5 H10"
    dialog.reject()


def test_undo_records_a_correction(desk: Any, qtbot: Any) -> None:
    """Undo never deletes: it records a correction that voids the entry."""
    start_clock(desk)
    dialog = bid(desk, qtbot, "N", "LJ H3")
    dialog.reject()
    n_before = len(desk.session.events)
    assert desk.ui.actionUndo.isEnabled()
    reason = press(qtbot, desk, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert isinstance(reason, ReasonDialog)
    reason.ui.reasonCombo.setEditText("座位录错")
    ok(reason)
    events = desk.session.events
    assert len(events) == n_before + 2  # bid and hand_started each voided, nothing deleted
    assert [e.type for e in events[-2:]] == ["correction", "correction"]
    assert {e.payload["reason"] for e in events[-2:]} == {"座位录错"}
    assert desk.session.state.current_hand is None
    assert [c.target_seq for c in desk.session.state.corrections] == [n_before, n_before - 1]
    # the log strikes the voided rows through and names the reason
    row = n_before - 1
    font = desk.model.data(desk.model.index(row, 3), Qt.ItemDataRole.FontRole)
    assert font is not None and font.strikeOut()
    assert "座位录错" in desk.model.data(desk.model.index(row, 4))
    assert len(_reread(desk)) == len(events)


def test_correction_of_a_selected_event_needs_a_reason(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    count = len(desk.session.events)
    desk.ui.eventView.selectRow(3)  # the bid: voiding it would orphan bidding_closed
    dialog = trigger(desk, "actionCorrection")
    ok(dialog)
    assert desk.active_dialog is dialog  # no reason: refused in place
    dialog.ui.reasonCombo.setEditText("叫牌人录错")
    ok(dialog)
    assert len(desk.session.events) == count  # the match layer refused; nothing written
    assert desk.active_dialog is dialog and "2.1" in dialog.ui.errorLabel.text()  # kept open
    dialog.reject()
    desk.ui.eventView.selectRow(4)  # bidding_closed
    dialog = trigger(desk, "actionCorrection")
    dialog.ui.reasonCombo.setEditText("主牌录错")
    ok(dialog)
    last = desk.session.events[-1]
    assert last.type == "correction" and last.payload == {
        "target_seq": 5,
        "action": "void",
        "reason": "主牌录错",
    }
    assert desk.session.state.current_hand.status == "bidding"
    assert desk.review.row is None


def test_review_mode_steps_through_events(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 40)
    assert desk.session.state.levels[Side.NS] == Rank.SIX
    desk.ui.eventView.selectRow(4)  # the bidding_closed event
    assert desk.review.row == 4
    assert desk.ui.reviewBanner.isVisibleTo(desk)
    assert "Review" in desk.ui.reviewBanner.text()
    assert "3" in desk.ui.nsLevelLabel.text()  # as it stood then
    assert not desk.ui.actionBid.isEnabled()  # no entry while reviewing
    press(qtbot, desk, Qt.Key.Key_Right)
    assert desk.review.row is None  # stepped onto the newest event: live again
    assert "6" in desk.ui.nsLevelLabel.text()
    press(qtbot, desk, Qt.Key.Key_Left)
    assert desk.review.row == 4
    press(qtbot, desk, Qt.Key.Key_Escape)
    assert desk.review.row is None and not desk.ui.reviewBanner.isVisibleTo(desk)


def test_filter_to_violations(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = desk.entries.open_violation(
        __import__(
            "referee_desk.ui.dialogs.violations", fromlist=["WrongPlayDialog"]
        ).WrongPlayDialog
    )
    ok(dialog)
    press(qtbot, desk, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert desk.ui.violationsOnlyCheck.isChecked()
    assert desk.proxy.rowCount() == 1
    assert desk.proxy.index(0, 5).data() == "8.2"
    press(qtbot, desk, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert desk.proxy.rowCount() == len(desk.session.events)


def test_rotate_seats_puts_another_seat_at_the_bottom(desk: Any, qtbot: Any) -> None:
    assert desk.ui.seatBottom.text().startswith("South S")
    assert desk.ui.seatRight.text().startswith("East E")  # counter-clockwise N → W → S → E
    press(qtbot, desk, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert desk.ui.seatBottom.text().startswith("East E")
    assert desk.settings.bottom_seat is Seat.E


def test_thinking_timer_and_overrun(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """8.9: Space starts the 10 s countdown; O records an overrun with the seconds over."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    press(qtbot, desk, Qt.Key.Key_Space)
    fake_time.advance(4)
    desk.display.clock.tick()
    assert "6.0" in desk.ui.thinkLabel.text()
    fake_time.advance(9)
    desk.display.clock.tick()
    assert "3" in desk.ui.thinkLabel.text() and "O" in desk.ui.thinkLabel.text()
    dialog = press(qtbot, desk, Qt.Key.Key_O)
    assert dialog.ui.secondsSpin.value() == 13  # the time the play took
    dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData("W"))
    ok(dialog)
    state = desk.session.state
    assert desk.session.events[-1].type == "think_overrun", dialog.ui.errorLabel.text()
    assert state.overruns[Side.EW] == 1, state.overruns
    assert desk.session.events[-1].payload == {"seat": "W", "seconds": 13}
    assert "1" in desk.ui.ewWarningsLabel.text()


def test_shortcuts_listed_in_help(desk: Any) -> None:
    lines = "\n".join(desk.prefs.shortcut_lines())
    for key in ("B", "R", "T", "V", "Space", "O", "P", "Ctrl+Z", "Ctrl+F", "Left", "Right"):
        assert any(line.split("\t")[0] == key for line in lines.splitlines()), key
    trigger(desk, "actionShortcuts")
    assert "Ctrl+Z" in desk.last_message and "8.2" in desk.last_message


def test_bid_by_keyboard_only(desk: Any, qtbot: Any) -> None:
    """DESK.md: B, the seat letter, the cards in notation, Enter."""
    start_clock(desk)
    dialog = press(qtbot, desk, Qt.Key.Key_B)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=2000)
    qtbot.keyClicks(QApplication.focusWidget(), "W")
    assert dialog.ui.seatCombo.currentData() == "W"
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is dialog.ui.cardsEdit
    qtbot.keyClicks(dialog.ui.cardsEdit, "LJ D3 D3")
    qtbot.keyClick(dialog.ui.cardsEdit, Qt.Key.Key_Return)
    bids = desk.session.state.current_hand.bids
    assert [(str(b.seat), b.cards) for b in bids] == [("W", ("LJ", "D3", "D3"))]
    dialog.reject()


def test_chinese_font_is_available() -> None:
    """Chinese must render as Chinese: a font covering it is installed (README: Linux)."""
    from referee_desk.ui.app import has_chinese_font

    assert has_chinese_font()


def test_export_match_report_from_the_desk(desk: Any, qtbot: Any, tmp_path: Any) -> None:
    from pypdf import PdfReader

    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 100)
    out = tmp_path / "report.pdf"
    assert desk.match.export_report(out)
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert desk.session.match_id in text


def test_start_a_drawn_match_of_the_tournament(
    qtbot: Any, settings: Any, languages: Any, tmp_path: Any
) -> None:
    """The organizer's draw offers the table its match; the record uses the draw's id."""
    from referee_desk.tournament.model import TournamentInfo
    from referee_desk.tournament.repository import Tournament
    from referee_desk.ui.main_window import MainWindow

    path = tmp_path / "cup.sqlite"
    with Tournament.create(
        path, TournamentInfo("桂林杯", tables=("1号桌", "2号桌"), referees=("王磊",))
    ) as t:
        for a, b in (("张伟", "王芳"), ("李娜", "刘洋"), ("陈静", "杨帆"), ("赵磊", "周敏")):
            t.add_pair(a, b)
        t.draw(draw_seed=7)
        first = t.draw_table.matches()[0].match_id
    window = MainWindow(settings, languages)
    qtbot.addWidget(window)
    assert window.files.open_tournament(path)
    dialog = trigger(window, "actionOpenMatch")
    combo = dialog.ui.matchCombo
    drawn = [combo.itemData(i) for i in range(combo.count()) if combo.itemText(i).startswith("▶")]
    assert {d.match_id for d in drawn} >= {first}
    combo.setCurrentIndex(
        next(i for i in range(combo.count()) if combo.itemText(i).startswith(f"▶ {first}"))
    )
    assert dialog.ui.seatNEdit.text() and dialog.ui.pairNsCombo.currentText().startswith("#")
    dialog.ui.refereeNameEdit.setText("王磊")
    ok(dialog)
    assert window.active_dialog is None, dialog.ui.errorLabel.text()
    assert window.session.match_id == first
    window.files.close_tournament()
    with Tournament.open(path) as t:
        assert str(t.state().match(first).status) == "playing"


def test_clock_turns_amber_then_red(desk: Any, fake_time: Any) -> None:
    """DESK.md: amber at 15 minutes left, red at 5."""
    from referee_desk.ui.styles import CLOCK_COLOURS

    start_clock(desk)
    fake_time.advance(104 * 60)
    desk.display.clock.tick()
    assert CLOCK_COLOURS["normal"] in desk.ui.clockLabel.styleSheet()
    fake_time.advance(60)
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == "0:15:00"
    assert CLOCK_COLOURS["amber"] in desk.ui.clockLabel.styleSheet()
    fake_time.advance(10 * 60)
    desk.display.clock.tick()
    assert CLOCK_COLOURS["red"] in desk.ui.clockLabel.styleSheet()


def test_discarded_play_cannot_win_the_trick(desk: Any, qtbot: Any) -> None:
    """8.2: cards played in place of a wrong play are discards and cannot win."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # trump ♥, N leads
    dialog = trigger(desk, "actionTrick")
    dialog.ui.play1Edit.setText("S9")
    dialog.ui.play2Edit.setText("SA")
    assert "West" in dialog.ui.winnerLabel.text()
    dialog.ui.discard2Check.setChecked(True)
    assert "North" in dialog.ui.winnerLabel.text()
    dialog.ui.play3Edit.setText("S4")
    dialog.ui.play4Edit.setText("S5")
    ok(dialog)
    trick = desk.session.state.current_hand.tricks[-1]
    assert trick.winner is Seat.N
    assert desk.session.events[-1].payload["plays"][1] == {
        "seat": "W",
        "cards": ["SA"],
        "discarded": True,
    }
    dialog.reject()


def test_settings_dialog_switches_language_and_seat_at_once(desk: Any, languages: Any) -> None:
    from referee_desk.ui.dialogs.settings_dialog import SettingsDialog

    languages.apply("zh_CN")
    bid_dialog = trigger(desk, "actionBid")  # a dialog open during the switch follows it
    assert bid_dialog.windowTitle() == "叫牌"
    desk.active_dialog = None  # the settings dialog opens on top of it
    dialog = desk.run_dialog(SettingsDialog(desk.settings, desk), None)
    desk.active_dialog = None
    dialog.reject()
    trigger(desk, "actionSettings")
    dialog = desk.active_dialog
    assert isinstance(dialog, SettingsDialog)
    dialog.ui.languageCombo.setCurrentIndex(dialog.ui.languageCombo.findData("en"))
    dialog.ui.bottomSeatCombo.setCurrentIndex(dialog.ui.bottomSeatCombo.findData("W"))
    ok(dialog)
    assert desk.ui.bidButton.text() == "Bid (B)"
    assert bid_dialog.windowTitle() == "Bid"
    assert bid_dialog.ui.kindCombo.itemText(1) == "dark bid"
    assert desk.ui.seatBottom.text().startswith("West W")
    assert desk.settings.language == "en" and desk.settings.bottom_seat is Seat.W
    bid_dialog.reject()


def test_window_layout_is_remembered(desk: Any) -> None:
    desk.close()
    assert desk.settings.window_geometry is not None
