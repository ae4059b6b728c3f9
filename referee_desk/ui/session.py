"""One open match at the desk: the record on disk, the replayed state, and entry.

Every entry goes the same way: draft (``match.new_event``, from the state shown) →
schema check → written to the record, where the store's acceptance check
(``store.match_checks``) folds it into the match's warm fold, the entry's one fold (a
refusal comes back as the match layer's ``EventRefused`` with its reason; a write
error leaves nothing changed) → only then added to the events in memory, the state
read from that same fold and announced with ``changed``. The session keeps no fold of
its own for the state, so the state shown is the state the store accepted. The UI
never computes a rule. A preview folds the drafts into a fork of the preview's base
fold (``Replayer.fork``), writing nothing: the base is replayed once, then follows the
record by folding only the events written since (``_preview_base``), so a keystroke
costs one entry's fold, not a replay of the match. A several-event entry is checked
whole by the store before any of it is written. Undo is an entry too: ``undo``
records the corrections the match layer says an undo means
(``match.drafting.undo_entries``), so it needs no undo stack (the window's
``QUndoStack`` is a thin face over it, ``ui.undo``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from referee_desk import match as match_api
from referee_desk.match.drafting import undo_entries
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.state import MatchState
from referee_desk.store import AppendConflict, AppendRefused
from referee_desk.store.match_checks import CheckedFold, schema_problem


class MatchRecord(Protocol):
    """Where a match's events live (the tournament file); appends are durable on return."""

    @property
    def match_id(self) -> str: ...

    def load(self) -> list[Event]: ...

    def append(self, event: Event) -> Event: ...

    def fold(self) -> CheckedFold:
        """The events on record as the store's check folded them (``events()``,
        ``state(now)``, ``check_ahead`` for a several-event entry)."""
        ...


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Preview:
    """The state the match would be in after a draft, and the draft itself."""

    event: Event
    state: MatchState


