"""The bracket workbook prints the draw's time in the venue's zone (``--tz``), as the PDFs do."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from referee_desk.cli.main import main
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament


def _drawn(tmp_path: Path) -> Path:
    path = tmp_path / "cup.sqlite"
    with Tournament.create(path, TournamentInfo("桂林杯", tables=("1号桌",))) as t:
        for n in range(1, 5):
            t.add_pair(f"甲{n}", f"乙{n}")
        t.draw(draw_seed=1, when="2026-11-28T01:30:00.000Z")
    return path


def _draw_cell(path: Path) -> str:
    ws = load_workbook(path)["赛事 Info"]
    return next(r[1] for r in ws.iter_rows(values_only=True) if r[0] == "抽签 Draw")


def test_the_draw_time_follows_tz(tmp_path: Path, capsys) -> None:
    cup = _drawn(tmp_path)
    default, utc, west = (tmp_path / f"{n}.xlsx" for n in ("default", "utc", "west"))
    assert main(["export", "bracket", str(cup), "-o", str(default)]) == 0
    assert main(["export", "bracket", str(cup), "-o", str(utc), "--tz", "+00:00"]) == 0
    assert main(["export", "bracket", str(cup), "-o", str(west), "--tz=-05:00"]) == 0
    assert _draw_cell(default).startswith("2026-11-28 09:30:00 +08:00")
    assert _draw_cell(utc).startswith("2026-11-28 01:30:00 +00:00")
    assert _draw_cell(west).startswith("2026-11-27 20:30:00 -05:00")
