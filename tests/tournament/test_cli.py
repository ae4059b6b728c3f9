"""The headless commands end to end: create, pairs, draw, simulate/import, standings, exports."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook
from pypdf import PdfReader

from referee_desk.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_newcomer_flow(tmp_path: Path, capsys) -> None:
    f = str(tmp_path / "cup.sqlite")
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(
        "选手1,选手2,俱乐部,种子\n张伟,王芳,桂林电子,1\n李娜,刘洋,漓江机械,2\n"
        "陈静,赵敏,象山供电,\n杨磊,黄强,七星邮政,\n周杰,徐明,叠彩水务,\n",
        "utf-8",
    )
    code, out, _ = run(
        capsys, "tournament", "create", f, "--name", "桂林杯", "--start", "2026-11-28",
        "--tables", "1号桌,2号桌", "--referees", "王磊", "--third-place",
        "--param", "misplay_points_per_card=5",
    )  # fmt: skip
    assert code == 0 and "created" in out
    assert run(capsys, "tournament", "import-pairs", f, str(pairs))[0] == 0
    code, out, _ = run(capsys, "tournament", "add-pair", f, "吴婷", "孙丽", "--club", "雁山")
    assert code == 0 and "pair 6" in out
    code, out, _ = run(capsys, "tournament", "draw", f, "--seed", "3")
    assert code == 0 and "drawn: 8 matches" in out
    code, _, err = run(capsys, "tournament", "add-pair", f, "赵", "钱")
    assert code == 1 and "draw is made" in err
    code, out, _ = run(capsys, "tournament", "opening", f, "KO-R1-M002")
    assert code == 0 and '"NS": "#' in out
    code, out, _ = run(capsys, "tournament", "simulate", f, "-o", str(tmp_path / "records"))
    assert code == 0 and "simulated and imported" in out
    records = sorted(str(p) for p in (tmp_path / "records").glob("*.jsonl"))
    code, out, _ = run(capsys, "tournament", "import-records", f, *records)
    assert code == 0 and "added 0 events" in out  # idempotent
    code, out, _ = run(capsys, "tournament", "standings", f)
    assert code == 0 and "places:" in out
    code, out, _ = run(capsys, "tournament", "matches", f)
    assert code == 0 and "KO-3P" in out

    xlsx = tmp_path / "bracket.xlsx"
    assert run(capsys, "export", "bracket", f, "-o", str(xlsx))[0] == 0
    assert "淘汰赛 Knockout" in load_workbook(xlsx).sheetnames
    pdf = tmp_path / "results.pdf"
    assert run(capsys, "export", "results", f, "-o", str(pdf))[0] == 0
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "桂林杯" in text and "出错牌每张罚分 5" in text.replace("\n", "")
    report = tmp_path / "final.pdf"
    assert run(capsys, "export", "match", f, "--match", "KO-R3-M001", "-o", str(report))[0] == 0
    assert PdfReader(report).pages
    sheet = tmp_path / "sheet.pdf"
    code, _, _ = run(capsys, "export", "scoresheet", f, "--match", "KO-R1-M002", "-o", str(sheet))
    assert code == 0
    assert run(capsys, "export", "scoresheet", "-", "-o", str(tmp_path / "blank.pdf"))[0] == 0


def test_export_match_needs_a_match_when_the_file_holds_several(tmp_path: Path, capsys) -> None:
    f = str(tmp_path / "cup.sqlite")
    run(capsys, "tournament", "create", f, "--name", "杯")
    for a, b in (("甲", "乙"), ("丙", "丁"), ("戊", "己")):
        run(capsys, "tournament", "add-pair", f, a, b)
    run(capsys, "tournament", "draw", f, "--seed", "1")
    run(capsys, "tournament", "simulate", f, "-o", str(tmp_path / "r"))
    code, _, err = run(capsys, "export", "match", f, "-o", str(tmp_path / "m.pdf"))
    assert code == 1 and "--match" in err
    code, _, err = run(
        capsys, "export", "match", f, "--match", "NOPE", "-o", str(tmp_path / "m.pdf")
    )
    assert code == 1 and "no record of match 'NOPE'" in err


def test_refusals_are_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "export", "results", str(tmp_path / "none.sqlite"), "-o", "x.pdf")
    assert code == 1 and err.startswith("export refused")
    f = str(tmp_path / "cup.sqlite")
    code, _, err = run(capsys, "tournament", "create", f, "--name", "杯", "--format", "groups")
    assert code == 1 and "--groups" in err
    code, _, err = run(
        capsys, "tournament", "create", f, "--name", "杯", "--param", "no_such=1"
    )  # fmt: skip
    assert code == 1 and "unknown parameter" in err
