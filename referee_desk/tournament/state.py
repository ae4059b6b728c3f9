"""The tournament as it stands: who plays whom, results, standings and final places.

``resolve`` is a pure function of the draw, the match outcomes and the recorded
lots, so every view (desk, xlsx, PDF) shows the same thing. A finished match
advances its winner; a bye advances its pair; a match whose committee ruling is
pending holds its branch; an outcome that names other pairs than the match is
reported as a problem and ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee_desk.tournament.elimination import KO_STAGE, round_count
from referee_desk.tournament.model import (
    Decision,
    Format,
    MatchOutcome,
    Settings,
    TournamentMatch,
)
from referee_desk.tournament.standings import Standings, compute_standings


class Status(StrEnum):
    WAITING = "waiting"
    READY = "ready"
    PLAYING = "playing"
    HELD = "held"
    DECIDED = "decided"
    BYE = "bye"
    VOID = "void"

    @property
    def label_zh(self) -> str:
        return {
            Status.WAITING: "待定",
            Status.READY: "待赛",
            Status.PLAYING: "进行中",
            Status.HELD: "待仲裁",
            Status.DECIDED: "已赛",
            Status.BYE: "轮空",
            Status.VOID: "—",
        }[self]


@dataclass(frozen=True, slots=True)
class MatchState:
    match: TournamentMatch
    pair_a: int | None
    pair_b: int | None
    status: Status
    outcome: MatchOutcome | None = None
    winner: int | None = None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.status is Status.BYE:
            return None
        return self.pair_b if self.winner == self.pair_a else self.pair_a

    @property
    def decided_by(self) -> Decision | None:
        if self.status is Status.BYE:
            return Decision.BYE
        return self.outcome.decided_by if self.outcome and self.winner is not None else None


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    pair_id: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class TournamentState:
    matches: tuple[MatchState, ...]
    standings: tuple[Standings, ...]
    places: tuple[Place, ...]
    problems: tuple[str, ...]

    def match(self, match_id: str) -> MatchState:
        for m in self.matches:
            if m.match.match_id == match_id:
                return m
        raise KeyError(match_id)

    @property
    def finished(self) -> bool:
        return all(m.status in (Status.DECIDED, Status.BYE, Status.VOID) for m in self.matches)


def resolve(
    matches: Sequence[TournamentMatch],
    group_pairs: Mapping[str, Sequence[int]],
    outcomes: Mapping[str, MatchOutcome],
    settings: Settings,
    lots: Mapping[str, Mapping[int, int]] | None = None,
) -> TournamentState:
    """Everything derived from the draw and the results so far."""
    lots = lots or {}
    problems: list[str] = []
    states: dict[str, MatchState] = {}
    standings: dict[str, Standings] = {}

    for name, pair_ids in group_pairs.items():
        gm = [m for m in matches if m.group == name]
        clean = {}
        for m in gm:
            o = outcomes.get(m.match_id)
            if o is not None and _fits(m, m.slot_a.pair_id, m.slot_b.pair_id, o, problems):
                clean[m.match_id] = o
        standings[name] = compute_standings(
            name, pair_ids, gm, clean, settings.tie_breaks, lots.get(name)
        )
        for name_lots in standings[name].lots_due:
            problems.append(
                f"group {name}: pairs {list(name_lots)} are tied; record a drawing of lots"
            )

    for m in sorted(
        matches, key=lambda m: (m.stage != KO_STAGE, m.round, m.third_place, m.position)
    ):
        if m.group is not None:
            states[m.match_id] = _play(m, m.slot_a.pair_id, m.slot_b.pair_id, outcomes, problems)
    for m in sorted(
        (m for m in matches if m.stage == KO_STAGE),
        key=lambda m: (m.round, m.third_place, m.position),
    ):
        a, a_known = _source(m.slot_a, states, standings)
        b, b_known = _source(m.slot_b, states, standings)
        if not (a_known and b_known):
            states[m.match_id] = MatchState(m, a, b, Status.WAITING)
        elif a is None and b is None:
            states[m.match_id] = MatchState(m, None, None, Status.VOID)
        elif a is None or b is None:
            states[m.match_id] = MatchState(m, a, b, Status.BYE, winner=a if b is None else b)
        else:
            states[m.match_id] = _play(m, a, b, outcomes, problems)

    ordered = tuple(states[m.match_id] for m in matches)
    places = _places(ordered, standings, settings)
    return TournamentState(
        ordered, tuple(standings[n] for n in group_pairs), places, tuple(problems)
    )


def _fits(
    m: TournamentMatch, a: int | None, b: int | None, o: MatchOutcome, problems: list[str]
) -> bool:
    if {o.pair_a, o.pair_b} == {a, b}:
        return True
    problems.append(
        f"match {m.match_id}: the record names pairs {o.pair_a} and {o.pair_b}, "
        f"the draw has {a} and {b}; result ignored"
    )
    return False


def _play(
    m: TournamentMatch,
    a: int | None,
    b: int | None,
    outcomes: Mapping[str, MatchOutcome],
    problems: list[str],
) -> MatchState:
    o = outcomes.get(m.match_id)
    if o is None or not _fits(m, a, b, o, problems):
        return MatchState(m, a, b, Status.READY)
    if o.dispute_pending:
        return MatchState(m, a, b, Status.HELD, o)
    if not o.decided:
        return MatchState(m, a, b, Status.PLAYING, o)
    return MatchState(m, a, b, Status.DECIDED, o, o.winner)


def _source(slot, states: Mapping[str, MatchState], standings: Mapping[str, Standings]):
    """(pair id or None for a bye, whether the slot is known yet)."""
    if slot.kind == "pair":
        return slot.pair_id, True
    if slot.kind == "bye":
        return None, True
    if slot.kind == "group":
        s = standings.get(slot.ref)
        if s is None or not s.final:
            return None, False
        pid = s.pair_at(slot.rank)
        return pid, True
    src = states.get(slot.ref)
    if src is None:
        return None, False
    if src.status is Status.VOID:
        return None, True
    if src.status is Status.BYE:
        return (src.winner, True) if slot.kind == "winner" else (None, True)
    if src.status is not Status.DECIDED:
        return None, False
    return (src.winner if slot.kind == "winner" else src.loser), True


def _places(
    states: Sequence[MatchState], standings: Mapping[str, Standings], settings: Settings
) -> tuple[Place, ...]:
    ko = [s for s in states if s.match.stage == KO_STAGE]
    places: list[Place] = []
    placed: set[int] = set()
    if ko:
        rounds = round_count([s.match for s in ko])
        final = next((s for s in ko if s.match.round == rounds and not s.match.third_place), None)
        third = next((s for s in ko if s.match.third_place), None)
        if final and final.winner is not None:
            places.append(Place(1, final.winner))
            if final.loser is not None:
                places.append(Place(2, final.loser))
        if third and third.winner is not None:
            places.append(Place(3, third.winner))
            if third.loser is not None:
                places.append(Place(4, third.loser))
        placed = {p.pair_id for p in places}
        # Losers of earlier rounds share a place: 3 (no third-place match), 5, 9, …
        for r in range(rounds - 1, 0, -1):
            if r == rounds - 1 and third is not None:
                continue
            losers = [
                s.loser
                for s in ko
                if s.match.round == r and not s.match.third_place and s.loser is not None
            ]
            shared = 2 ** (rounds - r) + 1
            for pid in sorted(set(losers) - placed):
                places.append(Place(shared, pid, "并列 tied"))
                placed.add(pid)
    if settings.format is Format.GROUPS_KNOCKOUT:
        for name, s in standings.items():
            if not s.final:
                continue
            for row in s.rows:
                if row.pair_id not in placed and row.rank > settings.advance_per_group:
                    places.append(Place(0, row.pair_id, f"{name}组第{row.rank}名"))
    return tuple(places)
