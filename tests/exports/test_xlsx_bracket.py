"""The bracket workbook written and read back with openpyxl (issue 6: borders and merged
cells, names, seeds, tables, results and the way each match was decided; landscape, one
page wide with the fitToPage flag, print titles, frozen header rows; template names)."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook, load_workbook
from openpyxl.workbook.defined_name import DefinedName

from referee_desk.exports.snapshot import take_snapshot
from referee_desk.exports.xlsx_bracket import HEADER_ROWS, export_bracket_xlsx
from referee_desk.tournament.state import Status


def all_text(ws) -> str:
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)


def test_sheets_and_print_settings(knockout, tmp_path: Path) -> None:
    out = export_bracket_xlsx(take_snapshot(knockout), tmp_path / "b.xlsx")
    wb = load_workbook(out)
    assert wb.sheetnames == ["赛事 Info", "淘汰赛 Knockout", "全部比赛 Matches"]
    for ws in wb.worksheets:
        assert ws.page_setup.orientation == "landscape"
        assert ws.sheet_properties.pageSetUpPr.fitToPage is True
        assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
        assert ws.print_title_rows == f"$1:${HEADER_ROWS}"
        assert ws.freeze_panes == f"A{HEADER_ROWS + 1}"
        assert knockout.info.name in ws["A1"].value
        # The ruleset in force is printed on every page.
        assert "guilin-2009:" in ws.oddFooter.left.text
        assert "misplay=10" in ws.oddFooter.left.text


def test_bracket_boxes_are_merged_and_bordered(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["淘汰赛 Knockout"]
    merged = {str(r) for r in ws.merged_cells.ranges}
    base = HEADER_ROWS + 1
    # Round 2 match 1: pair A over rows base..base+1 in column C, pair B below it.
    assert f"C{base}:C{base + 1}" in merged and f"C{base + 2}:C{base + 3}" in merged
    # Its result cell spans the whole 4-row block in column D.
    assert f"D{base}:D{base + 3}" in merged
    # Borders were set before merging, so the range's edge cells carry them.
    top, bottom = ws[f"C{base}"], ws[f"C{base + 1}"]
    assert top.border.top.style == "medium" and top.border.left.style == "medium"
    assert bottom.border.left.style == "medium" and bottom.border.right.style == "medium"
    result = ws[f"D{base + 3}"]
    assert result.border.bottom.style == "medium" and result.border.right.style == "medium"


def test_bracket_shows_names_seeds_tables_and_decisions(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["淘汰赛 Knockout"]
    text = all_text(ws)
    assert "[1] 张伟 / 王芳 (桂林电子)" in text  # seed, names, club
    assert "1号桌 · 王磊" in text  # table and referee
    assert "弃权 W/O" in text and "取消资格 DQ" in text  # marked wins
    assert "待仲裁" in text  # the held branch
    assert "KO-R2-M004" in text
    held = snap.state.match("KO-R2-M004")
    assert held.status is Status.HELD


def test_matches_sheet_lists_every_match_with_rule(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["全部比赛 Matches"]
    rows = list(ws.iter_rows(min_row=HEADER_ROWS + 1, values_only=True))
    assert [r[0] for r in rows] == [s.match.match_id for s in snap.state.matches]
    by_id = {r[0]: r for r in rows}
    assert "forfeit (8.10)" in by_id["KO-R2-M002"][10]
    assert "disqualification (8.8)" in by_id["KO-R2-M003"][10]
    assert "time-out" in by_id["KO-R3-M001"][10] and "(1.5)" in by_id["KO-R3-M001"][10]
    decided = snap.state.match("KO-R2-M001")
    assert by_id["KO-R2-M001"][12] == decided.outcome.final_hash[:16]


def test_info_sheet_prints_ruleset_and_tie_breaks(knockout, tmp_path: Path) -> None:
    ws = load_workbook(export_bracket_xlsx(take_snapshot(knockout), tmp_path / "b.xlsx"))[
        "赛事 Info"
    ]
    text = all_text(ws)
    assert "guilin-2009" in text and "出错牌每张罚分 wrong play points/card" in text
    assert "胜场 wins > 终局级差 level_diff > 相互胜负 head_to_head > 抽签 lots" in text


def test_group_standings_sheet(groups, tmp_path: Path) -> None:
    snap = take_snapshot(groups)
    wb = load_workbook(export_bracket_xlsx(snap, tmp_path / "g.xlsx"))
    assert "A组 Group A" in wb.sheetnames and "B组 Group B" in wb.sheetnames
    ws = wb["A组 Group A"]
    standings = next(s for s in snap.state.standings if s.group == "A")
    first = [c.value for c in ws[HEADER_ROWS + 1]]
    assert first[0] == "1" and first[1].startswith(f"#{standings.rows[0].pair_id} ")
    assert first[4] == standings.rows[0].wins == 3
    assert "胜 " in all_text(ws) and "负 " in all_text(ws)


def test_template_defined_names_are_filled(groups, tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "封面"
    ws["B2"] = "赛事名称"
    wb.defined_names["tournament_name"] = DefinedName("tournament_name", attr_text="'封面'!$C$2")
    wb.defined_names["champion"] = DefinedName("champion", attr_text="'封面'!$C$4")
    template = tmp_path / "template.xlsx"
    wb.save(template)
    snap = take_snapshot(groups)
    out = load_workbook(export_bracket_xlsx(snap, tmp_path / "t.xlsx", template=template))
    assert out.sheetnames[0] == "封面" and "淘汰赛 Knockout" in out.sheetnames
    assert out["封面"]["C2"].value == groups.info.name
    assert out["封面"]["B2"].value == "赛事名称"  # the organizer's own cells stay
    champion = next(p for p in snap.state.places if p.place == 1)
    assert snap.pair(champion.pair_id).name in out["封面"]["C4"].value
