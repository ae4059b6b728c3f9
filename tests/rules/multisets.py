"""Brute-force enumeration shared by the independent rule models of the tests.

The models re-state the rules from the text and share nothing with the engine; this
is only the combinatorics they all need (every sub-multiset of a holding).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def sub_multisets(counts: list[tuple[Any, int]], size: int | None = None) -> Iterator[tuple]:
    """Every sub-multiset of ``counts`` (sorted ``(card, count)`` pairs), or only those of
    ``size`` cards, as tuples of cards; each exactly once."""
    if not counts:
        if size in (None, 0):
            yield ()
        return
    (card, count), rest = counts[0], counts[1:]
    for take in range(count + 1):
        if size is not None and take > size:
            break
        for tail in sub_multisets(rest, None if size is None else size - take):
            yield (card,) * take + tail
