"""The README's "Running a tournament" commands, run in-process into a folder."""

from __future__ import annotations

from pathlib import Path

from referee_desk.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
PAIRS = ROOT / "docs" / "tournament-demo" / "sample_pairs.csv"


def readme_cup(folder: Path) -> Path:
    cup = folder / "cup.sqlite"
    steps = [
        ["tournament", "create", str(cup), "--name", "桂林市2026年职工拖拉机锦标赛",
         "--start", "2026-11-28", "--end", "2026-11-29", "--venue", "桂林理工大学体育馆",
         "--organizer", "桂林市总工会", "--tables", "1号桌,2号桌,3号桌,4号桌,5号桌,6号桌",
         "--referees", "陈建国,王磊,李静", "--format", "groups", "--groups", "6",
         "--advance", "1", "--third-place"],
        ["tournament", "import-pairs", str(cup), str(PAIRS)],
        ["tournament", "draw", str(cup), "--seed", "2026"],
        ["tournament", "import-records", str(cup),
         *sorted(str(p) for p in (ROOT / "sample_events").glob("*.jsonl"))],
    ]  # fmt: skip
    for argv in steps:
        assert main(argv) == 0, argv
    return cup
