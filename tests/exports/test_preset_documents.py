"""Every printout of a preset tournament states the preset and fits it (issue 12).

Real files per preset (RULES.md 12): a tournament played out by ``tournament simulate``
and the sample preset records; every document is written and read back (pdftotext,
openpyxl) and each item the issue asks for is looked up in it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

from referee_desk.cli.main import main
from referee_desk.exports.event_text import cards_text
from referee_desk.exports.labels import (
    PARAMETER_LABELS,
    compact_ruleset,
    preset_title,
    ruleset_rows,
    value_text,
)
from referee_desk.exports.pdf_level_chart import level_points
from referee_desk.exports.pdf_match_report import export_match_report_pdf
from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.pdf_round_pack import export_round_pack_pdf
from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf, result_scale
from referee_desk.exports.print_options import fixed
from referee_desk.exports.snapshot import take_snapshot
from referee_desk.exports.xlsx_bracket import export_bracket_xlsx
from referee_desk.match import replay
from referee_desk.rules.result import result_from_final_score
from referee_desk.rules.ruleset import GUILIN_2009, PRESETS, get_ruleset
from referee_desk.rules.wording import describe
from referee_desk.tournament.repository import Tournament
from tests.exports.pdf_read import flat, pages_text
from tests.tournament.test_presets import PAIRS_CSV, PRESET_SAMPLES, events_of

PRESET_NAMES = ("qq-four-deck", "three-deck")


def raw_text(path: Path) -> str:
    """pdftotext in reading order (no layout): each table cell's text in one run."""
    return subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module", params=PRESET_NAMES)
def played(request, tmp_path_factory) -> Path:
    """A 12-pair knockout under the preset, played out by ``tournament simulate``."""
    folder = tmp_path_factory.mktemp(request.param)
    f = folder / "cup.sqlite"
    main(["tournament", "create", str(f), "--name", "预设杯", "--ruleset", request.param,
          "--tables", "1,2,3,4", "--referees", "甲,乙", "--start", "2026-11-29"])  # fmt: skip
    main(["tournament", "import-pairs", str(f), str(PAIRS_CSV)])
    main(["tournament", "draw", str(f), "--seed", "3"])
    assert main(["tournament", "simulate", str(f), "-o", str(folder / "records")]) == 0
    return f


# -- the words ---------------------------------------------------------------------------


def test_every_parameter_has_chinese_and_english_words() -> None:
    # Issue 12: every section-12 parameter worded as the Guilin ones are.
    for key in GUILIN_2009.all_parameters():
        label = PARAMETER_LABELS[key]
        zh, _, en = label.partition(" ")
        assert CJK.search(zh) and en and not CJK.search(en), key


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_value_of_every_preset_is_worded(preset: str) -> None:
    for key, value in PRESETS[preset].all_parameters().items():
        text = value_text(value, key)
        if isinstance(value, int) and not isinstance(value, bool):
            assert text == str(value)
        else:
            # Choices, yes/no and "no value" read as words, Chinese first.
            assert CJK.match(text), (key, value, text)  # Chinese first
    if preset != "guilin-2009":
        assert value_text(None, "match_minutes") == "无时限 no time limit"
        assert value_text(None, "max_gain") == "不封顶 no cap"


def test_three_deck_does_not_print_guilin_revoke() -> None:
    # RULES 12.8: 藏张 replaces 劳改 in three-deck; qq-four-deck keeps Guilin's 劳改.
    three = [label for label, _, _ in ruleset_rows(get_ruleset("three-deck"))]
    qq = [label for label, _, _ in ruleset_rows(get_ruleset("qq-four-deck"))]
    assert not any("劳改" in x for x in three) and any("藏张" in x for x in three)
    assert any("劳改" in x for x in qq)


def test_preset_rows_cite_section_12_beside_the_guilin_article() -> None:
    qq = {label: article for label, _, article in ruleset_rows(get_ruleset("qq-four-deck"))}
    assert qq[PARAMETER_LABELS["last_trick"]] == "7.3, 12.5"
    assert qq[PARAMETER_LABELS["match_minutes"]] == "1.5, 12.8"
    guilin = {label: article for label, _, article in ruleset_rows(GUILIN_2009)}
    assert guilin[PARAMETER_LABELS["last_trick"]] == "7.3"


