"""Group standings: match wins, level difference, head-to-head, a recorded drawing of lots.

The criteria and their order come from the tournament settings (issue 6). Each
criterion splits the tied pairs that the earlier criteria left together; head-to-
head counts wins only among the pairs still tied. A tie that the recorded lots do
not settle is reported (``needs_lots``) rather than broken silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee_desk.tournament.model import MatchOutcome, TieBreak, TournamentMatch


@dataclass(frozen=True, slots=True)
class StandingRow:
    pair_id: int
    rank: int
    played: int
    wins: int
    losses: int
    level_diff: int
    lot: int | None = None
    tied: bool = False
    head_to_head: int | None = None
    """Wins against the pairs this one was still tied with when head-to-head was
    applied (None when it never had to be)."""
    separated_by: TieBreak | None = None
    """The tie-break after the first criterion that set this pair apart from pairs
    equal with it so far (None: the first criterion did, or it is still tied)."""


@dataclass(frozen=True, slots=True)
class Standings:
    group: str
    rows: tuple[StandingRow, ...]
    complete: bool
    needs_lots: tuple[tuple[int, ...], ...] = ()

    @property
    def lots_due(self) -> tuple[tuple[int, ...], ...]:
        """The ties a drawing of lots must settle now: only once every match is decided.

        Before that a tie is provisional (the remaining matches may break it), so nobody
        is asked to draw lots right after the draw.
        """
        return self.needs_lots if self.complete else ()

    @property
    def final(self) -> bool:
        """All matches decided and every place settled: ranks may feed the knockout."""
        return self.complete and not self.needs_lots

    def pair_at(self, rank: int) -> int | None:
        if not self.final or rank > len(self.rows):
            return None
        return self.rows[rank - 1].pair_id


def compute_standings(
    group: str,
    pair_ids: Sequence[int],
    matches: Sequence[TournamentMatch],
    outcomes: Mapping[str, MatchOutcome],
    order: Sequence[TieBreak],
    lots: Mapping[int, int] | None = None,
) -> Standings:
    """Rank the pairs of one group from its decided matches."""
    lots = dict(lots or {})
    decided = [outcomes[m.match_id] for m in matches if m.match_id in outcomes]
    decided = [o for o in decided if o.decided]
    wins = dict.fromkeys(pair_ids, 0)
    losses = dict.fromkeys(pair_ids, 0)
    diff = dict.fromkeys(pair_ids, 0)
    for o in decided:
        for pid in (o.pair_a, o.pair_b):
            if pid in diff:
                diff[pid] += o.level_diff(pid)
        if o.winner in wins:
            wins[o.winner] += 1
        if o.loser in losses:
            losses[o.loser] += 1

    def head_to_head(tied: list[int]) -> dict[int, int]:
        members = set(tied)
        count = dict.fromkeys(tied, 0)
        for o in decided:
            if o.pair_a in members and o.pair_b in members and o.winner is not None:
                count[o.winner] += 1
        return count

    unresolved: list[tuple[int, ...]] = []
    h2h_of: dict[int, int] = {}
    separated: dict[int, TieBreak] = {}
    first = order[0] if order else None

    def rank(tied: list[int], criteria: Sequence[TieBreak]) -> list[list[int]]:
        if len(tied) == 1:
            return [tied]
        if not criteria:
            unresolved.append(tuple(sorted(tied)))
            return [sorted(tied)]
        criterion, rest = criteria[0], criteria[1:]
        if criterion is TieBreak.WINS:
            key = {p: -wins[p] for p in tied}
        elif criterion is TieBreak.LEVEL_DIFF:
            key = {p: -diff[p] for p in tied}
        elif criterion is TieBreak.HEAD_TO_HEAD:
            h2h = head_to_head(tied)
            h2h_of.update(h2h)
            key = {p: -h2h[p] for p in tied}
        else:
            if any(p not in lots for p in tied):
                unresolved.append(tuple(sorted(tied)))
                return [sorted(tied)]
            key = {p: lots[p] for p in tied}
        buckets: dict[int, list[int]] = {}
        for p in sorted(tied, key=lambda p: (key[p], p)):
            buckets.setdefault(key[p], []).append(p)
        if len(buckets) > 1 and criterion is not first:
            separated.update(dict.fromkeys(tied, criterion))
        out: list[list[int]] = []
        for value in sorted(buckets):
            out.extend(rank(buckets[value], rest))
        return out

    blocks = rank(list(pair_ids), list(order))
    rows: list[StandingRow] = []
    place = 1
    for block in blocks:
        for pid in block:
            rows.append(
                StandingRow(
                    pair_id=pid,
                    rank=place,
                    played=wins[pid] + losses[pid],
                    wins=wins[pid],
                    losses=losses[pid],
                    level_diff=diff[pid],
                    lot=lots.get(pid),
                    tied=len(block) > 1,
                    head_to_head=h2h_of.get(pid),
                    separated_by=None if len(block) > 1 else separated.get(pid),
                )
            )
        place += len(block)
    complete = all(m.match_id in outcomes and outcomes[m.match_id].decided for m in matches)
    return Standings(group, tuple(rows), complete, tuple(unresolved))
