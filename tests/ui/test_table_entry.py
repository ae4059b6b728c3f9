"""Issue 10: entries at a real table, by keyboard only, with the keystrokes counted.

Each test drives the real widgets with key clicks (``Keyboard`` types into whatever has
the focus) and checks what the tournament file recorded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from referee_desk.rules.seats import Seat
from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.trick import TrickDialog
from referee_desk.ui.dialogs.violations import ConductWarningDialog, RevokeDialog
from referee_desk.ui.event_model import COLUMNS
from tests.ui.conftest import Keyboard, play_opening_hand, start_clock

TAB = Qt.Key.Key_Tab
ENTER = Qt.Key.Key_Return


def _recorded(desk: Any) -> Any:
    """The last event as the tournament file holds it."""
    return desk.tf.events(desk.session.match_id)[-1]


def test_summary_hand_records_exactly_what_was_typed_in_ten_keys(desk: Any, qtbot: Any) -> None:
    """Item 1: R, 135, Tab, 10, Tab, 2, Enter records 135 / 10 × 2 / declarers (≤ 12 keys).

    The old spin box had "0" with the cursor before it, so 135 became 130."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.type("r")
    assert isinstance(desk.active_dialog, HandSummaryDialog)
    keys.type("135")
    keys.key(TAB)
    keys.type("10")
    keys.key(TAB)
    keys.type("2")
    keys.key(ENTER)
    assert desk.active_dialog is None
    event = _recorded(desk)
    assert event.type == "hand_summary"
    assert event.payload["defenders_points_before_last"] == 135
    assert event.payload["last_trick_points"] == 10
    assert event.payload["last_trick_cards_per_player"] == 2
    assert event.payload["last_trick_side"] == "NS"  # the declarers, by default
    assert keys.count == 10  # stated in docs/desk.md


def test_number_fields_refuse_instead_of_rounding(desk: Any, qtbot: Any) -> None:
    """Item 1: 127 is not a multiple of 5 and 405 is out of range: refused with a message
    naming the field; R Enter alone records nothing (the old dialog recorded 0 points)."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    before = len(desk.session.events)
    keys = Keyboard(qtbot, desk)
    keys.type("r")
    dialog = desk.active_dialog
    keys.key(ENTER)
    assert desk.active_dialog is dialog and len(desk.session.events) == before
    assert dialog.ui.pointsBeforeLabel.text() in dialog.ui.errorLabel.text()
    keys.type("127")
    keys.key(ENTER)
    assert desk.active_dialog is dialog and len(desk.session.events) == before
    assert "127" in dialog.ui.errorLabel.text() and "5" in dialog.ui.errorLabel.text()
    assert dialog.ui.pointsBeforeSpin.text() == "127"  # kept as typed, never rounded
    keys.key(TAB)
    keys.key(TAB, Qt.KeyboardModifier.ShiftModifier)  # back into the field: all selected
    assert dialog.ui.pointsBeforeSpin.selectedText() == "127"
    keys.type("405")  # the selected content is replaced, not prefixed
    keys.key(ENTER)
    assert "405" in dialog.ui.errorLabel.text() and "400" in dialog.ui.errorLabel.text()
    assert len(desk.session.events) == before
    dialog.reject()


def test_bid_kind_follows_the_standing_bid(desk: Any, qtbot: Any) -> None:
    """Item 3, RULES 2.1: seat, Tab, cards, Enter records a bid, then a counter by another
    seat, then the standing bidder's reinforcement, without touching the kind box."""
    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    keys.type("b")
    dialog = desk.active_dialog
    assert isinstance(dialog, BidDialog)
    keys.type("w")
    keys.key(TAB)
    keys.type("LJ D3 D3")
    keys.key(ENTER)
    keys.key(TAB, Qt.KeyboardModifier.ShiftModifier)
    keys.type("s")
    keys.key(TAB)
    assert "counter" in dialog.ui.kindHintLabel.text()
    keys.type("LJ S3 S3 S3")
    keys.key(ENTER)
    assert dialog.ui.errorLabel.text() == ""
    keys.type("S S3")  # a leading seat letter names the seat
    keys.key(ENTER)
    bids = desk.session.state.current_hand.bids
    assert [(str(b.seat), b.kind) for b in bids] == [
        ("W", "dark"),
        ("S", "counter"),
        ("S", "reinforce"),
    ]
    # The referee may still override: W "reinforces" S's bid → refused by the match layer.
    keys.key(TAB)
    assert dialog.ui.kindCombo.hasFocus()
    keys.type("r")  # the kind box's "reinforce"
    assert dialog.ui.kindCombo.currentData() == "reinforce"
    dialog.ui.cardsEdit.setFocus()
    keys.type("W D3")
    keys.key(ENTER)
    assert "2.1" in dialog.ui.errorLabel.text()
    assert len(desk.session.state.current_hand.bids) == 3
    dialog.reject()


