"""A trick payload in the form the fold checks and counts, prepared once per payload.

The fold reads the raw payload dict directly (no ``TrickPayload``/``Play`` objects):
seats, canonical card tokens (``♥10`` → ``H10``) and the plays as recorded depend
on the payload alone, so a re-replay of the same record reuses them instead of
parsing the cards again. Few objects are made per trick, and fewer outlive the
replay, since every surviving container is one more for the cyclic collector to
walk. Values that cannot be prepared (an unknown seat or card) are left as None:
the fold then meets the bad input at the same check as always and refuses it with
the same message.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee_desk.match.envelope import Event
from referee_desk.match.fold.memo import SEAT_BY_NAME, canon
from referee_desk.rules.cards import DECK, format_card
from referee_desk.rules.seats import Seat


class PreparedTrick(NamedTuple):
    """A trick payload as the fold reads it (immutable; a named tuple because one is
    made per trick of a cold replay, and a frozen dataclass costs three times as much)."""

    leader: str
    """The leader's seat letter as recorded."""
    last: bool
    """The payload marks this trick as the hand's last."""
    raw_plays: list[dict[str, Any]]
    """The recorded plays (the payload's own list), read again only to word a refusal."""
    seats: tuple[Seat, ...] | None
    """Seats in the order recorded; None when a seat is not N E S W."""
    plays: tuple[tuple[str, ...], ...] | None
    """Canonical tokens per play; None when a card does not parse."""
    even: bool
    """Every play has as many cards as the lead."""
    discarded: tuple[int, ...]
    """Indexes of plays made in place of a wrong play (8.2)."""
    as_recorded: tuple[tuple[Seat, tuple[str, ...], bool], ...]


_PREPARED: dict[str, tuple[dict[str, Any], PreparedTrick]] = {}
_PREPARED_MAX = 1 << 16


def prepared_trick(event: Event) -> PreparedTrick:
    """The prepared payload of a trick event, memoised for the very same payload object.

    Keyed by the sealed hash and used only when the payload is the same object, so an
    event read again from a file (or altered) is prepared afresh.
    """
    key = event.hash
    payload = event.payload
    if not key:
        return prepare_payload(payload)
    found = _PREPARED.get(key)
    if found is not None and found[0] is payload:
        return found[1]
    prepared = prepare_payload(payload)
    if len(_PREPARED) >= _PREPARED_MAX:
        _PREPARED.clear()
    _PREPARED[key] = (payload, prepared)
    return prepared


def clear() -> None:
    _PREPARED.clear()
    _SHARED.clear()


#: Shared small tuples (a seat order, a (seat, cards, discarded) triple): a record
#: repeats them thousands of times, and every tuple kept alive is one more object
#: for the cyclic collector to walk after a bulk replay.
_SHARED: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_SHARED_MAX = 1 << 16


def prepare_payload(payload: dict[str, Any]) -> PreparedTrick:
    """Read a trick payload; raises KeyError/TypeError as ``parse_payload`` would."""
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    share = _SHARED.setdefault
    seat_of = SEAT_BY_NAME.get
    recorded = payload["plays"]
    seats_in: list[Seat | None] = []
    cards_in: list[tuple[str, ...]] = []
    flags: list[bool] = []
    canonical: list[tuple[str, ...]] | None = []
    known = _CANONICAL
    for play in recorded:  # read in the order parse_payload reads, so errors match
        seats_in.append(seat_of(play["seat"]))
        cards = tuple(play["cards"])
        cards_in.append(cards)
        flags.append(bool(play.get("discarded", False)))
        if canonical is not None:
            try:
                if known.issuperset(cards):  # as the desk writes them: kept as recorded
                    canonical.append(cards)
                    continue
                tokens = tuple(map(canon, cards))
            except (ValueError, TypeError):
                canonical = None  # the fold refuses the card where it always did
            else:
                # The recorded tuple itself when already canonical (one object fewer to keep).
                canonical.append(cards if tokens == cards else tokens)
    leader = payload["leader"]
    last = bool(payload.get("last", False))
    seats: tuple[Seat, ...] | None = None
    as_recorded: tuple[tuple[Seat, tuple[str, ...], bool], ...] = ()
    if None not in seats_in:
        seats = share(t := tuple(seats_in), t)
        as_recorded = tuple([share(t, t) for t in zip(seats, cards_in, flags, strict=True)])
    plays = None if canonical is None else tuple(canonical)
    even = False
    if plays:
        size = len(plays[0])
        even = True
        for cards in plays:
            if len(cards) != size:
                even = False
                break
    discarded = tuple([index for index, flag in enumerate(flags) if flag]) if True in flags else ()
    fields = (leader, last, recorded, seats, plays, even, discarded, as_recorded)
    return _make(PreparedTrick, fields)  # PreparedTrick(*fields) without its Python __new__


_make = tuple.__new__

#: The canonical token of every card (what the desk records): no parsing needed.
_CANONICAL = frozenset(format_card(c) for c in DECK)
