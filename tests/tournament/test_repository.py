"""The tournament file: organizer data editable, the draw frozen with its ruleset (issue 6)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from openpyxl import Workbook

from referee_desk.rules.ruleset import get_ruleset
from referee_desk.tournament.draw_plan import assign_in_turn, plan_draw
from referee_desk.tournament.errors import DrawError, PairError, TournamentError
from referee_desk.tournament.model import Format, Pair, Settings, TournamentInfo, TournamentMatch
from referee_desk.tournament.pairs_io import read_pairs
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import Status

INFO = TournamentInfo(
    "桂林杯拖拉机邀请赛",
    "2026-11-28",
    "2026-11-29",
    "桂林理工大学",
    "校工会",
    tables=("1号桌", "2号桌"),
    referees=("王磊", "李静"),
)


def new(tmp_path: Path, n: int = 6, settings: Settings | None = None, **kw) -> Tournament:
    t = Tournament.create(tmp_path / "t.sqlite", INFO, settings, **kw)
    for i in range(1, n + 1):
        t.add_pair(f"张{i}", f"李{i}", f"俱乐部{i % 3}", i if i <= 2 else None)
    return t


def test_create_reopen_and_info(tmp_path: Path) -> None:
    t = new(tmp_path)
    t.close()
    with Tournament.open(tmp_path / "t.sqlite") as t:
        assert t.info == INFO
        assert [p.player1 for p in t.pairs.all()] == [f"张{i}" for i in range(1, 7)]
        assert t.pairs.all()[0].seed == 1 and t.pairs.all()[3].seed is None


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    new(tmp_path).close()
    with pytest.raises(TournamentError, match="already holds"):
        Tournament.create(tmp_path / "t.sqlite", INFO)


def test_duplicate_seed_refused(tmp_path: Path) -> None:
    t = new(tmp_path)
    with pytest.raises(PairError, match="seed 1"):
        t.add_pair("赵", "钱", seed=1)


def test_ruleset_and_settings_frozen_at_the_draw(tmp_path: Path) -> None:
    rs = get_ruleset("guilin-2009", {"misplay_points_per_card": 5, "match_minutes": 90})
    t = new(tmp_path, ruleset=rs)
    t.draw(draw_seed=1)
    assert t.ruleset == rs and t.ruleset.match_minutes == 90
    with pytest.raises(DrawError, match="draw is made"):
        t.configure(ruleset=get_ruleset())
    with pytest.raises(DrawError, match="draw is made"):
        t.add_pair("赵", "钱")
    with pytest.raises(DrawError, match="draw again"):
        t.draw()
    # Even raw SQL cannot change the frozen draw (triggers, as the store does for events).
    with pytest.raises(sqlite3.DatabaseError, match="frozen"):
        t.file.connection.execute("UPDATE tournament_draw SET draw_seed = 2")
    with pytest.raises(sqlite3.DatabaseError, match="frozen"):
        t.file.connection.execute("UPDATE tournament_matches SET slot_a = '{}'")


def test_pair_names_editable_after_draw_seed_not(tmp_path: Path) -> None:
    t = new(tmp_path)
    t.draw(draw_seed=1)
    p = t.pairs.all()[2]
    t.update_pair(Pair(p.pair_id, "张三丰", p.player2, "武当", None))
    assert t.pair_map()[p.pair_id].player1 == "张三丰"
    with pytest.raises(DrawError, match="seed"):
        t.update_pair(Pair(p.pair_id, "张三丰", p.player2, "武当", 9))


def test_the_draw_closes_registration_through_the_pairs_part_too(tmp_path: Path) -> None:
    """The registry owns the rule: ``t.pairs`` used directly refuses as the handle does."""
    t = new(tmp_path)
    t.draw(draw_seed=1)
    before = t.pairs.all()
    p = before[2]
    with pytest.raises(DrawError, match="remove pair"):
        t.pairs.remove(p.pair_id)
    with pytest.raises(DrawError, match="seed"):
        t.pairs.update(Pair(p.pair_id, p.player1, p.player2, p.club, 9), lambda what: None)
    with pytest.raises(DrawError, match="add a pair"):
        t.pairs.add([("赵", "钱", "", None)])
    assert t.pairs.all() == before


def test_the_draw_freezes_the_choice_through_the_info_part_too(tmp_path: Path) -> None:
    """``InfoTable`` owns the rule: ``t.info_table.choose`` refuses as ``configure`` does,
    with the same words."""
    t = new(tmp_path)
    t.draw(draw_seed=1)
    before = t.info_table.row()
    words = "the draw is made: cannot change the settings or the ruleset any more"
    with pytest.raises(DrawError) as refused:
        t.info_table.choose(Settings(format=Format.GROUPS_KNOCKOUT, group_count=2), None)
    assert str(refused.value) == words
    with pytest.raises(DrawError) as refused:
        t.info_table.choose(None, get_ruleset("guilin-2009", {"match_minutes": 90}))
    assert str(refused.value) == words
    with pytest.raises(DrawError) as refused:
        t.configure(ruleset=get_ruleset("guilin-2009", {"match_minutes": 90}))
    assert str(refused.value) == words
    assert t.info_table.row() == before


def _planned(t: Tournament) -> tuple[list[Pair], dict[str, list[int]], list[TournamentMatch]]:
    pairs = t.pairs.all()
    planned, groups = plan_draw(pairs, t.settings, 1)
    return pairs, groups, assign_in_turn(planned, t.info)


def test_the_draw_part_written_directly_keeps_the_draws_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``t.draw_table.write`` is the draw's one writing path: called directly it refuses
    pairs or a choice changed since the plan and a second draw, and guards a server's
    claims after it as ``t.draw`` does."""
    guarded: list[bool] = []
    monkeypatch.setattr(Tournament, "guard_server_claims", lambda t: guarded.append(t.drawn))
    t = new(tmp_path)
    guarded.clear()  # the creation's
    pairs, groups, matches = _planned(t)
    late = t.add_pair("赵", "钱")
    with pytest.raises(DrawError, match="the pairs changed while drawing"):
        t.draw_table.write(pairs, None, 1, t.ruleset, t.settings, groups, matches)
    t.remove_pair(late.pair_id)
    chosen = t.ruleset
    t.configure(ruleset=get_ruleset("guilin-2009", {"match_minutes": 90}))
    with pytest.raises(DrawError, match="the settings or the ruleset changed while drawing"):
        t.draw_table.write(pairs, None, 1, chosen, t.settings, groups, matches)
    assert not t.drawn and t.draw_table.matches() == [] and guarded == []
    t.draw_table.write(pairs, None, 1, t.ruleset, t.settings, groups, matches)
    assert t.draw_table.matches() == matches and guarded == [True]
    with pytest.raises(DrawError, match="the draw is made: cannot draw again any more"):
        t.draw_table.write(pairs, None, 2, t.ruleset, t.settings, groups, matches)
    assert t.draw_seed == 1 and guarded == [True]


