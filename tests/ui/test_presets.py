"""The desk in the presets of RULES 12 (issue 12, "Desk and documents"): the preset is
chosen when a match opens and shown at all times; the dialogs offer what the preset has
(kitty, failed throw, 藏张) and hide what it has not (劳改 and 明叫); the clock of a
match without a time limit shows no countdown. Real widgets, driven by keyboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from referee_desk.rules.ruleset import get_ruleset
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.ui.dialogs.trick import TrickDialog
from referee_desk.ui.dialogs.violations import (
    ConcealmentDialog,
    KittyDialog,
    OpenBidDialog,
    RevokeDialog,
    ThrowFailedDialog,
)
from referee_desk.ui.record import start_match
from referee_desk.ui.session import MatchSession
from tests.ui.conftest import MATCH_PAYLOAD, REFEREE, Keyboard, start_clock

ENTER, TAB = Qt.Key.Key_Return, Qt.Key.Key_Tab
CTRL = Qt.KeyboardModifier.ControlModifier


def open_preset_match(window: Any, fake_time: Any, preset: str) -> Any:
    payload = dict(MATCH_PAYLOAD, ruleset=get_ruleset(preset).to_dict())
    record = start_match(window.tf, payload, REFEREE, now=fake_time.now())
    window.match.set_session(MatchSession(record, REFEREE, clock=fake_time.now))
    return window


def bid_and_close(keys: Keyboard, seat: str, cards: str) -> None:
    """B, the seat's letter, Tab, the level cards shown (12.3), Enter; Ctrl+Enter closes."""
    keys.type("b")
    keys.type(seat)
    keys.key(TAB)
    keys.type(cards)
    keys.key(ENTER)
    keys.key(ENTER, CTRL)


def open_from_menu(desk: Any, qtbot: Any, key: str) -> Any:
    keys = Keyboard(qtbot, desk)
    keys.type("v")
    qtbot.waitUntil(desk.violations.menu.isVisible, timeout=2000)
    qtbot.keyClick(desk.violations.menu, key)
    qtbot.waitUntil(lambda: desk.active_dialog is not None, timeout=2000)
    return desk.active_dialog


def test_open_match_defaults_to_the_tournament_preset_worded(
    window: Any, qtbot: Any, tmp_path: Path, languages: Any
) -> None:
    """Ctrl+M in a three-deck tournament: the chooser starts on 三副牌 with its
    parameters worded (RULES 12.1 kitty 6, levels 2..A); the match opens in it and the
    match view names the preset and starts both sides at 2 (12.1)."""
    languages.apply("zh_CN")
    path = tmp_path / "cup3.sqlite"
    info = TournamentInfo("三副杯", "2026-12-01", "2026-12-01", "", "")
    Tournament.create(path, info, None, get_ruleset("three-deck")).close()
    window.files.close_tournament()
    assert window.files.open_tournament(path, create=False)
    keys = Keyboard(qtbot, window)
    keys.key(Qt.Key.Key_M, CTRL)
    dialog = window.active_dialog
    assert dialog.ui.rulesetCombo.currentData() == "three-deck"
    assert dialog.ui.rulesetCombo.currentText() == "三副牌"
    shown = dialog.ui.rulesetView.toPlainText()
    assert "底牌张数：6（12.1）" in shown and "打的级数：2 到 A（12.1）" in shown
    assert "kitty" not in shown and "levels" not in shown
    for text in ("1", "2", "A", "B", "Zhang", "Wang", "Li", "Zhao"):
        keys.key(TAB)
        keys.type(text)
    keys.key(TAB)
    keys.key(TAB)
    keys.type("Ref")
    keys.key(ENTER)
    assert window.active_dialog is None, dialog.ui.errorLabel.text()
    state = window.session.state
    assert state.ruleset.name == "three-deck"
    assert "规则：三副牌" in window.ui.titleLabel.text()
    assert "2" in window.ui.nsLevelLabel.text() and "3" not in window.ui.nsLevelLabel.text()
    assert window.ui.clockLabel.text() == "无时限"  # 12.8: no time limit in 002