def test_result_scale_is_the_preset_table() -> None:
    # 12.6 qq-four-deck: 0 → +3, 5–35 → +2, 40–75 → +1, 80–115 take, …, 200+ take +3 (cap).
    qq = result_scale(get_ruleset("qq-four-deck"))
    for part in ("0: 庄家方 +3", "5–35: 庄家方 +2", "40–75: 庄家方 +1", "80–115: 上台 +0",
                 "120–155: 上台 +1", "200–235: 上台 +3"):  # fmt: skip
        assert part in qq
    three = result_scale(get_ruleset("three-deck"))
    for part in ("0: 庄家方 +3", "5–55: 庄家方 +2", "60–115: 庄家方 +1", "120–175: 上台 +0",
                 "180–235: 上台 +1"):  # fmt: skip
        assert part in three
    # Guilin's scale is unchanged (7.1/7.2: no bonus, no cap).
    assert result_scale(GUILIN_2009).startswith("防守方得分 defenders' points → 0–35: 庄家方 +4")
    r = result_from_final_score(0, "2", "2", get_ruleset("three-deck"))
    assert r.levels_up == 3  # the sheet and the rules agree


# -- results, bracket, round pack ----------------------------------------------------------


def test_results_pdf_states_the_preset(played: Path, tmp_path: Path) -> None:
    with Tournament.open(played, read_only=True) as t:
        snap = take_snapshot(t)
        rules = t.ruleset
    text = "".join(pages_text(export_results_pdf(snap, tmp_path / "r.pdf", options=fixed())))
    body = flat(text)
    assert flat(preset_title(rules)) in body
    for label, value, article in ruleset_rows(rules):
        assert flat(label) in body and flat(value) in body and flat(article) in body, label
    assert flat("无时限 no time limit") in body
    # 8.10 in the presets: a forfeiting side counts at level 2 (12.1).
    assert flat("按2级计入成绩") in body and flat("counted at level 2") in body
    assert "按3级" not in body
    # Every page's footer names the preset.
    pages = pages_text(tmp_path / "r.pdf")
    assert all(rules.name in flat(page) for page in pages)


def test_bracket_xlsx_states_the_preset(played: Path, tmp_path: Path) -> None:
    with Tournament.open(played, read_only=True) as t:
        snap = take_snapshot(t)
        rules = t.ruleset
    out = export_bracket_xlsx(snap, tmp_path / "b.xlsx")
    wb = load_workbook(out)
    cells = [str(c) for ws in wb.worksheets for row in ws.iter_rows(values_only=True)
             for c in row if c is not None]  # fmt: skip
    for label, value, _ in ruleset_rows(rules):
        assert label in cells and value in cells, label
    for ws in wb.worksheets:
        footer = ws.oddFooter.left.text or ""
        assert footer.startswith(f"{rules.name}:") and len(footer) <= 230
    assert compact_ruleset(rules).endswith("(rest=guilin-2009)")
    assert "kitty=" in compact_ruleset(rules) and "minutes=none" in compact_ruleset(rules)


def test_round_pack_states_the_preset_and_fits_the_sheets(played: Path, tmp_path: Path) -> None:
    with Tournament.open(played, read_only=True) as t:
        snap = take_snapshot(t)
        rules = t.ruleset
    out = export_round_pack_pdf(snap, tmp_path / "rp.pdf", 2, options=fixed())
    pages = pages_text(out)
    assert flat(preset_title(rules)) in flat(pages[0])
    sheets = [pg for pg in pages if "各盘记录" in pg]
    assert sheets and all("埋底分" in pg and "倍数" in pg for pg in sheets)
    assert all(rules.name in flat(pg) for pg in pages)


# -- the match report ---------------------------------------------------------------------


