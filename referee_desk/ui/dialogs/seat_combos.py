"""Filling seat, side and trump combo boxes with translated names and stable data."""

from __future__ import annotations

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