def test_arrow_keys_do_not_change_dealer_or_trump(desk: Any, qtbot: Any) -> None:
    """Item 3: arrows on the dealer and trump boxes change nothing (typing still does)."""
    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    keys.type("b")
    dialog = desk.active_dialog
    for combo in (dialog.ui.dealerCombo, dialog.ui.trumpCombo):
        combo.setFocus()
        qtbot.waitUntil(combo.hasFocus)
        before = combo.currentIndex()
        for key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_End):
            keys.key(key)
        assert combo.currentIndex() == before
    dialog.ui.dealerCombo.setFocus()
    keys.type("e")
    assert dialog.ui.dealerCombo.currentData() == "E"
    dialog.reject()


def _consequence_of_last_row(desk: Any) -> str:
    model = desk.model
    row = model.rowCount() - 1
    return model.index(row, COLUMNS.index("consequence")).data()


def test_tricks_typed_on_one_line_within_the_keystroke_budget(desk: Any, qtbot: Any) -> None:
    """Item 5, RULES 6.1/6.5: a single-card trick is T + "SK SA H4 S5" + Enter (13 keys,
    budget 14); a pair trick "S5S5 S6S6 H4H4 S9S9" + Enter is 20 keys (budget 22), the
    dialog staying open; a bomb is measured too. The log names each winner and points."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # level 3, trump ♥, N deals and leads
    keys = Keyboard(qtbot, desk)
    keys.type("t")
    dialog = desk.active_dialog
    assert isinstance(dialog, TrickDialog)
    keys.type("SK SA H4 S5")
    assert "South" in dialog.ui.winnerLabel.text() and "15" in dialog.ui.winnerLabel.text()
    keys.key(ENTER)
    assert keys.count == 13
    trick = desk.session.state.current_hand.tricks[-1]
    assert trick.winner is Seat.S and trick.points == 15
    assert _consequence_of_last_row(desk) == "South wins trick 1 · 15 points"
    assert desk.active_dialog is dialog and dialog.ui.playsEdit.hasFocus()

    keys.count = 0  # S leads: S → E → N → W
    keys.type("S5S5 S6S6 H4H4 S9S9")
    keys.key(ENTER)
    assert keys.count == 20
    trick = desk.session.state.current_hand.tricks[-1]
    assert trick.winner is Seat.N and trick.points == 10  # the trump pair wins (6.5)
    plays = desk.session.events[-1].payload["plays"]
    assert [p["cards"] for p in plays] == [["S5", "S5"], ["S6", "S6"], ["H4", "H4"], ["S9", "S9"]]
    assert _consequence_of_last_row(desk) == "North wins trick 2 · 10 points"

    keys.count = 0  # N leads a bomb: N → W → S → E
    keys.type("D8D8D8D8 D9D9D9D9 DJDJDJDJ DKDKDKDK")
    keys.key(ENTER)
    assert keys.count == 36  # stated in docs/desk.md
    trick = desk.session.state.current_hand.tricks[-1]
    assert trick.winner is Seat.E and trick.points == 40  # the higher bomb wins
    dialog.reject()


def test_a_discard_is_marked_on_the_line(desk: Any, qtbot: Any) -> None:
    """Item 5, RULES 8.2: ``!`` before a play marks the cards played in place of a wrong
    play; a discard cannot win, and Tab never stops on the discard boxes."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.type("t")
    dialog = desk.active_dialog
    keys.type("S9 !SA S4 S5")
    assert dialog.ui.discard2Check.isChecked() and "North" in dialog.ui.winnerLabel.text()
    keys.key(ENTER)
    assert desk.session.events[-1].payload["plays"][1] == {
        "seat": "W",
        "cards": ["SA"],
        "discarded": True,
    }
    for _ in range(6):
        keys.key(TAB)
        assert QApplication.focusWidget() not in dialog.discards + dialog.edits
    dialog.reject()


