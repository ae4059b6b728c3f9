"""The PDFs written and read back with pypdf (issue 6): names, results, articles, ruleset
values, the chain's hash, Chinese and suit symbols; embedded TrueType CJK font; byte-stable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee_desk.exports import fonts
from referee_desk.exports.fonts import FontError, choose_font
from referee_desk.exports.pdf_level_chart import level_points
from referee_desk.exports.pdf_match_report import export_match_report_pdf
from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf, result_scale
from referee_desk.exports.print_options import fixed
from referee_desk.exports.snapshot import take_snapshot
from referee_desk.match import replay
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.tournament.simulate import simulate_match

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"


def text_of(path: Path) -> str:
    """All text with whitespace removed (table cells wrap lines anywhere)."""
    raw = "".join(page.extract_text() for page in PdfReader(path).pages)
    return re.sub(r"\s+", "", raw)


def has(text: str, *needles: str) -> bool:
    return all(re.sub(r"\s+", "", n) in text for n in needles)


def font_names(path: Path) -> set[str]:
    names = set()
    for page in PdfReader(path).pages:
        for f in page["/Resources"]["/Font"].values():
            names.add(str(f.get_object()["/BaseFont"]))
    return names


def test_results_pdf_content(knockout, tmp_path: Path) -> None:
    snap = take_snapshot(knockout)
    out = export_results_pdf(snap, tmp_path / "r.pdf")
    text = text_of(out)
    assert has(text, knockout.info.name) and has(text, "桂林理工大学体育馆")
    assert has(text, "张伟 / 王芳") and has(text, "桂林电子")
    # Ruleset and parameter values, and the tie-break order, are printed.
    assert has(text, "guilin-2009", "出错牌每张罚分", "比赛时间(分) match minutes")
    # Choice values are worded, never printed raw.
    assert has(text, "打完本盘 finish the hand") and has(text, "倍数计分 multiply")
    assert "finish_hand" not in text and "partner_or_next" not in text
    assert has(text, "胜场 wins > 终局级差 level_diff")
    # Every match with its result and deciding rule.
    assert has(text, "打过A passed A (1.5)")
    assert has(text, "弃权 forfeit (8.10)") and has(text, "取消资格 disqualification (8.8)")
    assert has(text, "待仲裁 committee ruling pending")
    assert has(text, "处罚汇总 Penalties summary") and has(text, "警告 conduct warning")
    assert "conduct_warning" not in text and "wrong_play" not in text
    assert any("WenQuanYi" in n for n in font_names(out))


def test_results_pdf_is_byte_stable(knockout, tmp_path: Path) -> None:
    """Byte-stable only when asked: a fixed printed-at time, which is the CreationDate."""
    snap = take_snapshot(knockout)
    a = export_results_pdf(snap, tmp_path / "a.pdf", options=fixed()).read_bytes()
    b = export_results_pdf(snap, tmp_path / "b.pdf", options=fixed()).read_bytes()
    assert a == b
    meta = PdfReader(tmp_path / "a.pdf").metadata
    assert meta["/CreationDate"].startswith("D:20261128160000+08'00'")


def test_group_results_show_standings(groups, tmp_path: Path) -> None:
    text = text_of(export_results_pdf(take_snapshot(groups), tmp_path / "g.pdf"))
    assert has(text, "A组积分 Group A standings") and has(text, "B组积分 Group B standings")
    assert has(text, "第1名") and has(text, "决赛 Final")
    # The knockout drawn as a bracket: the champion beside the final, winners marked.
    assert has(text, "冠军 Champion")


def test_match_report_of_a_sample_record(tmp_path: Path) -> None:
    from referee_desk.store.jsonl import read_jsonl

    events = [i.event for i in read_jsonl(SAMPLES / "01_pass_a_detailed.jsonl")]
    out = export_match_report_pdf(events, tmp_path / "m.pdf", options=fixed())
    text = text_of(out)
    st = replay(events)
    assert has(text, events[-1].hash)  # the chain's final hash, checkable
    for name in st.info.seats.values():
        assert has(text, name)
    assert has(text, "1.5") and has(text, "7.2")  # articles of consequences
    assert has(text, "♥") or has(text, "♠") or has(text, "♦") or has(text, "♣")  # suit symbols
    assert has(text, "裁判 Referee") and has(text, "南北方队长 N–S captain")
    assert len(text_of(out)) > 1000
    again = export_match_report_pdf(events, tmp_path / "n.pdf", options=fixed())
    assert again.read_bytes() == out.read_bytes()


def test_match_report_shows_violations_corrections_notes(knockout, tmp_path: Path) -> None:
    from referee_desk.match import Recorder

    mid = "KO-R1-M002"
    events = knockout.file.events(mid)
    # A copy of the record with a note and a correction that voids it, entered after the end.
    rec = Recorder(mid, events[0].referee)
    for e in events:
        rec.events.append(e)
        rec.replayer.apply(e)
    note = rec.record("note", {"text": "东家称误出"}, "2026-11-29T12:00:00.000Z")
    rec.record(
        "correction",
        {"target_seq": note.seq, "action": "void", "reason": "录错比赛 wrong match"},
        "2026-11-29T12:01:00.000Z",
    )
    rec.record("note", {"text": "北家确认看见两张牌"}, "2026-11-29T12:02:00.000Z")
    text = text_of(export_match_report_pdf(rec.events, tmp_path / "m.pdf"))
    assert has(text, "录错比赛 wrong match") and has(text, "作废 voided")
    assert has(text, "北家确认看见两张牌")


def test_match_report_of_a_disqualification_names_the_article(knockout, tmp_path: Path) -> None:
    events = knockout.file.events("KO-R2-M003")
    text = text_of(export_match_report_pdf(events, tmp_path / "dq.pdf"))
    assert has(text, "8.8") and has(text, "disqualification") and has(text, "交谈 talking")


def test_level_chart_points_follow_the_hands() -> None:
    payload = {
        "tournament": "T", "round": "1", "table": "1",
        "pairs": {"NS": "#1 甲 / 乙", "EW": "#2 丙 / 丁"},
        "seats": {"N": "甲", "S": "乙", "E": "丙", "W": "丁"},
        "referee": "王磊", "ruleset": get_ruleset().to_dict(),
    }  # fmt: skip
    events = simulate_match("M", payload, "NS", "passed_a", loser_gains=2)
    pts = level_points(replay(events), events)
    assert pts["NS"][0] == (0.0, 0) and pts["EW"][0] == (0.0, 0)
    assert pts["NS"][-1][1] == 12  # passed A
    assert pts["EW"][-1][1] == 2  # level 5
    xs = [x for x, _ in pts["NS"]]
    assert xs == sorted(xs) and xs[-1] > 0


def test_scoresheet_fields(tmp_path: Path) -> None:
    header = {"tournament": "桂林杯", "match_id": "KO-R1-M002", "N": "张伟", "pair_ns": "#1 张伟"}
    out = export_scoresheet_pdf(tmp_path / "s.pdf", header=header)
    text = text_of(out)
    for field in ("赛事 Tournament", "桌号 Table", "裁判 Referee", "叫牌 Bids", "防守方得分",
                  "末墩 Last trick", "违规与处罚", "出错牌 wrong play 8.2", "劳改 revoke 8.3",
                  "打过A passed A (1.5)", "东西方队长 E–W captain", "张伟", "桂林杯"):  # fmt: skip
        assert has(text, field), field
    assert has(text, "120–155: 庄家方 +1")


def test_result_scale_follows_the_ruleset() -> None:
    """7.1/7.2 with stage 160, step 40: 120–155 declarers +1; 200–235 take the deal +1."""
    scale = result_scale(get_ruleset())
    assert "120–155: 庄家方 +1" in scale and "200–235: 上台 +1" in scale
    other = result_scale(get_ruleset("guilin-2009", {"stage": 120, "step": 30}))
    assert "90–115: 庄家方 +1" in other


def test_user_font_that_cannot_be_used_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.ttf"
    bogus.write_bytes(b"not a font")
    with pytest.raises(FontError, match="cannot be embedded"):
        choose_font(str(bogus))
    with pytest.raises(FontError, match="no such file"):
        choose_font(str(tmp_path / "missing.ttf"))


def test_fallback_to_cid_font_with_a_visible_warning(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(fonts, "CANDIDATES", ())
    monkeypatch.setattr(fonts, "_registered", {})
    monkeypatch.delenv("REFEREE_DESK_FONT", raising=False)
    choice = choose_font()
    assert choice.name == "STSong-Light" and not choice.embedded
    assert "WARNING" in choice.warning
    out = export_scoresheet_pdf(tmp_path / "s.pdf")
    assert "STSong-Light" in " ".join(font_names(out))
    assert has(text_of(out), "no TrueType CJK font found")


def test_results_progress_reaches_the_end(knockout, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    export_results_pdf(
        take_snapshot(knockout), tmp_path / "p.pdf", progress=lambda d, t, _w: seen.append((d, t))
    )
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_bracket_progress_counts_every_sheet(groups, tmp_path: Path) -> None:
    from referee_desk.exports.xlsx_bracket import export_bracket_xlsx

    seen: list[tuple[int, int, str]] = []
    export_bracket_xlsx(
        take_snapshot(groups), tmp_path / "b.xlsx", progress=lambda *a: seen.append(a)
    )
    assert [d for d, _, _ in seen] == list(range(1, len(seen) + 1))
    assert seen[-1][0] == seen[-1][1] == 4  # info, bracket, the groups sheet, matches
