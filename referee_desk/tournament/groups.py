"""Round-robin groups and the knockout they feed by group rank.

Group match ids are ``G<name>-R<round>-M<position>``; every pair meets every other
pair of its group once (circle method, so nobody plays twice in a round).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.model import Pair, Slot, TournamentMatch


def group_stage(name: str) -> str:
    return f"G:{name}"


def round_robin_rounds(pair_ids: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Rounds of the circle method; with an odd count one pair rests each round."""
    ids: list[int | None] = list(pair_ids)
    if len(ids) < 2:
        raise DrawError(f"a group needs at least 2 pairs, not {len(ids)}")
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds: list[list[tuple[int, int]]] = []
    for _ in range(n - 1):
        games = []
        for i in range(n // 2):
            a, b = ids[i], ids[n - 1 - i]
            if a is not None and b is not None:
                games.append((a, b))
        rounds.append(games)
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return rounds


def build_group_matches(name: str, pairs: Sequence[Pair]) -> list[TournamentMatch]:
    matches = []
    for r, games in enumerate(round_robin_rounds([p.pair_id for p in pairs]), start=1):
        for k, (a, b) in enumerate(games, start=1):
            matches.append(
                TournamentMatch(
                    f"G{name}-R{r}-M{k:02d}",
                    group_stage(name),
                    r,
                    k,
                    Slot("pair", a),
                    Slot("pair", b),
                )
            )
    return matches


def knockout_entries(group_names: Sequence[str], advance: int) -> list[Slot]:
    """Knockout entries in seed order: all group winners, then runners-up, and so on.

    Runners-up are ordered so that, with standard seed positions, a group winner
    never meets the runner-up of its own group in the first round (when there
    are at least two groups).
    """
    if advance < 1:
        raise DrawError(f"at least one pair per group must advance, not {advance}")
    g = len(group_names)
    entries = [Slot("group", ref=n, rank=1) for n in group_names]
    for rank in range(2, advance + 1):
        if rank == 2 and g >= 2:
            # Seed i (winner of group i-1) meets seed 2g+1-i, i.e. runner-up j = g+1-i;
            # runner-up j comes from group (g - j + 1) mod g, never group i-1.
            order = [group_names[(g - j + 1) % g] for j in range(1, g + 1)]
        else:
            order = list(group_names)
        entries.extend(Slot("group", ref=n, rank=rank) for n in order)
    return entries
