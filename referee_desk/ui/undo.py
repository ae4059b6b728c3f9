"""Undo of an entry by recording a correction (never by deleting).

Each recorded entry is pushed as a ``RecordedEntry`` whose first ``redo`` does
nothing (the events are already on disk). ``undo`` records one ``correction``
(action ``void``) per event of the entry, newest first, with the reason the referee
gave; if the match layer or the store refuses, ``error`` is set and nothing changed.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee_desk.match.envelope import Event
from referee_desk.ui.session import MatchSession


class RecordedEntry(QUndoCommand):
    def __init__(self, session: MatchSession, events: list[Event], text: str) -> None:
        super().__init__(text)
        self.session = session
        self.events = list(events)
        self.reason = ""
        self.error: BaseException | None = None
        self.corrections: list[Event] = []
        self._recorded = True

    def redo(self) -> None:
        """Entries are recorded when entered; re-doing a voided entry is a new entry."""
        if self._recorded:
            return
        self._recorded = True

    def undo(self) -> None:
        self.error = None
        if not self.reason:
            self.error = ValueError("a correction needs a reason")
            return
        entries = [
            ("correction", {"target_seq": e.seq, "action": "void", "reason": self.reason})
            for e in reversed(self.events)
        ]
        try:
            self.corrections = self.session.submit_many(entries)
        except (ValueError, OSError) as error:
            self.error = error
            return
        self._recorded = False
