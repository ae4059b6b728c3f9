"""Records kept under a desk's own match id are linked to their drawn match on import
when their two pairs meet in exactly one drawn match still without a record (issue 6:
a newcomer imports the sample matches and the groups are decided, no hand linking).
Unknown or ambiguous records stay "not in the draw", with the reason, for a hand link.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.importing import LINKED_BY_IMPORT, ImportResult, import_records
from referee_desk.tournament.model import Decision, Format, Settings, TournamentInfo
from referee_desk.tournament.pairs_io import read_pairs
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_events").glob("*.jsonl"))
SAMPLE_PAIRS = ROOT / "docs" / "tournament-demo" / "sample_pairs.csv"
INFO = TournamentInfo(
    "桂林市2026年职工拖拉机锦标赛",
    "2026-11-28",
    "2026-11-29",
    tables=("1", "2"),
    referees=("王磊",),
)
GROUPS = Settings(
    format=Format.GROUPS_KNOCKOUT, group_count=6, advance_per_group=1, third_place=True
)
DECISIONS = {
    "passed_a": Decision.PASSED_A,
    "forfeit": Decision.FORFEIT,
    "disqualification": Decision.DISQUALIFICATION,
}


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]


def _pair_of(t: Tournament, seats: dict, side: str) -> int:
    """The registered pair whose two players sat on ``side`` (names read from the file)."""
    names = {seats[s] for s in side}
    found = [p.pair_id for p in t.pairs.all() if {p.player1, p.player2} == names]
    assert len(found) == 1, (names, found)
    return found[0]


def _drawn_between(t: Tournament, a: int, b: int) -> str:
    found = [
        m.match_id
        for m in t.draw_table.matches()
        if {m.slot_a.pair_id, m.slot_b.pair_id} == {a, b} and m.group is not None
    ]
    assert len(found) == 1
    return found[0]


@pytest.fixture
def demo(tmp_path: Path) -> Tournament:
    """The demo of docs/tournament-api.md: the sample pairs, six groups of two, drawn."""
    t = Tournament.create(tmp_path / "cup.sqlite", INFO, GROUPS)
    t.add_pairs(read_pairs(SAMPLE_PAIRS))
    t.draw(draw_seed=2026)
    return t


def test_sample_records_count_for_their_drawn_matches(demo: Tournament) -> None:
    assert len(SAMPLES) == 6
    result = import_records(demo, SAMPLES)
    assert result.ok and result.not_in_draw == [] and len(result.added) == 6
    expected = {}
    for path in SAMPLES:
        events = _lines(path)
        seats = events[0]["payload"]["seats"]
        ns, ew = _pair_of(demo, seats, "NS"), _pair_of(demo, seats, "EW")
        expected[events[0]["match_id"]] = (_drawn_between(demo, ns, ew), ns, ew, path, events)
    assert {x.record_id: x.match_id for x in result.linked} == {
        r: v[0] for r, v in expected.items()
    }
    assert demo.record_links.all() == {v[0]: r for r, v in expected.items()}
    by_import = demo.file.connection.execute(
        "SELECT DISTINCT linked_by FROM tournament_links"
    ).fetchall()
    assert by_import == [(LINKED_BY_IMPORT,)]
    for link in result.linked:
        assert {link.pair_a, link.pair_b} == set(expected[link.record_id][1:3])
        assert (
            f"record {link.record_id} counts for {link.match_id} "
            f"(pairs #{link.pair_a} and #{link.pair_b})"
        ) in result.lines()
    # Decided as the records say: the side named by match_ended wins, in its way.
    state = demo.state()
    assert demo.outcome_problems == {}
    for _record_id, (match_id, ns, ew, path, events) in expected.items():
        end = next(e["payload"] for e in events if e["type"] == "match_ended")
        st = state.match(match_id)
        assert st.status is Status.DECIDED
        assert st.winner == (ns if end["winner"] == "NS" else ew)
        if end["reason"] == "time_out":
            # 7.1: at time-out the higher level wins; equal levels: the deal holders.
            deal = "equal_levels" in path.name
            assert st.decided_by is (Decision.TIME_OUT_DEAL if deal else Decision.TIME_OUT_LEVEL)
        else:
            assert st.decided_by is DECISIONS[end["reason"]]
    assert all(s.final for s in state.standings)
    ko = [s for s in state.matches if s.match.stage == "KO" and s.match.round == 1]
    assert ko and all(s.status in (Status.READY, Status.BYE) for s in ko)


def test_importing_again_changes_nothing(demo: Tournament) -> None:
    import_records(demo, SAMPLES)
    links, count = demo.record_links.all(), demo.file.count()
    again = import_records(demo, SAMPLES)
    assert again.ok and not again.added and not again.linked and not again.not_in_draw
    assert sorted(again.unchanged) == sorted(links.values())
    assert demo.record_links.all() == links and demo.file.count() == count


def test_records_from_a_desks_sqlite_file_are_linked_too(demo: Tournament, tmp_path: Path) -> None:
    from referee_desk.store.jsonl import read_jsonl
    from referee_desk.store.tournament_file import TournamentFile

    desk = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk, create=True) as tf:
        for item in read_jsonl(SAMPLES[0]):
            tf.append(item.event)
    result = import_records(demo, [desk])
    record_id = _lines(SAMPLES[0])[0]["match_id"]
    assert [(x.record_id, x.match_id) for x in result.linked] == [(record_id, "GA-R1-M01")]
    assert import_records(demo, [desk]).linked == []


def test_records_imported_before_the_draw_are_linked_on_a_later_import(tmp_path: Path) -> None:
    t = Tournament.create(tmp_path / "cup.sqlite", INFO, GROUPS)
    t.add_pairs(read_pairs(SAMPLE_PAIRS))
    early = import_records(t, SAMPLES[:2])
    assert len(early.not_in_draw) == 2 and not early.linked
    assert set(early.why_not_linked.values()) == {"no draw yet"}
    t.draw(draw_seed=2026)
    later = import_records(t, SAMPLES)
    # The two records already in the file are linked too: the order of imports is no matter.
    assert len(later.linked) == 6 and later.not_in_draw == []


# ---------------------------------------------------------------- small tournaments


def _cup(tmp_path: Path, players: list[tuple[str, str, str]], settings: Settings) -> Tournament:
    t = Tournament.create(tmp_path / "t.sqlite", INFO, settings)
    t.add_pairs([(a, b, club, None) for a, b, club in players])
    t.draw(draw_seed=1)
    return t


def _desk_record(folder: Path, record_id: str, opening: dict, winner: str = "NS") -> Path:
    path = folder / f"{record_id}.jsonl"
    write_jsonl(simulate_match(record_id, opening, winner), path)
    return path


def _club_opening(t: Tournament, match_id: str) -> dict:
    """A desk's own opening: pairs named by club, no ``#id`` (as the sample desks did)."""
    payload = t.opening_payload(match_id)
    st = t.state().match(match_id)
    pm = t.pair_map()
    payload["pairs"] = {"NS": pm[st.pair_a].club, "EW": pm[st.pair_b].club}
    return payload


