"""Issue 11 items 3–5: the match report names its drawn match, prints local times with
date and zone, marks corrections with old → new, says whether it is sealed, has the
committee's signature line when the committee ruled, explains forfeit levels, and draws
the level chart as steps with a time-limit mark."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee_desk.cli.main import main
from referee_desk.exports.pdf_level_chart import step_points
from referee_desk.exports.pdf_match_report import export_match_report_pdf
from referee_desk.exports.print_options import fixed, parse_tz
from referee_desk.exports.seal_status import file_fingerprint, seal_status
from referee_desk.match import Recorder
from referee_desk.store.jsonl import read_jsonl
from referee_desk.store.tournament_file import TournamentFile
from tests.exports.pdf_read import flat, pages_text
from tests.exports.readme_cup import ROOT, readme_cup

SAMPLES = ROOT / "sample_events"


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> Path:
    return readme_cup(tmp_path_factory.mktemp("cup"))


def report(cup: Path, out: Path, *extra: str) -> str:
    assert main(["export", "match", str(cup), "--match", "GE-R1-M01", "-o", str(out),
                 "--fixed-time", "2026-11-28T18:00+08:00", *extra]) == 0  # fmt: skip
    return "".join(pages_text(out))


def test_titled_by_the_drawn_match_with_the_record_id_beside(cup, tmp_path: Path) -> None:
    text = report(cup, tmp_path / "m.pdf")
    first = pages_text(tmp_path / "m.pdf")[0]
    assert "比赛报告 Match report · GE-R1-M01" in first
    assert "5号桌" in first and "王磊" in first and "E组 第1轮" in first
    assert "desk record id: GL2026-R2-T4" in first
    assert "林峰 / 高翔" in first and "何欣 / 罗薇" in first  # both pairs as drawn
    # Every page's head names the drawn match.
    for page in pages_text(tmp_path / "m.pdf"):
        assert "GE-R1-M01 · 5号桌" in page
    assert "GL2026-R2-T4" in text


def test_times_are_local_with_date_and_zone(cup, tmp_path: Path) -> None:
    """Recorded 03:00:00Z is 11:00:00 at a +08:00 venue; --tz changes the zone."""
    text = report(cup, tmp_path / "m.pdf")
    events = [i.event for i in read_jsonl(SAMPLES / "05_conduct_disqualification.jsonl")]
    first = events[0].recorded_at  # e.g. 2026-11-28T03:00:00.000Z
    assert first.startswith("2026-11-28T03:00:00")
    assert ("(+08:00)" in text and "2026-11-28\n" in text.replace(" ", "")) or "2026-11-28" in text
    assert "11:00:00" in text
    other = report(cup, tmp_path / "n.pdf", "--tz", "+01:00")
    assert "(+01:00)" in other and "04:00:00" in other
    assert parse_tz("UTC+8").utcoffset(None).total_seconds() == 8 * 3600


def test_not_sealed_in_red_then_sealed_with_the_head(cup, tmp_path: Path) -> None:
    out = tmp_path / "m.pdf"
    text = report(cup, out)
    assert "未封存 NOT SEALED" in text
    ops = PdfReader(out).pages[0].get_contents().get_data().decode("latin-1")
    assert ".690196 0 .12549 rg" in ops or "0.690196 0 0.12549 rg" in ops  # #B00020
    sealed = tmp_path / "sealed.sqlite"
    shutil.copy(cup, sealed)
    with TournamentFile.open(sealed, create=False) as tf:
        seal = tf.seals.lock("GL2026-R2-T4", by="王磊")
        status = seal_status(tf, "GL2026-R2-T4")
    assert status is not None and status.head_hash == seal.head_hash
    assert status.head_seq == seal.head_seq
    text = report(sealed, tmp_path / "s.pdf")
    assert "未封存" not in text and "已封存 Sealed" in text
    assert f"至事件 up to event #{seal.head_seq}" in text and "王磊" in text


def test_the_seal_names_the_key_that_signed_it(cup, tmp_path: Path) -> None:
    """The Ed25519 seal's fingerprint and its check reach the report (issue 11 item 4)."""
    sealed = tmp_path / "sealed.sqlite"
    shutil.copy(cup, sealed)
    with TournamentFile.open(sealed, create=False) as tf:
        tf.seals.lock("GL2026-R2-T4", by="王磊")
        status = seal_status(tf, "GL2026-R2-T4")
        fingerprint = file_fingerprint(tf)
    assert status is not None and status.valid is True
    assert fingerprint and status.fingerprint == fingerprint
    text = report(sealed, tmp_path / "s.pdf")
    assert fingerprint in text.replace(" ", "")


