"""Each violation kind through its own dialog (opened from the V menu by number): the
article and paraphrase are shown, the consequence is previewed, then recorded."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from referee_desk.rules.cards import Rank
from referee_desk.rules.ruleset import PRESETS, get_ruleset
from referee_desk.rules.seats import Side
from referee_desk.ui.dialogs.violations import (
    VIOLATION_MENU,
    CommitteeRulingDialog,
    ConductWarningDialog,
    FalseBidDialog,
    OpenBidDialog,
    RevokeDialog,
    WrongDealerDialog,
    WrongPlayDialog,
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


def open_from_menu(desk: Any, qtbot: Any, key: str) -> Any:
    """V then the number, as on the keyboard."""
    trigger(desk, "actionViolation")
    menu = desk.violations.menu
    qtbot.waitUntil(menu.isVisible, timeout=2000)
    qtbot.keyClick(menu, key)
    qtbot.waitUntil(lambda: desk.active_dialog is not None, timeout=2000)
    return desk.active_dialog


def choose(combo: Any, data: Any) -> None:
    combo.setCurrentIndex(combo.findData(data))


def playing(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N–S declare, trump ♥, level 3


def north_bids_in_the_opening_race(desk: Any) -> None:
    """Start the clock and enter N's dark bid ``LJ H3`` (2.1), leaving the bid dialog."""
    start_clock(desk)
    bid_dialog = trigger(desk, "actionBid")
    choose(bid_dialog.ui.seatCombo, "N")
    bid_dialog.ui.cardsEdit.setText("LJ H3")
    ok(bid_dialog)
    bid_dialog.reject()


def test_menu_numbers_match_desk_md() -> None:
    """Each preset numbers its violations 1-9, 0 once (2: 劳改 or 藏张; 3: 明叫 or 甩牌失败)."""
    for name in PRESETS:
        ruleset = get_ruleset(name)
        keys = [k for k, c in VIOLATION_MENU if c.offered(ruleset)]
        assert keys == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"], name
    guilin = [c for _k, c in VIOLATION_MENU if c.offered(get_ruleset("guilin-2009"))]
    assert guilin[0] is WrongPlayDialog and guilin[1] is RevokeDialog


def test_wrong_play_costs_points_per_card(desk: Any, qtbot: Any) -> None:
    """8.2: a defender's 2 exposed cards cost the defenders 2 × 10 points."""
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "1")
    assert isinstance(dialog, WrongPlayDialog)
    assert dialog.ui.articleLabel.text().startswith("8.2")
    assert not dialog.ui.choiceCombo.isVisible() and not dialog.ui.trumpCombo.isVisible()
    choose(dialog.ui.seatCombo, "E")
    dialog.ui.cardsSpin.setValue(2)
    assert "8.2" in dialog.ui.consequenceLabel.text()
    ok(dialog)
    hand = desk.session.state.current_hand
    assert hand.defenders_points == -20
    assert [v.kind for v in desk.session.state.violations] == ["wrong_play"]


def test_revoke_records_the_non_offending_sides_choice_b(desk: Any, qtbot: Any) -> None:
    """8.3 B: a defender's revoke takes 160 from the defenders' points as they stand."""
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "2")
    assert isinstance(dialog, RevokeDialog)
    choose(dialog.ui.seatCombo, "W")
    assert [dialog.ui.sideCombo.itemData(i) for i in range(dialog.ui.sideCombo.count())] == [
        "N",
        "S",
    ]  # the choice belongs to the non-offending side
    choose(dialog.ui.kindCombo, "not_following")
    choose(dialog.ui.choiceCombo, "B")
    dialog.ui.pointsSpin.setValue(100)
    preview = dialog.ui.consequenceLabel.text()
    assert "8.3" in preview
    ok(dialog)
    state = desk.session.state
    assert [e.type for e in desk.session.events[-2:]] == ["revoke", "penalty_choice"]
    finished = state.hands[-1]
    assert finished.result is not None and finished.result.defenders_final == -60
    assert state.levels[Side.NS] > Rank.THREE  # declarers keep the deal and go up


def test_revoke_choice_a_up_two_levels(desk: Any, qtbot: Any) -> None:
    """8.3 A: the non-offending side goes up two levels (declarers 3 → 5)."""
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "2")
    choose(dialog.ui.seatCombo, "E")
    choose(dialog.ui.choiceCombo, "A")
    ok(dialog)
    assert desk.session.state.levels[Side.NS] == Rank.FIVE


def test_open_bid(desk: Any, qtbot: Any) -> None:
    """8.1: the side that showed its bid loses its right to bid; no points change."""
    north_bids_in_the_opening_race(desk)
    dialog = open_from_menu(desk, qtbot, "3")
    assert isinstance(dialog, OpenBidDialog)
    choose(dialog.ui.seatCombo, "E")
    ok(dialog)
    assert desk.session.state.violations[-1].article == "8.1"
    again = trigger(desk, "actionBid")
    choose(again.ui.seatCombo, "W")
    choose(again.ui.kindCombo, "counter")
    again.ui.cardsEdit.setText("LJ S3 S3")
    ok(again)
    assert "8.1" in again.ui.errorLabel.text()  # E–W lost the right to bid
    again.reject()


