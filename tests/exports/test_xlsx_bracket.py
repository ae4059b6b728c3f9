"""The bracket workbook written and read back with openpyxl (issues 6 and 11: the tree's
lines and connectors, names, seeds, tables, results and the way each match was decided;
one page wide with the fitToPage flag, print titles, frozen header rows; template
names; groups packed on one sheet with rank-ordered cross-tables; row heights)."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook, load_workbook
from openpyxl.workbook.defined_name import DefinedName

from referee_desk.exports.labels import pair_text
from referee_desk.exports.snapshot import take_snapshot
from referee_desk.exports.xlsx_bracket import (
    CROSS_FROM,
    HEADER_ROWS,
    MATCH_COLUMNS,
    export_bracket_xlsx,
)
from referee_desk.tournament.final_places import final_places
from referee_desk.tournament.state import Status
from tests.exports.big import big_snapshot


def all_text(ws) -> str:
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)


def test_sheets_and_print_settings(knockout, tmp_path: Path) -> None:
    out = export_bracket_xlsx(take_snapshot(knockout), tmp_path / "b.xlsx")
    wb = load_workbook(out)
    assert wb.sheetnames == ["赛事 Info", "淘汰赛 Knockout", "全部比赛 Matches"]
    for ws in wb.worksheets:
        assert ws.sheet_properties.pageSetUpPr.fitToPage is True
        assert ws.page_setup.fitToWidth == 1
        assert knockout.info.name in ws["A1"].value
        # The ruleset in force is printed on every page.
        assert "guilin-2009:" in ws.oddFooter.left.text
        assert "misplay=10" in ws.oddFooter.left.text
    for name in ("赛事 Info", "全部比赛 Matches"):
        ws = wb[name]
        assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToHeight == 0
        assert ws.print_title_rows == f"$1:${HEADER_ROWS}"
        assert ws.freeze_panes == f"A{HEADER_ROWS + 1}"
    # The bracket sheet prints on one portrait page.
    tree = wb["淘汰赛 Knockout"]
    assert tree.page_setup.orientation == "portrait" and tree.page_setup.fitToHeight == 1


def _row_of(ws, text: str, column: int) -> int:
    for row in ws.iter_rows(min_col=column, max_col=column):
        if row[0].value and text in str(row[0].value):
            return row[0].row
    raise AssertionError(f"{text!r} not in column {column}")


def test_bracket_is_a_tree_with_lines_and_connectors(knockout, tmp_path: Path) -> None:
    """Each pair stands on a line (bottom border); the rows between a match's two lines
    carry the connector (right border); the winner's line is in the next column midway."""
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["淘汰赛 Knockout"]
    m = snap.state.match("KO-R2-M001")
    a = snap.pair(m.pair_a).name  # the club is dropped when the column is too narrow
    b = snap.pair(m.pair_b).name
    col = 2  # round 2 of 4 (the quarterfinal is column 1 here)
    ra, rb = _row_of(ws, a, col), _row_of(ws, b, col)
    assert ws.cell(ra, col).border.bottom.style == "medium"
    assert ws.cell(rb, col).border.bottom.style == "medium"
    for r in range(ra + 1, rb + 1):
        assert ws.cell(r, col).border.right.style in ("medium", "thick"), r
    assert ws.cell(ra, col).border.right is None  # the connector starts at A's line
    winner = snap.pair(m.winner).name
    rw = _row_of(ws, winner, col + 1)
    assert ra < rw < rb and ws.cell(rw, col + 1).border.bottom.style == "medium"
    assert "KO-R2-M001" in ws.cell(rw + 1, col + 1).value  # the match id under the winner
    champion = snap.pair(snap.state.match("KO-R3-M001").winner).name
    assert champion in all_text(ws) and "冠军 Champion" in all_text(ws)