def test_a_new_tournament_chooses_its_preset(window: Any, qtbot: Any) -> None:
    """The preset is chosen when the tournament is made (issue 12)."""
    from referee_desk.ui.organizer.dialogs import OrganizerNewDialog

    dialog = OrganizerNewDialog(lambda _info: None, window)
    qtbot.addWidget(dialog)
    combo = dialog.ui.rulesetCombo
    assert combo.currentData() == "guilin-2009"
    assert sorted(combo.itemData(i) for i in range(combo.count())) == [
        "guilin-2009",
        "qq-four-deck",
        "three-deck",
    ]
    combo.setCurrentIndex(combo.findData("qq-four-deck"))
    assert dialog.ruleset_name() == "qq-four-deck"


def test_guilin_menu_keeps_its_violations_and_no_kitty(desk: Any) -> None:
    """Guilin has 劳改 (8.3) and 明叫 (8.1), no kitty, no throw, no 藏张 (4.7, 12.8)."""
    offered = {cls for _k, cls, a in desk.violations.entries if a.isVisible()}
    assert {RevokeDialog, OpenBidDialog} <= offered
    assert not offered & {ConcealmentDialog, ThrowFailedDialog}
    assert not desk.ui.actionKitty.isVisible()
    assert desk.ui.clockLabel.text() != "no time limit"


def test_three_deck_menu_replaces_revoke_and_open_bid(
    window: Any, fake_time: Any, languages: Any
) -> None:
    """三副牌: 藏张 on key 2 in 劳改's place (12.8), 甩牌失败 on key 3 (12.4), no 明叫
    (12.3); no 劳改 wording anywhere in the menu."""
    languages.apply("zh_CN")
    desk = open_preset_match(window, fake_time, "three-deck")
    desk.retranslate()
    menu = {key: a.text() for key, a in desk.violations.offered.items()}
    assert "藏张" in menu["2"] and "甩牌失败" in menu["3"]
    assert not any("劳改" in text or "明叫" in text for text in menu.values())
    assert desk.ui.actionKitty.isVisible()
    assert desk.ui.clockLabel.text() == "无时限"


def test_qq_keeps_revoke_and_offers_throws(window: Any, fake_time: Any) -> None:
    """qq-four-deck: 劳改 kept (12.8), throws (12.4), no open bid (12.3), a kitty of 8."""
    desk = open_preset_match(window, fake_time, "qq-four-deck")
    offered = {cls for _k, cls, a in desk.violations.entries if a.isVisible()}
    assert RevokeDialog in offered and ThrowFailedDialog in offered
    assert OpenBidDialog not in offered and ConcealmentDialog not in offered


def start_three_deck_hand(desk: Any, qtbot: Any) -> Keyboard:
    """P, N bids ♥2 openly (12.3: level cards, no LJ), N deals with hearts trump."""
    keys = Keyboard(qtbot, desk)
    keys.type("p")
    bid_and_close(keys, "n", "H2")
    hand = desk.session.state.current_hand
    assert desk.active_dialog is None
    assert hand is not None and hand.level.label == "2" and hand.trump.value == "H"
    return keys


def test_trick_dialog_in_three_deck_at_level_2(window: Any, fake_time: Any, qtbot: Any) -> None:
    """12.1 three-deck order: 主10 > 副10 > 主级 (♥2) > 副级: at level 2 a ♠10 beats ♥2
    (the old Guilin context raised at level 2)."""
    desk = open_preset_match(window, fake_time, "three-deck")
    keys = start_three_deck_hand(desk, qtbot)
    keys.type("t")
    dialog = desk.active_dialog
    assert isinstance(dialog, TrickDialog)
    keys.type("H2 S10 HA C3")
    assert dialog.ui.errorLabel.text() == ""
    assert dialog.ui.play2Label.text().startswith("W")  # play order N, W, S, E
    assert "West" in dialog.ui.winnerLabel.text()
    dialog.reject()


def test_kitty_is_recorded_by_its_cards(window: Any, fake_time: Any, qtbot: Any) -> None:
    """12.1: K, the dealer's six buried cards; their points are counted (5+5+10+10+10+0)."""
    desk = open_preset_match(window, fake_time, "three-deck")
    keys = start_three_deck_hand(desk, qtbot)
    keys.type("k")
    dialog = desk.active_dialog
    assert isinstance(dialog, KittyDialog)
    assert dialog.ui.seatCombo.currentData() == "N"
    assert dialog.ui.cardsTextEdit.hasFocus()
    keys.type("S5 D5 SK DK C10 C3")
    assert not dialog.ui.pointsSpin.isVisible()
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    kitty = desk.session.state.current_hand.kitty
    assert kitty.points == 40 and len(kitty.cards) == 6


