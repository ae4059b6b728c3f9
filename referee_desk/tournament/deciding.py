"""Which record decides a drawn match, and how much of it counts (issue 18 items 9, 12).

The one owner of that answer: the outcomes (standings, documents, the organizer's view,
the hall page) and the import's linking all ask here.

- A drawn match is decided by the record under its own id (on the server only the desk
  the match is given to can write it), else by the record linked to it.
- A link found on import (``LINKED_BY_IMPORT``) stands only for a record of the table
  the match was given to: on the server the desk that pushed the record is known (the
  server stamps it), so table 1's record naming the pairs of table 3's match is never
  linked to it, nor counted when such a link exists. The organizer links by hand
  (``tournament link``) what should count anyway: that is explicit.
- A match with a record under its id and a link as well is named (two records): its
  own record counts, unless the organizer linked the other by hand.
- Of the deciding record only what the store vouches for counts (``Vouch``): on the
  server, a desk's events up to its registered key's seal or a head the organizer
  accepted; the rest is named and left out. A file vouches for all it holds (it enforced
  its sign-in rules when it took each event).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.tournament.model import TournamentMatch

#: Who made a link found on import (``tournament_links.linked_by``).
LINKED_BY_IMPORT = "import"


@dataclass(frozen=True, slots=True)
class Choice:
    """The record that decides drawn match ``match_id``, and the part of it that counts."""

    match_id: str
    record_id: str
    #: Events that count, from the first; None: the whole record.
    length: int | None
    #: (seq, hash) of the record's head (the outcome cache's key, with ``length``).
    head: tuple[int, str]
    #: Why the events after ``length`` do not count.
    why: str = ""


@dataclass(frozen=True, slots=True)
class Decisions:
    choices: dict[str, Choice] = field(default_factory=dict)
    #: drawn match id -> why a record of it does not count (or not all of it).
    problems: dict[str, str] = field(default_factory=dict)


def wrong_table(
    records: Any, record_id: str, match_id: str, matches: Sequence[TournamentMatch]
) -> str | None:
    """Why the record ``record_id`` is not the record of the table ``match_id`` was given
    to, or None. Only a store that knows who recorded it (the server) can tell; the
    organizer's own imports and copies are its own doing."""
    recorded_at = getattr(records, "recorded_at", None)
    if recorded_at is None:
        return None
    table = recorded_at(record_id)
    if table is None:
        return None
    match = next((m for m in matches if m.match_id == match_id), None)
    given = {match.table} if match is not None and match.table else set()
    given_to = getattr(records, "given_to", None)
    if given_to is not None and (held := given_to(match_id)) is not None:
        given.add(held)
    if not given or table in given:
        return None
    where = " or ".join(sorted(given))
    return (
        f"record {record_id} was recorded at {table}; match {match_id} was given to {where} "
        f"(only the organizer links it by hand: tournament link)"
    )


def vouched_length(records: Any, record_id: str) -> tuple[int | None, str]:
    """(events of ``record_id`` that count or None for all, why the rest does not)."""
    vouched = getattr(records, "vouched", None)
    if vouched is None:
        return None, ""
    found = vouched(record_id)
    return found.length, found.why


def decide(
    records: Any,
    matches: Sequence[TournamentMatch],
    link_entries: Iterable[tuple[str, str, str]],
) -> Decisions:
    """For every drawn match with a record: which record, and how much of it, counts.

    ``link_entries`` are the draw's links as ``(record_id, match_id, linked_by)``."""
    raw_heads = records.heads()
    if not raw_heads:
        return Decisions()
    drawn = {m.match_id for m in matches}
    record_of = {m: m for m in raw_heads if m in drawn}
    problems: dict[str, str] = {}
    for record_id, match_id, linked_by in link_entries:
        if record_id not in raw_heads or match_id not in drawn:
            continue
        explicit = linked_by != LINKED_BY_IMPORT
        if match_id in raw_heads:
            if explicit:
                record_of[match_id] = record_id
                problems[match_id] = (
                    f"two records: {match_id} itself and {record_id}, which the organizer "
                    f"linked to it; {record_id} counts"
                )
            else:
                problems[match_id] = (
                    f"two records: {match_id} itself and {record_id} (linked on import); "
                    f"{match_id}'s own record counts"
                )
            continue
        why = None if explicit else wrong_table(records, record_id, match_id, matches)
        if why is not None:
            problems[match_id] = f"not counted: {why}"
            continue
        record_of[match_id] = record_id
    choices: dict[str, Choice] = {}
    for match_id, record_id in record_of.items():
        length, why = vouched_length(records, record_id)
        choices[match_id] = Choice(match_id, record_id, length, raw_heads[record_id], why)
    return Decisions(choices, problems)


def counted_events(
    records: Any, choice: Choice, replay: Callable[[list[Event]], Any]
) -> tuple[list[Event], Any, str | None]:
    """(the events that count, their replayed state, why the rest does not count).

    A record the store does not wholly vouch for still shows while its match is live
    (it decides nothing yet); once it ends (or no longer replays), only the vouched part
    counts: the match as it stood at its last seal, or nothing. Raises what ``replay``
    raises on the part that counts.
    """
    events = records.events(choice.record_id)
    if choice.length is None:
        return events, replay(events), None
    try:
        state = replay(events)
    except ValueError:  # the server took what the file would refuse: not vouched for
        state = None
    if state is not None and state.end is None:
        return events, state, None
    said = f"record {choice.record_id}: " if choice.record_id != choice.match_id else ""
    if choice.length == 0:
        return [], None, f"not counted: {said}{choice.why}"
    events = events[: choice.length]
    return events, replay(events), f"counted as locked at event {choice.length}; {said}{choice.why}"


def copyable(
    records: Any, record_id: str, replay: Callable[[list[Event]], Any]
) -> tuple[list[Event], str | None]:
    """The part of a record another store may take as its own, and why the rest may not.

    A file vouches for all it holds, so a copy (the archive) must not hold more than
    counts here: an ended record is copied as far as it is vouched for, a live one whole,
    one that does not replay whole (the destination's own checks name it).
    """
    length, why = vouched_length(records, record_id)
    events = records.events(record_id)
    if length is None:
        return events, None
    try:
        state = replay(events)
    except ValueError:
        return events, None
    if state.end is None:
        return events, None
    return events[:length], why


def links_not_standing(
    records: Any, matches: Sequence[TournamentMatch], link_entries: Iterable[tuple[str, str, str]]
) -> set[str]:
    """Record ids of links found on import that do not count here (another table's
    record): a copy leaves them out, since a file cannot tell who recorded what."""
    return {
        record_id
        for record_id, match_id, linked_by in link_entries
        if linked_by == LINKED_BY_IMPORT
        and wrong_table(records, record_id, match_id, matches) is not None
    }
