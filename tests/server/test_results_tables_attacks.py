"""Issue 18 item 5 on the tournament server: the outcome cache does not decide a match.

The organizer's schema is reachable by the organizer alone (desks and other roles reach
nothing in it: ``test_tournament_server_attacks``), so its draw, lots and links need no
file guard there. The outcome cache is the same table as in a file and is checked the
same way: an entry this computer did not write as it stands is replayed from the record.
"""

from __future__ import annotations

import json
from pathlib import Path

import psycopg

from referee_desk.cli.main import main
from referee_desk.tournament.repository import Tournament
from tests.reliability.test_attacks_results import winner_in_a_fresh_process

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(str(p) for p in (ROOT / "sample_events").glob("*.jsonl"))
SAMPLE_PAIRS = ROOT / "docs" / "tournament-demo" / "sample_pairs.csv"
ORG = "referee_desk_organizer"
GROUP_F = "GF-R1-M01"  # pairs #6 and #7; the sample record GL2026-R2-T6 says #6 won


def test_a_forged_outcome_cache_on_the_server_does_not_decide_the_match(hall, capsys) -> None:
    url = hall.organizer_url
    for argv in (
        ["tournament", "create", url, "--name", "桂林杯", "--start", "2026-11-28",
         "--tables", "1号桌,2号桌,3号桌", "--referees", "陈建国,王磊,李静",
         "--format", "groups", "--groups", "6", "--advance", "1", "--third-place"],
        ["tournament", "import-pairs", url, str(SAMPLE_PAIRS)],
        ["tournament", "draw", url, "--seed", "2026"],
        ["tournament", "import-records", url, *SAMPLES],
    ):  # fmt: skip
        assert main(argv) == 0, capsys.readouterr()
    with Tournament.open(url) as t:
        assert t.state().match(GROUP_F).winner == 6  # the cache holds it now
    with psycopg.connect(url, autocommit=True) as conn:
        (outcome_json,) = conn.execute(
            f"SELECT outcome_json FROM {ORG}.tournament_outcome_cache WHERE match_id = %s",
            (GROUP_F,),
        ).fetchone()
        forged = json.loads(outcome_json) | {"winner": 7, "levels": [[6, 1], [7, 12]]}
        conn.execute(
            f"UPDATE {ORG}.tournament_outcome_cache SET outcome_json = %s WHERE match_id = %s",
            (json.dumps(forged, ensure_ascii=False), GROUP_F),
        )
    assert winner_in_a_fresh_process(url) == 6  # before: 7
