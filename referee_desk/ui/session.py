"""One open match at the desk: the record on disk, the replayed state, and entry.

Every entry goes the same way: draft (``match.new_event``) → state check (folded
once into the session's kept ``Replayer``, which raises ``EventRefused`` with the
reason) → written to the record (the store; a write error leaves nothing changed)
→ only then added to the events in memory and announced with ``changed``. The UI
never computes a rule; a preview folds the draft into a scratch replayer, writing
nothing. Undo is an entry too: ``undo`` records the corrections the match layer says
an undo means (``match.drafting.undo_entries``), so it needs no undo stack (the
window's ``QUndoStack`` is a thin face over it, ``ui.undo``).
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
from referee_desk.store import AppendConflict


class MatchRecord(Protocol):
    """Where a match's events live (the tournament file); appends are durable on return."""

    @property
    def match_id(self) -> str: ...

    def load(self) -> list[Event]: ...

    def append(self, event: Event) -> Event: ...


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Preview:
    """The state the match would be in after a draft, and the draft itself."""

    event: Event
    state: Any


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
        self.events: list[Event] = list(record.load())
        #: The fold of ``events``, kept warm: an entry is applied to it once (one fold).
        self._fold = match_api.replayer_for(self.events)
        self.state = self._fold.state(self._now())

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
        match_api.validate_schema(draft.to_dict())
        event = match_api.seal(chain, draft)
        fold.apply(event)
        chain.append(event)
        return event

    def _chain(self, entries: list[tuple[str, dict[str, Any]]]) -> tuple[list[Event], Any]:
        """Check entries one after another through the match layer, without writing."""
        chain = list(self.events)
        fold = match_api.replayer_for(chain)  # a scratch fold: the kept one stays as it is
        now = self._now()
        sealed = [self._draft_onto(fold, chain, entry, now) for entry in entries]
        return sealed, fold.state(now)

    def preview(self, kind: str, payload: dict[str, Any]) -> Preview:
        """Check a draft and replay it without writing; raises EventRefused with the reason."""
        sealed, state = self._chain([(kind, payload)])
        return Preview(sealed[0], state)

    def preview_many(self, entries: list[tuple[str, dict[str, Any]]]) -> Any:
        """The state after several entries (e.g. 劳改 then the choice), nothing written."""
        return self._chain(entries)[1]

    def submit(self, kind: str, payload: dict[str, Any]) -> Event:
        """Check, write, then show: raises EventRefused or the store's error, changing nothing."""
        return self.submit_many([(kind, payload)])[0]

    def submit_many(self, entries: list[tuple[str, dict[str, Any]]]) -> list[Event]:
        """All entries are checked together first, so a refusal writes none of them.

        Each entry is folded once into the kept fold; on a refusal or a failed write the
        fold is rebuilt from the events on record (the rare path).
        """
        chain = list(self.events)
        now = self._now()
        try:
            sealed = [self._draft_onto(self._fold, chain, entry, now) for entry in entries]
        except BaseException:
            self._fold = match_api.replayer_for(self.events)
            raise
        written: list[Event] = []
        try:
            for event in sealed:
                written.append(self.record.append(event))
                self.events.append(written[-1])
        except AppendConflict:
            # Another desk recorded since: show its events; the entry stays in its dialog.
            self.reload()
            raise
        finally:
            if written != sealed:
                self._fold = match_api.replayer_for(self.events)
            if written:
                self.refresh()
        return written

    def undo(self, entry: Sequence[Event], reason: str) -> list[Event]:
        """Undo an entry: the corrections voiding its events are checked and written as
        one entry (a refusal writes none); nothing is deleted."""
        return self.submit_many(undo_entries(entry, reason))

    def reload(self) -> None:
        """Read the record again (after another desk appended to the same match)."""
        self.events = list(self.record.load())
        self._fold = match_api.replayer_for(self.events)
        self.refresh()

    def refresh(self) -> None:
        """Read the state at the current time (the clock keeps running between entries)."""
        self.state = self._fold.state(self._now())
        self.changed.emit()

    def state_at(self, index: int) -> Any:
        """The state as it stood just after ``events[index]`` (review mode)."""
        event = self.events[index]
        return match_api.replay(self.events, upto=index + 1, now=event.recorded_at)
