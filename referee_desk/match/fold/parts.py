"""The parts of a fold, handed to every handler: the match's books, the clock, the hands.

Each part owns its values (``books.MatchBooks``, ``clock_book.ClockBook``,
``hand.Hands`` with the hand in progress); a handler is a plain function
``(fold, event, payload, at_ms)`` that takes from ``fold`` the parts it changes. A
correction refolds into fresh parts, which then replace these whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.match.fold.books import MatchBooks
from referee_desk.match.fold.clock_book import ClockBook
from referee_desk.match.fold.hand import VOIDED, HandBook, Hands
from referee_desk.match.values import Consequence


class Fold:
    """The parts a record is folded into (see the module's docstring)."""

    __slots__ = ("books", "clock", "hands")

    def __init__(self) -> None:
        self.books = MatchBooks()
        self.clock = ClockBook()
        self.hands = Hands()


#: A handler: folds one event (its payload typed or prepared) at its time in ms.
Handler = Callable[[Fold, Event, Any, int], None]


def void_hand(f: Fold, hand: HandBook, seq: int, article: str, key: str, **args: Any) -> None:
    """Void ``hand``; ``key`` (``hand_voided_*``) words why, e.g. a redeal (2.1)."""
    c = Consequence.make(seq, article, key, None, hand=hand.number, **args)
    hand.void_reason = c.text.split(": ", 1)[1]
    f.hands.close(hand, VOIDED)
    f.books.consequences.append(c)
