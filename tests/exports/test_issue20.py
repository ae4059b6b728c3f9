"""Issue 20: documents a print shop and a committee accept at any size.

Each test reads the printed files back (pdftotext, font sizes with pypdf, cells with
openpyxl; the xlsx also converted by LibreOffice where ``soffice`` is installed).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

from referee_desk.cli.main import main
from referee_desk.exports.labels import pair_text
from referee_desk.exports.pdf_match_report import export_match_report_pdf
from referee_desk.exports.pdf_player_index import export_player_index_pdf
from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.print_options import fixed, parse_tz
from referee_desk.exports.snapshot import take_snapshot
from referee_desk.exports.text_fit import fit_lines
from referee_desk.exports.xlsx_bracket import export_bracket_xlsx
from referee_desk.exports.xlsx_fit import UNIT_POINTS, text_width
from referee_desk.match import new_event
from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.model import Decision, Settings
from referee_desk.tournament.player_index import player_index, sort_key
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from tests.exports.big import big_snapshot
from tests.exports.conftest import INFO
from tests.exports.pdf_read import flat, pages_text, sized_runs

SOFFICE = shutil.which("soffice")


def _to_pdf(xlsx: Path) -> Path:
    subprocess.run(
        [SOFFICE, "--headless", "--convert-to", "pdf", "--outdir", str(xlsx.parent), str(xlsx)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return xlsx.with_suffix(".pdf")


def _names(snap) -> set[str]:
    return {n for p in snap.pairs.values() for n in (p.player1, p.player2)}


# -- items 1 and 2: the workbook prints at full size --------------------------------


@pytest.mark.parametrize("n", [16, 64, 256])
def test_tree_cells_hold_whole_names_and_notes(n: int, tmp_path: Path) -> None:
    """Item 1: no name cell of a tree sheet is cut (no "…"), the final-rounds sheet
    names each part's winner in full under its part label, and every text written in
    a tree cell fits its column (read back from the cells)."""
    snap = big_snapshot(tmp_path / "t", n)
    wb = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))
    trees = [ws for ws in wb.worksheets if ws.title.startswith("淘汰赛")]
    for ws in trees:
        width = ws.column_dimensions["A"].width * UNIT_POINTS
        for row in ws.iter_rows(min_row=4):
            for cell in row:
                text = cell.value
                if not isinstance(text, str) or cell.coordinate in ws.merged_cells:
                    continue
                assert "…" not in text or "(" not in text, (ws.title, cell.coordinate, text)
                size = cell.font.sz or 11
                assert text_width(text, size) <= width + 1, (ws.title, cell.coordinate, text)
    if n > 16:
        final = wb["淘汰赛 决赛阶段 KO final"]
        texts = [c.value for r in final.iter_rows() for c in r if isinstance(c.value, str)]
        assert "第1区 part" in texts and not any(t.startswith("第1区 · ") for t in texts)
        part_winners = {t for t in texts if "/" in t and "…" not in t}
        assert len(part_winners) >= len([t for t in texts if t.startswith("第")]) - 1


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.parametrize("n", [16, 256, "groups"])
def test_every_sheet_prints_names_at_8_pt_and_nothing_under_6(n, tmp_path: Path) -> None:
    """Item 2: converted by LibreOffice, every page prints the players' names at ≥ 8 pt
    and no text (captions, the ruleset footer) under 6 pt; the names are all there."""
    snap = (
        big_snapshot(tmp_path / "t", 48, groups=12)
        if n == "groups"
        else big_snapshot(tmp_path / "t", n)
    )
    pdf = _to_pdf(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))
    pages = pages_text(pdf)
    for page in range(len(pages)):
        runs = sized_runs(pdf, page)
        assert runs, page
        small = min(runs, key=lambda r: r[1])
        assert small[1] >= 6, (page + 1, small)
        names = [(t, s) for t, s in runs if "甲" in t or "乙" in t]
        assert all(s >= 8 for _, s in names), (page + 1, min(names, key=lambda r: r[1]))
    text = flat("".join(pages))
    assert all(flat(name) in text for name in _names(snap))


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_titles_and_continued_notes_are_not_cut_at_the_print_edge(tmp_path: Path) -> None:
    """Item 1: the part sheets' title and "continued" note print whole."""
    snap = big_snapshot(tmp_path / "t", 64)
    pdf = _to_pdf(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))
    text = flat("".join(pages_text(pdf)))
    assert flat("淘汰赛 第4区 part 4/4 (签位 lines 49–64)") in text
    assert flat("本区胜者续见工作表「淘汰赛 决赛阶段 KO final」 the part winner continues") in text
    assert flat("淘汰赛 决赛阶段 Knockout final rounds") in text


