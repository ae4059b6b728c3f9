"""A trick payload in the form the fold checks and counts, prepared once per payload.

Seats, canonical card tokens (``♥10`` → ``H10``), copies per token and the plays as
recorded depend on the payload alone, so a re-replay of the same record (whose typed
payloads are memoised) reuses them instead of parsing the cards again. Values that
cannot be prepared (an unknown seat or card) are left as None: the fold then meets
the bad input at the same check as always and refuses it with the same message.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.match.events import TrickPayload
from referee_desk.match.fold.memo import SEAT_BY_NAME, canon
from referee_desk.rules.seats import Seat


@dataclass(frozen=True, slots=True)
class PreparedTrick:
    seats: tuple[Seat, ...] | None
    """Seats in the order recorded; None when a seat is not N E S W."""
    plays: tuple[tuple[str, ...], ...] | None
    """Canonical tokens per play; None when a card does not parse."""
    even: bool
    """Every play has as many cards as the lead."""
    copies: tuple[tuple[str, int], ...]
    """Copies of each token in the trick."""
    discarded: tuple[int, ...]
    """Indexes of plays made in place of a wrong play (8.2)."""
    as_recorded: tuple[tuple[Seat, tuple[str, ...], bool], ...]
    by_seat: tuple[tuple[Seat, tuple[str, ...]], ...]


_PREPARED: dict[int, tuple[TrickPayload, PreparedTrick]] = {}
_PREPARED_MAX = 1 << 16


def prepare_trick(p: TrickPayload) -> PreparedTrick:
    """The prepared form of ``p``, memoised for the very same payload object."""
    found = _PREPARED.get(id(p))
    if found is not None and found[0] is p:
        return found[1]
    prepared = _prepare(p)
    if len(_PREPARED) >= _PREPARED_MAX:
        _PREPARED.clear()
    _PREPARED[id(p)] = (p, prepared)  # keeps p alive, so its id is not reused
    return prepared


def clear() -> None:
    _PREPARED.clear()


def _prepare(p: TrickPayload) -> PreparedTrick:
    seats: list[Seat] | None = []
    plays: list[tuple[str, ...]] | None = []
    copies: dict[str, int] = {}
    discarded: list[int] = []
    for index, play in enumerate(p.plays):
        if seats is not None:
            seat = SEAT_BY_NAME.get(play.seat)
            if seat is None:
                seats = None
            else:
                seats.append(seat)
        if plays is not None:
            try:
                cards = tuple(map(canon, play.cards))
            except (ValueError, TypeError):
                plays = None
            else:
                plays.append(cards)
                for token in cards:
                    copies[token] = copies.get(token, 0) + 1
        if play.discarded:
            discarded.append(index)
    even = bool(plays) and all(len(cards) == len(plays[0]) for cards in plays)
    as_recorded: tuple[tuple[Seat, tuple[str, ...], bool], ...] = ()
    by_seat: tuple[tuple[Seat, tuple[str, ...]], ...] = ()
    if seats is not None:
        as_recorded = tuple(
            (seat, play.cards, play.discarded) for seat, play in zip(seats, p.plays, strict=True)
        )
        if plays is not None:
            by_seat = tuple(zip(seats, plays, strict=True))
    return PreparedTrick(
        None if seats is None else tuple(seats),
        None if plays is None else tuple(plays),
        even,
        tuple(copies.items()) if plays is not None else (),
        tuple(discarded),
        as_recorded,
        by_seat,
    )