def test_an_edited_name_is_checked_as_an_entered_one(tmp_path: Path) -> None:
    """As add_pair: no control characters, at most 60 characters; nothing changes."""
    t = new(tmp_path)
    p = t.pairs.all()[0]
    with pytest.raises(PairError, match="control character"):
        t.update_pair(Pair(p.pair_id, "张\x00三", p.player2, p.club, p.seed))
    with pytest.raises(PairError, match="at most 60"):
        t.update_pair(Pair(p.pair_id, p.player1, "李" * 61, p.club, p.seed))
    assert t.pair_map()[p.pair_id] == p
    t.update_pair(Pair(p.pair_id, "  张三丰 ", p.player2, p.club, p.seed))
    assert t.pair_map()[p.pair_id].player1 == "张三丰"


def test_same_draw_seed_same_draw(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = new(tmp_path / "a", 11), new(tmp_path / "b", 11)
    assert [(m.slot_a, m.slot_b) for m in a.draw(draw_seed=5)] == [
        (m.slot_a, m.slot_b) for m in b.draw(draw_seed=5)
    ]
    assert a.draw_seed == 5


def test_tables_and_referees_assigned_in_turn_and_editable(tmp_path: Path) -> None:
    t = new(tmp_path, 8)
    t.draw(draw_seed=1)
    first = [m for m in t.draw_table.matches() if m.round == 1]
    assert [m.table for m in first] == ["1号桌", "2号桌", "1号桌", "2号桌"]
    assert [m.referee for m in first] == ["王磊", "李静", "王磊", "李静"]
    t.draw_table.assign(first[0].match_id, table="5号桌", referee="周明")
    again = t.draw_table.match(first[0].match_id)
    assert (again.table, again.referee) == ("5号桌", "周明")


def test_groups_draw_and_lots(tmp_path: Path) -> None:
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    t = new(tmp_path, 8, settings)
    matches = t.draw(draw_seed=3)
    groups = t.draw_table.groups()
    assert sorted(groups) == ["A", "B"] and all(len(v) == 4 for v in groups.values())
    assert sum(1 for m in matches if m.group == "A") == 6
    ko = [m for m in matches if m.stage == "KO"]
    assert len(ko) == 3 and ko[0].slot_a.kind == "group"
    state = t.state()
    assert all(s.status is Status.WAITING for s in state.matches if s.match.stage == "KO")
    t.draw_table.record_lots("A", {groups["A"][0]: 1, groups["A"][1]: 2})
    assert t.draw_table.lots()["A"] == {groups["A"][0]: 1, groups["A"][1]: 2}
    with pytest.raises(TournamentError, match="drew lot 1 already"):
        t.draw_table.record_lots("A", {groups["A"][0]: 2})
    with pytest.raises(TournamentError, match="is not in group A"):
        t.draw_table.record_lots("A", {groups["B"][0]: 3})
    with pytest.raises(TournamentError, match="no group"):
        t.draw_table.record_lots("Z", {1: 1})


def test_advance_more_than_group_size_refused(tmp_path: Path) -> None:
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=3, advance_per_group=3)
    t = new(tmp_path, 6, settings)
    with pytest.raises(DrawError, match="cannot advance"):
        t.draw(draw_seed=1)