def test_last_trick_previews_the_hands_result(desk: Any, qtbot: Any) -> None:
    """Item 5, RULES 7.3: marking the last trick (Ctrl+L) shows the hand's result before
    Enter; Enter records it and closes the dialog."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.type("t")
    dialog = desk.active_dialog
    keys.type("SK SA H4 S5")
    keys.key(ENTER)  # S wins 15: declarers N–S, the defenders have 0
    keys.key(Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert dialog.ui.lastCheck.isChecked() and dialog.ui.playsEdit.hasFocus()
    # S leads; E (a defender) wins the last trick of K + 5 + 10 = 25 points, × 1 card (7.3)
    keys.type("SQ SK D5 S10")
    preview = dialog.ui.previewLabel.text()
    assert "Last trick" in preview and "Defenders 25" in preview
    assert len(desk.session.state.current_hand.tricks) == 1  # nothing recorded yet
    keys.key(ENTER)
    assert desk.active_dialog is None
    finished = desk.session.state.hands[0]
    assert finished.result is not None and finished.result.defenders_final == 25


def test_free_text_is_submitted_with_ctrl_enter(desk: Any, qtbot: Any) -> None:
    """Item 6, RULES 8.8: the warning's text takes Enter as a new line; Ctrl+Enter records."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    desk.violations.offered["6"].trigger()
    dialog = desk.active_dialog
    assert isinstance(dialog, ConductWarningDialog)
    keys.type("s")
    assert dialog.ui.seatCombo.currentData() == "S"
    keys.key(TAB)
    assert dialog.ui.textEdit.hasFocus()
    keys.type("signals")
    keys.key(ENTER)
    keys.type("to partner")
    assert desk.active_dialog is dialog
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    assert desk.active_dialog is None
    event = desk.session.events[-1]
    assert event.type == "conduct_warning" and event.payload["text"] == "signals\nto partner"


def test_esc_asks_before_a_typed_trick_is_lost(desk: Any, qtbot: Any) -> None:
    """Item 6: Esc on a half-typed trick asks; "keep typing" keeps it, "discard" closes.
    An untouched dialog closes at once."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    keys.type("t")
    dialog = desk.active_dialog
    keys.key(Qt.Key.Key_Escape)
    assert desk.active_dialog is None  # nothing typed: closes at once
    keys.type("t")
    dialog = desk.active_dialog
    keys.type("SK SA")
    keys.key(Qt.Key.Key_Escape)
    box = dialog.discard_box
    assert box is not None and desk.active_dialog is dialog
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert desk.active_dialog is dialog and dialog.ui.playsEdit.text() == "SK SA"
    dialog.close()  # the window's close button asks too
    box = dialog.discard_box
    assert box is not None and desk.active_dialog is dialog
    box.button(QMessageBox.StandardButton.Discard).click()
    assert desk.active_dialog is None
    assert desk.session.state.current_hand.tricks == ()


def test_revoke_b_after_a_wrong_play_below_zero(desk: Any, qtbot: Any) -> None:
    """Item 4, RULES 8.2 and 8.3 B: a defender's wrong play of 2 cards takes 20 from the
    defenders (−20 as they stand); a declarer's revoke then adds 160 *to the points as
    they stand*: −20 + 160 = 140. The referee types the captured points (0), never −20."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N–S declare
    keys = Keyboard(qtbot, desk)
    desk.violations.offered["1"].trigger()
    keys.type("e")
    keys.key(TAB)
    keys.type("2")
    keys.key(ENTER)
    assert desk.session.state.current_hand.defenders_points == -20
    desk.violations.offered["2"].trigger()
    dialog = desk.active_dialog
    assert isinstance(dialog, RevokeDialog)
    keys.type("n")  # a declarer revokes; E or W chooses
    dialog.ui.choiceCombo.setCurrentIndex(dialog.ui.choiceCombo.findData("B"))
    assert dialog.ui.pointsSpin.text() == ""  # captured points: typed, not prefilled −20
    assert "−20" in dialog.ui.paraphraseLabel.text() or "− 20" in dialog.ui.paraphraseLabel.text()
    dialog.ui.pointsSpin.setFocus()
    keys.type("0")
    preview = dialog.ui.consequenceLabel.text()
    assert "−20 → 140" in preview  # as they stand → after B, explicit before Enter
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    revoke = [e for e in desk.session.events if e.type == "revoke"][-1]
    assert revoke.payload["defenders_points"] == 0  # captured in cards
    assert desk.session.state.hands[-1].result.defenders_final == 140


