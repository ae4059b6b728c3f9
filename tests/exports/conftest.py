"""Finished tournaments built from real match records, shared by the export tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status

INFO = TournamentInfo(
    "桂林市2026年拖拉机公开赛",
    "2026-11-28",
    "2026-11-29",
    "桂林理工大学体育馆",
    "桂林市总工会",
    tables=("1号桌", "2号桌", "3号桌"),
    referees=("王磊", "李静"),
)
NAMES = [
    ("张伟", "王芳", "桂林电子"), ("李娜", "刘洋", "漓江机械"), ("陈静", "赵敏", "象山供电"),
    ("杨磊", "黄强", "七星邮政"), ("周杰", "徐明", "叠彩水务"), ("吴婷", "孙丽", "雁山铁路"),
    ("马超", "胡军", "临桂教育"), ("朱琳", "郭芳", "秀峰医院"), ("林峰", "高翔", "桂林理工"),
    ("何欣", "罗薇", "阳朔旅游"), ("宋佳", "梁斌", "灵川农信"), ("郑浩", "谢颖", "荔浦纺织"),
]  # fmt: skip

#: How the simulated matches end, by match id (others: pass A, better seed wins).
WAYS = {"KO-R2-M002": "forfeit", "KO-R2-M003": "disqualification", "KO-R3-M001": "time_out"}


def build(folder: Path, n: int, settings: Settings, ways: dict[str, str], pending: str = ""):
    folder.mkdir(parents=True, exist_ok=True)
    t = Tournament.create(folder / "cup.sqlite", INFO, settings)
    for i in range(n):
        a, b, club = NAMES[i % len(NAMES)]
        t.add_pair(a if i < len(NAMES) else f"{a}{i}", b, club, i + 1 if i < 4 else None)
    t.draw(draw_seed=7, when="2026-11-28T08:00:00.000Z")
    while True:
        ready = [s for s in t.state().matches if s.status is Status.READY]
        ready = [s for s in ready if not t.file.events(s.match.match_id)]
        if not ready:
            break
        files = []
        for s in ready:
            mid = s.match.match_id
            way = "pending" if mid == pending else ways.get(mid, "passed_a")
            side = "NS" if s.pair_a < s.pair_b else "EW"
            events = simulate_match(mid, t.opening_payload(mid), side, way, loser_gains=1)
            path = folder / f"{mid}.jsonl"
            write_jsonl(events, path)
            files.append(path)
        assert import_records(t, files).ok
    return t


@pytest.fixture(scope="session")
def knockout(tmp_path_factory) -> Tournament:
    """12 pairs, 4 seeded, third-place match; a forfeit, a DQ, a time-out, a pending ruling."""
    folder = tmp_path_factory.mktemp("ko")
    return build(folder, 12, Settings(third_place=True), WAYS, pending="KO-R2-M004")


@pytest.fixture(scope="session")
def groups(tmp_path_factory) -> Tournament:
    folder = tmp_path_factory.mktemp("groups")
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    return build(folder, 8, settings, {})
