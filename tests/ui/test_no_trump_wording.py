"""Issue 19 (smaller): a no-trump hand read "主 无主" (zh) and "trump no-trump" (en) in the
status line and in the log's consequence; it reads "无主" / "no trump" (RULES 13: 无主)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import play_later_hand_nt, play_opening_hand, start_clock, summary_hand


@pytest.mark.parametrize(
    ("language", "status", "logged", "event", "wrong"),
    [
        ("zh_CN", "无主 · 打 ", "，无主", "叫牌结束 无主", "主 无主"),
        ("en", "No trump · playing ", ", no trump", "bidding closed no-trump", "trump no-trump"),
    ],
)
def test_a_no_trump_hand_is_worded_naturally(
    desk: Any,
    qtbot: Any,
    languages: Any,
    language: str,
    status: str,
    logged: str,
    event: str,
    wrong: str,
) -> None:
    languages.apply(language)
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    suit_line = desk.ui.trumpLabel.text()
    assert "♥" in suit_line and ("主" in suit_line if language == "zh_CN" else "Trump" in suit_line)
    summary_hand(desk, 100)
    play_later_hand_nt(desk)  # nobody bids: no trump
    QApplication.processEvents()
    assert desk.ui.trumpLabel.text().startswith(status), desk.ui.trumpLabel.text()
    model = desk.model
    cells = [
        str(model.index(row, col).data() or "")
        for row in range(model.rowCount())
        for col in range(model.columnCount())
    ]
    assert any(cell.endswith(logged) for cell in cells), cells[-12:]
    # The event column names no trump in the desk's language (it showed "叫牌结束 NT").
    assert event in cells, cells[-12:]
    assert not any(cell.endswith(" NT") for cell in cells), cells[-12:]
    shown = "\n".join([*cells, desk.ui.trumpLabel.text(), desk.ui.eventDetailLabel.text()])
    assert wrong not in shown
