"""Issue 10, item 2: every string the Chinese desk shows is Chinese, refusals included.

A match is played in Chinese by keyboard, with refusals on purpose; after each step
every visible text of the window and of the open dialog (labels, buttons, group
titles, combo items, placeholders, menus, the event log, error lines, message boxes)
is harvested, and any English word left in it fails the test. Card notation, seat
letters, articles, key names and what the referee typed are allowed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QTabWidget,
    QWidget,
)

from tests.ui.conftest import Keyboard, start_clock

TAB = Qt.Key.Key_Tab
ENTER = Qt.Key.Key_Return
#: Tokens that are not English words: card notation, seats, key names, acronyms.
_ALLOWED = re.compile(
    r"\b(?:(?:[SHDC♠♥♦♣](?:10|[2-9TJQKA]))|LJ|BJ|NT|[NESWAJQK]|PIN|Ctrl|Shift|Alt|Enter|Esc|"
    r"Tab|Space|Return|PgUp|PgDown|F1|PDF|UTC|ISO|JSON|Del|Backspace|Home|End|Up|Down|Left|"
    r"Right|Ins|SQLite|Excel|xlsx|sqlite|db|jsonl)\b"
)
_WORD = re.compile(r"[A-Za-z]{2,}")


#: Identifiers of the data (match and record ids, ruleset names): not words.
_IDENTIFIER = re.compile(r"\b[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b|\b[A-Za-z]+\d\w*\b")


def english_words(text: str) -> list[str]:
    text = _IDENTIFIER.sub(" ", text)
    plain = re.sub(r"<[^>]+>", " ", text)
    plain = re.sub(r"&[a-z]+;", " ", plain).replace("&", "")
    return _WORD.findall(_ALLOWED.sub(" ", plain))


def shown_texts(root: QWidget) -> list[str]:
    """Every text a referee can read on ``root`` and its visible children."""
    texts: list[str] = [root.windowTitle()]
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        if isinstance(widget, QAbstractButton | QLabel) and widget.toolTip():
            texts.append(widget.toolTip())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        if isinstance(widget, QPlainTextEdit) and widget.isReadOnly():
            texts.append(widget.toPlainText())
        if isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
        if isinstance(widget, QMenu):
            texts += [a.text() for a in widget.actions()]
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for column in range(model.columnCount()):
                texts.append(str(model.headerData(column, Qt.Orientation.Horizontal) or ""))
                for row in range(model.rowCount()):
                    texts.append(str(model.index(row, column).data() or ""))
    return [t for t in texts if t]


class Harvest:
    """Collects what the desk shows after each step; ``typed`` words are the referee's."""

    def __init__(self, window: Any, typed: tuple[str, ...] = ()) -> None:
        self.window = window
        self.typed = typed
        self.found: dict[str, str] = {}

    def look(self, step: str) -> None:
        roots = [self.window]
        if self.window.active_dialog is not None:
            roots.append(self.window.active_dialog)
        roots += [  # this desk's own message boxes and popups (not another test's)
            w
            for w in QApplication.topLevelWidgets()
            if w.isVisible()
            and w not in roots
            and w.parentWidget() is not None
            and w.parentWidget().window() in roots
        ]
        for root in roots:
            for text in shown_texts(root):
                for word in english_words(text):
                    if word not in self.typed:
                        self.found.setdefault(f"{word} in {text!r}", step)
        if self.window.last_message:
            for word in english_words(self.window.last_message):
                self.found.setdefault(f"{word} in {self.window.last_message!r}", step)

    def look_at_every_violation(self) -> None:
        """Open each violation dialog of the menu (keys 1-8), look, and close it."""
        for menu_key in ("1", "2", "3", "4", "5", "6", "7", "8"):
            self.window.violations.offered[menu_key].trigger()
            QApplication.processEvents()
            self.look(f"violation {menu_key}")
            self.window.active_dialog.reject()


@pytest.fixture
def chinese(desk: Any, languages: Any) -> Any:
    languages.apply("zh_CN")
    desk.retranslate()
    return desk