# -- item 4: one answer to "how was it decided" -------------------------------------


def _cup(folder: Path) -> Tournament:
    t = Tournament.create(folder / "cup.sqlite", INFO, Settings())
    for i in range(1, 5):
        t.add_pair(f"张{i}", f"李{i}", "漓江", i)
    t.draw(draw_seed=1)
    return t


def _ruled(t: Tournament, folder: Path, payload: dict) -> str:
    """The first match: NS pass A after a referral (two warnings); the committee rules."""
    m = t.state().matches[0]
    mid = m.match.match_id
    events = simulate_match(mid, t.opening_payload(mid), "NS", "pending")
    write_jsonl(events, folder / "m.jsonl")
    assert import_records(t, [folder / "m.jsonl"]).ok
    t.file.people.add_person("仲裁委员会", "committee", "2468")
    draft = new_event(
        t.file.events(mid), "committee_ruling", payload, "仲裁委员会", "2026-11-29T14:00:00.000Z"
    )
    t.file.append(draft, by=t.file.people.login("仲裁委员会", "2468", role="committee"))
    t.invalidate()
    return mid


@pytest.mark.parametrize(
    ("payload", "decision"),
    [
        ({"text": "驳回申诉，扣10分 appeal rejected"}, Decision.PASSED_A),
        ({"text": "南北方级数调至A", "level_changes": {"NS": 0}}, Decision.COMMITTEE),
    ],
)
def test_results_and_match_report_say_the_same_decision(payload, decision, tmp_path) -> None:
    t = _cup(tmp_path)
    mid = _ruled(t, tmp_path, payload)
    st = t.state().match(mid)
    assert st.decided_by is decision
    results = flat("".join(pages_text(export_results_pdf(take_snapshot(t), tmp_path / "r.pdf"))))
    report = export_match_report_pdf(t.file.events(mid), tmp_path / "m.pdf", options=fixed())
    report_text = flat("".join(pages_text(report)))
    words = flat(f"{decision.label_zh} {decision.label_en} ({decision.article})")
    assert words in report_text
    assert decision.label_zh in results  # a table cell: wrapped, so the Chinese words
    other = Decision.COMMITTEE if decision is Decision.PASSED_A else Decision.PASSED_A
    assert other.label_zh not in results.replace("未打过A", "")
    assert flat(f"decided by {other.label_zh}") not in report_text
    t.close()


# -- item 7: the wall list ----------------------------------------------------------


def test_player_index_in_pinyin_order_at_12_pt_from_page_1(tmp_path: Path) -> None:
    names = {
        1: ("张伟", "王芳"), 2: ("李娜", "阿明"), 3: ("赵敏", "周志"), 4: ("吕方", "陈静"),
        5: ("张薇", "张玮"), 6: ("Anna", "欧阳修"),
    }  # fmt: skip
    snap = big_snapshot(tmp_path / "t", 64, names=names)
    entries = player_index(snap.pairs, snap.state.matches, snap.round_names)
    order = [e.name for e in entries if e.pair_id <= 6]
    # 阿 a1 < Anna < 陈 chen < 李 li < 吕 lü < 欧阳 ou < 王 wang < 张薇 wei1 < 张伟 wei3
    # = 张玮 wei3 (same pinyin: radical-and-stroke order, 亻 before 王) < 赵 zhao < 周 zhou.
    assert order == [
        "阿明", "Anna", "陈静", "李娜", "吕方", "欧阳修", "王芳", "张薇", "张伟", "张玮", "赵敏",
        "周志",
    ]  # fmt: skip
    assert sort_key("张伟") < sort_key("张玮")  # code point fallback
    # Numbers by value, and 甲 jia before 乙 yi whatever the number.
    assert sort_key("陈甲5") < sort_key("陈甲25") < sort_key("陈甲105") < sort_key("陈乙5")
    pdf = export_player_index_pdf(snap, tmp_path / "p.pdf", options=fixed())
    pages = pages_text(pdf)
    assert len(pages) > 1
    assert (
        "阿明" in pages[0] and "选手 Player" in pages[0]
    )  # page 1 holds the list, not just the title
    body = [(t, s) for t, s in sized_runs(pdf, 0) if "甲" in t or "乙" in t or "阿明" in t]
    assert body and min(s for _, s in body) >= 12


