"""Issue 11 item 7: the results PDF lists each knockout match once, words violations and
ruleset values, keeps headings with what follows, prints "第 N 页 / 共 M 页" and the
printed-at time, has a real CreationDate (byte-stable only on request), and prints final
places as ranges ("17–32"), correct for an unfinished event too."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pypdf import PdfReader

from referee_desk.exports.pdf_common import make_styles
from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.print_options import PrintOptions, fixed
from referee_desk.exports.snapshot import take_snapshot
from tests.exports.big import big_snapshot
from tests.exports.pdf_read import flat, pages_text


def test_each_knockout_match_is_listed_once(knockout, tmp_path: Path) -> None:
    out = export_results_pdf(take_snapshot(knockout), tmp_path / "r.pdf", options=fixed())
    pages = pages_text(out)
    tables = [p for p in pages if "淘汰赛对阵 Knockout bracket" not in p]
    text = "".join(tables)
    assert "全部比赛 Every match" not in text
    for s in take_snapshot(knockout).ko():
        if s.status.value in ("bye", "void"):
            continue
        rows = [ln for ln in text.splitlines() if ln.strip().startswith(s.match.match_id)]
        assert len(rows) == 1, (s.match.match_id, rows)  # one table row, first column


def test_page_count_and_printed_at_on_every_page(knockout, tmp_path: Path) -> None:
    out = export_results_pdf(take_snapshot(knockout), tmp_path / "r.pdf", options=fixed())
    pages = pages_text(out)
    for n, page in enumerate(pages, start=1):
        assert f"第 {n} 页 / 共 {len(pages)} 页" in page
        assert "打印于 printed 2026-11-28 16:00 +08:00" in page


def test_creation_date_is_the_printed_at_time(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    one = PrintOptions(printed_at=datetime(2026, 11, 28, 2, 0, tzinfo=UTC))
    two = PrintOptions(printed_at=datetime(2026, 11, 28, 9, 30, tzinfo=UTC))
    a = PdfReader(export_results_pdf(snap, tmp_path / "a.pdf", options=one)).metadata
    b = PdfReader(export_results_pdf(snap, tmp_path / "b.pdf", options=two)).metadata
    assert a["/CreationDate"].startswith("D:20261128100000+08'00'")
    assert b["/CreationDate"].startswith("D:20261128173000+08'00'")
    now = PdfReader(export_results_pdf(snap, tmp_path / "c.pdf")).metadata["/CreationDate"]
    assert now[2:6] == str(datetime.now(UTC).year) and not now.startswith("D:2000")


def test_headings_keep_with_what_follows() -> None:
    s = make_styles()
    assert s.h1.keepWithNext and s.h2.keepWithNext


def test_no_page_ends_with_a_heading(groups, tmp_path: Path) -> None:
    out = export_results_pdf(take_snapshot(groups), tmp_path / "g.pdf", options=fixed())
    for page in pages_text(out):
        body = [line for line in page.splitlines() if line.strip()]
        body = [line for line in body if "打印于" not in line and "规则 ruleset" not in line]
        assert body, page
        last = body[-1].strip()
        assert not last.endswith(("standings", "matches", "Penalties summary")), last


def test_ruleset_values_and_violations_are_worded(knockout, tmp_path: Path) -> None:
    out = export_results_pdf(take_snapshot(knockout), tmp_path / "r.pdf")
    text = flat("".join(pages_text(out)))
    for raw in ("partner_or_next", "finish_hand", "multiply=", "wrong_play", "think_overrun",
                "conduct_warning", "redeal_first_else_nt"):  # fmt: skip
        assert raw not in text, raw
    assert "连庄对家坐庄" in text and "警告conductwarning" in text
    # 8.10 as the match report words it: the forfeiting side is counted at level 3.
    assert "弃权方按3级计" in text and "弃权方本场计0分，按3级计入成绩(8.10)" in text


def test_shared_places_are_ranges(tmp_path: Path) -> None:
    snap = big_snapshot(tmp_path / "t", 32)
    text = "".join(pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed())))
    assert text.count("第17–32名") == 16 and text.count("第9–16名") == 8
    assert "第17名" not in text


def test_unfinished_event_lists_the_places_already_decided(tmp_path: Path) -> None:
    """After round 1 of 32 pairs the 16 losers have their final place 17–32; no others."""
    snap = big_snapshot(tmp_path / "t", 32, rounds=1)
    text = "".join(pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed())))
    assert "名次（已确定部分）Places so far" in text
    assert text.count("第17–32名") == 16
    assert "第1名" not in text and "第9–16名" not in text