class MatchSession(QObject):
    """The events of one match, its latest state, and the referee who enters them."""

    changed = Signal()

    def __init__(
        self,
        record: MatchRecord,
        referee: str,
        *,
        clock: Callable[[], datetime] = utc_now,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.record = record
        self.referee = referee
        self._now = clock
        #: The store's fold of the match as stored (read only): the events and the state
        #: shown are read from it (the record is read and replayed once, by the store).
        self._fold = record.fold()
        self.events: list[Event] = self._fold.events()
        self.state: MatchState = self._fold.state(self._now())
        #: The fold the previews fork (never the store's): the events on record up to
        #: its last, caught up lazily by ``_preview_base``; None until the first preview.
        self._base: match_api.Replayer | None = None

    @property
    def match_id(self) -> str:
        return self.record.match_id

    def now(self) -> datetime:
        return self._now()

    def _draft_onto(
        self,
        fold: match_api.Replayer,
        chain: list[Event],
        entry: tuple[str, dict[str, Any]],
        now: datetime,
    ) -> Event:
        """Draft, check and seal one entry after ``chain``, folding it into ``fold``."""
        kind, payload = entry
        draft = match_api.new_event(
            fold if chain else [],
            kind,
            payload,
            referee=self.referee,
            now=now,
            match_id=self.match_id,
        )
        if schema_problem(draft) is not None:  # the store's quick yes, else the full check
            match_api.validate_schema(draft.to_dict())  # raises SchemaRefused, worded
        event = match_api.seal(chain, draft)
        fold.apply(event)
        chain.append(event)
        return event

    def _preview_base(self) -> match_api.Replayer:
        """The fold of the events on record, for previews to fork (never folded into).

        Replayed once; after that the events written since (an entry, another desk's
        events read by ``reload``) are folded in as they appear. The base follows the
        record as long as its last event is the record's at that seq (hashes chain, so
        the whole prefix is then the same); otherwise it is replayed again.
        """
        base, events = self._base, self.events
        n = len(base.events) if base is not None else 0
        if base is None or n > len(events) or (n and base.events[-1].hash != events[n - 1].hash):
            self._base = None
            base = match_api.replayer_for(events)
        else:
            try:
                for event in events[n:]:
                    base.apply(event)
            except BaseException:
                self._base = None  # a refused fold must be discarded
                raise
        self._base = base
        return base

    def _chain(self, entries: list[tuple[str, dict[str, Any]]]) -> tuple[list[Event], MatchState]:
        """Check entries one after another through the match layer, without writing."""
        chain = self.events[-1:]  # what drafting and sealing read: the last event, if any
        fold = self._preview_base().fork()  # a scratch fold: nothing is written
        now = self._now()
        sealed = [self._draft_onto(fold, chain, entry, now) for entry in entries]
        return sealed, fold.state(now)

    def preview(self, kind: str, payload: dict[str, Any]) -> Preview:
        """Check a draft and replay it without writing; raises EventRefused with the reason."""
        sealed, state = self._chain([(kind, payload)])
        return Preview(sealed[0], state)

    def preview_many(self, entries: list[tuple[str, dict[str, Any]]]) -> MatchState:
        """The state after several entries (e.g. 劳改 then the choice), nothing written."""
        return self._chain(entries)[1]

    def submit(self, kind: str, payload: dict[str, Any]) -> Event:
        """Check, write, then show: raises EventRefused or the store's error, changing nothing."""
        return self.submit_many([(kind, payload)])[0]

    def submit_many(self, entries: list[tuple[str, dict[str, Any]]]) -> list[Event]:
        """All entries are checked together first, so a refusal writes none of them.

        One entry (the usual case) is checked by the store as it is written: its one
        fold. Several are first checked whole by the store (all or none, each event
        folded once), then written one by one. The state is read afterwards from the
        record's fold.
        """
        if not entries:
            return []
        one = len(entries) == 1
        sealed = [self._draft(entries[0])] if one else self._check_ahead(entries)
        written: list[Event] = []
        try:
            for event in sealed:
                written.append(self._append(event))
                self.events.append(written[-1])
        except AppendConflict:
            # Another desk recorded since: show its events; the entry stays in its dialog.
            self._fold.drop_ahead()
            self.reload()
            raise
        except BaseException:
            self._fold.drop_ahead()  # the rest of the entry is not written
            raise
        finally:
            if written:
                self.refresh()
        return written

    def _check_ahead(self, entries: list[tuple[str, dict[str, Any]]]) -> list[Event]:
        """A several-event entry drafted and checked whole by the store before any of it
        is written (each event folded once, there); a refusal raises, nothing kept."""
        chain = list(self.events)
        now = self._now()
        sealed: list[Event] = []
        try:
            for kind, payload in entries:
                draft = match_api.new_event(
                    self._fold.state() if chain else [],
                    kind,
                    payload,
                    referee=self.referee,
                    now=now,
                    match_id=self.match_id,
                )
                if schema_problem(draft) is not None:
                    match_api.validate_schema(draft.to_dict())  # raises SchemaRefused
                event = match_api.seal(chain, draft)
                self._fold.check_ahead(event)
                chain.append(event)
                sealed.append(event)
        except BaseException:
            self._fold.drop_ahead()
            raise
        return sealed

    def _draft(self, entry: tuple[str, dict[str, Any]]) -> Event:
        """One entry drafted after the events on record and checked against the schema
        (the state is checked, and the event sealed, by the store as it writes it)."""
        kind, payload = entry
        draft = match_api.new_event(
            self.state if self.events else [],
            kind,
            payload,
            referee=self.referee,
            now=self._now(),
            match_id=self.match_id,
        )
        if schema_problem(draft) is not None:  # the store's quick yes, else the full check
            match_api.validate_schema(draft.to_dict())  # raises SchemaRefused, worded
        return draft  # the store links and seals it as it writes it

    def _append(self, event: Event) -> Event:
        """Write one event; the store's refusal is raised as the match layer worded it."""
        try:
            return self.record.append(event)
        except AppendRefused as refused:
            if isinstance(refused.__cause__, EventRefused):
                raise refused.__cause__ from None
            raise

    def undo(self, entry: Sequence[Event], reason: str) -> list[Event]:
        """Undo an entry: the corrections voiding its events are checked and written as
        one entry (a refusal writes none); nothing is deleted."""
        return self.submit_many(undo_entries(entry, reason))

    def reload(self) -> None:
        """Read the record again (after another desk appended to the same match)."""
        self._fold = self.record.fold()
        self.events = self._fold.events()
        self.refresh()

    def refresh(self) -> None:
        """Read the state at the current time (the clock keeps running between entries)."""
        self.state = self._fold.state(self._now())
        self.changed.emit()

    def state_at(self, index: int) -> MatchState:
        """The state as it stood just after ``events[index]`` (review mode)."""
        event = self.events[index]
        return match_api.replay(self.events, upto=index + 1, now=event.recorded_at)
