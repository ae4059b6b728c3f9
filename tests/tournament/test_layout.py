"""Bracket geometry shared by the sheet and the desk: each box covers the two that feed it."""

from __future__ import annotations

import pytest

from referee_desk.tournament.elimination import THIRD_PLACE_ID, build_elimination
from referee_desk.tournament.layout import bracket_layout
from referee_desk.tournament.model import Settings, Slot
from referee_desk.tournament.state import resolve


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 64, 256])
def test_boxes_nest(n: int) -> None:
    matches = build_elimination([Slot("pair", i) for i in range(1, n + 1)], third_place=True)
    state = resolve(matches, {}, {}, Settings())
    layout = bracket_layout(state.matches)
    size = 1 << (n - 1).bit_length()
    assert layout.lines == size and layout.rounds == size.bit_length() - 1
    by_id = {m.match_id: m for m in matches}
    for box in layout.boxes:
        m = by_id[box.match_id]
        if box.third_place:
            assert box.top > layout.lines - 1 and box.match_id == THIRD_PLACE_ID
            continue
        assert box.column == m.round - 1 and box.top >= 0 and box.bottom < layout.lines
        if m.round > 1:
            a = layout.box(m.slot_a.ref)
            b = layout.box(m.slot_b.ref)
            # Pair A's half covers feeder A exactly, pair B's half covers feeder B.
            assert (a.top, a.bottom) == (box.top, box.top + box.half - 1)
            assert (b.top, b.bottom) == (box.top + box.half, box.bottom)
