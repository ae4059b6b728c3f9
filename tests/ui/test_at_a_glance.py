"""Issue 19, "the desk at a glance": what a referee sees in one look, driven by keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from referee_desk.ui.dialogs.match_end import MatchEndDialog
from tests.ui.conftest import ok, play_later_hand_nt, play_opening_hand, start_clock, summary_hand


def _pass_a(desk: Any) -> None:
    """N–S win four hands as declarers holding the deal: 3 → 7 → J → A → passed A (1.5)."""
    summary_hand(desk, 0)
    for _ in range(3):
        play_later_hand_nt(desk)
        summary_hand(desk, 0)


def test_nothing_moves_after_the_end(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """Item 8: after the match is decided the clock stands still, announced or confirmed,
    whatever is recorded later (a note)."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    fake_time.advance(15 * 60)
    _pass_a(desk)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    shown = desk.ui.clockLabel.text()
    fake_time.advance(120)
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == shown  # announced, not yet confirmed
    ok(desk.active_dialog)
    fake_time.advance(120)
    desk.display.clock.tick()
    QApplication.processEvents()
    assert desk.ui.clockLabel.text() == shown
    fake_time.advance(300)
    desk.display.clock.tick()
    assert desk.ui.clockLabel.text() == shown


def _newest_row_wholly_visible(desk: Any) -> bool:
    view = desk.ui.eventView
    last = desk.proxy.rowCount() - 1
    rect = view.visualRect(desk.proxy.index(last, 0))
    return last >= 0 and view.viewport().rect().contains(rect)


def _sixty_events(desk: Any, qtbot: Any) -> None:
    """Hands whose results wrap the detail line, then notes, as the log of a long match."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 85, last_points=10, cards_each=2, last_side="EW")
    for _ in range(3):
        play_later_hand_nt(desk)
        summary_hand(desk, 120, last_points=20, cards_each=2, last_side="NS")
    while len(desk.session.events) < 60:
        desk.session.submit("note", {"text": f"记录 {len(desk.session.events)}"})
    play_later_hand_nt(desk)
    summary_hand(desk, 85, last_points=10, cards_each=2, last_side="EW")
    QApplication.processEvents()


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_the_newest_row_is_always_wholly_visible(
    desk: Any, qtbot: Any, languages: Any, size: tuple[int, int]
) -> None:
    """Item 1: after 60 events, after a resize and after Ctrl+F twice the newest row shows
    whole; scrolled away by the referee it stays put until a new entry."""
    languages.apply("zh_CN")
    desk.resize(*size)
    _sixty_events(desk, qtbot)
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
    assert len(desk.session.events) > 60
    desk.resize(1200, 820)
    QApplication.processEvents()
    desk.resize(*size)
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
    for _ in range(2):
        qtbot.keyClick(desk, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        QApplication.processEvents()
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)
    # the referee scrolls up on purpose: the log stays where they put it
    bar = desk.ui.eventView.verticalScrollBar()
    bar.triggerAction(bar.SliderAction.SliderToMinimum)
    qtbot.wait(50)
    desk.resize(size[0], size[1] - 40)
    qtbot.wait(50)
    assert bar.value() == 0 and not _newest_row_wholly_visible(desk)
    desk.session.submit("note", {"text": "新的记录"})
    qtbot.waitUntil(lambda: _newest_row_wholly_visible(desk), timeout=2000)


def _column_runs(image: Any) -> list[tuple[int, int, int, int]]:
    """Runs of inked columns (glyphs, left to right) with their ink's top and bottom row."""
    background = image.pixel(1, 1)
    runs: list[tuple[int, int, int, int]] = []
    start = None
    top, bottom = image.height(), -1
    for x in range(image.width() + 1):
        ys = (
            [y for y in range(image.height()) if image.pixel(x, y) != background]
            if x < image.width()
            else []
        )
        if ys:
            if start is None:
                start, top, bottom = x, ys[0], ys[-1]
            top, bottom = min(top, ys[0]), max(bottom, ys[-1])
        elif start is not None:
            runs.append((start, x - 1, top, bottom))
            start = None
    return runs


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_the_four_suits_and_no_trump_draw_at_one_size(
    window: Any, qtbot: Any, languages: Any, fake_time: Any, size: tuple[int, int]
) -> None:
    """Item 2: "主 ♥ · 打 3" draws its ♥ as tall as ♠ (the red span was measured as
    HTML by the fitter, which then shrank the whole line)."""
    from referee_desk.ui.record import start_match
    from referee_desk.ui.session import MatchSession
    from tests.ui.conftest import MATCH_PAYLOAD, REFEREE, bid, close_bidding

    languages.apply("zh_CN")
    window.resize(*size)
    heights: dict[str, int] = {}
    line: dict[str, int] = {}
    for trump in ("S", "H", "D", "C", "NT"):
        record = start_match(window.tf, dict(MATCH_PAYLOAD), REFEREE, now=fake_time.now())
        window.match.set_session(MatchSession(record, REFEREE, clock=fake_time.now))
        start_clock(window)
        if trump == "NT":  # a later hand where nobody bids
            play_opening_hand(window, qtbot)
            summary_hand(window, 100)
            play_later_hand_nt(window)
        else:
            close_bidding(bid(window, qtbot, "N", f"LJ {trump}3"), "N", trump)
        assert window.active_dialog is None, (trump, window.active_dialog.ui.errorLabel.text())
        qtbot.wait(20)
        label = window.ui.trumpLabel
        runs = _column_runs(label.grab().toImage())
        assert len(runs) >= 4, (trump, label.text())
        _left, _right, top, bottom = runs[1]  # 主, then the suit (or 无 of 无主)
        heights[trump] = bottom - top + 1
        line[trump] = runs[0][3] - runs[0][2] + 1  # 主: the whole line's size
    suits = [heights[s] for s in "SHDC"]
    assert min(suits) >= 0.9 * max(suits), heights
    assert min(line.values()) >= 0.9 * max(line.values()), line  # NT's line as large


