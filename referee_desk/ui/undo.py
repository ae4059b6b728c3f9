"""The undo stack's face of an entry: undo records a correction (never deletes).

The desk keeps a ``QUndoStack`` (the Qt conventions), but an undo is the session's
headless operation, ``MatchSession.undo``: one ``correction`` (action ``void``) per
event of the entry, newest first, with the reason the referee gave
(``match.drafting.undo_entries``). ``RecordedEntry`` only carries the entry and that
reason to it; if the match layer or the store refuses, ``error`` is set and nothing
changed.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee_desk.match.envelope import Event
from referee_desk.ui.session import MatchSession


class RecordedEntry(QUndoCommand):
    """One entry on the undo stack; ``reason`` is set before ``undo``."""

    def __init__(self, session: MatchSession, events: list[Event], text: str) -> None:
        super().__init__(text)
        self.session = session
        self.events = list(events)
        self.reason = ""
        self.error: BaseException | None = None
        self.corrections: list[Event] = []

    def redo(self) -> None:
        """Nothing: an entry is recorded when entered (the stack's first redo), and
        re-doing a voided entry is a new entry."""

    def undo(self) -> None:
        self.error = None
        try:
            self.corrections = self.session.undo(self.events, self.reason)
        except (ValueError, OSError) as error:
            self.error = error