# -- item 10: the small things ------------------------------------------------------


def test_tz_negative_offset_and_iana_names(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    assert main(["export", "scoresheet", "-", "-o", str(out), "--tz", "-05:00"]) == 0
    assert main(["export", "scoresheet", "-", "-o", str(out), "--tz", "Asia/Shanghai"]) == 0
    assert main(["export", "scoresheet", "-", "-o", str(out), "--tz", "Mars/Base"]) == 1
    options = fixed(tz=parse_tz("America/New_York"))
    assert options.local("2026-07-01T12:00:00Z") == "2026-07-01 08:00:00 -04:00"  # DST
    assert options.local("2026-12-01T12:00:00Z") == "2026-12-01 07:00:00 -05:00"
    assert fixed(tz=parse_tz("-05:00")).local("2026-12-01T12:00:00Z").endswith("-05:00")


def test_closing_bracket_never_wraps_alone() -> None:
    from referee_desk.exports.fonts import font_set

    fonts = font_set()
    text = "[1] 王甲一 / 王乙一 (桂林电子科技大学俱乐部)"
    for width in range(40, 200, 3):
        lines = fit_lines(fonts, text, width, 9, 9, 6).lines
        assert all(not line.startswith(")") for line in lines), (width, lines)


# -- item 5: every bye named ------------------------------------------------------


def test_round_one_pairing_list_names_every_bye(tmp_path: Path) -> None:
    from referee_desk.exports.pdf_round_pack import export_round_pack_pdf
    from referee_desk.tournament.rounds import play_round

    snap = big_snapshot(tmp_path / "t", 33, rounds=0)
    rnd = play_round(snap.state.matches, 1)
    assert len(rnd.byes) == 31
    pdf = export_round_pack_pdf(snap, tmp_path / "r1.pdf", 1, options=fixed())
    pages = pages_text(pdf)
    wall = flat("".join(p for p in pages if "对阵表" in p or "轮空" in p))
    for m in rnd.byes:
        pair = snap.pair(m.winner)
        assert flat(f"{pair.player1} / {pair.player2}") in wall, m.match.match_id
    assert "…" not in wall


# -- item 8: head-to-head and the tie-break that separated -------------------------

#: In each group of four (by pair id a < b < c < d): b and c end 2–1 with equal level
#: differences and b beat c; a and d end 1–2 and a beat d.
BEATS = {(1, 0), (1, 2), (3, 1), (2, 0), (2, 3), (0, 3)}


def _tied_groups(folder: Path):
    from referee_desk.tournament.model import MatchOutcome
    from referee_desk.tournament.state import Status
    from tests.exports.big import big_tournament

    t = big_tournament(folder, 8, groups=2)
    members = {name: sorted(ids) for name, ids in t.draw_table.groups().items()}
    outcomes: dict[str, MatchOutcome] = {}
    while True:
        ready = [s for s in t.state(outcomes).matches if s.status is Status.READY]
        if not ready:
            break
        for s in ready:
            a, b = s.pair_a, s.pair_b
            if s.match.group:
                order = members[s.match.group]
                win = a if (order.index(a), order.index(b)) in BEATS else b
            else:
                win = min(a, b)
            outcomes[s.match.match_id] = MatchOutcome(
                s.match.match_id, a, b, win, Decision.PASSED_A,
                levels=((win, 12), (b if win == a else a, 5)),
            )  # fmt: skip
    snap = take_snapshot(t, outcomes)
    t.close()
    return snap, members


def test_standings_show_head_to_head_and_what_separated_equal_pairs(tmp_path: Path) -> None:
    from referee_desk.tournament.model import TieBreak

    snap, members = _tied_groups(tmp_path / "g")
    st = next(x for x in snap.state.standings if x.group == "A")
    a, b, c, d = members["A"]
    rows = {r.pair_id: r for r in st.rows}
    assert [r.pair_id for r in st.rows] == [b, c, a, d]
    assert (rows[b].wins, rows[b].level_diff) == (rows[c].wins, rows[c].level_diff)
    assert rows[b].separated_by is TieBreak.HEAD_TO_HEAD and rows[b].head_to_head == 1
    assert rows[c].head_to_head == 0 and not rows[b].tied
    text = flat("".join(pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed()))))
    assert "相互" in text and "H2H" in text and flat("相互胜负 head-to-head") in text
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "g.xlsx"))["小组 Groups"]
    cells = [c.value for r in ws.iter_rows() for c in r]
    assert "相互胜负 head-to-head" in cells and "相互 H2H" in cells