def test_w_h7_enter_records_the_bid_from_the_moment_the_dialog_opens(desk: Any, qtbot: Any) -> None:
    """Item 3: B, then the one-field form `W LJ H3` Enter records West's bid (before, the
    seat box had the focus: Space opened its drop-down and Enter was eaten)."""
    from tests.ui.conftest import Keyboard

    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_B)
    dialog = desk.active_dialog
    keys.type("W LJ H3")
    keys.key(Qt.Key.Key_Return)
    bids = [e.payload for e in desk.session.events if e.type == "bid"]
    assert bids == [{"seat": "W", "kind": "dark", "cards": ["LJ", "H3"]}]
    assert keys.count == 1 + 7 + 1
    # a refusal is of the last try: typing the next bid clears it
    keys.type("S H9")
    keys.key(Qt.Key.Key_Return)
    assert dialog.ui.errorLabel.text()
    keys.key(Qt.Key.Key_Backspace)
    assert not dialog.ui.errorLabel.text()
    # the seat box, if the referee goes there, hands Space and Enter on to the cards
    dialog.ui.cardsEdit.clear()
    dialog.ui.seatCombo.setFocus()
    keys.type("S ")
    assert QApplication.focusWidget() is dialog.ui.cardsEdit
    assert not dialog.ui.seatCombo.view().isVisible()
    keys.type("LJ H3 H3")
    keys.key(Qt.Key.Key_Return)
    bids = [e.payload for e in desk.session.events if e.type == "bid"]
    assert bids[-1] == {"seat": "S", "kind": "counter", "cards": ["LJ", "H3", "H3"]}
    # the bids so far are named as the log names them
    assert "西" in dialog.ui.standingLabel.text() or "West" in dialog.ui.standingLabel.text()
    dialog.reject()
    QApplication.processEvents()


def test_seat_letter_tab_cards_still_records_the_seat(desk: Any, qtbot: Any) -> None:
    """DESK.md's other form: seat letter, Tab, cards, Enter (the letter is typed into the
    cards box, which now has the focus; Tab hands it to the seat box)."""
    from tests.ui.conftest import Keyboard

    start_clock(desk)
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_B)
    dialog = desk.active_dialog
    keys.type("E")
    keys.key(Qt.Key.Key_Tab)
    keys.type("LJ H3")
    keys.key(Qt.Key.Key_Return)
    bids = [e.payload for e in desk.session.events if e.type == "bid"]
    assert bids == [{"seat": "E", "kind": "dark", "cards": ["LJ", "H3"]}]
    dialog.reject()
    QApplication.processEvents()


def test_qt_file_dialog_speaks_chinese(desk: Any, languages: Any) -> None:
    """Item 10: Qt's own file dialog in the Chinese UI ("Look in:", "Files of type:")."""
    from PySide6.QtWidgets import QFileDialog, QLabel

    languages.apply("zh_CN")
    dialog = QFileDialog(desk)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.show()
    QApplication.processEvents()
    texts = [label.text() for label in dialog.findChildren(QLabel) if label.text()]
    dialog.close()
    assert "查找范围(&L)：" in texts and "文件类型(&T)：" in texts, texts
    assert not [t for t in texts if t.isascii()], texts