def test_failed_throw_previews_the_forced_play_and_002s_20(
    window: Any, fake_time: Any, qtbot: Any
) -> None:
    """12.4 (002 "甩错牌 一次扣罚20分"): N (a declarer) throws ♠K K Q; W shows ♠A A:
    the pair KK and the single Q are beaten, N plays only the smaller, the single ♠Q,
    and 20 points go to the defenders."""
    desk = open_preset_match(window, fake_time, "three-deck")
    start_three_deck_hand(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "3")
    assert isinstance(dialog, ThrowFailedDialog)
    assert dialog.ui.seatCombo.currentData() == "N"  # the dealer leads the first trick
    keys = Keyboard(qtbot, desk)
    keys.key(TAB)
    keys.type("w")
    keys.key(TAB)
    keys.type("SK SK SQ")
    keys.key(TAB)
    keys.type("SA SA")
    preview = dialog.ui.consequenceLabel.text()
    assert "SQ" in preview or "♠Q" in preview, preview
    assert "20" in preview, preview
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    failure = desk.session.state.current_hand.throw_failures[-1]
    assert failure.points == 20 and len(failure.forced) == 1


def test_concealment_choice_b_is_60_and_play_continues(
    window: Any, fake_time: Any, qtbot: Any
) -> None:
    """12.8 (002 八.1) B: a defender (E) hid a card; N chooses B: 60 taken from the
    defenders, and the hand goes on."""
    desk = open_preset_match(window, fake_time, "three-deck")
    start_three_deck_hand(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "2")
    assert isinstance(dialog, ConcealmentDialog)
    keys = Keyboard(qtbot, desk)
    keys.type("e")
    keys.key(TAB)
    keys.type("n")
    keys.key(TAB)
    keys.key(Qt.Key.Key_Down)  # B
    assert dialog.ui.choiceCombo.currentData() == "B"
    assert "60" in dialog.ui.consequenceLabel.text()
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    hand = desk.session.state.current_hand
    assert hand is not None and hand.status == "playing"
    assert hand.concealments[-1].points == -60


def test_summary_form_asks_the_kitty_and_the_last_lead_in_kitty_presets(
    window: Any, fake_time: Any, qtbot: Any
) -> None:
    """12.5 (002: ×2^c, 445566 ×64): the defenders E–W win the last trick led 445566 with
    a kitty of 30: the preview shows the dig 30 × 64 = 1920."""
    desk = open_preset_match(window, fake_time, "three-deck")
    keys = start_three_deck_hand(desk, qtbot)
    keys.type("r")
    dialog = desk.active_dialog
    assert dialog.ui.kittyPointsSpin.isVisible() and dialog.ui.leadShapeEdit.isVisible()
    dialog.ui.pointsBeforeSpin.setValue(40)
    dialog.ui.lastTrickPointsSpin.setValue(10)
    dialog.ui.lastTrickCardsSpin.setValue(6)
    dialog.ui.winnerCombo.setCurrentIndex(dialog.ui.winnerCombo.findData("EW"))
    dialog.ui.kittyPointsSpin.setValue(30)
    dialog.ui.leadShapeEdit.setFocus()
    keys.type("2x3")
    assert "30 points × 64 = 1920" in dialog.ui.previewLabel.text()
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    last = desk.session.state.hands[-1].last_trick
    assert (last.kitty_points, last.multiplier) == (30, 64)


