"""One generic freeze: a mutable book's attributes into a frozen value of the same names.

The fold keeps its books under the names of the frozen fields (``HandBook`` ↔
``HandState``, ``MatchBooks`` ↔ ``MatchState``), and the frozen value is made from
them by name, each copied by its declared type (a ``tuple[...]`` field from the
book's list, a ``dict[...]`` copied, a ``frozenset[...]`` from a set). So no field is
copied by hand, and a field added to the frozen value and missing from its book fails
at the first freeze instead of drifting. The plan is worked out once per pair of
classes, at import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

#: The copy a frozen field's declared type asks for (by the annotation's start).
_COPIES: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("tuple[", tuple),
    ("dict[", dict),
    ("frozenset[", frozenset),
)


def freezer(
    frozen: type, book: type, *, skip: frozenset[str] = frozenset()
) -> Callable[[object], dict[str, Any]]:
    """A function giving, for a ``book`` instance, the ``frozen`` dataclass's fields it
    holds (all but ``skip``), each copied by its declared type, as keyword arguments.

    Raises AttributeError now if ``book`` lacks one of those fields.
    """
    names: list[str] = []
    copies: list[tuple[int, Callable[[Any], Any]]] = []
    for f in fields(frozen):
        if f.name in skip:
            continue
        if not hasattr(book, f.name):
            raise AttributeError(f"{book.__name__} keeps no {f.name!r} for {frozen.__name__}")
        annotation = str(f.type)
        for start, copy in _COPIES:
            if annotation.startswith(start):
                copies.append((len(names), copy))
                break
        names.append(f.name)
    get = attrgetter(*names)
    keys = tuple(names)

    def freeze(source: object) -> dict[str, Any]:
        values = list(get(source))
        for index, copy in copies:
            values[index] = copy(values[index])
        return dict(zip(keys, values, strict=True))

    return freeze