def test_match_keys_on_the_tournament_tab_bring_the_match_back(desk: Any, qtbot: Any) -> None:
    """Item 8: B on the tournament tab shows the match view and opens the bid (it was
    silent); Ctrl+M does not leave the tournament tab on screen."""
    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    tabs = desk.organizer_tabs
    tabs.setCurrentIndex(1)
    keys.type("b")
    assert tabs.currentIndex() == 0 and isinstance(desk.active_dialog, BidDialog)
    desk.active_dialog.reject()
    tabs.setCurrentIndex(1)
    keys.key(Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert tabs.currentIndex() == 0 and desk.active_dialog is not None
    desk.active_dialog.reject()


def test_a_reopened_file_lands_on_the_match_in_progress(desk: Any, qtbot: Any) -> None:
    """Item 8: Ctrl+M offers the match in progress first, not "start a new match"."""
    start_clock(desk)
    match_id = desk.session.match_id
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    dialog = desk.active_dialog
    assert dialog.ui.matchCombo.currentData() == match_id
    dialog.reject()


def test_new_tournament_saves_exactly_what_is_typed(window: Any, qtbot: Any) -> None:
    """Item 9: name, Tab, first day, Tab, last day, Tab, venue, Tab, organizer, Tab,
    tables, Tab, referees, Enter: each value lands in its own field, dates as typed."""
    from referee_desk.ui.organizer.dialogs import OrganizerNewDialog

    made: list[Any] = []
    dialog = OrganizerNewDialog(made.append, window)
    window.run_dialog(dialog)
    keys = Keyboard(qtbot, window)
    qtbot.waitUntil(dialog.ui.nameEdit.hasFocus)
    for text in (
        "桂林杯",
        "2026-12-05",
        "2026-12-06",
        "桂林体育馆",
        "桂林桥牌协会",
        "1号桌，2号桌",
    ):
        keys.type(text) if text.isascii() else dialog.focusWidget().insert(text)
        if QApplication.focusWidget() in (dialog.ui.startDate, dialog.ui.endDate):
            assert QApplication.focusWidget().text() == text  # typing replaced the date
        keys.key(TAB)
    dialog.focusWidget().insert("王磊、李明")
    keys.key(ENTER)
    assert window.active_dialog is None, dialog.ui.errorLabel.text()
    info = made[0]
    assert (info.name, info.start_date, info.end_date) == ("桂林杯", "2026-12-05", "2026-12-06")
    assert (info.venue, info.organizer) == ("桂林体育馆", "桂林桥牌协会")
    assert info.tables == ("1号桌", "2号桌") and info.referees == ("王磊", "李明")


def test_new_tournament_refuses_a_date_it_cannot_read(window: Any, qtbot: Any) -> None:
    from referee_desk.ui.organizer.dialogs import OrganizerNewDialog

    made: list[Any] = []
    dialog = OrganizerNewDialog(made.append, window)
    window.run_dialog(dialog)
    dialog.ui.nameEdit.setText("桂林杯")
    dialog.ui.endDate.setText("2026-13-40")
    dialog.accept()
    assert not made and "2026-13-40" in dialog.error
    dialog.reject()


def test_keys_of_disabled_actions_say_why(desk: Any, qtbot: Any) -> None:
    """Item 8: in review mode and after the end, B does nothing but says why."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    desk.ui.eventView.setFocus()
    desk.review.step(-1)
    assert not desk.ui.actionBid.isEnabled()
    desk.last_message = ""
    keys.type("b")
    assert desk.active_dialog is None and "Esc" in desk.last_message
    assert desk.statusBar().currentMessage() == desk.last_message


def test_the_window_never_resizes_itself(desk: Any, qtbot: Any, languages: Any) -> None:
    """Item 7: at 1024×700 the desk fits (its minimum is smaller), long texts and a
    language switch leave the size alone, and the selected event's whole consequence
    is shown below the log without the mouse."""
    desk.resize(1024, 700)
    QApplication.processEvents()
    assert desk.minimumSizeHint().width() <= 1024 and desk.minimumSizeHint().height() <= 700
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    desk.violations.offered["6"].trigger()
    dialog = desk.active_dialog
    dialog.ui.textEdit.setPlainText("talks to partner about the cards " * 8)
    keys = Keyboard(qtbot, desk)
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    for language in ("en", "zh_CN", "en"):
        languages.apply(language)
        QApplication.processEvents()
        assert (desk.width(), desk.height()) == (1024, 700), language
    event = desk.session.events[-1]
    consequence = desk.model.index(len(desk.session.events) - 1, COLUMNS.index("consequence"))
    assert consequence.data() and consequence.data() in desk.ui.eventDetailLabel.text()
    assert event.payload["text"].strip()[:40] in desk.ui.eventDetailLabel.text()
    desk.review.step(-1)  # the selected event's detail follows the selection
    assert f"#{event.seq - 1}" in desk.ui.eventDetailLabel.text()


def test_f1_states_the_measured_keystrokes(desk: Any) -> None:
    """The counts the tests above measure are the ones F1 and docs/desk.md state."""
    text = "\n".join(desk.prefs.typing_lines())
    for stated in ("(10 keys)", "(13 keys with T)", "(20)", "(36)"):
        assert stated in text
    docs = (Path(__file__).resolve().parents[2] / "docs" / "desk.md").read_text("utf-8")
    for stated in ("10 keys", "13 keys", "20 keys", "36 keys"):
        assert stated in docs


def test_a_whole_match_by_keyboard(desk: Any, qtbot: Any) -> None:
    """RULES 1.5, 2.1, 7.2: P, a bid race, four hands won by the declarers with 0 for
    the defenders (3 → 7 → J → A → passed A), the end confirmed with Enter — keys only."""
    keys = Keyboard(qtbot, desk)
    keys.type("p")
    assert desk.session.state.clock.running
    keys.type("b")
    keys.type("n")
    keys.key(TAB)
    keys.type("LJ H3")
    keys.key(ENTER)
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)  # N deals, hearts trump
    assert desk.active_dialog is None
    for hand in range(4):
        if hand:
            keys.type("b")
            keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)  # nobody bids: no-trump
            assert desk.active_dialog is None
        keys.type("r")
        keys.type("0")
        keys.key(ENTER)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    keys.key(ENTER)
    end = desk.session.state.end
    assert end is not None and end.recorded and end.reason == "passed_a"
    assert desk.session.events[-1].type == "match_ended"
    assert keys.count == 30  # stated in docs/desk.md
    keys.type("b")  # locked: says why instead of nothing
    assert desk.active_dialog is None and "over" in desk.last_message


def test_an_empty_text_is_refused_naming_the_box(desk: Any, qtbot: Any, languages: Any) -> None:
    """Item 2: not "payload/text: '' should be non-empty" but the box's own label."""
    languages.apply("zh_CN")
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    keys = Keyboard(qtbot, desk)
    desk.violations.offered["6"].trigger()
    dialog = desk.active_dialog
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    assert desk.active_dialog is dialog
    label = dialog.ui.textLabel.text()
    assert dialog.ui.errorLabel.text() == f"拒绝：{label}：请填写。"
    dialog.reject()


def test_a_new_match_is_opened_by_keyboard(window: Any, qtbot: Any) -> None:
    """Ctrl+M, then Tab through round, table, pairs, seats, ruleset and the referee's
    name, Enter: the match is opened with exactly what was typed."""
    keys = Keyboard(qtbot, window)
    keys.key(Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    dialog = window.active_dialog
    for text in ("2", "3", "A", "B", "Zhang", "Wang", "Li", "Zhao"):
        keys.key(TAB)
        keys.type(text)
    keys.key(TAB)  # the ruleset box
    keys.key(TAB)
    assert dialog.ui.refereeNameEdit.hasFocus()
    keys.type("Ref")
    keys.key(ENTER)
    assert window.active_dialog is None, dialog.ui.errorLabel.text()
    info = window.session.state.info
    assert (info.round, info.table) == ("2", "3")
    assert [info.seats[s] for s in info.seats] and info.seats[Seat.S] == "Wang"
    assert window.session.referee == "Ref"
