"""Issue 17, item 8: undo lives in the model layer and works headless; the screens follow
one change signal of the open match.

What an undo means in an append-only record stays as the desk has always recorded it
(docs/desk.md: "Undo (Ctrl+Z) records a correction that voids the entry; nothing is ever
deleted"): one ``correction`` with action ``void`` per event of the entry, newest first,
with the referee's reason. That meaning is ``match.drafting.undo_entries``; the desk's
``QUndoStack`` only carries the entry and the reason to ``MatchSession.undo``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from referee_desk.match import SchemaRefused, replay
from referee_desk.match.drafting import undo_entries
from referee_desk.ui.main_session import MatchChange
from tests.ui.conftest import start_clock, types

ROOT = Path(__file__).resolve().parents[2]

#: Runs in a fresh interpreter: a two-event entry undone through the match layer alone.
HEADLESS = r"""
import json, sys
from referee_desk.match import Recorder, replay
from referee_desk.store.synthetic import opening_payload

at = "2026-11-29T06:00:0{}Z".format
rec = Recorder("m-1", "王裁判")
rec.record("match_opened", opening_payload("m-1", "王裁判"), at(0))
rec.record("clock_started", {}, at(1))
before = rec.state(at(9))
entry = rec.record_many(
    [("conduct_warning", {"seat": "E", "text": "交谈"}),
     ("conduct_warning", {"seat": "E", "text": "示意"})], at(2))
warned = rec.state(at(9))
corrections = rec.undo(entry, "entered by mistake", at(3))
after = rec.state(at(9))
refused = ""
try:
    rec.undo(entry, "", at(4))  # a correction must say why (the schema's text)
except ValueError as error:
    refused = type(error).__name__
print(json.dumps({
    "qt": sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6")),
    "types": [e.type for e in rec.events],
    "corrections": [e.payload for e in corrections],
    "warnings": [before.warnings == after.warnings, warned.warnings != before.warnings],
    "violations": [len(before.violations), len(warned.violations), len(after.violations)],
    "voided": sorted(after.voided_seqs),
    "warm_is_replay": after == replay(rec.events, now=at(9)),
    "refused": refused,
}))
"""


def test_an_entry_is_undone_headless_without_qt() -> None:
    out = subprocess.run(
        [sys.executable, "-c", HEADLESS], cwd=ROOT, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout)
    assert result["qt"] == []  # the match layer alone: no Qt loaded
    # Nothing deleted: the record grew by one void per event, newest first.
    assert result["types"] == [
        "match_opened",
        "clock_started",
        "conduct_warning",
        "conduct_warning",
        "correction",
        "correction",
    ]
    assert result["corrections"] == [
        {"target_seq": 4, "action": "void", "reason": "entered by mistake"},
        {"target_seq": 3, "action": "void", "reason": "entered by mistake"},
    ]
    assert result["warnings"] == [True, True]  # as before the entry
    assert result["violations"] == [0, 2, 0]
    assert result["voided"] == [3, 4]
    assert result["warm_is_replay"]
    assert result["refused"] == "SchemaRefused"  # and the refused undo recorded nothing


def test_the_desk_undo_is_the_model_operation_and_the_stack_only_carries_it(
    desk: Any, qtbot: Any
) -> None:
    start_clock(desk)
    session = desk.session
    entry = session.submit_many(
        [("conduct_warning", {"seat": "E", "text": "交谈"}), ("note", {"text": "同一条"})]
    )
    # Headless: the session's undo, no undo stack involved.
    corrections = session.undo(entry, "entered by mistake")
    assert [e.payload for e in corrections] == [
        p for _t, p in undo_entries(entry, "entered by mistake")
    ]
    assert session.state.voided_seqs >= {e.seq for e in entry}
    assert session.state == replay(session.events, now=session.state.clock.read_at_ms)
    # A refused undo (no reason) writes nothing.
    count = len(session.events)
    with pytest.raises(SchemaRefused):
        session.undo([session.events[1]], "")
    assert len(session.events) == count
    # The window's QUndoStack is a thin face: its undo is the same operation.
    second = session.submit("note", {"text": "备注"})
    desk.entries.push_entry([second], "Note")
    command = desk.undo_stack.command(desk.undo_stack.index() - 1)
    command.reason = "entered by mistake"
    desk.undo_stack.undo()
    assert command.error is None
    assert [e.payload for e in command.corrections] == [
        p for _t, p in undo_entries([second], "entered by mistake")
    ]
    assert types(desk)[-1] == "correction"


def test_the_screens_refresh_on_the_one_change_signal(desk: Any, qtbot: Any) -> None:
    """An entry or an undo made on the session itself, not through the undo stack,
    reaches every screen: the event log, the match view and the organizer's results."""
    start_clock(desk)
    desk.organizer_tabs.setCurrentWidget(desk.organizer)  # the organizer's tab is shown
    QApplication.processEvents()
    changes: list[MatchChange] = []
    desk.match.changed.connect(changes.append)
    index = desk.undo_stack.index()
    rows = desk.model.rowCount()
    with qtbot.waitSignal(desk.organizer.changed, timeout=2000):
        event = desk.session.submit("note", {"text": "备注：一条"})
    assert desk.undo_stack.index() == index  # the stack never moved
    assert changes == [MatchChange(desk.session, opened=False)]
    assert desk.model.rowCount() == rows + 1
    assert desk.ui.eventDetailLabel.text().startswith(f"#{event.seq}")
    with qtbot.waitSignal(desk.organizer.changed, timeout=2000):
        (correction,) = desk.session.undo([event], "entered by mistake")
    assert len(changes) == 2 and desk.model.rowCount() == rows + 2
    assert desk.ui.eventDetailLabel.text().startswith(f"#{correction.seq}")
    # Opening another match (or none) is a change too, marked as such.
    desk.match.set_session(None)
    assert changes[-1] == MatchChange(None, opened=True)
    assert desk.model.rowCount() == 0
