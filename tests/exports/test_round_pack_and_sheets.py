"""Issue 11 items 6 and 9: every scoresheet page names its match and its writing rows are
at least 8 mm high; the round pack (pairings for the wall, player index, a table card
per table, pre-filled scoresheets) from ``referee-desk export round-pack``."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import pytest
from reportlab.lib.units import mm

from referee_desk.cli.main import main
from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf
from referee_desk.exports.print_options import fixed
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.rounds import play_rounds
from tests.exports.pdf_read import pages_text
from tests.exports.readme_cup import readme_cup

HEADER = {
    "tournament": "桂林杯", "match_id": "KO-R1-M002", "table": "3号桌", "round": "第1轮",
    "pair_ns": "#1 张伟 / 王芳", "pair_ew": "#2 李娜 / 刘洋", "N": "张伟",
}  # fmt: skip


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> Path:
    return readme_cup(tmp_path_factory.mktemp("cup"))


def test_every_scoresheet_page_identifies_the_match(tmp_path: Path) -> None:
    pages = pages_text(export_scoresheet_pdf(tmp_path / "s.pdf", header=HEADER))
    assert len(pages) >= 2
    for page in pages:
        assert "比赛 Match KO-R1-M002 · 桌 Table 3号桌" in page
        assert "#1 张伟 / 王芳" in page and "#2 李娜 / 刘洋" in page


def _row_tops(pdf: Path, page: int, labels: list[str]) -> list[float]:
    """y of each row-number label on a page (pdftotext -bbox), in label order."""
    html = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    words = []
    for line in html.splitlines():
        if "<word" in line:
            y = float(line.split('yMin="')[1].split('"')[0])
            x = float(line.split('xMin="')[1].split('"')[0])
            words.append((line.rsplit(">", 2)[-2].split("<")[0], x, y))
    found = []
    for label in labels:
        ys = [y for w, x, y in words if w == label and x < 60]
        found.append(min(ys))
    return found


def test_hand_rows_are_at_least_8_mm(tmp_path: Path) -> None:
    pdf = export_scoresheet_pdf(tmp_path / "s.pdf", header=HEADER)
    pages = pages_text(pdf)
    page = next(i for i, p in enumerate(pages, start=1) if "各盘记录 Hands" in p)
    ys = _row_tops(pdf, page, [str(n) for n in range(1, 8)])
    gaps = [b - a for a, b in itertools.pairwise(ys)]
    assert min(gaps) >= 8 * mm - 0.5, gaps


def test_round_pack_from_the_command_line(cup, tmp_path: Path) -> None:
    out = tmp_path / "pack.pdf"
    fixed_time = ["--fixed-time", "2026-11-28T08:00+08:00"]
    start = ["--start", "2026-11-28 09:00"]
    code = main(
        ["export", "round-pack", str(cup), "--round", "1", *start, "-o", str(out), *fixed_time]
    )
    assert code == 0
    pages = pages_text(out)
    with Tournament.open(cup, read_only=True) as t:
        rnd = play_rounds(t.state().matches)[0]
        pairs = t.pair_map()
    # 1. The pairing list: every table, match, both pairs, referee, start time.
    wall = pages[0]
    assert "对阵表 Pairings" in wall and "2026-11-28 09:00" in wall
    for m in rnd.matches:
        assert m.match.table in wall and m.match.match_id in wall and m.match.referee in wall
        for pid in (m.pair_a, m.pair_b):
            assert pairs[pid].player1 in wall
    # 2. The player index: every player, sorted, with the table.
    index = "".join(p for p in pages if "选手索引" in p)  # 12 pt: it may run two pages
    assert all(pair.player1 in index and pair.player2 in index for pair in pairs.values())
    # 3. A table card per table, the table's name large on its own page.
    cards = [p for p in pages if "裁判 referee" in p and "开始 start" in p]
    assert len(cards) == len(rnd.matches)
    # 4. Each match's pre-filled scoresheet: every page of it names the match.
    for m in rnd.matches:
        sheet = [
            p for p in pages if f"比赛 Match {m.match.match_id} · 桌 Table {m.match.table}" in p
        ]
        assert len(sheet) >= 3, m.match.match_id
        assert pairs[m.pair_a].player1 in sheet[0]  # seats filled in


def test_round_pack_refuses_a_round_that_does_not_exist(cup, tmp_path: Path, capsys) -> None:
    code = main(["export", "round-pack", str(cup), "--round", "9", "-o", str(tmp_path / "x.pdf")])
    assert code == 1
    err = capsys.readouterr().err
    assert "round 9: no such round" in err and "1 = 小组赛第1轮" in err
    assert not (tmp_path / "x.pdf").exists()


def test_players_index_command(cup, tmp_path: Path) -> None:
    out = tmp_path / "players.pdf"
    assert main(["export", "players", str(cup), "-o", str(out)]) == 0
    assert "选手索引 Player index" in pages_text(out)[0]


def test_scoresheet_is_byte_stable_on_request(tmp_path: Path) -> None:
    a = export_scoresheet_pdf(tmp_path / "a.pdf", header=HEADER, options=fixed()).read_bytes()
    b = export_scoresheet_pdf(tmp_path / "b.pdf", header=HEADER, options=fixed()).read_bytes()
    assert a == b


def test_a_bad_zone_or_missing_round_is_refused_in_one_line(cup, tmp_path: Path, capsys) -> None:
    out = str(tmp_path / "x.pdf")
    assert main(["export", "results", str(cup), "-o", out, "--tz", "Mars/Olympus"]) == 1
    assert "time zone 'Mars/Olympus': use an offset such as +08:00" in capsys.readouterr().err
    assert main(["export", "round-pack", str(cup), "-o", out]) == 1
    assert "round-pack needs --round N" in capsys.readouterr().err
    assert not Path(out).exists()
