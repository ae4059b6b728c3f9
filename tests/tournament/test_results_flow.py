"""Results flow from real match records: replay -> outcome -> bracket (issue 6), and
imports from several desks are idempotent and report conflicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.errors import OutcomeError
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.model import Decision, Format, Settings, TournamentInfo
from referee_desk.tournament.outcomes import side_pairs
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status

from .records import play_out, record_for

INFO = TournamentInfo("漓江杯", "2026-11-29", venue="桂林", tables=("1", "2"), referees=("王磊",))


def cup(tmp_path: Path, n: int, settings: Settings | None = None, name: str = "t") -> Tournament:
    t = Tournament.create(tmp_path / f"{name}.sqlite", INFO, settings or Settings(third_place=True))
    for i in range(1, n + 1):
        t.add_pair(f"张{i}", f"李{i}", "漓江", i)
    t.draw(draw_seed=1)
    return t


def imported(t: Tournament, tmp_path: Path, match_id: str, winner: int, way: str, **kw):
    path = tmp_path / f"{match_id}-{way}-{winner}.jsonl"
    write_jsonl(record_for(t, match_id, winner, way, **kw), path)
    return import_records(t, [path])


def test_passed_a_advances_and_levels_at_the_end_are_kept(tmp_path: Path) -> None:
    """1.5: 哪一方率先打过“A”即为胜利."""
    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    res = imported(t, tmp_path, m.match.match_id, m.pair_b, "passed_a", loser_gains=2)
    assert res.ok and res.added[m.match.match_id] > 0
    st = t.state().match(m.match.match_id)
    assert st.status is Status.DECIDED and st.winner == m.pair_b
    assert st.decided_by is Decision.PASSED_A
    assert st.outcome.level_diff(m.pair_b) == 12 - 2  # passed A vs level 5
    assert t.state().matches[2].pair_a == m.pair_b  # advanced into the final


@pytest.mark.parametrize(
    ("way", "decision"),
    [
        ("forfeit", Decision.FORFEIT),
        ("disqualification", Decision.DISQUALIFICATION),
        ("time_out", Decision.TIME_OUT_LEVEL),
    ],
)
def test_ways_of_winning_are_marked(tmp_path: Path, way: str, decision: Decision) -> None:
    """8.10 forfeit, 8.8 disqualification, 1.5 time-out: the winner advances, the way is kept."""
    t = cup(tmp_path, 4)
    m = t.state().matches[1]
    imported(t, tmp_path, m.match.match_id, m.pair_a, way)
    st = t.state().match(m.match.match_id)
    assert st.winner == m.pair_a and st.decided_by is decision
    assert st.decided_by.is_marked == (decision in (Decision.FORFEIT, Decision.DISQUALIFICATION))
    if way == "forfeit":
        # 8.10: the forfeiting side scores 0 for the match.
        assert st.outcome.level_of(m.pair_b) == 0


def test_pending_committee_referral_holds_the_branch(tmp_path: Path) -> None:
    """8.8: 若再次犯规，当即由在场裁判上报比赛仲裁委员会 — until it decides, the branch waits."""
    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    imported(t, tmp_path, m.match.match_id, m.pair_a, "pending")
    st = t.state().match(m.match.match_id)
    assert st.status is Status.HELD and st.winner is None and st.outcome.dispute_pending
    final = t.state().matches[2]
    assert final.status is Status.WAITING and final.pair_a is None


def test_whole_cup_from_records_gives_places(tmp_path: Path) -> None:
    t = cup(tmp_path, 6)
    play_out(t, tmp_path)
    st = t.state()
    assert st.finished
    assert [(p.place, p.pair_id) for p in st.places[:4]] == [(1, 1), (2, 2), (3, 3), (4, 4)]


def test_group_stage_feeds_knockout_from_records(tmp_path: Path) -> None:
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    t = cup(tmp_path, 8, settings)
    play_out(t, tmp_path)
    st = t.state()
    assert st.finished and all(s.final for s in st.standings)
    groups = t.draw_table.groups()
    # Group winners are the best seed of each group (lower id wins every match).
    assert {s.rows[0].pair_id for s in st.standings} == {min(v) for v in groups.values()}
    assert st.places[0].pair_id == 1


def test_import_twice_changes_nothing(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    path = tmp_path / "desk1.jsonl"
    write_jsonl(record_for(t, m.match.match_id, m.pair_a), path)
    first = import_records(t, [path])
    count = t.file.count()
    again = import_records(t, [path])
    assert first.added and not again.added and again.unchanged == [m.match.match_id]
    assert t.file.count() == count and again.ok


def test_import_from_another_desks_sqlite_file(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    desk = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk, create=True) as tf:
        for e in record_for(t, m.match.match_id, m.pair_b):
            tf.append(e)
    res = import_records(t, [desk])
    assert res.ok and m.match.match_id in res.added
    assert t.state().match(m.match.match_id).winner == m.pair_b
    assert import_records(t, [desk]).added == {}


def test_conflicting_desks_are_reported_not_guessed(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    a, b = t.state().matches[0], t.state().matches[1]
    one = tmp_path / "desk1.jsonl"
    two = tmp_path / "desk2.jsonl"
    write_jsonl(record_for(t, a.match.match_id, a.pair_a), one)
    other = record_for(t, a.match.match_id, a.pair_b)  # same match, other winner
    write_jsonl(other + record_for(t, b.match.match_id, b.pair_a), two)
    assert import_records(t, [one]).ok
    res = import_records(t, [two])
    assert [c.match_id for c in res.conflicts] == [a.match.match_id]
    assert "differently" in res.conflicts[0].reason
    assert b.match.match_id in res.added  # the other match still came in
    assert t.state().match(a.match.match_id).winner == a.pair_a  # first record kept


def test_record_for_a_match_not_in_the_draw_is_reported(tmp_path: Path) -> None:
    """A friendly between two pairs that meet in no waiting drawn match is kept apart."""
    t = cup(tmp_path, 4)
    first, second = (t.opening_payload(s.match.match_id) for s in t.state().matches[:2])
    payload = dict(first, pairs={"NS": first["pairs"]["NS"], "EW": second["pairs"]["NS"]})
    payload["seats"] = {
        "N": first["seats"]["N"], "S": first["seats"]["S"],
        "E": second["seats"]["N"], "W": second["seats"]["S"],
    }  # fmt: skip
    path = tmp_path / "x.jsonl"
    write_jsonl(simulate_match("FRIENDLY-1", payload), path)
    res = import_records(t, [path])
    assert res.not_in_draw == ["FRIENDLY-1"] and res.linked == [] and t.record_links.all() == {}
    assert "meet in no drawn match still without a record" in res.why_not_linked["FRIENDLY-1"]


def test_record_with_unknown_pairs_is_a_problem(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    payload = t.opening_payload(m.match.match_id)
    payload["pairs"] = {"NS": "甲队", "EW": "乙队"}
    payload["seats"] = {"N": "甲", "S": "乙", "E": "丙", "W": "丁"}
    path = tmp_path / "x.jsonl"
    write_jsonl(simulate_match(m.match.match_id, payload), path)
    import_records(t, [path])
    assert t.state().match(m.match.match_id).status is Status.READY
    assert "cannot tell" in t.outcome_problems[m.match.match_id]


def test_sides_found_by_seated_players_without_ids() -> None:
    from referee_desk.match.state import MatchInfo
    from referee_desk.rules.seats import Seat, Side
    from referee_desk.tournament.model import Pair

    a, b = Pair(3, "张三", "李四"), Pair(8, "王五", "赵六")
    info = MatchInfo(
        "T", "1", "1", {Side.NS: "东队", Side.EW: "西队"},
        {Seat.N: "王五", Seat.S: "赵六", Seat.E: "张三", Seat.W: "李四"}, "裁判",
    )  # fmt: skip
    assert side_pairs(info, a, b) == {"NS": 8, "EW": 3}
    info2 = MatchInfo("T", "1", "1", {Side.NS: "x", Side.EW: "y"}, {}, "裁判")
    with pytest.raises(OutcomeError, match="cannot tell"):
        side_pairs(info2, a, b)


def test_committee_ruling_after_the_referral_releases_the_branch(tmp_path: Path) -> None:
    """8.11: 由仲裁委员会……另外去作出处理 — once the ruling is recorded the branch moves on.
    A ruling that lets the result stand leaves the match decided at the table (pass A,
    1.5), as every document then says (issue 20 item 4); only a ruling that sets the
    levels decides it (``test_committee_levels_decide_the_match``)."""
    from referee_desk.match import new_event

    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    mid = m.match.match_id
    imported(t, tmp_path, mid, m.pair_a, "pending")
    assert t.state().match(mid).status is Status.HELD
    draft = new_event(
        t.file.events(mid),
        "committee_ruling",
        {"text": "维持比赛结果，东西方警告记录在案"},
        "仲裁委员会",
        "2026-11-29T14:00:00.000Z",
    )
    t.file.people.add_person("仲裁委员会", "committee", "2468")  # issue 9: rulings need a sign-in
    t.file.append(draft, by=t.file.people.login("仲裁委员会", "2468", role="committee"))
    t.invalidate()
    st = t.state().match(mid)
    assert st.status is Status.DECIDED and st.winner == m.pair_a
    assert st.decided_by is Decision.PASSED_A and not st.decided_by.is_marked
    assert t.state().matches[2].pair_a == m.pair_a


def test_outcome_cache_follows_the_chain_head(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    m = t.state().matches[0]
    imported(t, tmp_path, m.match.match_id, m.pair_a, "passed_a")
    first = t.state().match(m.match.match_id).outcome
    cached = t.file.connection.execute("SELECT head_hash FROM tournament_outcome_cache").fetchall()
    assert [r[0].split(":")[0] for r in cached] == [first.final_hash]
    t.invalidate()
    assert t.state().match(m.match.match_id).outcome == first  # read back from the cache