def test_knockout_entrants_from_groups_carry_their_group_place(tmp_path: Path) -> None:
    snap, _ = _tied_groups(tmp_path / "g")
    text = flat("".join(pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed()))))
    first_a = snap.pair(next(x for x in snap.state.standings if x.group == "A").rows[0].pair_id)
    assert flat(f"A1 {pair_text(first_a)}") in text
    ws = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))["淘汰赛 Knockout"]
    cells = [str(c.value) for r in ws.iter_rows() for c in r if c.value]
    assert any(v.startswith("A1 ") for v in cells) and any(v.startswith("B2 ") for v in cells)


# -- item 9: scoresheet head and the final round pack ------------------------------


def _attr(line: str, key: str) -> float:
    return float(line.split(f'{key}="')[1].split('"')[0])


def _words(pdf: Path, page: int) -> list[tuple[str, float, float, float]]:
    """(word, xMin, xMax, yMin) of one page (pdftotext -bbox)."""
    html = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    out = []
    for line in html.splitlines():
        if "<word" in line:
            x0, x1, y0 = (_attr(line, k) for k in ("xMin", "xMax", "yMin"))
            out.append((line.rsplit(">", 2)[-2].split("<")[0], x0, x1, y0))
    return out


def test_scoresheet_head_keeps_clear_of_the_page_number(tmp_path: Path) -> None:
    from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf

    long = "欧阳" + "长名字" * 20
    header = {"match_id": "KO-R1-M002", "table": "3号桌", "round": "第1轮",
              "pair_ns": f"#1 {long} / 王芳", "pair_ew": f"#2 {long} / 刘洋"}  # fmt: skip
    pdf = export_scoresheet_pdf(tmp_path / "s.pdf", header=header)
    for page in range(1, len(pages_text(pdf)) + 1):
        words = [w for w in _words(pdf, page) if w[3] < 40]  # the head band
        number = min(x0 for w, x0, _, _ in words if w == "第")
        head = [x1 for w, x0, x1, _ in words if x0 < number - 1]
        assert head and max(head) < number, page


def test_final_round_pack_lists_its_players_and_titles_each_part(tmp_path: Path) -> None:
    from referee_desk.exports.pdf_round_pack import export_round_pack_pdf
    from referee_desk.tournament.rounds import play_rounds

    snap = big_snapshot(tmp_path / "t", 256)
    last = len(play_rounds(snap.state.matches))
    pdf = export_round_pack_pdf(snap, tmp_path / "f.pdf", last, options=fixed())
    pages = pages_text(pdf)
    index = [p for p in pages if "选手索引" in p]
    assert len(index) == 1  # 8 players of the final and the 3rd-place match, not 512
    assert index[0].count("—") <= 2
    cards = [p for p in pages if "桌牌 table cards" in p]
    third = next(p for p in cards if "KO-3P" in p)
    assert "三四名决赛 3rd place · KO-" in third  # the card's own line, by its round
    assert "决赛 Final · 三四名决赛 3rd place · KO-" not in third
    assert not any("对阵表 pairings" in p for p in index + cards)


# -- item 10: the rest ---------------------------------------------------------------


def test_third_place_named_once_and_the_level_chart_is_compact(tmp_path: Path) -> None:
    from reportlab.lib.units import mm

    from referee_desk.exports.pdf_common import make_styles
    from referee_desk.exports.pdf_level_chart import level_chart
    from referee_desk.match import replay
    from referee_desk.store.jsonl import read_jsonl
    from tests.exports.readme_cup import ROOT

    snap = big_snapshot(tmp_path / "t", 16)
    text = "".join(pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed())))
    assert "3rd place third place" not in text and "三四名决赛 3rd place" in text
    wb = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))
    cells = [str(c.value) for r in wb["淘汰赛 Knockout"].iter_rows() for c in r if c.value]
    assert "三四名决赛 3rd place" in cells and not any("third place" in v for v in cells)
    events = [i.event for i in read_jsonl(ROOT / "sample_events" / "01_pass_a_detailed.jsonl")]
    chart = level_chart(replay(events), events, make_styles())
    assert chart.height <= 50 * mm  # a strip, not a third of the page


