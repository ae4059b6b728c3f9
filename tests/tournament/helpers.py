"""Shared builders for tournament tests: real values, no mocks."""

from __future__ import annotations

from referee_desk.tournament.model import Decision, MatchOutcome, Pair

SURNAMES = "张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗"


def make_pairs(n: int, seeded: int | None = None) -> list[Pair]:
    """n pairs with Chinese names; the first ``seeded`` (default all) carry seeds 1…"""
    seeded = n if seeded is None else seeded
    pairs = []
    for i in range(1, n + 1):
        a = SURNAMES[i % len(SURNAMES)] + f"甲{i}"
        b = SURNAMES[(i * 7) % len(SURNAMES)] + f"乙{i}"
        pairs.append(
            Pair(i, a, b, club=f"俱乐部{(i - 1) % 5 + 1}", seed=i if i <= seeded else None)
        )
    return pairs


def win(
    match_id: str,
    a: int,
    b: int,
    winner: int,
    how: Decision = Decision.PASSED_A,
    level_w: int = 12,
    level_l: int = 5,
    pending: bool = False,
) -> MatchOutcome:
    loser = b if winner == a else a
    return MatchOutcome(
        match_id,
        a,
        b,
        winner,
        how,
        levels=((winner, level_w), (loser, level_l)),
        dispute_pending=pending,
    )
