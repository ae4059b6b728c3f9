"""Everything a document prints, read once from the tournament file.

Exports work from this frozen snapshot, so each document is a pure function of
it and the xlsx and PDFs always agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.rules.ruleset import Ruleset
from referee_desk.tournament.elimination import round_count, round_label
from referee_desk.tournament.model import (
    MatchOutcome,
    Pair,
    Settings,
    TournamentInfo,
    TournamentMatch,
)
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.state import MatchState, TournamentState


@dataclass(frozen=True, slots=True)
class Snapshot:
    info: TournamentInfo
    ruleset: Ruleset
    settings: Settings
    pairs: dict[int, Pair]
    groups: dict[str, list[int]]
    state: TournamentState
    round_names: dict[str, str]
    drawn_at: str
    draw_seed: int | None
    problems: tuple[str, ...]

    def pair(self, pair_id: int | None) -> Pair | None:
        return None if pair_id is None else self.pairs.get(pair_id)

    def round_name(self, m: TournamentMatch) -> str:
        return self.round_names.get(m.match_id, "")

    def ko(self) -> list[MatchState]:
        return [s for s in self.state.matches if s.match.stage == "KO"]

    def group_matches(self, group: str) -> list[MatchState]:
        return [s for s in self.state.matches if s.match.group == group]

    @property
    def stamp(self) -> str:
        """The fixed time printed on documents: the draw time (keeps output byte-stable)."""
        return self.drawn_at


def take_snapshot(t: Tournament, outcomes: dict[str, MatchOutcome] | None = None) -> Snapshot:
    """Read the file once; ``outcomes`` replaces the recorded results (previews, tests)."""
    state = t.state(outcomes)
    rounds = round_count([s.match for s in state.matches])
    problems = list(state.problems)
    problems.extend(f"match {m}: {why}" for m, why in sorted(t.outcome_problems.items()))
    return Snapshot(
        info=t.info,
        ruleset=t.ruleset,
        settings=t.settings,
        pairs=t.pair_map(),
        groups=t.draw_table.groups(),
        state=state,
        round_names={s.match.match_id: _round_name(s.match, rounds) for s in state.matches},
        drawn_at=t.drawn_at,
        draw_seed=t.draw_seed,
        problems=tuple(problems),
    )


def _round_name(m: TournamentMatch, rounds: int) -> str:
    if m.group is not None:
        return f"{m.group}组 第{m.round}轮"
    return round_label(m.round, rounds, m.third_place)