@pytest.mark.parametrize("sample", PRESET_SAMPLES, ids=lambda p: p.stem)
def test_match_report_of_a_preset_record(sample: Path, tmp_path: Path) -> None:
    events = events_of(sample)
    state = replay(events)
    rules = state.ruleset
    out = export_match_report_pdf(events, tmp_path / "m.pdf", options=fixed())
    text = "".join(pages_text(out))
    body = flat(text)
    assert flat(f"规则 Preset: {preset_title(rules)}") in body
    for label, value, _ in ruleset_rows(rules):  # the whole ruleset, nothing cut
        assert flat(f"{label.split(' ')[0]} {value.split(' ')[0]}") in body
    # The kitty of every hand: its cards when entered, else its points (12.1).
    for h in state.hands:
        if h.kitty is not None and h.kitty.cards:
            assert flat(cards_text(h.kitty.cards)) in body
        elif h.kitty is not None:
            assert flat(f"{h.kitty.points} 分 points") in body
    # The dig at the last trick with its multiplier (12.5).
    dug = [h for h in state.hands
           if h.last_trick is not None and h.defenders is not None
           and h.last_trick.side == h.defenders and h.last_trick.kitty_points]  # fmt: skip
    for h in dug:
        lt = h.last_trick
        assert flat(f"{lt.kitty_points}×{lt.multiplier} = +{lt.kitty_points * lt.multiplier}") in (
            body
        )
    # Failed throws: who threw what, who showed what, the forced play, 002's points.
    for h in state.hands:
        for f in h.throw_failures:
            assert flat(cards_text(f.thrown)) in body and flat(cards_text(f.shown)) in body
            assert flat(cards_text(f.forced)) in body
            if rules.throw_fail_points:
                assert f"{f.points:+d}" in body and abs(f.points) == rules.throw_fail_points
        for c in h.concealments:
            assert ("A本盘结束" if c.choice == "A" else f"B±{rules.conceal_points}分") in body
    # Worded consequences with their articles (rules.wording), in the report.
    raw = flat(raw_text(out))  # cell by cell: a wrapped cell's lines stay together
    for c in state.consequences:
        if c.article.startswith("12."):
            assert flat(describe(c, "zh_CN")) in raw, c
    assert any(c.article.startswith("12.") for c in state.consequences)
    # No time limit (12.8): no limit mark, the chart says so.
    assert flat("无时限 no time limit (12.8)") in body and "time limit 120" not in text
    # 12.7: a side at A that wins as declarers without a dig falls back to J.
    fell = [h for h in state.hands if h.result and any(v < 0 for v in h.result.gains.values())]
    for h in fell:
        assert flat(f"{min(h.result.gains.values()):+d} 退回J") in body and "+-" not in body
    if sample.stem.startswith("08"):
        assert fell  # the sample's A fallback
    # The level chart starts at 2 (12.1).
    pts = level_points(state, events)
    assert pts["NS"][0] == (0.0, -1) and pts["EW"][0] == (0.0, -1)


def test_match_report_names_the_preset_sections_that_exist(tmp_path: Path) -> None:
    # qq-four-deck has no 藏张 (12.8): its report has no 藏张 table, three-deck's has one.
    by_preset = {}
    for sample in PRESET_SAMPLES:
        events = events_of(sample)
        name = replay(events).ruleset.name
        text = flat("".join(pages_text(export_match_report_pdf(
            events, tmp_path / f"{sample.stem}.pdf", options=fixed()))))  # fmt: skip
        by_preset.setdefault(name, []).append(text)
    assert all("藏张Seat" not in t for t in by_preset["qq-four-deck"])
    assert all("藏张Seat" in t for t in by_preset["three-deck"])
    assert all(flat("甩牌 Throw") in t for texts in by_preset.values() for t in texts)


# -- the scoresheet -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_scoresheet_fits_the_preset(preset: str, tmp_path: Path) -> None:
    rules = get_ruleset(preset)
    out = export_scoresheet_pdf(tmp_path / "s.pdf", ruleset=rules, options=fixed())
    pages = pages_text(out)
    text = "".join(pages)
    body = flat(text)
    assert all(preset in flat(pg) for pg in pages)  # every page names the preset
    numbers = [int(m) for m in re.findall(r"^\s+(\d+)\s*$", text, re.M)]
    if preset == "guilin-2009":
        assert "埋底分" not in body and "甩牌失败" not in body and "藏张" not in body
        assert "劳改" in body and max(numbers) == 18
        assert flat("时限 time limit 120′") in body or "到时time-out" in body
        return
    # Kitty presets: kitty points, last-lead shape and ×m columns (12.5).
    raw = flat(raw_text(out))
    for head in ("埋底分Kittypoints", "末墩首出牌型Last-leadshape", "倍数×m"):
        assert head in raw
    assert flat(f"底牌 {rules.kitty} 张") in body
    assert flat("甩牌失败 Failed throws (12.4") in body
    assert flat(f"级 levels {rules.first_level} → A") in body
    assert flat("无时限 no time limit (12.8)") in body and "到时time-out" not in body
    assert max(numbers) == 24  # levels 2…A without a time limit: more hands
    if preset == "three-deck":
        assert "劳改" not in body  # RULES 12.8: 藏张 replaces 劳改
        assert flat("藏张 Concealment (12.8, 002 八.1)") in body
        assert flat("甩牌失败 Failed throws (12.4，甩错牌 20 分)") in body
        assert flat("±60") in body
    else:
        assert "劳改" in body and "藏张Concealment" not in body
        assert flat("打A须先抠底一次，否则退回J") in body  # 12.7
