"""The draw as a plan: which pairs meet where, and at which table, before it is written.

Pure (no store): the seeding order from the recorded draw seed, the groups and their
round-robin matches or the bracket, the knockout after the groups, and tables and
referees in turn. ``Tournament.draw`` writes the plan once and freezes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from referee_desk.tournament.elimination import build_elimination
from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.groups import build_group_matches, knockout_entries
from referee_desk.tournament.model import (
    Format,
    Pair,
    Settings,
    Slot,
    TournamentInfo,
    TournamentMatch,
)
from referee_desk.tournament.seeding import group_name, seeding_order, snake_groups


def plan_draw(
    pairs: Sequence[Pair], settings: Settings, seed: int
) -> tuple[list[TournamentMatch], dict[str, list[int]]]:
    """(matches, groups) of a draw of ``pairs`` with draw seed ``seed`` (repeatable)."""
    if len(pairs) < 2:
        raise DrawError(f"the draw needs at least 2 pairs, not {len(pairs)}")
    ordered = seeding_order(list(pairs), random.Random(seed))
    groups: dict[str, list[int]] = {}
    if settings.format is Format.SINGLE_ELIMINATION:
        matches = build_elimination(
            [Slot("pair", p.pair_id) for p in ordered], settings.third_place
        )
        return matches, groups
    if settings.group_count < 1:
        raise DrawError("a group stage needs group_count ≥ 1")
    matches = []
    for i, members in enumerate(snake_groups(ordered, settings.group_count)):
        name = group_name(i)
        groups[name] = [p.pair_id for p in members]
        matches.extend(build_group_matches(name, members))
    smallest = min(len(v) for v in groups.values())
    if settings.advance_per_group > smallest:
        raise DrawError(
            f"{settings.advance_per_group} pairs cannot advance from a group of {smallest}"
        )
    entries = knockout_entries(list(groups), settings.advance_per_group)
    if len(entries) >= 2:
        matches.extend(build_elimination(entries, settings.third_place))
    return matches, groups


def assign_in_turn(matches: list[TournamentMatch], info: TournamentInfo) -> list[TournamentMatch]:
    """Tables and referees in turn within each round (byes get none)."""
    out = []
    counters: dict[tuple[str, int], int] = {}
    for m in matches:
        if "bye" in (m.slot_a.kind, m.slot_b.kind) or not info.tables:
            out.append(m)
            continue
        key = (m.stage if m.group is None else "G", m.round)
        k = counters.get(key, 0)
        counters[key] = k + 1
        table = info.tables[k % len(info.tables)]
        referee = info.referees[k % len(info.referees)] if info.referees else ""
        out.append(replace(m, table=table, referee=referee))
    return out
