"""Issue 10: entries at a real table, by keyboard only, with the keystrokes counted.

Each test drives the real widgets with key clicks (``Keyboard`` types into whatever has
the focus) and checks what the tournament file recorded.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
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