def test_a_match_in_chinese_shows_no_english(chinese: Any, qtbot: Any) -> None:
    desk = chinese
    seen = Harvest(desk, typed=("signals", "XX"))
    keys = Keyboard(qtbot, desk)
    seen.look("match opened")
    keys.type("b")  # before the clock runs: refused, in Chinese
    seen.look("bid before the clock")
    if desk.active_dialog is not None:
        desk.active_dialog.reject()
    if getattr(desk, "message_box", None) is not None and desk.message_box.isVisible():
        desk.message_box.close()
    start_clock(desk)
    keys.type("b")
    dialog = desk.active_dialog
    seen.look("bid dialog")
    keys.type("w")
    keys.key(TAB)
    keys.type("LJ D3 D3")
    keys.key(ENTER)
    keys.type("E LJ H3")  # a counter that does not exceed: refused (2.1)
    keys.key(ENTER)
    assert dialog.ui.errorLabel.text()
    seen.look("counter refused")
    keys.type("X")
    seen.look("typing")
    dialog.ui.cardsEdit.clear()
    keys.type("E XX")  # not a card
    keys.key(ENTER)
    assert dialog.ui.errorLabel.text()
    seen.look("bad card")
    dialog.ui.cardsEdit.clear()
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)  # close the bidding
    assert desk.active_dialog is None, dialog.ui.errorLabel.text()
    seen.look("bidding closed")

    keys.type("r")
    dialog = desk.active_dialog
    seen.look("hand result open")
    keys.key(ENTER)  # empty: refused by the number field
    seen.look("hand result empty")
    keys.type("127")
    keys.key(ENTER)
    seen.look("hand result off-step")
    dialog.reject()

    keys.type("t")
    dialog = desk.active_dialog
    seen.look("trick open")
    keys.type("SK SA H4 S5 D5")  # five plays
    seen.look("five plays")
    dialog.ui.playsEdit.clear()
    keys.type("SK SASA")  # a pair to a single
    keys.type(" H4 S5")
    keys.key(ENTER)
    seen.look("trick refused")
    dialog.ui.playsEdit.clear()
    keys.type("SK SA H4 S5")
    keys.key(ENTER)
    seen.look("trick recorded")
    keys.key(Qt.Key.Key_Escape)
    seen.look("trick closed")

    seen.look_at_every_violation()
    desk.violations.offered["6"].trigger()
    keys.type("s")
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)  # empty text: refused
    seen.look("warning without text")
    desk.active_dialog.ui.textEdit.setFocus()
    keys.type("signals")
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    seen.look("warning recorded")
    desk.ui.actionShortcuts.trigger()
    seen.look("F1")
    desk.message_box.close()
    assert not seen.found, "\n".join(f"{k} (after {v})" for k, v in seen.found.items())


def test_store_and_refusal_messages_are_chinese(chinese: Any) -> None:
    """Store errors are worded by key, else by class; keyless refusals by the fallback."""
    from referee_desk.match.errors import EventRefused
    from referee_desk.store import AccessRefused, StoreWriteError
    from referee_desk.ui.refusals import refusal_message

    for error in (
        AccessRefused("sign in as 王磊: wrong name or PIN"),
        AccessRefused("sign in as 王磊: wrong name or PIN").keyed("store.wrong_pin", name="王磊"),
        StoreWriteError("disk full"),
        EventRefused("odd thing (6.5)", event_type="trick"),
    ):
        text = refusal_message(error)
        assert text and not english_words(text), text
    assert (
        refusal_message(AccessRefused("x").keyed("store.wrong_pin", name="王磊"))
        == "以 王磊 登录：姓名或 PIN 不对"
    )
    assert QMessageBox is not None


def test_the_harvest_finds_english(desk: Any) -> None:
    """The check can fail: the same harvest of the English desk finds English words."""
    seen = Harvest(desk)
    seen.look("English")
    assert any(key.startswith("Bid in") or "Bid" in key for key in seen.found)


