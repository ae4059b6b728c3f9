"""Issue 19 item 9, driven by keyboard: a follow the later plays prove illegal is flagged
under the match view right after the trick that proves it, not at the hand's end, and
review shows it from that trick on (a flag for the referee, not a ruling)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import Keyboard, play_opening_hand, start_clock


def _enter(keys: Keyboard, plays: str) -> None:
    """One trick in the open trick dialog: each seat's cards in play order, then Enter."""
    keys.type(plays)
    keys.key(Qt.Key.Key_Return)
    QApplication.processEvents()


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_a_wrong_follow_is_flagged_right_after_the_trick_that_proves_it(
    desk: Any, qtbot: Any, languages: Any, language: str
) -> None:
    """RULES 5 (4.1) "pair lead: pair > two singles": W follows ♠K K with ♠4 5 and shows
    ♠9 9 in tricks 2 and 3; RULES 9.3 (8.3) "having a card and not playing it": N discards
    on E's ♣ lead in trick 5 and plays ♣J in trick 6 (the issue's repro). Each flag is in
    the status line as soon as its trick is entered, with the trick dialog still open."""
    languages.apply(language)
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N deals and leads; hearts trump at level 3
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_T)
    dialog = desk.active_dialog
    status = desk.ui.statusLine
    _enter(keys, "SKSK S4S5 S6S6 S7S8")  # N W S E
    _enter(keys, "SA S9 D5 D6")
    assert "⚑" not in status.text()  # W's spades are all different so far
    _enter(keys, "SA S9 D7 D8")
    assert desk.active_dialog is dialog, dialog.ui.errorLabel.text()
    west, north = ("西", "北") if language == "zh_CN" else ("West", "North")
    shown = status.text()
    assert shown.count("⚑") == 1 and "⚑ 4.1" in shown and west in shown, shown
    _enter(keys, "DA D9 D10 H4")  # E trumps and wins
    _enter(keys, "CA D4 C5 C6")  # trick 5, E N W S: N discards on the ♣ lead
    assert status.text().count("⚑") == 1
    _enter(keys, "CK CJ C7 C8")  # trick 6: N plays ♣J
    shown = status.text()
    assert shown.count("⚑") == 2 and "⚑ 8.3" in shown and north in shown, shown
    assert "♣" in shown and "6" in shown, shown
    if language == "zh_CN":
        assert "trick" not in shown and "plays" not in shown, shown
    dialog.reject()
    QApplication.processEvents()
    flags = desk.session.state.flags
    assert [f.article for f in flags] == ["4.1", "8.3"]
    events = desk.session.events
    assert [f.seq for f in flags] == [events[-4].seq, events[-1].seq]  # the proving tricks
    desk.ui.eventView.selectRow(len(events) - 2)  # review trick 5
    QApplication.processEvents()
    assert desk.review.row is not None
    shown = status.text()
    assert "⚑ 4.1" in shown and "⚑ 8.3" not in shown, shown  # not yet provable then
    desk.review.step(1)
    assert "⚑ 8.3" in status.text()
    desk.review.step(-4)  # trick 2: nothing proven yet
    assert "⚑" not in status.text()