def test_bracket_shows_names_seeds_tables_and_decisions(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["淘汰赛 Knockout"]
    text = all_text(ws)
    assert "[1] 张伟 / 王芳" in text  # seed, names
    assert "1号桌" in text  # table
    assert "弃权 W/O" in text and "取消资格 DQ" in text  # marked wins
    assert "待仲裁" in text  # the held branch
    assert "KO-R2-M004" in text
    assert "三四名决赛" in text  # the third-place match below the tree
    held = snap.state.match("KO-R2-M004")
    assert held.status is Status.HELD


def test_matches_sheet_lists_every_match_with_rule(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["全部比赛 Matches"]
    rows = list(ws.iter_rows(min_row=HEADER_ROWS + 1, values_only=True))
    assert [r[0] for r in rows] == [s.match.match_id for s in snap.state.matches]
    by_id = {r[0]: r for r in rows}
    how = MATCH_COLUMNS.index("决胜方式 Decided by")
    assert "forfeit (8.10)" in by_id["KO-R2-M002"][how]
    assert "disqualification (8.8)" in by_id["KO-R2-M003"][how]
    assert "time-out" in by_id["KO-R3-M001"][how] and "(1.5)" in by_id["KO-R3-M001"][how]
    decided = snap.state.match("KO-R2-M001")
    hash_at = MATCH_COLUMNS.index("记录哈希 Record hash")
    assert by_id["KO-R2-M001"][hash_at] == decided.outcome.final_hash[:12]


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
    assert "小组 Groups" in wb.sheetnames  # every group on one sheet
    ws = wb["小组 Groups"]
    standings = next(s for s in snap.state.standings if s.group == "A")
    top = _row_of(ws, "A组 Group A", 1)
    first = [c.value for c in ws[top + 1]]
    assert first[0] == "1" and first[1].startswith(f"#{standings.rows[0].pair_id} ")
    assert first[4] == standings.rows[0].wins == 3
    assert "胜 " in all_text(ws) and "负 " in all_text(ws)
    assert "B组 Group B" in all_text(ws)


def test_cross_table_rows_and_columns_in_rank_order(groups, tmp_path: Path) -> None:
    """Issue 11: columns follow the rank order of the rows, so "—" is on the diagonal."""
    snap = take_snapshot(groups)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "g.xlsx"))["小组 Groups"]
    for st in snap.state.standings:
        top = _row_of(ws, f"{st.group}组 Group {st.group}", 1)
        heads = [ws.cell(top, CROSS_FROM + k).value for k in range(len(st.rows))]
        assert heads == [f"{k + 1}. #{r.pair_id}" for k, r in enumerate(st.rows)]
        for k, _ in enumerate(st.rows):
            row = [ws.cell(top + 1 + k, CROSS_FROM + j).value for j in range(len(st.rows))]
            assert [j for j, v in enumerate(row) if v == "—"] == [k]


def test_groups_share_pages(tmp_path: Path) -> None:
    """12 groups of 4 print several to a page (row breaks), not one page per group."""
    snap = big_snapshot(tmp_path / "g", 48, groups=12)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "g.xlsx"))["小组 Groups"]
    pages = len(ws.row_breaks.brk) + 1
    assert 2 <= pages <= 4
    assert "L组 Group L" in all_text(ws)


def test_info_sheet_places_sit_in_their_columns(knockout, tmp_path: Path) -> None:
    """Issue 11: a place row has the place in 项目, the pair in 内容, nothing under 条款."""
    snap = take_snapshot(knockout)
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["赛事 Info"]
    rows = [r for r in ws.iter_rows(min_row=HEADER_ROWS + 1, values_only=True)]
    places = [r for r in rows if r[0] and str(r[0]).startswith("名次")]
    assert places
    expected = final_places(snap.state, snap.settings)
    assert len(places) == len(expected)
    for (item, value, article), place in zip(places, expected, strict=True):
        assert item.endswith(place.label)
        assert value.startswith(pair_text(snap.pair(place.pair_id))[:8])
        assert (article or "") == place.note


def test_wrapped_rows_get_heights(knockout, tmp_path: Path) -> None:
    """Issue 8: rows with wrapped text have a height, so lines do not overlap."""
    ws = load_workbook(export_bracket_xlsx(take_snapshot(knockout), tmp_path / "b.xlsx"))[
        "全部比赛 Matches"
    ]
    for r in range(HEADER_ROWS + 1, ws.max_row + 1):
        height = ws.row_dimensions[r].height
        assert height is not None and height >= 15
        text = " ".join(str(c.value or "") for c in ws[r])
        if len(text) > 150:
            assert height > 15


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
    champion = next(p for p in final_places(snap.state, snap.settings) if p.first == 1)
    assert snap.pair(champion.pair_id).name in out["封面"]["C4"].value


def test_a3_option_for_the_bracket_sheets(tmp_path: Path) -> None:
    from referee_desk.exports.print_options import PrintOptions

    snap = big_snapshot(tmp_path / "t", 64)
    wb = load_workbook(
        export_bracket_xlsx(snap, tmp_path / "b.xlsx", options=PrintOptions(paper="A3"))
    )
    parts = [n for n in wb.sheetnames if n.startswith("淘汰赛")]
    assert parts == [f"淘汰赛 第{k}区 KO part {k}" for k in range(1, 5)] + [
        "淘汰赛 决赛阶段 KO final"
    ]
    for name in parts:
        ws = wb[name]
        assert str(ws.page_setup.paperSize) == ws.PAPERSIZE_A3
        assert ws.page_setup.fitToHeight == 1 and ws.page_setup.orientation == "portrait"
    assert "续见工作表「淘汰赛 决赛阶段 KO final」" in all_text(wb[parts[0]])
    assert "第4区 part" in all_text(wb[parts[-1]])  # the final rounds label each part's winner
