"""Seats, sides and play order (RULES.md section 1).

Partners sit opposite: N–S against E–W. Play goes counter-clockwise N → W → S → E.
"""

from __future__ import annotations

from enum import StrEnum


class Seat(StrEnum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @property
    def next_in_play(self) -> Seat:
        """The seat that plays after this one (counter-clockwise)."""
        return PLAY_ORDER[(PLAY_ORDER.index(self) + 1) % 4]

    def play_order_from(self) -> tuple[Seat, Seat, Seat, Seat]:
        """The four seats in play order starting with this one."""
        i = PLAY_ORDER.index(self)
        order = PLAY_ORDER
        return (order[i], order[(i + 1) % 4], order[(i + 2) % 4], order[(i + 3) % 4])


class Side(StrEnum):
    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)


PLAY_ORDER: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.W, Seat.S, Seat.E)
_PARTNER = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}