def test_opening_payload_names_pairs_by_id(tmp_path: Path) -> None:
    t = new(tmp_path, 4)
    t.draw(draw_seed=1)
    m = t.state().matches[0]
    payload = t.opening_payload(m.match.match_id)
    assert payload["pairs"]["NS"].startswith(f"#{m.pair_a} ")
    assert payload["tournament"] == INFO.name and payload["ruleset"]["name"] == "guilin-2009"
    with pytest.raises(DrawError, match="not known"):
        t.opening_payload(t.draw_table.matches()[-1].match_id)


def test_import_pairs_csv_and_xlsx(tmp_path: Path) -> None:
    csv_path = tmp_path / "pairs.csv"
    csv_path.write_text("选手1,选手2,俱乐部,种子\n张三,李四,桂林一队,1\n王五,赵六,,\n", "utf-8-sig")
    assert read_pairs(csv_path) == [("张三", "李四", "桂林一队", 1), ("王五", "赵六", "", None)]
    wb = Workbook()
    ws = wb.active
    ws.append(["player1", "player2", "club", "seed"])
    ws.append(["陈一", "杨二", "漓江", 2])
    ws.append([None, None, None, None])
    ws.append(["黄三", "周四", "象山", None])
    wb.save(tmp_path / "pairs.xlsx")
    assert read_pairs(tmp_path / "pairs.xlsx") == [
        ("陈一", "杨二", "漓江", 2),
        ("黄三", "周四", "象山", None),
    ]


def test_import_pairs_errors_name_the_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,club\n张三,一队\n", "utf-8")
    with pytest.raises(PairError, match="player1, player2"):
        read_pairs(bad)
    bad.write_text("player1,player2,seed\n张三,李四,一\n", "utf-8")
    with pytest.raises(PairError, match="row 2: seed"):
        read_pairs(bad)
    bad.write_text("player1,player2\n张三,\n", "utf-8")
    with pytest.raises(PairError, match="row 2: both"):
        read_pairs(bad)


def test_a_desk_file_without_a_tournament_is_refused_untouched(tmp_path: Path) -> None:
    from referee_desk.store.tournament_file import TournamentFile

    desk = tmp_path / "desk.sqlite"
    TournamentFile.open(desk, create=True).close()
    with pytest.raises(TournamentError, match="no tournament"):
        Tournament.open(desk)
    with TournamentFile.open(desk, create=False, read_only=True) as tf:
        tables = {r[0] for r in tf.connection.execute("SELECT name FROM sqlite_master")}
    assert not any(name.startswith("tournament_") for name in tables)


def test_pair_list_with_a_clashing_seed_adds_nothing(tmp_path: Path) -> None:
    t = new(tmp_path, 2)
    with pytest.raises(PairError, match="seed 3"):
        t.add_pairs([("甲", "乙", "", 3), ("丙", "丁", "", 3)])
    assert len(t.pairs.all()) == 2


def test_no_drawing_of_lots_is_asked_before_a_group_is_played(tmp_path: Path) -> None:
    """Ties before a group's last match are provisional: lots only once it is complete."""
    t = Tournament.create(
        tmp_path / "g.sqlite",
        TournamentInfo("杯", tables=("1号桌",)),
        Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=1),
    )
    for n in range(1, 9):
        t.add_pair(f"甲{n}", f"乙{n}")
    t.draw(draw_seed=1)
    state = t.state()
    assert all(s.needs_lots and not s.complete for s in state.standings)  # all at 0 wins
    assert [s.lots_due for s in state.standings] == [(), ()]
    assert not [p for p in state.problems if "drawing of lots" in p]
