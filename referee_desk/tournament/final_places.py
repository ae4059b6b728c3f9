"""Final places as a results page prints them: ranges for shared places, even mid-event.

A pair knocked out in round r of a knockout shares the places its round decides:
in a 32-line bracket the 16 first-round losers share 17–32 (fewer when byes left
matches unplayed). Such a place is final as soon as the pair is out, so an
unfinished event already lists every eliminated pair with its final range; pairs
still playing are not listed. Pairs that did not leave their group follow all
knockout entrants: the third-placed of every group share the next range, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.tournament.elimination import KO_STAGE, round_count
from referee_desk.tournament.model import Format, Settings
from referee_desk.tournament.state import MatchState, Status, TournamentState


@dataclass(frozen=True, slots=True)
class PlaceRange:
    first: int
    last: int
    pair_id: int
    note: str = ""

    @property
    def label(self) -> str:
        """``第1名``, or ``第17–32名`` for a shared place."""
        if self.first == self.last:
            return f"第{self.first}名"
        return f"第{self.first}–{self.last}名"

    @property
    def shared(self) -> bool:
        return self.last > self.first


def final_places(state: TournamentState, settings: Settings) -> tuple[PlaceRange, ...]:
    """Every pair whose final place is known, best first."""
    ko = [s for s in state.matches if s.match.stage == KO_STAGE]
    places: list[PlaceRange] = []
    placed: set[int] = set()
    entrants = _ko_entrants(ko)
    if ko:
        places += _knockout_places(ko)
        placed = {p.pair_id for p in places}
    if settings.format is Format.GROUPS_KNOCKOUT:
        places += _group_places(state, settings, max(entrants, 0), placed)
    return tuple(sorted(places, key=lambda p: (p.first, p.last, p.pair_id)))


def _ko_entrants(ko: list[MatchState]) -> int:
    first = [s for s in ko if s.match.round == 1 and not s.match.third_place]
    return sum(1 for s in first for slot in (s.match.slot_a, s.match.slot_b) if slot.kind != "bye")


def _knockout_places(ko: list[MatchState]) -> list[PlaceRange]:
    rounds = round_count([s.match for s in ko])
    main = [s for s in ko if not s.match.third_place]
    final = next((s for s in main if s.match.round == rounds), None)
    third = next((s for s in ko if s.match.third_place), None)
    out: list[PlaceRange] = []
    if final is not None and final.status is Status.DECIDED:
        out.append(PlaceRange(1, 1, final.winner))  # type: ignore[arg-type]
        if final.loser is not None:
            out.append(PlaceRange(2, 2, final.loser))
    if third is not None and third.status is Status.DECIDED and third.winner is not None:
        out.append(PlaceRange(3, 3, third.winner))
        if third.loser is not None:
            out.append(PlaceRange(4, 4, third.loser))
    for r in range(rounds - 1, 0, -1):
        if r == rounds - 1 and third is not None:
            continue  # the semi-final losers play for 3rd and 4th
        played = [
            s for s in main if s.match.round == r and s.status not in (Status.BYE, Status.VOID)
        ]
        first = 2 ** (rounds - r) + 1
        last = first + max(len(played), 1) - 1
        for s in played:
            if s.status is Status.DECIDED and s.loser is not None:
                out.append(PlaceRange(first, last, s.loser, "并列 shared" if last > first else ""))
    return out


def _group_places(
    state: TournamentState, settings: Settings, entrants: int, placed: set[int]
) -> list[PlaceRange]:
    out: list[PlaceRange] = []
    by_rank: dict[int, list[tuple[str, int]]] = {}
    for st in state.standings:
        if not st.final:
            continue
        for row in st.rows:
            if row.rank > settings.advance_per_group and row.pair_id not in placed:
                by_rank.setdefault(row.rank, []).append((st.group, row.pair_id))
    # Every group's rank k shares one range after the knockout entrants.
    groups = len(state.standings)
    start = entrants + 1
    for rank in sorted(by_rank):
        first = start + (rank - settings.advance_per_group - 1) * groups
        last = first + groups - 1
        for group, pid in sorted(by_rank[rank]):
            out.append(PlaceRange(first, last, pid, f"{group}组第{rank}名"))
    return out
