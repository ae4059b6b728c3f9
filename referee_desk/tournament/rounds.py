"""Rounds in the order they are played, and who plays where in each: the round pack's data.

Group rounds come first (round r of every group is played together), then the
knockout rounds; the third-place match is played with the final. A round lists its
matches by table; byes are listed apart (their pair advances without playing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee_desk.tournament.elimination import KO_STAGE, round_count, round_label
from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.state import MatchState, Status


@dataclass(frozen=True, slots=True)
class PlayRound:
    number: int
    """1-based, in the order of play (``--round N``)."""
    label: str
    matches: tuple[MatchState, ...]
    """Matches to play, by table then match id."""
    byes: tuple[MatchState, ...]


def play_rounds(states: Sequence[MatchState]) -> list[PlayRound]:
    """Every round in the order of play."""
    keys: dict[tuple[int, int], list[MatchState]] = {}
    ko = [s.match for s in states if s.match.stage == KO_STAGE]
    ko_rounds = round_count(ko) if ko else 0
    for s in states:
        if s.status is Status.VOID:
            continue
        stage = 1 if s.match.stage == KO_STAGE else 0
        keys.setdefault((stage, s.match.round), []).append(s)
    out: list[PlayRound] = []
    for number, (stage, rnd) in enumerate(sorted(keys), start=1):
        ms = keys[(stage, rnd)]
        label = f"小组赛第{rnd}轮 group round {rnd}" if stage == 0 else round_label(rnd, ko_rounds)
        if stage == 1 and any(m.match.third_place for m in ms):
            label += " · " + round_label(rnd, ko_rounds, True)
        playing = sorted(
            (m for m in ms if m.status is not Status.BYE),
            key=lambda m: (_table_key(m.match.table), m.match.match_id),
        )
        byes = tuple(m for m in ms if m.status is Status.BYE)
        out.append(PlayRound(number, label, tuple(playing), byes))
    return out


def play_round(states: Sequence[MatchState], number: int) -> PlayRound:
    """Round ``number`` (1-based, order of play); a clear error lists the rounds there are."""
    rounds = play_rounds(states)
    for r in rounds:
        if r.number == number:
            return r
    names = ", ".join(f"{r.number} = {r.label}" for r in rounds) or "none (no draw yet)"
    raise TournamentError(f"round {number}: no such round; the rounds are {names}")


def _table_key(table: str) -> tuple[int, str]:
    """``2号桌`` before ``10号桌``: tables by their number, then by name."""
    digits = "".join(ch for ch in table if ch.isdigit())
    return (int(digits) if digits else 10**9, table)