def test_preset_bid_hint_and_history_match_the_log(
    window: Any, qtbot: Any, fake_time: Any, languages: Any
) -> None:
    """Presets (12.3): no "LJ" in the bid hint where bids are level cards, and the bid
    history names a bid as the log does (亮主, not 暗叫)."""
    from tests.ui.conftest import Keyboard
    from tests.ui.test_presets import open_preset_match

    languages.apply("zh_CN")
    open_preset_match(window, fake_time, "qq-four-deck")
    start_clock(window)
    keys = Keyboard(qtbot, window)
    keys.key(Qt.Key.Key_B)
    dialog = window.active_dialog
    assert "LJ" not in dialog.ui.cardsEdit.placeholderText()
    assert "H2 H2" in dialog.ui.cardsEdit.placeholderText()
    keys.type("N H2")
    keys.key(Qt.Key.Key_Return)
    assert [e.type for e in window.session.events][-1] == "bid"
    assert "亮主" in dialog.ui.standingLabel.text()
    assert "暗叫" not in dialog.ui.standingLabel.text()
    dialog.reject()
    QApplication.processEvents()
    column = window.model.index(len(window.session.events) - 1, 0).model()
    logged = [
        str(column.index(row, c).data())
        for row in range(column.rowCount())
        for c in range(column.columnCount())
    ]
    assert any("亮主" in cell for cell in logged)


def test_one_key_names_the_last_tricks_winner(desk: Any, qtbot: Any) -> None:
    """Item 4: a seat's letter names the last trick's side with one key, typed in any field
    of the summary form (before: Tab, Space, Up, Enter; letters did nothing)."""
    from tests.ui.conftest import Keyboard

    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N–S declare
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_R)
    dialog = desk.active_dialog
    for letter, side in (("s", "NS"), ("e", "EW"), ("n", "NS")):  # any field, one key
        keys.type(letter)
        assert dialog.ui.winnerCombo.currentData() == side
    dialog.reject()
    QApplication.processEvents()
    keys = Keyboard(qtbot, desk)  # docs/desk.md: R 8 5 Tab 1 0 Tab 2 W Enter, 10 keys
    keys.key(Qt.Key.Key_R)
    dialog = desk.active_dialog
    keys.type("85")
    keys.key(Qt.Key.Key_Tab)
    keys.type("10")
    keys.key(Qt.Key.Key_Tab)
    keys.type("2")
    keys.type("w")
    assert dialog.ui.winnerCombo.currentData() == "EW"
    assert dialog.ui.lastTrickCardsSpin.text() == "2"
    keys.key(Qt.Key.Key_Return)
    assert keys.count == 10
    summary = [e.payload for e in desk.session.events if e.type == "hand_summary"][-1]
    assert summary["last_trick_side"] == "EW"
    assert summary["defenders_points_before_last"] == 85


def test_summary_form_says_what_earlier_penalties_it_adds(
    desk: Any, qtbot: Any, languages: Any
) -> None:
    """Item 7: after 出错牌 by a declarer (+20, 8.2), typing 85 says the 20 is added and
    to which number (85 + 20 = 105), so nobody copies the scoresheet total and counts
    it twice."""
    from tests.ui.conftest import Keyboard
    from tests.ui.test_violations import choose, open_from_menu, playing

    languages.apply("zh_CN")
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "1")
    choose(dialog.ui.seatCombo, "N")  # a declarer: +10 a card to the defenders
    dialog.ui.cardsSpin.setValue(2)
    ok(dialog)
    assert desk.session.state.current_hand.defenders_points == 20
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_R)
    summary = desk.active_dialog
    keys.type("85")
    preview = summary.ui.previewLabel.text()
    assert "+20" in preview and "出错牌" in preview, preview
    assert "85 + 20 = 105" in preview, preview
    summary.reject()


def _three_deck_hand_dealt_by_east(window: Any, fake_time: Any, qtbot: Any) -> Any:
    from tests.ui.conftest import Keyboard
    from tests.ui.test_presets import bid_and_close, open_preset_match

    desk = open_preset_match(window, fake_time, "three-deck")
    keys = Keyboard(qtbot, desk)
    keys.type("p")
    bid_and_close(keys, "e", "H2")  # E bids first in the race and deals
    assert str(desk.session.state.current_hand.dealer) == "E"
    return keys