def test_corrections_print_fields_in_words(tmp_path: Path) -> None:
    from referee_desk.exports.match_report_timeline import correction_change
    from referee_desk.match.envelope import Event

    def ev(seq, type_, payload):
        return Event("M", seq, type_, "2026-11-28T01:00:00.000Z", None, "r", payload)

    old = ev(5, "hand_summary", {"defenders_points_before_last": 100})
    fix = ev(6, "correction", {"action": "replace", "target_seq": 5,
                               "payload": {"defenders_points_before_last": 125}})  # fmt: skip
    text = correction_change({5: old, 6: fix}, 6, 5)
    assert "defenders_points_before_last" not in text
    assert text == "防守方末墩前得分 defenders' points before the last trick: 100 → 125"


# -- item 6: the A4 tree keeps "how decided" readable -------------------------------


@pytest.mark.parametrize("n", [128, 256])
def test_a4_tree_prints_every_forfeit_mark_at_6_pt_or_more(n: int, tmp_path: Path) -> None:
    from referee_desk.tournament.model import MatchOutcome
    from referee_desk.tournament.state import Status
    from tests.exports.big import big_tournament

    t = big_tournament(tmp_path / "t", n)
    outcomes: dict[str, MatchOutcome] = {}
    forfeits = 0
    while True:
        ready = [s for s in t.state(outcomes).matches if s.status is Status.READY]
        if not ready:
            break
        for k, s in enumerate(ready):
            a, b = s.pair_a, s.pair_b
            win, lose = min(a, b), max(a, b)
            how = Decision.FORFEIT if k % 5 == 0 else Decision.PASSED_A
            forfeits += how is Decision.FORFEIT
            outcomes[s.match.match_id] = MatchOutcome(
                s.match.match_id, a, b, win, how, levels=((win, 3), (lose, 3))
            )
    snap = take_snapshot(t, outcomes)
    t.close()
    pdf = export_results_pdf(snap, tmp_path / "r.pdf", options=fixed())
    pages = pages_text(pdf)
    tree = [k for k, p in enumerate(pages) if "淘汰赛对阵 Knockout bracket" in p]
    marks = sum(flat(pages[k]).count("弃权W/O") for k in tree) - len(tree)  # minus legends
    assert marks == forfeits
    for k in tree:
        assert min(size for _, size in sized_runs(pdf, k)) >= 6


# -- item 3: the report's own instruction works as printed --------------------------


def test_the_reports_check_instruction_prints_the_hash(tmp_path: Path, capsys) -> None:
    t = _cup(tmp_path)
    m = t.state().matches[0]
    mid = m.match.match_id
    events = simulate_match(mid, t.opening_payload(mid), "NS", "passed_a")
    write_jsonl(events, tmp_path / "m.jsonl")
    assert import_records(t, [tmp_path / "m.jsonl"]).ok
    t.close()
    report = flat("".join(pages_text(
        export_match_report_pdf(events, tmp_path / "r.pdf", options=fixed())
    )))  # fmt: skip
    assert flat("referee-desk verify --heads FILE") in report
    capsys.readouterr()
    assert main(["verify", "--heads", str(tmp_path / "cup.sqlite")]) == 0
    assert events[-1].hash in capsys.readouterr().out


def test_a_first_round_of_byes_is_not_drawn_page_after_page(tmp_path: Path) -> None:
    """Item 5: 33 pairs (31 byes, one match) print their tree like 32 pairs, on one A4
    page, with the round-1 match named; the workbook's tree starts at round 2 too."""
    snap = big_snapshot(tmp_path / "t", 33)
    pages = pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed()))
    tree = [p for p in pages if "淘汰赛对阵 Knockout bracket" in p]
    assert len(tree) == 1
    assert "31 byes and 1 match(es)" in tree[0]
    first = next(s for s in snap.ko() if s.match.round == 1 and s.pair_b is not None)
    assert first.match.match_id in tree[0]
    wb = load_workbook(export_bracket_xlsx(snap, tmp_path / "b.xlsx"))
    part = wb[next(n for n in wb.sheetnames if n.startswith("淘汰赛"))]
    assert part.cell(3, 1).value == "第2轮 Round 2"
    assert any("31 byes" in str(c.value) for r in part.iter_rows() for c in r)
