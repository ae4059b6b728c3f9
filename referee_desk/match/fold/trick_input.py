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
    _SHARED.clear()


#: Shared small tuples (a seat order, a (token, copies) pair, a (seat, cards) pair):
#: a record repeats them thousands of times, and every tuple kept alive is one more
#: object for the cyclic collector to walk after a bulk replay.
_SHARED: dict[tuple, tuple] = {}
_SHARED_MAX = 1 << 16


def _prepare(p: TrickPayload) -> PreparedTrick:
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    share = _SHARED.setdefault
    recorded = p.plays
    seat_of = SEAT_BY_NAME.get
    seats: tuple[Seat, ...] | None = tuple([seat_of(play.seat) for play in recorded])  # type: ignore[misc]
    seats = None if None in seats else share(seats, seats)  # type: ignore[operator,arg-type]
    plays: tuple[tuple[str, ...], ...] | None
    copies: dict[str, int] = {}
    cards_in = [play.cards for play in recorded]
    try:
        # The recorded tuple itself when already canonical (one object fewer to keep).
        plays = tuple([c if (t := tuple(map(canon, c))) == c else t for c in cards_in])
    except (ValueError, TypeError):
        plays = None
    else:
        for cards in plays:
            for token in cards:
                copies[token] = copies.get(token, 0) + 1
    discarded = tuple([index for index, play in enumerate(recorded) if play.discarded])
    even = False
    if plays:
        size = len(plays[0])
        even = all(len(cards) == size for cards in plays)
    as_recorded: tuple[tuple[Seat, tuple[str, ...], bool], ...] = ()
    by_seat: tuple[tuple[Seat, tuple[str, ...]], ...] = ()
    if seats is not None:
        flags = [play.discarded for play in recorded]
        as_recorded = tuple([share(t, t) for t in zip(seats, cards_in, flags, strict=True)])
        if plays is not None:
            by_seat = tuple([share(t, t) for t in zip(seats, plays, strict=True)])
    return PreparedTrick(
        seats,
        plays,
        even,
        tuple([share(item, item) for item in copies.items()]),
        discarded,
        as_recorded,
        by_seat,
    )
