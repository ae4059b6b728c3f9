"""Issue 19 (smaller): the documents' event list read "主 无主 NT" for a no-trump hand."""

from __future__ import annotations

from types import SimpleNamespace

from referee_desk.exports.event_text import describe


def _closed(trump: str) -> str:
    event = SimpleNamespace(type="bidding_closed", payload={"dealer": "N", "trump": trump})
    return describe(event)  # type: ignore[arg-type]


def test_no_trump_reads_wu_zhu_and_a_suit_keeps_zhu() -> None:
    assert _closed("NT") == "庄 北N · 无主 NT"
    assert _closed("H").endswith("· 主 ♥") and "主 无主" not in _closed("NT")
