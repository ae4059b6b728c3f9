"""Issue 13, "same results, same documents": a groups + knockout tournament both ways.

Beyond the single-elimination twin of ``test_tournament_on_server``: two groups of
three, a circular tie in group A decided by a recorded drawing of lots (RULES: ties in
a group go wins → level difference → head-to-head → lots), records kept under desks'
own ids (one linked on import, one linked by hand among two candidates), then the
knockout with a third-place match. The file and the server are fed the same commands
and the same records; every listing and document must come out the same.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook
from test_tournament_on_server import FIXED, _cells, _pdf_text, _without_file_key

from referee_desk.cli.main import main
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.address import redact
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match

PAIRS = "\n".join(
    ["player1,player2,club,seed"]
    + [f"甲{n},乙{n},俱乐部{n % 2},{n if n <= 2 else ''}" for n in range(1, 7)]
)


@pytest.fixture
def run(capsys):
    def go(*argv: str) -> str:
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert code == 0, (argv, err)
        return out

    return go


def _both(run, places: tuple[str, str], *argv: str) -> tuple[str, str]:
    """The command on the file, then on the server; both outputs (naming each ``PLACE``)."""
    return tuple(
        run(argv[0], argv[1], where, *argv[2:]).replace(shown, "PLACE")
        for where, shown in ((places[0], places[0]), (places[1], redact(places[1])))
    )


def _record(t: Tournament, match_id: str, winner_pair: int, record_id: str | None = None):
    st = t.state().match(match_id)
    side = "NS" if winner_pair == st.pair_a else "EW"
    return simulate_match(record_id or match_id, t.opening_payload(match_id), winner=side)


def _group(t: Tournament, name: str):
    return next(s for s in t.state().standings if s.group == name)


def _wave(folder: Path, records: list) -> list[str]:
    folder.mkdir()
    paths = []
    for events in records:
        path = folder / f"{events[0].match_id}.jsonl"
        write_jsonl(events, path)
        paths.append(str(path))
    return paths


def test_groups_lots_and_links_come_out_the_same_from_the_file_and_the_server(
    hall, tmp_path, run, capsys
) -> None:
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    cup = str(tmp_path / "cup.sqlite")
    places = (cup, hall.organizer_url)
    for where in places:
        run("tournament", "create", where, "--name", "漓江杯", "--start", "2026-11-28",
            "--format", "groups", "--groups", "2", "--advance", "2", "--third-place",
            "--tables", "1号桌,2号桌,3号桌", "--referees", "王磊,李娜")  # fmt: skip
        run("tournament", "import-pairs", where, str(pairs))
        run("tournament", "draw", where, "--seed", "11")
    a, b = _both(run, places, "tournament", "matches")
    assert a == b

    # Group A: a circle (each pair beats the next); group B in seeding order. One group
    # B record is kept under the desk's own id: linked on import (its pairs are certain).
    with Tournament.open(cup) as t:
        groups = t.draw_table.groups()
        circle = groups["A"]
        records = []
        own_id = None
        for m in t.draw_table.matches():
            if m.group is None:
                continue
            st = t.state().match(m.match_id)
            if m.group == "A":
                i, j = circle.index(st.pair_a), circle.index(st.pair_b)
                winner = st.pair_a if (j - i) % 3 == 1 else st.pair_b
            else:
                winner = min(st.pair_a, st.pair_b)
            if m.group == "B" and own_id is None:
                own_id = (f"T3-自编-{m.match_id}", m.match_id)
                records.append(_record(t, m.match_id, winner, own_id[0]))
            else:
                records.append(_record(t, m.match_id, winner))
    sources = _wave(tmp_path / "groups", records)
    a, b = _both(run, places, "tournament", "import-records", *sources)
    assert a == b and f"record {own_id[0]} counts for {own_id[1]}" in a
    a, b = _both(run, places, "tournament", "standings")
    assert a == b
    with Tournament.open(hall.organizer_url) as t:
        assert _group(t, "A").needs_lots == (tuple(sorted(circle)),)
    lots = [f"{pair}={n}" for n, pair in enumerate(reversed(circle), start=1)]
    _both(run, places, "tournament", "lots", "A", *lots, "--by", "王磊")
    a, b = _both(run, places, "tournament", "standings")
    assert a == b
    refusals = []
    for where in places:  # recorded once, refused alike (before: a traceback, a raw key)
        assert main(["tournament", "lots", where, "A", f"{circle[0]}=9"]) == 1
        refusals.append(capsys.readouterr().err)
    assert (
        refusals[0]
        == refusals[1]
        == (
            f"tournament lots refused: group A: pair {circle[0]} drew lot 3 already "
            "(a drawing of lots is recorded once)\n"
        )
    )
    with Tournament.open(hall.organizer_url) as t:
        assert _group(t, "A").needs_lots == ()
        assert t.draw_table.lots() == {
            "A": {pair: n for n, pair in enumerate(reversed(circle), start=1)}
        }

    # The semifinals: the first one recorded twice under desks' own ids (a restarted
    # match), so neither is linked on import; the organizer links the one that counts.
    with Tournament.open(cup) as t:
        semis = [s for s in t.state().matches if s.match.stage == "KO" and s.match.round == 1]
        assert len(semis) == 2 and all(s.pair_a and s.pair_b for s in semis)
        first, second = semis
        kept = _record(t, first.match.match_id, first.pair_b, "T1-自编-重赛")
        dropped = _record(t, first.match.match_id, first.pair_a, "T1-自编-作废")
        records = [kept, dropped, _record(t, second.match.match_id, second.pair_a)]
    sources = _wave(tmp_path / "semis", records)
    a, b = _both(run, places, "tournament", "import-records", *sources)
    assert a == b and "not in the draw (imported, not used): T1-自编-重赛" in a
    _both(run, places, "tournament", "link", "T1-自编-重赛", first.match.match_id, "--by", "李娜")

    with Tournament.open(cup) as t:
        last = [s for s in t.state().matches if s.match.stage == "KO" and s.match.round == 2]
        assert len(last) == 2 and all(s.pair_a and s.pair_b for s in last)
        records = [_record(t, s.match.match_id, s.pair_a) for s in last]
    sources = _wave(tmp_path / "final", records)
    _both(run, places, "tournament", "import-records", *sources)
    for action in ("matches", "pairs", "standings"):
        a, b = _both(run, places, "tournament", action)
        assert a == b, action
    assert "places:" in a  # the standings: the tournament is over
    with Tournament.open(cup) as f, Tournament.open(hall.organizer_url) as s:
        assert f.record_links.all() == s.record_links.all() and len(s.record_links.all()) == 2
        assert f.state() == s.state()
        assert f.opening_payload(last[0].match.match_id) == s.opening_payload(
            last[0].match.match_id
        )

    if shutil.which("pdftotext") is None:
        return
    for kind, extra in (
        ("results", [*FIXED]),
        ("match", ["--match", first.match.match_id, *FIXED]),
        ("scoresheet", ["--match", own_id[1], *FIXED]),
        ("round-pack", ["--round", "1", *FIXED]),
        ("players", [*FIXED]),
    ):
        pdf = tmp_path / f"{kind}-file.pdf", tmp_path / f"{kind}-server.pdf"
        for where, out in zip(places, pdf, strict=True):
            run("export", kind, where, "-o", str(out), *extra)
        assert _pdf_text(pdf[1]) == _without_file_key(_pdf_text(pdf[0])), kind
    books = tmp_path / "bracket-file.xlsx", tmp_path / "bracket-server.xlsx"
    for where, out in zip(places, books, strict=True):
        run("export", "bracket", where, "-o", str(out))
    left, right = load_workbook(books[0]), load_workbook(books[1])
    assert left.sheetnames == right.sheetnames
    for name in left.sheetnames:
        assert _cells(left[name]) == _cells(right[name]), name
