"""8.5 坐庄顺序错误 at the desk: the penalty needs a dealing order that is wrong.

The desk records a later hand as dealt by the rotation dealer; naming that seat as the
wrong dealer is refused, naming another seat corrects the record to the seat that dealt
(the hand is replayed anyway) and then records the wrong dealer."""

from __future__ import annotations

from typing import Any

from referee_desk.rules.seats import Seat
from referee_desk.ui.dialogs.violations import WrongDealerDialog
from tests.ui.conftest import ok, play_later_hand_nt, summary_hand
from tests.ui.test_violations import choose, open_from_menu, playing


def test_rotation_dealer_named_is_refused_other_seat_is_corrected(desk: Any, qtbot: Any):
    playing(desk, qtbot)
    summary_hand(desk, 100)  # declarers +2 → N–S at 5; S deals next (partner of N)
    play_later_hand_nt(desk)
    assert desk.session.state.current_hand.dealer == Seat.S
    n_events = len(desk.session.events)
    dialog = open_from_menu(desk, qtbot, "5")
    assert isinstance(dialog, WrongDealerDialog)
    choose(dialog.ui.seatCombo, "S")
    ok(dialog)
    assert desk.active_dialog is dialog  # refused: S was due by rotation
    assert "8.5" in dialog.ui.errorLabel.text()
    assert len(desk.session.events) == n_events
    choose(dialog.ui.seatCombo, "W")
    ok(dialog)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    state = desk.session.state
    types = [e.type for e in desk.session.events[n_events:]]
    assert types == ["correction", "correction", "wrong_dealer"]
    assert state.hands[-1].dealer == Seat.W and state.hands[-1].status == "voided"
    assert state.next_dealer is None  # 8.5: the bidding race decides the dealer again
