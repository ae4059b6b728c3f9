"""The tournament file as the desk's match record, and opening or starting a match in it.

Thin adapters over ``referee_desk.store``: the store validates through the match
layer again, assigns the seq, seals and commits before returning, so an event the
desk shows is on disk.
"""

from __future__ import annotations

import uuid
from typing import Any

from referee_desk import match as match_api
from referee_desk.match.envelope import Event
from referee_desk.store import TournamentFile
from referee_desk.store.access import COMMITTEE_ONLY_TYPES
from referee_desk.store.match_checks import CheckedFold

#: Confirming this event locks the match (keyed seal over its head hash, issue 5).
LOCKING_EVENT = "match_ended"


class StoreMatchRecord:
    """One match of an open tournament file; appends carry the signed-in referee.

    ``committee`` is the committee member signed in at this desk (``Committee sign-in``):
    committee rulings and decisions are appended as them, everything else as the referee.
    Recording ``match_ended`` locks the match in the same transaction.
    """

    def __init__(self, tf: TournamentFile, match_id: str, signed_in: Any = None) -> None:
        self.tf = tf
        self._match_id = match_id
        self.signed_in = signed_in
        self.committee: Any = None

    @property
    def match_id(self) -> str:
        return self._match_id

    def load(self) -> list[Event]:
        return self.tf.events(self._match_id)

    def author(self, event_type: str) -> Any:
        """Who the store sees entering ``event_type`` at this desk."""
        if event_type in COMMITTEE_ONLY_TYPES and self.committee is not None:
            return self.committee
        return self.signed_in

    def fold(self) -> CheckedFold:
        """The match as stored, through the store's own checked fold (each ``append``
        folds its event into it: the entry's one fold); read its ``state(now)``."""
        return self.tf.appender.fold(self._match_id)

    def append(self, event: Event) -> Event:
        return self.tf.append(
            event,
            expected_seq=event.seq,
            by=self.author(event.type),
            lock=event.type == LOCKING_EVENT,
        )

    def locked(self) -> bool:
        return self.tf.seals.latest(self._match_id) is not None


def new_match_id() -> str:
    return "m-" + uuid.uuid4().hex[:12]


def start_match(
    tf: TournamentFile,
    payload: dict[str, Any],
    referee: str,
    signed_in: Any = None,
    match_id: str | None = None,
    now: Any = None,
) -> StoreMatchRecord:
    """Record ``match_opened`` for a new match (checked by the match layer first)."""
    match_id = match_id or new_match_id()
    draft = match_api.new_event(
        [], "match_opened", payload, referee=referee, now=now, match_id=match_id
    )
    match_api.validate([], draft)
    tf.append(draft, expected_seq=1, by=signed_in)
    return StoreMatchRecord(tf, match_id, signed_in)


def match_label(tf: TournamentFile, match_id: str) -> str:
    """``3号桌 甲队–乙队`` style label from the match_opened payload (or the id)."""
    events = tf.events(match_id)
    if not events or events[0].type != "match_opened":
        return match_id
    payload = events[0].payload
    pairs = payload.get("pairs", {})
    return (
        f"{payload.get('round', '')}/{payload.get('table', '')} "
        f"{pairs.get('NS', '')} – {pairs.get('EW', '')} ({len(events)})"
    ).strip()
