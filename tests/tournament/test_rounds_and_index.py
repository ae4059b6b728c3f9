"""Rounds in the order of play (the round pack's ``--round N``) and the player index."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.player_index import player_index, sort_key
from referee_desk.tournament.rounds import play_round, play_rounds
from tests.exports.big import big_tournament, decide


def test_group_rounds_then_knockout_rounds(tmp_path: Path) -> None:
    t = big_tournament(tmp_path, 16, groups=4)
    rounds = play_rounds(t.state(decide(t)).matches)
    labels = [r.label for r in rounds]
    assert labels[:3] == [f"小组赛第{k}轮 group round {k}" for k in (1, 2, 3)]
    assert "决赛 Final" in labels[-1] and "三四名决赛" in labels[-1]  # played together
    assert all(len(r.matches) == 8 for r in rounds[:3])  # 4 groups × 2 matches
    t.close()


def test_byes_are_listed_apart_and_tables_in_number_order(tmp_path: Path) -> None:
    t = big_tournament(tmp_path, 12)
    first = play_rounds(t.state().matches)[0]
    assert len(first.byes) == 4 and len(first.matches) == 4
    tables = [m.match.table for m in first.matches]
    assert tables == sorted(tables, key=lambda x: int(x.rstrip("号桌")))
    with pytest.raises(TournamentError, match="round 7: no such round"):
        play_round(t.state().matches, 7)
    t.close()


def test_player_index_is_sorted_and_names_the_table(tmp_path: Path) -> None:
    names = {1: ("Zhang Wei", "Li Na"), 2: ("anna", "Bob"), 3: ("王磊", "李静")}
    t = big_tournament(tmp_path, 8, names=names)
    state = t.state()
    entries = player_index(t.pair_map(), state.matches, {})
    assert [e.name for e in entries] == sorted((e.name for e in entries), key=sort_key)
    order = [e.name for e in entries]
    latin = [n for n in order if n.isascii()]
    assert latin == ["anna", "Bob", "Li Na", "Zhang Wei"]
    # Issue 20: one pinyin order for all, Latin names among them (李静 li jing < Li Na).
    assert (
        order.index("李静") < order.index("Li Na") < order.index("王磊") < order.index("Zhang Wei")
    )
    wang = next(e for e in entries if e.name == "王磊")
    match = next(s for s in state.matches if 3 in (s.pair_a, s.pair_b))
    assert wang.partner == "李静" and wang.table == match.match.table
    assert wang.match_id == match.match.match_id
    t.close()
