"""Standard seed positions and the order pairs enter a draw.

Positions are built so that seeds 1 and 2 can meet only in the final, 1–4 only
in the semifinals, and so on; byes are the seeds beyond the field, so they fall
to the top seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.model import Pair


def bracket_size(field: int) -> int:
    """The smallest power of two (at least 2) that holds ``field`` pairs."""
    if field < 2:
        raise DrawError(f"a knockout needs at least 2 pairs, not {field}")
    size = 2
    while size < field:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """Seed number at each bracket line, top to bottom (size a power of two).

    ``[1, 2]`` → ``[1, 4, 2, 3]`` → ``[1, 8, 4, 5, 2, 7, 3, 6]``: each seed s of the
    smaller bracket is followed by its first-round opponent ``2n + 1 - s``.
    """
    if size < 2 or size & (size - 1):
        raise DrawError(f"bracket size must be a power of two ≥ 2, not {size}")
    order = [1, 2]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def seeding_order(pairs: Sequence[Pair], rng: random.Random) -> list[Pair]:
    """Seeded pairs by seed, then the unseeded ones in an order drawn by lot.

    Seeds must be distinct; the lot uses ``rng`` so a recorded draw seed repeats
    the same draw.
    """
    seeded = [p for p in pairs if p.seed is not None]
    seen: dict[int, int] = {}
    for p in seeded:
        if p.seed in seen:
            raise DrawError(f"pairs {seen[p.seed]} and {p.pair_id} both have seed {p.seed}")
        seen[p.seed] = p.pair_id  # type: ignore[index]
    seeded.sort(key=lambda p: p.seed)  # type: ignore[arg-type, return-value]
    unseeded = sorted((p for p in pairs if p.seed is None), key=lambda p: p.pair_id)
    rng.shuffle(unseeded)
    return seeded + unseeded


def snake_groups(ordered: Sequence[Pair], group_count: int) -> list[list[Pair]]:
    """Distribute pairs over groups in snake order (A B C D D C B A …)."""
    if group_count < 1:
        raise DrawError(f"group count must be at least 1, not {group_count}")
    if len(ordered) < 2 * group_count:
        raise DrawError(f"{len(ordered)} pairs cannot fill {group_count} groups of at least 2")
    groups: list[list[Pair]] = [[] for _ in range(group_count)]
    for i, pair in enumerate(ordered):
        lap, k = divmod(i, group_count)
        groups[k if lap % 2 == 0 else group_count - 1 - k].append(pair)
    return groups


def group_name(index: int) -> str:
    """A, B, … Z, then AA, AB …"""
    letters = ""
    index += 1
    while index:
        index, r = divmod(index - 1, 26)
        letters = chr(ord("A") + r) + letters
    return letters
