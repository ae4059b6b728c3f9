"""The log's consequence column and the previews word consequences in the interface
language (RULES 13 glossary): Chinese on the zh_CN desk, English on the en desk, and
the column follows a language switch without a restart."""

from __future__ import annotations

import re
from typing import Any

from referee_desk.ui.event_model import COLUMNS
from tests.ui.conftest import play_opening_hand, start_clock, summary_hand


def _consequence_column(desk: Any) -> list[str]:
    model = desk.model
    column = COLUMNS.index("consequence")
    return [model.index(row, column).data() or "" for row in range(model.rowCount())]


def test_zh_log_consequence_column_is_chinese(desk: Any, qtbot: Any) -> None:
    """7.2: D = 100 → b = ⌊(100 − 160)/40⌋ = −2: 庄家方南北升 2 级，连庄."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)  # N wins the race: N–S declare at 3, trump ♥
    desk.prefs.set_language("zh_CN")
    preview = summary_hand(desk, 100)
    assert "连庄" in preview and "keep the deal" not in preview
    cells = [c for c in _consequence_column(desk) if c]
    joined = " ".join(cells)
    assert "第 1 盘：北坐庄，庄家方南北打 3，主 ♥" in joined
    assert "防守方东西得分 100 → 庄家方南北升 2 级，连庄" in joined
    assert "下一盘：南坐庄" in joined
    assert not re.search(r"\b(declarers|defenders|dealer|hand|trump|deals)\b", joined), joined
    # Switching to English re-words the same consequences.
    desk.prefs.set_language("en")
    english = " ".join(c for c in _consequence_column(desk) if c)
    assert "defenders EW 100 → declarers NS +2, keep the deal (连庄)" in english
    assert "hand 1: dealer N, declarers NS at level 3, trump ♥" in english
