"""Issue 19, the presets at the table: the two 12.4 items the rules core fixed, driven
through the real desk by keyboard (qq-four-deck)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import Keyboard
from tests.ui.test_presets import open_from_menu, open_preset_match

ENTER, TAB = Qt.Key.Key_Return, Qt.Key.Key_Tab
QQ = "qq-four-deck"


def _shut_out_hand(desk: Any, qtbot: Any) -> Keyboard:
    """P, N bids ♥2 (12.3) and deals; R: the defenders take 0 and N–S win the last trick:
    N–S rise to 5 (12.6 max_gain 3) and keep the deal."""
    keys = Keyboard(qtbot, desk)
    keys.type("p")
    keys.type("b")
    keys.type("N H2")
    keys.key(ENTER)
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    keys.type("r")
    dialog = desk.active_dialog
    dialog.ui.pointsBeforeSpin.setValue(0)
    dialog.ui.lastTrickPointsSpin.setValue(0)
    dialog.ui.lastTrickCardsSpin.setValue(1)
    dialog.ui.winnerCombo.setCurrentIndex(dialog.ui.winnerCombo.findData("NS"))
    dialog.ui.kittyPointsSpin.setValue(0)
    dialog.ui.leadShapeEdit.setFocus()
    keys.type("1")
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    return keys


def _no_trump_at_five(window: Any, fake_time: Any, qtbot: Any) -> Keyboard:
    """N–S at level 5; nobody bids in the second hand: no trump (12.3
    redeal_first_else_nt); S deals and leads, E follows first (play order S E N W)."""
    desk = open_preset_match(window, fake_time, QQ)
    keys = _shut_out_hand(desk, qtbot)
    keys.type("b")
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)  # close with no bid
    hand = desk.session.state.current_hand
    assert hand.status == "playing" and hand.level.label == "5" and hand.trump is None
    assert str(hand.dealer) == "S"
    return keys


@pytest.mark.parametrize(
    ("follow", "later", "flagged"),
    [
        ("D3D8DJDJDQ", "D3", True),  # the pair D3 D3 was left for the pair component
        ("DJDJD6D3D3", "D7", False),  # pair + 1 for the triple, then the pair
    ],
)
def test_a_follow_to_a_throw_judged_on_what_is_left_is_flagged(
    window: Any,
    fake_time: Any,
    qtbot: Any,
    languages: Any,
    follow: str,
    later: str,
    flagged: bool,
) -> None:
    """12.4: "meet the largest component's duty as well as the holding allows, then the
    next one's with what is left". qq-four-deck, level 5, NT: S throws ♦A A 10 10 10;
    E, holding ♦3 3 J J 6 7 8 10 Q, plays ♦3 8 J J Q and later shows the other ♦3:
    the desk flags E's follow (a flag, not a ruling); ♦J J 6 3 3 is not flagged."""
    languages.apply("zh_CN")
    keys = _no_trump_at_five(window, fake_time, qtbot)
    desk = window
    keys.type("t")
    dialog = desk.active_dialog
    keys.type(f"DADAD10D10D10 {follow} C3C3C4C4C6 C7C7C8C8C9")
    assert dialog.ui.errorLabel.text() == ""
    keys.key(ENTER)
    assert desk.session.state.flags == ()  # not provable yet: E may have held no more
    keys.key(Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)  # the hand's last trick
    keys.type(f"DK {later} C10 CJ")
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    QApplication.processEvents()
    flags = desk.session.state.flags
    shown = desk.ui.statusLine.text()
    if flagged:
        follow = [f for f in flags if f.article == "12.4"]
        assert len(follow) == 1 and follow[0].text.startswith("E in trick 1"), flags
        assert "⚑ 12.4 第 1 墩东" in shown, shown
    else:
        assert not [f for f in flags if f.article == "12.4"], flags
        assert "12.4" not in shown, shown


@pytest.mark.parametrize("named", ["D2 D2", "C2 C2"])
def test_either_equal_beaten_pair_is_named_in_the_failed_throw_dialog(
    window: Any, fake_time: Any, qtbot: Any, languages: Any, named: str
) -> None:
    """12.4 "Two beaten components equal in size and rank: either; the referee names
    it" (12.2: off-suit level pairs of different suits are equal). qq-four-deck, level
    2, trump ♠: N throws ♠A A ♣2 2 ♦2 2, E shows ♠2 2; in V 3 the referee names either
    level pair and it is recorded (the desk used to demand ♣2 ♣2, first by suit letter)."""
    languages.apply("zh_CN")
    desk = open_preset_match(window, fake_time, QQ)
    keys = Keyboard(qtbot, desk)
    keys.type("p")
    keys.type("b")
    keys.type("N S2")  # the seat, then the level card shown (12.3)
    keys.key(ENTER)
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    hand = desk.session.state.current_hand
    assert hand.level.label == "2" and hand.trump.value == "S" and str(hand.dealer) == "N"
    dialog = open_from_menu(desk, qtbot, "3")
    assert dialog.ui.seatCombo.currentData() == "N"  # the dealer leads the first trick
    keys.key(TAB)
    keys.type("e")
    keys.key(TAB)
    keys.type("SA SA C2 C2 D2 D2")
    keys.key(TAB)
    keys.type("S2 S2")
    combo = dialog.ui.choiceCombo
    offered = sorted(" ".join(combo.itemData(i)) for i in range(combo.count()))
    assert not combo.isHidden() and offered == ["C2 C2", "D2 D2"], offered
    keys.key(TAB)
    assert combo.hasFocus()
    while " ".join(combo.currentData()) != named:
        keys.key(Qt.Key.Key_Down)
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    failure = desk.session.state.current_hand.throw_failures[-1]
    assert " ".join(failure.forced) == named
    assert hand.level.label == "2"
