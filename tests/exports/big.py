"""Large tournaments decided by outcomes given directly (no records): fast bracket tests."""

from __future__ import annotations

from pathlib import Path

from referee_desk.exports.snapshot import Snapshot, take_snapshot
from referee_desk.tournament.model import Decision, Format, MatchOutcome, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import Status

INFO = TournamentInfo(
    "桂林市2026年拖拉机公开赛", "2026-11-28", "2026-11-29", "桂林理工大学体育馆", "桂林市总工会",
    tables=tuple(f"{i}号桌" for i in range(1, 17)), referees=("王磊", "李静", "陈建国"),
)  # fmt: skip
SURNAMES = "张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗"


def big_tournament(
    folder: Path, n: int, *, third_place: bool = True, groups: int = 0, names=None
) -> Tournament:
    folder.mkdir(parents=True, exist_ok=True)
    settings = (
        Settings(format=Format.GROUPS_KNOCKOUT, group_count=groups, advance_per_group=2,
                 third_place=third_place)
        if groups else Settings(third_place=third_place)
    )  # fmt: skip
    t = Tournament.create(folder / "big.sqlite", INFO, settings)
    for i in range(1, n + 1):
        s = SURNAMES[i % len(SURNAMES)]
        p1, p2 = (names or {}).get(i, (f"{s}甲{i}", f"{s}乙{i}"))
        t.add_pair(p1, p2, f"俱乐部{i % 12}", i if i <= 8 else None)
    t.draw(draw_seed=5, when="2026-11-28T01:00:00.000Z")
    return t


def decide(t: Tournament, rounds: int | None = None) -> dict[str, MatchOutcome]:
    """Lower pair id wins by passing A, wave by wave (``rounds`` knockout rounds only)."""
    outcomes: dict[str, MatchOutcome] = {}
    while True:
        ready = [s for s in t.state(outcomes).matches if s.status is Status.READY]
        if rounds is not None:
            ready = [s for s in ready if s.match.stage != "KO" or s.match.round <= rounds]
        if not ready:
            return outcomes
        for s in ready:
            a, b = s.pair_a, s.pair_b
            win = min(a, b)
            outcomes[s.match.match_id] = MatchOutcome(
                s.match.match_id, a, b, win, Decision.PASSED_A,
                levels=((win, 12), (max(a, b), 5)),
            )  # fmt: skip


def big_snapshot(folder: Path, n: int, rounds: int | None = None, **kw) -> Snapshot:
    t = big_tournament(folder, n, **kw)
    snap = take_snapshot(t, decide(t, rounds))
    t.close()
    return snap
