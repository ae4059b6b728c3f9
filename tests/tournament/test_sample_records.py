"""The sample match records (sample_events/*.jsonl) decide a group stage through links:
the desks recorded under their own match ids, the import links each record to its
drawn match (issue 6: a newcomer imports the sample matches)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.model import Decision, Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import Status

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_events").glob("*.jsonl"))


def openings() -> list[tuple[str, dict]]:
    out = []
    for path in SAMPLES:
        first = json.loads(path.read_text("utf-8").splitlines()[0])
        out.append((first["match_id"], first["payload"]))
    return out


@pytest.fixture
def cup(tmp_path: Path) -> Tournament:
    """One group of two per sample match: N–S pairs seeded 1…k, their opponents 2k…k+1."""
    found = openings()
    assert found, "sample_events/ holds no match records"
    k = len(found)
    t = Tournament.create(
        tmp_path / "cup.sqlite",
        TournamentInfo("样例赛", "2026-11-29", tables=("1", "2")),
        Settings(format=Format.GROUPS_KNOCKOUT, group_count=k, advance_per_group=1),
    )
    rows = []
    for i, (_, p) in enumerate(found, start=1):
        s = p["seats"]
        rows.append((s["N"], s["S"], p["pairs"]["NS"], i))
        rows.append((s["E"], s["W"], p["pairs"]["EW"], 2 * k + 1 - i))
    t.add_pairs(rows)
    t.draw(draw_seed=1)
    return t


def test_samples_decide_the_groups_through_links(cup: Tournament) -> None:
    result = import_records(cup, SAMPLES)
    assert result.ok and len(result.added) == len(SAMPLES)
    assert result.not_in_draw == []
    groups = cup.draw_table.groups()
    by_pairs = {frozenset(v): n for n, v in groups.items()}
    pm = {(p.player1, p.player2): p.pair_id for p in cup.pairs.all()}
    expected = {}
    for record_id, p in openings():
        s = p["seats"]
        members = frozenset((pm[(s["N"], s["S"])], pm[(s["E"], s["W"])]))
        expected[f"G{by_pairs[members]}-R1-M01"] = record_id
    assert cup.record_links.all() == expected  # linked on import: the seated players name the pairs
    state = cup.state()
    group_matches = [m for m in state.matches if m.match.group is not None]
    assert all(m.status is Status.DECIDED for m in group_matches), cup.outcome_problems
    assert all(s.final for s in state.standings)
    # Each sample's end is kept: the ways of deciding a match all appear.
    ways = {m.decided_by for m in group_matches}
    assert Decision.PASSED_A in ways and Decision.FORFEIT in ways
    assert Decision.DISQUALIFICATION in ways
    assert ways & {Decision.TIME_OUT_LEVEL, Decision.TIME_OUT_DEAL}
    # The knockout now knows its group winners.
    ko = [m for m in state.matches if m.match.stage == "KO" and m.match.round == 1]
    assert all(m.status in (Status.READY, Status.BYE) for m in ko)
    # Importing the samples again changes nothing.
    again = import_records(cup, SAMPLES)
    assert not again.added and again.ok and not again.not_in_draw and not again.linked


def test_link_refusals(cup: Tournament) -> None:
    import_records(cup, SAMPLES[:1])  # linked to GA-R1-M01 by the import
    record_id = openings()[0][0]
    assert cup.record_links.all() == {"GA-R1-M01": record_id}
    with pytest.raises(TournamentError, match="no record"):
        cup.link("NOT-RECORDED", "GA-R1-M01")
    with pytest.raises(TournamentError, match="no match"):
        cup.link(record_id, "NO-SUCH-MATCH")
    with pytest.raises(TournamentError, match="already linked"):
        cup.link(record_id, "GB-R1-M01")
    import_records(cup, SAMPLES[1:2])
    with pytest.raises(TournamentError, match="already linked"):
        cup.link(openings()[1][0], "GA-R1-M01")


def test_match_report_by_drawn_id_of_a_linked_record(
    cup: Tournament, tmp_path: Path, capsys
) -> None:
    from pypdf import PdfReader

    from referee_desk.cli.main import main

    import_records(cup, SAMPLES[:1])
    record_id = openings()[0][0]
    assert cup.record_id("GA-R1-M01") == record_id  # linked by the import
    path = str(cup.file.path)
    cup.close()
    out = tmp_path / "a.pdf"
    assert main(["export", "match", path, "--match", "GA-R1-M01", "-o", str(out)]) == 0
    assert record_id in capsys.readouterr().out
    text = "".join(p.extract_text() for p in PdfReader(out).pages).replace("\n", "")
    assert record_id in text