def _with_corrections(events):
    mid = events[0].match_id
    rec = Recorder(mid, events[0].referee)
    for e in events:
        rec.events.append(e)
        rec.replayer.apply(e)
    note = rec.record("note", {"text": "东家称误出一张"}, "2026-11-29T12:00:00.000Z")
    rec.record(
        "correction",
        {"target_seq": note.seq, "action": "replace", "reason": "笔误 typo",
         "payload": {"text": "东家称误出两张"}},
        "2026-11-29T12:01:00.000Z",
    )  # fmt: skip
    return rec.events, note.seq


def test_a_replacement_marks_the_event_it_corrects_with_old_and_new(tmp_path: Path) -> None:
    events = [i.event for i in read_jsonl(SAMPLES / "01_pass_a_detailed.jsonl")]
    events, target = _with_corrections(events)
    out = export_match_report_pdf(events, tmp_path / "m.pdf", options=fixed())
    text = flat("".join(pages_text(out)))
    # The corrected event's own row says what replaced it (cells wrap, so in pieces).
    assert flat(f"[已更正 corrected by #{target + 1}: 说明 text: 东家称误出一张 →") in text
    assert flat("东家称误出两张; 笔误 typo]") in text
    # The corrections table: old → new.
    assert flat("说明 text: 东家称误出一张 → 东家称误出两张") in text


def test_committee_signature_only_when_the_committee_ruled(tmp_path: Path) -> None:
    ruled = [i.event for i in read_jsonl(SAMPLES / "05_conduct_disqualification.jsonl")]
    plain = [i.event for i in read_jsonl(SAMPLES / "01_pass_a_detailed.jsonl")]
    a = pages_text(export_match_report_pdf(ruled, tmp_path / "a.pdf", options=fixed()))
    b = pages_text(export_match_report_pdf(plain, tmp_path / "b.pdf", options=fixed()))
    last = flat(a[-1])  # beside the other signatures (the cell wraps)
    assert "仲裁委员会Arbitration" in last and "南北方队长N–Scaptain" in last
    assert "仲裁委员会Arbitrationcommittee" not in flat("".join(b))


def test_forfeit_levels_explained_as_the_results_count_them(tmp_path: Path) -> None:
    """8.10: the forfeiting side scores 0 for the match, counted as level 3."""
    events = [i.event for i in read_jsonl(SAMPLES / "06_forfeit.jsonl")]
    text = flat("".join(pages_text(export_match_report_pdf(events, tmp_path / "f.pdf"))))
    assert (
        "计入成绩Countedfortheresults" in text and "3·弃权方本场计0分，按3级计入成绩(8.10)" in text
    )


def test_level_chart_steps_and_time_limit(tmp_path: Path) -> None:
    steps = step_points([(0.0, 0), (10.0, 2), (25.0, 3)], 0.1)
    assert steps == [(0.0, 0.1), (10.0, 0.1), (10.0, 2.1), (25.0, 2.1), (25.0, 3.1)]
    ns, ew = step_points([(0.0, 4)], 0.12), step_points([(0.0, 4)], -0.12)
    assert ns[0][1] != ew[0][1]  # equal levels: both lines visible
    events = [i.event for i in read_jsonl(SAMPLES / "01_pass_a_detailed.jsonl")]
    text = "".join(pages_text(export_match_report_pdf(events, tmp_path / "m.pdf")))
    assert "时限 time limit 120′ (1.5)" in text


def test_passed_a_reads_the_same_in_table_and_chart(tmp_path: Path) -> None:
    events = [i.event for i in read_jsonl(SAMPLES / "01_pass_a_detailed.jsonl")]
    text = "".join(pages_text(export_match_report_pdf(events, tmp_path / "m.pdf")))
    hands = text[text.index("各盘结果 Hands") : text.index("级 level")]
    assert "过A" in hands and "A : " not in hands.split("\n")[-3]