def test_guilin_summary_form_hides_the_kitty_rows(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    keys.type("b")
    keys.type("n")
    keys.key(TAB)
    keys.type("LJ H3")
    keys.key(ENTER)
    keys.key(ENTER, CTRL)
    keys.type("r")
    dialog = desk.active_dialog
    assert not dialog.ui.kittyPointsSpin.isVisible()
    assert not dialog.ui.leadShapeEdit.isVisible()
    dialog.reject()


def three_decks() -> list[str]:
    """The 162 cards of three decks in notation (12.1: decks = 3)."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    one_deck = [s + r for s in "SHDC" for r in ranks] + ["LJ", "BJ"]
    return one_deck * 3


def test_a_three_deck_hand_played_by_keyboard(window: Any, fake_time: Any, qtbot: Any) -> None:
    """One whole three-deck hand by keys: P, the bid ♥2 (12.3), K and the six buried cards
    (12.1), 39 tricks of one card each typed on the trick line (39 cards a player,
    12.1), the last marked with Ctrl+L and won by a defender with BJ: the preview shows
    the dig 40 × 2 (12.5 power_of_cards: a single lead ×2) before Enter, and the hand's
    result follows the three-deck table (12.6: D = points + dig)."""
    desk = open_preset_match(window, fake_time, "three-deck")
    keys = start_three_deck_hand(desk, qtbot)
    kitty = ["S5", "D5", "SK", "DK", "C10", "C3"]
    keys.type("k")
    keys.type(" ".join(kitty))
    keys.key(ENTER)
    assert desk.active_dialog is None
    pool = three_decks()
    for card in [*kitty, "BJ", "C4", "C4", "C4"]:
        pool.remove(card)
    assert len(pool) == 38 * 4
    keys.type("t")
    dialog = desk.active_dialog
    for trick in range(38):
        keys.type(" ".join(pool[4 * trick : 4 * trick + 4]))
        keys.key(ENTER)
        assert dialog.ui.errorLabel.text() == "", (trick, dialog.ui.errorLabel.text())
    hand = desk.session.state.current_hand
    assert len(hand.tricks) == 38
    order = [seat.value for seat in dialog.order]
    defender = next(i for i, seat in enumerate(order) if seat in "EW" and i > 0)
    last = ["C4"] * 4
    last[defender] = "BJ"
    keys.key(Qt.Key.Key_L, CTRL)
    keys.type(" ".join(last))
    assert "Kitty 40 points × 2 = 80 to the defenders" in dialog.ui.previewLabel.text()
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    finished = desk.session.state.hands[-1]
    assert finished.result is not None and finished.last_trick.multiplier == 2
    assert all(count == 39 for count in finished.cards_played.values())
    captured = sum(t.points for t in finished.tricks if t.winner.side == finished.defenders)
    assert finished.result.defenders_final == captured + 80
    # The made-up deal does not follow suit (4.1 / void flags), but every count is right.
    assert not [f for f in desk.session.state.flags if "cards in hand" in f.text]


def test_preset_bid_kind_and_f1_follow_the_preset(
    window: Any, fake_time: Any, qtbot: Any, languages: Any
) -> None:
    """12.3: the presets bid by showing level cards, so the bid dialog offers no dark
    bid; F1 lists K (the kitty, 12.1) only where there is a kitty."""
    languages.apply("zh_CN")
    desk = open_preset_match(window, fake_time, "three-deck")
    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    keys.type("b")
    combo = desk.active_dialog.ui.kindCombo
    kinds = [combo.itemText(i) for i in range(combo.count())]
    assert "亮主" in kinds and "暗叫" not in kinds
    desk.active_dialog.reject()
    assert any(line.startswith("K\t") for line in desk.prefs.shortcut_lines())


def test_f1_has_no_kitty_key_in_guilin(desk: Any) -> None:
    assert not any(line.startswith("K\t") for line in desk.prefs.shortcut_lines())


def test_two_equal_beaten_parts_ask_which_is_played(
    window: Any, fake_time: Any, qtbot: Any
) -> None:
    """12.4: "Two beaten components equal in size and rank: either; the referee names
    it." At level 2 the off-suit level pairs ♠2♠2 and ♦2♦2 are equal trumps (12.2); W's
    BJ BJ beats both, so the 必须出的牌 box appears and the named pair is recorded."""
    desk = open_preset_match(window, fake_time, "three-deck")
    start_three_deck_hand(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "3")
    keys = Keyboard(qtbot, desk)
    keys.key(TAB)
    keys.type("w")
    keys.key(TAB)
    keys.type("S2 S2 D2 D2")
    keys.key(TAB)
    keys.type("BJ BJ")
    combo = dialog.ui.choiceCombo
    assert not combo.isHidden() and combo.count() == 2
    keys.key(TAB)
    assert combo.hasFocus()
    keys.key(Qt.Key.Key_Down)
    named = combo.currentData()
    keys.key(ENTER)
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    failure = desk.session.state.current_hand.throw_failures[-1]
    assert tuple(failure.forced) == tuple(named)
