"""The match report prints derived consequences in Chinese for club players (RULES 13
glossary), keeping each article; read back from the PDF with pypdf."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from referee_desk.exports.pdf_match_report import export_match_report_pdf
from referee_desk.match import replay
from referee_desk.rules.wording import describe
from referee_desk.store.jsonl import read_jsonl

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"


def _text(path: Path) -> str:
    raw = "".join(page.extract_text() for page in PdfReader(path).pages)
    return re.sub(r"\s+", "", raw)


def test_match_report_prints_consequences_in_chinese(tmp_path: Path) -> None:
    events = [i.event for i in read_jsonl(SAMPLES / "04_false_bid_wrong_dealer.jsonl")]
    state = replay(events)
    text = _text(export_match_report_pdf(events, tmp_path / "m.pdf"))
    # 8.6 诈叫 and 8.5 坐庄顺序错误 as the report words them, with their articles.
    assert "诈叫" in text and "坐庄顺序错误" in text
    for c in state.consequences:
        if c.article in ("8.5", "8.6", "7.2", "7.1"):
            zh = re.sub(r"\s+", "", describe(c, "zh_CN"))
            assert zh[:12] in text, zh
    # The English wording of those consequences is not printed.
    assert "dealtoutofturn" not in text and "falsebidby" not in text
    assert "连庄" in text or "上台" in text
