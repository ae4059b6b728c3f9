"""The match title is shown whole (issue 19 screenshots: at 1024×700 in English it
ended "Rules: Guilin 2009 (four de", cut by the thinking clock)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_title_is_never_cut(
    desk: Any, languages: Any, language: str, size: tuple[int, int]
) -> None:
    languages.apply(language)
    desk.resize(*size)
    desk.show()
    QApplication.processEvents()
    label = desk.ui.titleLabel
    assert "2009" in label.text()
    width = label.contentsRect().width()
    if label.wordWrap():
        assert label.heightForWidth(width) <= label.contentsRect().height(), label.text()
    else:
        assert label.fontMetrics().horizontalAdvance(label.text()) <= width, label.text()
