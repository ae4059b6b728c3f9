"""Filling seat, side and trump combo boxes with translated names and stable data."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QComboBox

from referee_desk.rules.cards import Suit
from referee_desk.rules.seats import Seat, Side
from referee_desk.ui import texts


def fill_seats(combo: QComboBox, seats: tuple[Seat, ...] = tuple(Seat), *, none: str = "") -> None:
    current = combo.currentData()
    combo.clear()
    if none:
        combo.addItem(none, None)
    for seat in seats:
        combo.addItem(f"{seat.value} {texts.seat_name(seat)}", seat.value)
    select(combo, current)


def fill_sides(combo: QComboBox) -> None:
    current = combo.currentData()
    combo.clear()
    for side in Side:
        combo.addItem(texts.side_name(side), side.value)
    select(combo, current)


def fill_trumps(combo: QComboBox) -> None:
    current = combo.currentData()
    combo.clear()
    for suit in Suit:
        combo.addItem(f"{suit.symbol} {suit.value}", suit.value)
    combo.addItem(texts.trump_text(None), "NT")
    select(combo, current)


def select(combo: QComboBox, data: object) -> None:
    if data is None:
        return
    index = combo.findData(data)
    if index >= 0:
        combo.setCurrentIndex(index)


def select_seat_by_letter(combo: QComboBox, letter: str) -> bool:
    """Keyboard entry: N/E/S/W picks the seat."""
    index = combo.findData(letter.upper())
    if index >= 0:
        combo.setCurrentIndex(index)
        return True
    return False


class SeatLetterFilter(QObject):
    """N/E/S/W in a seat box picks that seat at once (no type-ahead across letters)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress or not isinstance(watched, QComboBox):
            return False
        letter = event.text().upper()
        return letter in ("N", "E", "S", "W") and select_seat_by_letter(watched, letter)


def letters_pick_seats(combo: QComboBox) -> None:
    """Install the seat-letter keys on ``combo`` (the filter lives as long as the combo)."""
    combo.installEventFilter(SeatLetterFilter(combo))


#: A seat's letter names its side: N or S → N–S, E or W → E–W.
SIDE_OF_LETTER = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


class SideLetterFilter(QObject):
    """N/E/S/W typed in a form's fields names a side in ``combo`` with one key (the last
    trick's winner: "85 Tab 10 Tab 2 W Enter"). Number fields take no letters anyway."""

    def __init__(self, combo: QComboBox, parent: QObject) -> None:
        super().__init__(parent)
        self._combo = combo

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress:
            return False
        side = SIDE_OF_LETTER.get(event.text().upper())
        if side is None:
            return False
        select(self._combo, side)
        return True