def test_the_tournament_tab_in_chinese_shows_no_english(
    window: Any, languages: Any, tmp_path: Any
) -> None:
    """The organizer's tab, with a drawn tournament and records, every section shown."""
    from tests.ui.test_organizer import _samples_cup

    languages.apply("zh_CN")
    view = window.organizer
    _samples_cup(view, tmp_path)
    window.organizer_tabs.setCurrentWidget(view)
    QApplication.processEvents()
    seen = Harvest(window, typed=())
    for index in range(view.ui.sections.count()):
        view.ui.sections.setCurrentIndex(index)
        QApplication.processEvents()
        seen.look(f"section {view.ui.sections.tabText(index)}")
    view.exports.wait_for_exports()
    assert not seen.found, "\n".join(f"{k} (after {v})" for k, v in seen.found.items())


def test_tournament_refusals_are_chinese(chinese: Any) -> None:
    from referee_desk.tournament.errors import DrawError, PairError
    from referee_desk.ui.refusals import refusal_message

    text = refusal_message(PairError("pair 7: both player names are required"))
    assert text == "该组合无法登记（7）"
    assert not english_words(refusal_message(DrawError("a group needs at least 2 pairs, not 1")))


def test_a_three_deck_match_in_chinese_shows_no_english(
    window: Any, fake_time: Any, languages: Any, qtbot: Any
) -> None:
    """Issue 12: the preset's own dialogs (底牌, 甩牌失败, 藏张, the summary form's kitty
    rows), its menu and its clock (无时限) are Chinese too, refusals included."""
    from tests.ui.test_presets import open_preset_match

    languages.apply("zh_CN")
    desk = open_preset_match(window, fake_time, "three-deck")
    desk.retranslate()
    seen = Harvest(desk, typed=("XX", "zz"))
    keys = Keyboard(qtbot, desk)
    seen.look("three-deck match opened")
    keys.type("p")
    seen.look("clock started without limit")
    keys.type("b")
    keys.type("n")
    keys.key(TAB)
    keys.type("H2")
    keys.key(ENTER)
    keys.key(ENTER, Qt.KeyboardModifier.ControlModifier)
    assert desk.active_dialog is None
    seen.look("bidding closed")
    keys.type("k")
    seen.look("kitty open")
    keys.type("S5 XX")
    keys.key(ENTER)
    seen.look("kitty bad card")
    desk.active_dialog.ui.cardsTextEdit.clear()
    keys.key(ENTER)  # neither cards nor points: refused
    seen.look("kitty empty")
    desk.active_dialog.ui.cardsTextEdit.setText("S5 D5 SK DK C10 C3")
    keys.key(ENTER)
    assert desk.active_dialog is None
    seen.look("kitty recorded")
    seen.look_at_every_violation()
    desk.violations.offered["3"].trigger()
    dialog = desk.active_dialog
    dialog.ui.cardsTextEdit.setText("SK SK SQ")
    dialog.ui.shownEdit.setText("S2")  # beats nothing: refused
    seen.look("throw not beaten")
    dialog.ui.shownEdit.setText("SA SA")
    seen.look("throw previewed")
    dialog.reject()
    desk.violations.offered["2"].trigger()
    seen.look("concealment")
    desk.active_dialog.reject()
    keys.type("r")
    dialog = desk.active_dialog
    seen.look("summary with kitty rows")
    dialog.ui.leadShapeEdit.setText("zz")
    dialog.ui.pointsBeforeSpin.setValue(40)
    dialog.ui.lastTrickPointsSpin.setValue(10)
    keys.key(ENTER)
    seen.look("summary bad shape")
    dialog.ui.winnerCombo.setCurrentIndex(dialog.ui.winnerCombo.findData("EW"))
    dialog.ui.leadShapeEdit.setText("1")
    seen.look("summary dig previewed")
    dialog.reject()
    desk.ui.actionShortcuts.trigger()
    seen.look("F1")
    desk.message_box.close()
    assert not seen.found, "\n".join(f"{k} (after {v})" for k, v in seen.found.items())
