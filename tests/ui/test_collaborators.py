"""The window's collaborators, each on its own: they own their state (issue 10)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel

from referee_desk.ui.fitting import TextFitter, fitting_size
from referee_desk.ui.styles import Look
from tests.ui.conftest import play_opening_hand, start_clock


def test_review_owns_the_reviewed_row(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    review = desk.review
    review.step(-2)
    last = len(desk.session.events) - 1
    assert review.row == last - 2 and desk.review.row == review.row
    assert desk.display.shown_state().last_seq == desk.session.events[last - 2].seq
    review.step(+5)  # past the end: back to live
    assert review.row is None
    review.step(-1)
    review.leave()
    assert review.row is None and not desk.ui.reviewBanner.isVisible()


def test_entries_own_the_undo_stack_and_start_afresh_per_match(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    entries = desk.entries
    assert entries.undo_stack.count() == 1 and entries.can_undo
    desk.match.set_session(None)
    assert entries.undo_stack.count() == 0 and not entries.can_undo
    assert entries.announced_end is None


def test_the_controller_owns_the_session_and_the_display_its_clock(desk: Any) -> None:
    start_clock(desk)
    session = desk.match.session
    assert desk.session is session and desk.display.clock.anchor is not None
    assert desk.display.clock.anchor.running
    desk.match.set_session(None)
    assert desk.session is None and desk.display.clock.anchor is None
    assert desk.model.rowCount() == 0
    assert desk.ui.clockLabel.text() == "—"


def test_look_scales_in_steps_within_its_range() -> None:
    assert Look.for_size(1280, 860).scale == 1.0
    assert Look.for_size(1024, 700).scale == 0.8  # min(0.8, 0.814) → 0.8
    assert Look.for_size(640, 400).scale == 0.72  # never below the floor
    assert Look.for_size(1290, 861) == Look.for_size(1280, 860)  # no restyle on a nudge
    assert Look(0.8).pt(50) == "40.0pt"


def test_fitting_shrinks_only_what_does_not_fit(qapp: Any) -> None:
    font = QFont()
    wide = fitting_size("Level A", font, 10_000, 50, 16)
    narrow = fitting_size("Level A", font, 120, 50, 16)
    assert wide == 50 and 16 <= narrow < 50
    assert fitting_size("Level A", font, 1, 50, 16) == 16  # never below the floor
    labels = [QLabel("A"), QLabel("Level A")]
    for label in labels:
        label.resize(120, 40)
    fitter = TextFitter(labels, QLabel.text, lambda _w, s: f"font-size: {s}pt;", largest=lambda: 50)
    fitter.refit(force=True)
    expected = fitting_size("Level A", labels[1].font(), 120 - 16, 50, 9)  # 16 px padding
    assert fitter.size == expected < 50  # one common size: the widest text decides
    assert all(label.styleSheet() == f"font-size: {expected}pt;" for label in labels)
