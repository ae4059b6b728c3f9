"""Tournaments under the presets qq-four-deck and three-deck (RULES.md 12, issue 12).

Real tournament files per preset: the ruleset chosen at creation and frozen at the draw,
the sample preset records imported and counted (levels from 2, 12.1; passing A per 12.7),
records of another preset refused, and ``tournament simulate`` playing whole events
without a time limit (12.8) and with 12.7's dig at A.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.match import replay
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.seats import Side
from referee_desk.store.jsonl import read_jsonl
from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.model import (
    Decision,
    Format,
    Settings,
    TournamentInfo,
    level_index,
    level_name,
)
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status

ROOT = Path(__file__).resolve().parents[2]
PRESET_SAMPLES = sorted((ROOT / "sample_events" / "presets").glob("*.jsonl"))
PAIRS_CSV = ROOT / "docs" / "tournament-demo" / "sample_pairs.csv"
PRESETS = ("qq-four-deck", "three-deck")


def samples_of(preset: str) -> list[Path]:
    out = []
    for path in PRESET_SAMPLES:
        first = json.loads(path.read_text("utf-8").splitlines()[0])
        if first["payload"]["ruleset"]["name"] == preset:
            out.append(path)
    return out


def events_of(path: Path) -> list:
    return [item.event for item in read_jsonl(path)]


def sample_cup(path: Path, preset: str, samples: list[Path]) -> Tournament:
    """One group of two per sample record, its pairs registered from the seats."""
    t = Tournament.create(
        path,
        TournamentInfo("预设赛", "2026-11-29", tables=("1", "2")),
        Settings(format=Format.GROUPS_KNOCKOUT, group_count=len(samples), advance_per_group=1),
        get_ruleset(preset),
    )
    rows = []
    k = len(samples)
    for i, sample in enumerate(samples, start=1):
        p = events_of(sample)[0].payload
        s = p["seats"]
        rows.append((s["N"], s["S"], p["pairs"]["NS"], i))
        rows.append((s["E"], s["W"], p["pairs"]["EW"], 2 * k + 1 - i))
    t.add_pairs(rows)
    t.draw(draw_seed=1)
    return t


def test_level_two_is_below_guilin_three() -> None:
    # 12.1 levels = 2..A: the presets' first level sits below Guilin's 3 (index 0 stays 3).
    assert level_index("2") == -1 and level_name(-1) == "2"
    assert level_index("3") == 0 and level_name(0) == "3"
    assert level_name(12) == "过A"
    assert level_index("2") < level_index("3") < level_index("A")


@pytest.mark.parametrize("preset", PRESETS)
def test_cli_create_freezes_the_preset_at_the_draw(tmp_path: Path, preset: str) -> None:
    f = tmp_path / "cup.sqlite"
    assert main(["tournament", "create", str(f), "--name", "杯", "--ruleset", preset]) == 0
    assert main(["tournament", "import-pairs", str(f), str(PAIRS_CSV)]) == 0
    with Tournament.open(f) as t:
        assert t.ruleset == get_ruleset(preset)
    assert main(["tournament", "draw", str(f), "--seed", "1"]) == 0
    with Tournament.open(f) as t:
        assert t.ruleset.name == preset
        with pytest.raises(TournamentError, match="draw"):
            t.configure(ruleset=get_ruleset("guilin-2009"))
        # The table's desk opens every match with the frozen preset.
        ready = next(m for m in t.state().matches if m.status is Status.READY)
        opening = t.opening_payload(ready.match.match_id)
        assert opening["ruleset"] == get_ruleset(preset).to_dict()


def test_cli_create_refuses_an_unknown_preset(tmp_path: Path, capsys) -> None:
    f = tmp_path / "cup.sqlite"
    assert main(["tournament", "create", str(f), "--name", "杯", "--ruleset", "two-deck"]) == 1
    err = capsys.readouterr().err
    assert "two-deck" in err and "qq-four-deck" in err and not f.exists()


@pytest.mark.parametrize("preset", PRESETS)
def test_sample_preset_records_decide_their_groups(tmp_path: Path, preset: str) -> None:
    samples = samples_of(preset)
    assert len(samples) == 2  # issue 12: two complete matches per new preset
    t = sample_cup(tmp_path / "cup.sqlite", preset, samples)
    result = import_records(t, samples)
    assert result.ok and not result.not_in_draw, result.lines()
    assert len(result.linked) == 2
    state = t.state()
    groups = [m for m in state.matches if m.match.group is not None]
    assert all(m.status is Status.DECIDED for m in groups), t.outcome_problems
    outcomes = {o.match_id: o for o in t.outcomes().values()}
    for link in result.linked:
        record = replay(events_of(next(p for p in samples if events_of(p)[0].match_id
                                       == link.record_id)))  # fmt: skip
        o = outcomes[link.match_id]
        assert o.decided_by is Decision.PASSED_A  # 1.5 / 12.7, read from the record
        winner_side = record.end.winner
        loser_side = next(s for s in record.levels if s != winner_side)
        pm = {p.pair_id: p for p in t.pairs.all()}
        loser = o.loser
        assert loser is not None and o.level_of(o.winner) == 12  # passed A
        # The loser's level is the record's, read from 2 upwards (12.1).
        assert level_name(o.level_of(loser)) == record.levels[loser_side].label
        assert pm[loser].player1 in record.info.seats.values()
    # 10_three_deck_summary_pass_a ends at Q : 过A, 09 at 2 : 过A: level 2 is counted as such.
    if preset == "three-deck":
        loser_levels = sorted(level_name(o.level_of(o.loser)) for o in outcomes.values())
        assert loser_levels == ["2", "Q"]
    # Group standings read the level difference from 2 upwards: 过A (12) against 2 (−1)
    # is 13 levels.
    for st in state.standings:
        assert st.final
        rows = {r.pair_id: r for r in st.rows}
        o = next(o for o in outcomes.values() if o.winner in rows)
        assert rows[o.winner].rank == 1 and rows[o.winner].wins == 1
        assert rows[o.winner].level_diff == 12 - o.level_of(o.loser)
        assert rows[o.loser].level_diff == o.level_of(o.loser) - 12
    if preset == "three-deck":
        assert sorted(r.level_diff for st in state.standings for r in st.rows)[0] == -13
    # Importing again changes nothing.
    again = import_records(t, samples)
    assert not again.added and not again.linked and again.ok


def test_a_record_of_another_preset_is_not_counted(tmp_path: Path) -> None:
    # The ruleset is frozen at the draw: a qq-four-deck record cannot decide a
    # three-deck match, even when its pairs meet there.
    qq = samples_of("qq-four-deck")
    t = sample_cup(tmp_path / "cup.sqlite", "three-deck", qq)
    result = import_records(t, qq)
    assert not result.linked
    assert sorted(result.not_in_draw) == sorted(events_of(p)[0].match_id for p in qq)
    for why in result.why_not_linked.values():
        assert "qq-four-deck" in why and "three-deck" in why and "frozen at the draw" in why


def test_a_record_linked_by_hand_under_another_preset_is_a_problem(tmp_path: Path) -> None:
    qq = samples_of("qq-four-deck")
    t = sample_cup(tmp_path / "cup.sqlite", "three-deck", qq)
    import_records(t, qq[:1])
    record_id = events_of(qq[0])[0].match_id
    group_match = next(m.match.match_id for m in t.state().matches if m.match.group == "A")
    t.link(record_id, group_match, by="organizer")
    t.invalidate()
    state = t.state()
    assert state.match(group_match).status is not Status.DECIDED
    assert "qq-four-deck" in t.outcome_problems[group_match]


@pytest.mark.parametrize("preset", PRESETS)
def test_simulated_preset_matches(preset: str) -> None:
    rules = get_ruleset(preset)
    t_opening = {
        "tournament": "模拟",
        "round": "1",
        "table": "1",
        "pairs": {"NS": "#1 甲 / 乙", "EW": "#2 丙 / 丁"},
        "seats": {"N": "甲", "S": "乙", "E": "丙", "W": "丁"},
        "referee": "裁判",
        "ruleset": rules.to_dict(),
    }
    # 12.8: no time limit, so no time-out.
    with pytest.raises(ValueError, match="no time limit"):
        simulate_match("M1", t_opening, "NS", "time_out")
    events = simulate_match("M1", t_opening, "EW", "passed_a", loser_gains=2)
    st = replay(events)
    assert st.end.reason == "passed_a" and st.end.winner.value == "EW"
    assert not st.clock.has_limit
    # Levels start at 2 (12.1): the first hand is played at 2.
    assert st.hands[0].level.label == "2"
    if rules.a_needs_dig:
        # 12.7 (001): the winners dug the kitty at A (defending, winning the last trick)
        # before the hand that passed A.
        done = [h for h in st.hands if h.result is not None]
        dug = [
            h
            for before, h in itertools.pairwise(done)
            if before.result.levels_after[Side.EW].label == "A"
            and h.defenders is Side.EW
            and h.last_trick.side is Side.EW
        ]
        assert dug and dug[0].number < st.hands[-1].number
        assert st.hands[-1].declarers is Side.EW and st.hands[-1].result.passed_a
    forfeit = simulate_match("M2", t_opening, "NS", "forfeit")
    assert replay(forfeit).end.reason == "forfeit"


@pytest.mark.parametrize("preset", PRESETS)
def test_cli_simulate_a_whole_preset_tournament(tmp_path: Path, preset: str, capsys) -> None:
    f = tmp_path / "cup.sqlite"
    main(["tournament", "create", str(f), "--name", "杯", "--ruleset", preset,
          "--tables", "1,2,3,4", "--referees", "甲,乙"])  # fmt: skip
    main(["tournament", "import-pairs", str(f), str(PAIRS_CSV)])
    main(["tournament", "draw", str(f), "--seed", "3"])
    capsys.readouterr()
    assert main(["tournament", "simulate", str(f), "-o", str(tmp_path / "records")]) == 0
    assert "simulated and imported" in capsys.readouterr().out
    with Tournament.open(f) as t:
        state = t.state()
        assert state.finished
        ways = {m.decided_by for m in state.matches if m.decided_by is not None}
        assert Decision.PASSED_A in ways and Decision.FORFEIT in ways
        assert not ways & {Decision.TIME_OUT_LEVEL, Decision.TIME_OUT_DEAL}
        # 8.10 in the presets: the forfeiting side is counted at level 2 (12.1).
        forfeits = [o for o in t.outcomes().values() if o.decided_by is Decision.FORFEIT]
        assert forfeits and all(o.level_of(o.loser) == level_index("2") for o in forfeits)
    assert main(["tournament", "standings", str(f)]) == 0
    assert "places:" in capsys.readouterr().out
