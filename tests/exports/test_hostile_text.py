"""Issue 9 item 5 and hostile input in documents: every user text in the workbook is a
string, never a formula (read back with openpyxl: data_type 's', value unchanged); control
characters are cleaned and 10,000-character names do not break any export."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from referee_desk.exports.pdf_player_index import export_player_index_pdf
from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.pdf_round_pack import export_round_pack_pdf
from referee_desk.exports.print_options import fixed
from referee_desk.exports.snapshot import take_snapshot
from referee_desk.exports.xlsx_bracket import export_bracket_xlsx
from referee_desk.tournament.model import TournamentInfo
from tests.exports.big import big_tournament, decide
from tests.exports.pdf_read import pages_text

HOSTILE = (
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.example/","点我")',
    "+1+2",
    "-2+3",
    "@SUM(A1:A9)",
    "=1+1",
)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    names = {i + 1: (HOSTILE[i], HOSTILE[(i + 1) % len(HOSTILE)]) for i in range(len(HOSTILE))}
    t = big_tournament(folder, 8, names=names)
    t.info_table.update(
        TournamentInfo(
            "=WEBSERVICE(\"http://x\")", "2026-11-28", "", "@venue", "+organizer",
            tables=("=1+1", "-1"), referees=("@ref", "=cmd|'/c x'!A1"),
        )
    )  # fmt: skip
    for s in t.state().matches:
        t.draw_table.assign(s.match.match_id, table="=2*3", referee="@ref")
        break
    snap = take_snapshot(t, decide(t))
    t.close()
    return snap


def test_no_formula_anywhere_and_hostile_values_unchanged(hostile, tmp_path: Path) -> None:
    out = export_bracket_xlsx(hostile, tmp_path / "b.xlsx")
    wb = load_workbook(out)
    seen: set[str] = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    assert cell.data_type == "s"
                    for h in (*HOSTILE, "=2*3", "@ref", '=WEBSERVICE("http://x")'):
                        if h in cell.value:
                            seen.add(h)
                    if cell.value.startswith(("=", "+", "-", "@")):
                        assert cell.quotePrefix, (ws.title, cell.coordinate)
    assert "=cmd|' /C calc'!A0" in seen and "@SUM(A1:A9)" in seen and "=2*3" in seen
    # A cell holding exactly a hostile name keeps it exactly.
    matches = wb["全部比赛 Matches"]
    values = {c.value for row in matches.iter_rows() for c in row}
    assert "=2*3\n@ref" in values  # table and referee share a cell, each unchanged


def test_template_cells_get_strings_too(hostile, tmp_path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.workbook.defined_name import DefinedName

    wb = Workbook()
    wb.active.title = "封面"
    wb.defined_names["tournament_name"] = DefinedName("tournament_name", attr_text="'封面'!$B$2")
    template = tmp_path / "t.xlsx"
    wb.save(template)
    cell = load_workbook(export_bracket_xlsx(hostile, tmp_path / "o.xlsx", template=template))[
        "封面"
    ]["B2"]
    assert cell.value == '=WEBSERVICE("http://x")' and cell.data_type == "s"


@pytest.fixture(scope="module")
def rough(tmp_path_factory):
    """A 10,000-character name and control characters (validation at entry is the store's
    job; the documents must still print)."""
    folder = tmp_path_factory.mktemp("rough")
    names = {1: ("长" * 10_000, "短"), 2: ("张\x00伟\x07", "王\x1b[31m芳\u2028")}
    t = big_tournament(folder, 8)
    # add_pair refuses such names now: stored as by an older desk, or edited by hand.
    with t.file.transaction() as conn:
        conn.executemany(
            "UPDATE tournament_pairs SET player1 = ?, player2 = ? WHERE pair_id = ?",
            [(p1, p2, pair_id) for pair_id, (p1, p2) in names.items()],
        )
    snap = take_snapshot(t, decide(t))
    t.close()
    return snap


def test_long_names_and_control_characters_in_every_export(rough, tmp_path: Path) -> None:
    xlsx = export_bracket_xlsx(rough, tmp_path / "b.xlsx")
    results = export_results_pdf(rough, tmp_path / "r.pdf", options=fixed())
    pack = export_round_pack_pdf(rough, tmp_path / "p.pdf", 1, options=fixed())
    index = export_player_index_pdf(rough, tmp_path / "i.pdf", options=fixed())
    for pdf in (results, pack, index):
        text = "".join(pages_text(pdf))
        assert "\x00" not in text and "\x07" not in text and "\x1b" not in text
        assert "张 伟" in text or "张伟" in text
        assert "长长长长" in text and "…" in text
        assert "长" * 400 not in text  # shortened for print
    wb = load_workbook(xlsx)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    assert not any(ord(ch) < 32 and ch != "\n" for ch in cell.value)
                    assert len(cell.value) <= 2000
