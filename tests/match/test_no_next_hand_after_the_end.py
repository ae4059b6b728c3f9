"""Passing A ends the match (1.5): the hand that does it announces no next hand (2.3)."""

from __future__ import annotations

import json
from pathlib import Path

from referee_desk.match import Event, replay

SAMPLE = Path(__file__).resolve().parents[2] / "sample_events" / "01_pass_a_detailed.jsonl"


def _events() -> list[Event]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    return [Event.from_dict(json.loads(line)) for line in lines if line.strip()]


def test_the_hand_that_passes_a_names_no_next_dealer() -> None:
    state = replay(_events())
    assert state.end is not None and state.end.reason == "passed_a"
    last = state.end.seq
    articles = [c.article for c in state.consequences if c.seq == last]
    assert "1.5" in articles
    assert "2.3" not in articles
    # Every earlier hand still names the next dealer, shuffler and cutter (2.3).
    earlier = {c.seq for c in state.consequences if c.article == "2.3"}
    assert earlier and all(seq < last for seq in earlier)