def _not_linked(result: ImportResult, record_id: str) -> str:
    assert record_id in result.not_in_draw and result.linked == []
    why = result.why_not_linked[record_id]
    assert f"not in the draw (imported, not used): {record_id}: {why}" in result.lines()
    return why


def test_same_players_in_two_pairs_are_not_guessed(tmp_path: Path) -> None:
    """Two pairs of the same names (different clubs): the seated players fit both."""
    one_group = Settings(format=Format.GROUPS_KNOCKOUT, group_count=1, advance_per_group=1)
    t = _cup(
        tmp_path,
        [("张伟", "王芳", "桂林电子"), ("张伟", "王芳", "象山供电"), ("李娜", "刘洋", "漓江机械")],
        one_group,
    )
    match_id = next(s.match.match_id for s in t.state().matches if {s.pair_a, s.pair_b} == {1, 3})
    path = _desk_record(tmp_path, "DESK-1", _club_opening(t, match_id))
    why = _not_linked(import_records(t, [path]), "DESK-1")
    assert "cannot tell its pairs" in why and "could be pair #1 or #2" in why
    # The organizer links it by hand; the record then reads (seated players of pair 1).
    t.link("DESK-1", match_id)
    assert t.state().match(match_id).status is Status.DECIDED
    assert import_records(t, [path]).linked == []


def test_unknown_pairs_stay_out_of_the_draw(tmp_path: Path) -> None:
    t = _cup(tmp_path, [("张一", "李一", "甲"), ("张二", "李二", "乙")], Settings())
    match_id = t.draw_table.matches()[0].match_id
    payload = t.opening_payload(match_id)
    payload["pairs"] = {"NS": "友谊队", "EW": "来宾队"}
    payload["seats"] = {"N": "赵甲", "S": "钱乙", "E": "孙丙", "W": "李丁"}
    why = _not_linked(
        import_records(t, [_desk_record(tmp_path, "FRIENDLY-2", payload)]), "FRIENDLY-2"
    )
    assert why == "cannot tell its pairs: N–S “友谊队” (赵甲, 钱乙) is no registered pair"
    assert t.record_links.all() == {} and t.state().match(match_id).status is Status.READY


def test_a_match_already_recorded_is_not_taken_twice(tmp_path: Path) -> None:
    t = _cup(tmp_path, [("张一", "李一", "甲"), ("张二", "李二", "乙")], Settings())
    match_id = t.draw_table.matches()[0].match_id
    opening = t.opening_payload(match_id)
    assert import_records(t, [_desk_record(tmp_path, match_id, opening)]).not_in_draw == []
    result = import_records(t, [_desk_record(tmp_path, "DESK-9", opening, winner="EW")])
    why = _not_linked(result, "DESK-9")
    assert why == "pairs #1 and #2 meet in no drawn match still without a record"
    # The record under the drawn id counts (N–S, pair A, won it).
    assert t.state().match(match_id).winner == t.state().match(match_id).pair_a