def test_kitty_dialog_defaults_to_the_dealer_and_enter_records(
    window: Any, fake_time: Any, qtbot: Any
) -> None:
    """Presets: K opens on the dealer (was N whoever dealt: the seat box was filled after
    the default was chosen); Enter with the completer open records at once."""
    keys = _three_deck_hand_dealt_by_east(window, fake_time, qtbot)
    keys.type("k")
    dialog = window.active_dialog
    assert dialog.ui.seatCombo.currentData() == "E"
    keys.type("S5 D5 SK DK C10 C3")  # the last token leaves the completer's popup open
    popup = dialog.ui.cardsTextEdit.completer().popup()
    assert popup.isVisible()
    qtbot.keyClick(popup, Qt.Key.Key_Return)  # the open popup has the keyboard, as on X11
    QApplication.processEvents()
    assert window.active_dialog is None, dialog.ui.errorLabel.text()
    kitty = window.session.state.current_hand.kitty
    assert kitty.points == 40 and len(kitty.cards) == 6


def test_failed_throw_dialog_defaults_to_the_player_who_leads(
    window: Any, fake_time: Any, qtbot: Any
) -> None:
    from tests.ui.test_presets import open_from_menu

    _three_deck_hand_dealt_by_east(window, fake_time, qtbot)
    dialog = open_from_menu(window, qtbot, "3")
    assert dialog.ui.seatCombo.currentData() == "E"  # the dealer leads the first trick
    dialog.reject()


def test_f1_lists_ctrl_tab_and_the_measured_keys(desk: Any) -> None:
    """Item 10: Ctrl+Tab works and F1 lists it; F1 states the one-key winner's count."""
    lines = desk.prefs.shortcut_lines()
    assert any(line.startswith("Ctrl+Tab\t") for line in lines)
    typing = "\n".join(desk.prefs.typing_lines())
    assert "R 85 Tab 10 Tab 2 W Enter, 10 keys" in typing
    assert "W LJ H3, Enter" in typing


def test_an_empty_note_is_refused_as_a_note(desk: Any, qtbot: Any, languages: Any) -> None:
    """Item 10: an empty note said "必须填写原因。" (a reason); it asks for the note."""
    from tests.ui.conftest import Keyboard

    languages.apply("zh_CN")
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_N)
    dialog = desk.active_dialog
    keys.key(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dialog.ui.errorLabel.text() == "请先写下备注内容。"
    dialog.reject()
    QApplication.processEvents()


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_a_revoke_the_record_proves_is_flagged(
    desk: Any, qtbot: Any, languages: Any, language: str
) -> None:
    """Item 9: E discards on a ♣ lead in trick 1 and plays ♣Q in trick 2: the match layer
    flags it (8.3); the desk shows the flag live and in review (a flag, not a ruling)."""
    from tests.ui.conftest import Keyboard

    languages.apply(language)
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N deals and leads; hearts trump at level 3
    keys = Keyboard(qtbot, desk)
    keys.key(Qt.Key.Key_T)
    dialog = desk.active_dialog
    keys.type("CA C5 C6 D4")  # N, W, S, E: E shows void in clubs
    keys.key(Qt.Key.Key_Return)
    assert desk.session.state.flags == ()
    assert "⚑" not in desk.ui.statusLine.text()
    keys.type("CK C7 C8 CQ")  # N leads again; E plays a club
    keys.key(Qt.Key.Key_Return)
    dialog.reject()
    QApplication.processEvents()
    assert [f.article for f in desk.session.state.flags] == ["8.3"]
    shown = desk.ui.statusLine.text()
    east = "东" if language == "zh_CN" else "East"
    assert "⚑ 8.3" in shown and east in shown and "♣" in shown and "2" in shown, shown
    if language == "zh_CN":
        assert "plays" not in shown and "trick" not in shown, shown
    desk.ui.eventView.selectRow(len(desk.session.events) - 2)  # review the trick before
    QApplication.processEvents()
    assert desk.review.row is not None
    assert "⚑" not in desk.ui.statusLine.text()  # not yet provable then
    desk.review.step(1)
    assert "⚑ 8.3" in desk.ui.statusLine.text()


def test_revoke_headline_names_the_choice_made(desk: Any, qtbot: Any, languages: Any) -> None:
    """Item 10: after B the 劳改 preview's headline still said "由南北选择 A 或 B"."""
    from tests.ui.test_violations import choose, open_from_menu, playing

    languages.apply("zh_CN")
    playing(desk, qtbot)
    dialog = open_from_menu(desk, qtbot, "2")
    choose(dialog.ui.seatCombo, "W")
    choose(dialog.ui.kindCombo, "not_following")
    choose(dialog.ui.choiceCombo, "B")
    dialog.ui.pointsSpin.setText("60")
    dialog.update_preview()
    html = dialog.ui.consequenceLabel.text()
    headline = html.split("</div>", 1)[0]
    assert "选择 A 或 B" not in headline and "B" in headline and "北" in headline, headline
    dialog.reject()
    QApplication.processEvents()
