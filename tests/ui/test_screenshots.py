"""Render the main window and every dialog to PNG (zh and en) under screenshots/ so a
person can look at them; the files are kept out of git."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QWidget

from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.committee_sign_in import CommitteeSignInDialog
from referee_desk.ui.dialogs.hand_summary import HandSummaryDialog
from referee_desk.ui.dialogs.match_end import MatchEndDialog
from referee_desk.ui.dialogs.open_match import OpenMatchDialog
from referee_desk.ui.dialogs.organizer_sign_in import OrganizerSignInDialog
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.settings_dialog import SettingsDialog
from referee_desk.ui.dialogs.trick import TrickDialog
from referee_desk.ui.dialogs.violations import VIOLATION_MENU, ForfeitDialog
from tests.ui.conftest import ok, play_opening_hand, start_clock, summary_hand

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def _save(widget: QWidget, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    widget.show()
    QApplication.processEvents()
    image = widget.grab().toImage()
    path = SHOTS / f"{name}.png"
    assert image.save(str(path))
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 3, f"{name} rendered blank"
    return path


def _note_dialog(desk: Any) -> QWidget:
    """N opens the note as ReasonDialog with the main window's strings; an empty note is
    refused in place (item 10: it asked for a reason)."""
    desk.entries.add_note()
    dialog = desk.active_dialog
    dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()
    return dialog


def _refused_sign_in(desk: Any) -> QWidget:
    """The committee sign-in with its refusal shown (an empty name)."""
    dialog = CommitteeSignInDialog(desk.tf, desk)
    dialog.show()
    dialog.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()
    return dialog


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_render_every_screen(
    desk: Any, qtbot: Any, languages: Any, fake_time: Any, language: str, size: tuple[int, int]
) -> None:
    languages.apply(language)
    desk.resize(*size)
    language = f"{language}-{size[0]}"
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    summary_hand(desk, 100)
    bid = BidDialog(desk.session, desk)
    bid.ui.cardsEdit.setText("H5 H5")
    desk.run_dialog(bid)
    bid.accept()  # later hand: records hand_started and the bid, stays open
    bid.close_bidding()
    fake_time.advance(47 * 60 + 49)
    desk.ui.actionThink.trigger()
    fake_time.advance(4)
    desk.display.clock.tick()
    shots = [_save(desk, f"{language}-main")]
    desk.ui.eventView.selectRow(3)
    shots.append(_save(desk, f"{language}-main-review"))
    desk.review.leave()
    trick = TrickDialog(desk.session, desk)
    trick.ui.play1Edit.setText("SA SA")
    trick.ui.play2Edit.setText("SK SK")
    trick.update_running()
    dialogs: list[tuple[str, QWidget]] = [
        ("open-match", OpenMatchDialog(desk.tf, "王磊", desk)),
        ("bid", BidDialog(desk.session, desk)),
        ("trick", trick),
        ("settings", SettingsDialog(desk.settings, desk)),
        (
            "reason",
            ReasonDialog(desk.tr("Pause the clock"), desk.tr("Why is the clock paused?"), [], desk),
        ),
        ("note", _note_dialog(desk)),
        ("committee-sign-in", _refused_sign_in(desk)),
        ("organizer-sign-in", OrganizerSignInDialog(desk.tf, desk)),
    ]
    summary = HandSummaryDialog(desk.session, desk)
    summary.ui.pointsBeforeSpin.setValue(155)
    summary.ui.lastTrickPointsSpin.setValue(25)
    summary.ui.lastTrickCardsSpin.setValue(2)
    dialogs.append(("hand-summary", summary))
    for key, cls in VIOLATION_MENU:
        dialogs.append((f"violation-{key}-{cls.__name__}", cls(desk.session, desk)))
    for name, dialog in dialogs:
        shots.append(_save(dialog, f"{language}-{name}"))
        dialog.close()
        dialog.deleteLater()
    forfeit = desk.entries.open_violation(ForfeitDialog)
    ok(forfeit)
    qtbot.waitUntil(lambda: isinstance(desk.active_dialog, MatchEndDialog), timeout=2000)
    shots.append(_save(desk.active_dialog, f"{language}-match-end"))
    assert all(p.stat().st_size > 2000 for p in shots)
    desk.active_dialog.reject()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_render_the_three_deck_screens(
    window: Any, qtbot: Any, languages: Any, fake_time: Any
) -> None:
    """Issue 12: the preset's dialogs in Chinese on a 1024×700 screen (each fits)."""
    from referee_desk.ui.dialogs.violations import (
        ConcealmentDialog,
        KittyDialog,
        ThrowFailedDialog,
    )
    from tests.ui.test_presets import open_preset_match

    languages.apply("zh_CN")
    desk = open_preset_match(window, fake_time, "three-deck")
    desk.resize(1024, 700)
    start_clock(desk)
    bid = BidDialog(desk.session, desk)
    bid.ui.seatCombo.setCurrentIndex(bid.ui.seatCombo.findData("N"))
    bid.ui.cardsEdit.setText("H2")
    desk.run_dialog(bid)
    bid.accept()
    bid.ui.dealerCombo.setCurrentIndex(bid.ui.dealerCombo.findData("N"))
    bid.ui.trumpCombo.setCurrentIndex(bid.ui.trumpCombo.findData("H"))
    bid.close_bidding()
    fake_time.advance(25 * 60)
    desk.display.clock.tick()
    shots = [_save(desk, "zh-three-deck-main")]
    kitty = KittyDialog(desk.session, desk)
    kitty.ui.cardsTextEdit.setText("S5 D5 SK DK C10 C3")
    throw = ThrowFailedDialog(desk.session, desk)
    throw.ui.sideCombo.setCurrentIndex(throw.ui.sideCombo.findData("W"))
    throw.ui.cardsTextEdit.setText("SK SK SQ")
    throw.ui.shownEdit.setText("SA SA")
    conceal = ConcealmentDialog(desk.session, desk)
    conceal.ui.seatCombo.setCurrentIndex(conceal.ui.seatCombo.findData("E"))
    conceal.ui.choiceCombo.setCurrentIndex(1)
    summary = HandSummaryDialog(desk.session, desk)
    summary.ui.pointsBeforeSpin.setValue(60)
    summary.ui.lastTrickPointsSpin.setValue(10)
    summary.ui.lastTrickCardsSpin.setValue(6)
    summary.ui.winnerCombo.setCurrentIndex(summary.ui.winnerCombo.findData("EW"))
    summary.ui.kittyPointsSpin.setValue(30)
    summary.ui.leadShapeEdit.setText("2x3")
    opener = OpenMatchDialog(desk.tf, "王磊", desk)
    opener.ui.rulesetCombo.setCurrentIndex(opener.ui.rulesetCombo.findData("three-deck"))
    for name, dialog in (
        ("kitty", kitty),
        ("throw-failed", throw),
        ("concealment", conceal),
        ("hand-summary", summary),
        ("open-match", opener),
    ):
        # As run_dialog does on a 1024×700 screen; the layout's minimum must fit there.
        dialog.resize(min(dialog.width(), 1024), min(dialog.height(), 700))
        hint = dialog.minimumSizeHint()
        assert hint.width() <= 1024 and hint.height() <= 700, name
        shots.append(_save(dialog, f"zh-three-deck-{name}"))
        dialog.close()
        dialog.deleteLater()
    assert all(p.stat().st_size > 2000 for p in shots)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