def test_two_records_of_one_match_are_left_to_the_organizer(tmp_path: Path) -> None:
    """Two desks' records name the same drawn match: neither is chosen, on any import."""
    t = _cup(tmp_path, [("张一", "李一", "甲"), ("张二", "李二", "乙")], Settings())
    match_id = t.draw_table.matches()[0].match_id
    opening = _club_opening(t, match_id)
    first = _desk_record(tmp_path, "DESK-A", opening, "NS")
    second = _desk_record(tmp_path, "DESK-B", opening, "EW")
    result = import_records(t, [first, second])
    assert sorted(result.not_in_draw) == ["DESK-A", "DESK-B"] and not result.linked
    assert result.why_not_linked["DESK-A"] == (
        f"pairs #1 and #2 of {match_id} are also named by record DESK-B"
    )
    assert import_records(t, [first]).linked == []  # still two candidates in the file
    assert t.record_links.all() == {}
    t.link("DESK-B", match_id, by="仲裁委员会")
    assert t.state().match(match_id).winner == t.state().match(match_id).pair_b  # E–W won


def test_knockout_records_link_round_after_round_in_one_import(tmp_path: Path) -> None:
    """The final's pairs are known only once the semi-finals count: linked in passes."""
    players = [(f"张{i}", f"李{i}", f"俱乐部{i}") for i in range(1, 5)]
    (tmp_path / "scratch").mkdir()
    scratch = _cup(tmp_path / "scratch", players, Settings())  # to learn the final's opening
    semis = [m.match_id for m in scratch.draw_table.matches() if m.round == 1]
    final = next(m.match_id for m in scratch.draw_table.matches() if m.round == 2)
    files, openings = [], {}
    for k, mid in enumerate(semis):
        openings[mid] = _club_opening(scratch, mid)
        path = _desk_record(tmp_path, f"DESK-S{k + 1}", openings[mid], "EW")
        files.append(path)
        scratch_path = _desk_record(tmp_path / "scratch", mid, openings[mid], "EW")
        import_records(scratch, [scratch_path])
    files.append(_desk_record(tmp_path, "DESK-F", _club_opening(scratch, final), "NS"))
    expected_final = scratch.state().match(final)
    scratch.close()
    t = _cup(tmp_path, players, Settings())
    result = import_records(t, list(reversed(files)))
    assert result.not_in_draw == [], result.lines()
    assert {x.record_id: x.match_id for x in result.linked} == {
        "DESK-S1": semis[0],
        "DESK-S2": semis[1],
        "DESK-F": final,
    }
    st = t.state()
    assert st.match(final).status is Status.DECIDED
    assert st.match(final).winner == expected_final.pair_a
    assert st.places[0].pair_id == expected_final.pair_a


def test_command_line_says_which_drawn_match_each_record_counts_for(tmp_path: Path, capsys) -> None:
    from referee_desk.cli.main import main

    f = str(tmp_path / "cup.sqlite")
    assert main(["tournament", "create", f, "--name", "桂林杯", "--format", "groups",
                 "--groups", "6", "--advance", "1", "--referees", "王磊"]) == 0  # fmt: skip
    assert main(["tournament", "import-pairs", f, str(SAMPLE_PAIRS)]) == 0
    assert main(["tournament", "draw", f, "--seed", "2026"]) == 0
    capsys.readouterr()
    assert main(["tournament", "import-records", f, *map(str, SAMPLES)]) == 0
    out = capsys.readouterr().out
    with Tournament.open(f, read_only=True) as t:
        links = t.record_links.all()
        pairs = {m.match_id: (m.slot_a.pair_id, m.slot_b.pair_id) for m in t.draw_table.matches()}
    assert len(links) == 6
    for match_id, record_id in links.items():
        a, b = pairs[match_id]
        assert f"record {record_id} counts for {match_id} (pairs #{a} and #{b})" in out
    assert "not in the draw" not in out
    assert main(["tournament", "import-records", f, str(SAMPLES[0])]) == 0
    assert "counts for" not in capsys.readouterr().out  # nothing new to link
    # A record of unknown pairs: said, with the way to link it by hand.
    opening = dict(_lines(SAMPLES[0])[0]["payload"])
    opening["seats"] = {"N": "赵甲", "S": "钱乙", "E": "孙丙", "W": "李丁"}
    path = _desk_record(tmp_path, "FRIENDLY-3", opening)
    assert main(["tournament", "import-records", f, str(path)]) == 0
    out = capsys.readouterr().out
    assert "not in the draw (imported, not used): FRIENDLY-3: cannot tell its pairs" in out
    assert f"referee-desk tournament link {f} RECORD_ID MATCH_ID" in out
