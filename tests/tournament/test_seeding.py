"""Seed positions, byes and snake groups (issue 6: standard seed positions, byes to top seeds)."""

from __future__ import annotations

import random

import pytest

from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.seeding import (
    bracket_size,
    group_name,
    seed_positions,
    seeding_order,
    snake_groups,
)

from .helpers import make_pairs


def test_known_seed_positions() -> None:
    assert seed_positions(2) == [1, 2]
    assert seed_positions(4) == [1, 4, 2, 3]
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize("size", [2**k for k in range(1, 9)])
def test_seed_positions_properties(size: int) -> None:
    pos = seed_positions(size)
    assert sorted(pos) == list(range(1, size + 1))
    # First-round opponents add up to size + 1 (1 v n, 2 v n-1, ...).
    for i in range(0, size, 2):
        assert pos[i] + pos[i + 1] == size + 1
    # Seeds 1..2^k sit in different blocks of size/2^k lines: they meet no earlier than
    # the round where the block count is 2^k (1 and 2 only in the final).
    block = size
    top = 1
    while block >= 2:
        for b in range(0, size, block):
            assert sum(1 for s in pos[b : b + block] if s <= top) <= 1
        block //= 2
        top *= 2


@pytest.mark.parametrize(("field", "size"), [(2, 2), (3, 4), (5, 8), (8, 8), (9, 16), (256, 256)])
def test_bracket_size(field: int, size: int) -> None:
    assert bracket_size(field) == size


def test_bracket_size_refuses_one_pair() -> None:
    with pytest.raises(DrawError, match="at least 2"):
        bracket_size(1)


def test_seeding_order_seeded_first_unseeded_by_recorded_lot() -> None:
    pairs = make_pairs(10, seeded=4)
    a = seeding_order(pairs, random.Random(7))
    b = seeding_order(list(reversed(pairs)), random.Random(7))
    assert [p.seed for p in a[:4]] == [1, 2, 3, 4]
    assert {p.pair_id for p in a[4:]} == set(range(5, 11))
    assert a == b  # same recorded draw seed, same draw, whatever the input order


def test_duplicate_seed_refused() -> None:
    pairs = make_pairs(4)
    pairs[1] = pairs[1].__class__(2, "甲", "乙", seed=1)
    with pytest.raises(DrawError, match="seed 1"):
        seeding_order(pairs, random.Random(0))


def test_snake_groups() -> None:
    groups = snake_groups(make_pairs(8), 2)
    assert [p.seed for p in groups[0]] == [1, 4, 5, 8]
    assert [p.seed for p in groups[1]] == [2, 3, 6, 7]


def test_group_names() -> None:
    assert [group_name(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]