def test_false_bid_trump_named_by_the_other_side(desk: Any, qtbot: Any) -> None:
    """8.6: a player of the non-offending side names the trump suit."""
    north_bids_in_the_opening_race(desk)
    dialog = open_from_menu(desk, qtbot, "4")
    assert isinstance(dialog, FalseBidDialog)
    choose(dialog.ui.seatCombo, "N")
    choose(dialog.ui.sideCombo, "E")
    choose(dialog.ui.trumpCombo, "C")
    ok(dialog)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    assert [e.type for e in desk.session.events[-2:]] == ["false_bid", "false_bid_trump"]
    assert desk.session.events[-1].payload == {"seat": "E", "trump": "C"}
    assert desk.session.state.violations[-1].article == "8.6"


def test_false_bid_nobody_names_trump_means_no_trump(desk: Any, qtbot: Any) -> None:
    north_bids_in_the_opening_race(desk)
    dialog = open_from_menu(desk, qtbot, "4")
    choose(dialog.ui.seatCombo, "N")
    dialog.ui.sideCombo.setCurrentIndex(0)  # nobody
    ok(dialog)
    assert desk.session.events[-1].payload == {"seat": None, "trump": "NT"}


def test_wrong_dealer_replays_the_hand(desk: Any, qtbot: Any) -> None:
    """8.5: the hand is replayed, the dealer decided again by bidding race; levels stay."""
    playing(desk, qtbot)
    summary_hand(desk, 100)  # declarers +2 → N–S at 5, S deals next
    play_later_hand_nt(desk)
    levels = dict(desk.session.state.levels)
    dialog = open_from_menu(desk, qtbot, "5")
    assert isinstance(dialog, WrongDealerDialog)
    choose(dialog.ui.seatCombo, "E")
    ok(dialog)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    state = desk.session.state
    assert state.violations[-1].article == "8.5"
    assert state.levels == levels
    assert state.next_dealer is None  # bidding race again


def test_conduct_warning_then_second_offence(desk: Any, qtbot: Any) -> None:
    """8.8: first offence of a side is a warning; the second goes to the committee."""
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "6")
    assert isinstance(dialog, ConductWarningDialog)
    choose(dialog.ui.seatCombo, "S")
    ok(dialog)
    assert desk.active_dialog is dialog  # the text is required by the record
    dialog.ui.textEdit.setPlainText("暗示同伴")
    ok(dialog)
    state = desk.session.state
    assert state.warnings[Side.NS] == 1
    assert "1" in desk.ui.nsWarningsLabel.text()
    dialog = open_from_menu(desk, qtbot, "6")
    choose(dialog.ui.seatCombo, "N")
    dialog.ui.textEdit.setPlainText("偷看记分")
    ok(dialog)
    state = desk.session.state
    assert Side.NS in state.referred
    assert "committee" in desk.ui.nsWarningsLabel.text()


def test_overrun_from_the_menu(desk: Any, qtbot: Any) -> None:
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "7")
    choose(dialog.ui.seatCombo, "E")
    dialog.ui.secondsSpin.setValue(14)
    ok(dialog)
    assert desk.session.state.overruns[Side.EW] == 1


def test_committee_ruling_applies_level_change(desk: Any, qtbot: Any) -> None:
    """8.11: the ruling is recorded as text with the level adjustment it orders."""
    playing(desk, qtbot)
    committee_signs_in(desk)  # issue 9: committee entries need its sign-in
    dialog = open_from_menu(desk, qtbot, "9")
    assert isinstance(dialog, CommitteeRulingDialog)
    assert not dialog.ui.seatCombo.isVisible()
    dialog.ui.textEdit.setPlainText("东西方多次拖延，南北方升一级")
    dialog.ui.levelsNsSpin.setValue(1)
    ok(dialog)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    assert desk.session.events[-1].payload == {
        "text": "东西方多次拖延，南北方升一级",
        "level_changes": {"NS": 1},
    }
    assert desk.session.state.levels[Side.NS] == Rank.FOUR


def test_forfeit_key_eight(desk: Any, qtbot: Any) -> None:
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "8")
    choose(dialog.ui.sideCombo, "EW")
    ok(dialog)
    end = desk.session.state.end
    assert end is not None and end.reason == "forfeit" and end.winner is Side.NS


def test_refused_violation_keeps_dialog(desk: Any, qtbot: Any) -> None:
    """Before the clock starts there is no play: the record refuses, the dialog stays."""
    dialog = desk.entries.open_violation(WrongPlayDialog)
    choose(dialog.ui.seatCombo, "E")
    ok(dialog)
    assert desk.active_dialog is dialog
    assert dialog.ui.errorLabel.text().startswith("Refused")
    assert [e.type for e in desk.session.events] == ["match_opened"]
    dialog.reject()


def test_v_key_opens_the_menu(desk: Any, qtbot: Any) -> None:
    playing(desk, qtbot)
    from tests.ui.conftest import press

    press(qtbot, desk, Qt.Key.Key_V)
    qtbot.waitUntil(desk.violations.menu.isVisible, timeout=2000)
    desk.violations.menu.close()
