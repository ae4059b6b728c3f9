"""Forking a fold's parts: a copy with every mutable container its own, values shared.

A preview (the desk's entry dialogs, on every keystroke) folds a draft into a copy of
the fold of the record rather than replaying the whole record for it. Copying is
cheap because nearly everything a fold holds is a frozen value (events, violations,
consequences, the hands over, rulesets, trump contexts), shared by the copy; what is
copied is every list, dict, set and book, so folding into the copy can never change
the original. ``copier`` builds the copy of one class from a table naming *every*
field of the class and how it is copied; a field added to a book without a line in
its table fails when this module is imported, so nothing can be shared by omission.

Shared on purpose: a hand's ``Suits`` memo (one per trump context, module-wide in
``memo``, filled lazily with values that depend on the context alone) and the
follow audit's own ``Suits`` of the same kind. ``Replayer.fork`` (``replayer``) uses
this for the parts and copies the core's own fields with the same tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

from referee_desk.match.fold.audit import FollowAudit, _Open
from referee_desk.match.fold.books import MatchBooks
from referee_desk.match.fold.clock_book import ClockBook
from referee_desk.match.fold.hand import HandBook, Hands
from referee_desk.match.fold.parts import Fold

T = TypeVar("T")

#: How one field is copied: None shares the value (frozen, or a shared memo), else the
#: function makes the copy's own.
How = Callable[[Any], Any] | None

#: Shares the value: immutable (numbers, strings, enums, tuples of them, frozen
#: dataclasses) or a memo shared by design (see the module's docstring).
SHARE: How = None


def field_names(cls: type) -> frozenset[str]:
    """The fields of ``cls``: a dataclass's fields, else the ``__slots__`` of its classes."""
    if is_dataclass(cls):
        return frozenset(f.name for f in fields(cls))
    names: set[str] = set()
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    return frozenset(names)


def copier(
    cls: type[T], table: Mapping[str, How], names: frozenset[str] | None = None
) -> Callable[[T], T]:
    """The copy of a ``cls`` by ``table`` (field → how), which must name every field
    (``names``, by default ``field_names(cls)``): a TypeError says which it lacks."""
    expected = field_names(cls) if names is None else names
    if set(table) != expected:
        missing = sorted(expected - set(table))
        extra = sorted(set(table) - expected)
        raise TypeError(f"fork table of {cls.__name__}: missing {missing}, unknown {extra}")
    shared = tuple(name for name, how in table.items() if how is None)
    copied = tuple((name, how) for name, how in table.items() if how is not None)
    new = object.__new__
    put = object.__setattr__

    def copy(obj: T) -> T:
        other = new(cls)
        for name in shared:
            put(other, name, getattr(obj, name))
        for name, how in copied:
            put(other, name, how(getattr(obj, name)))
        return other

    return copy


def _counters(value: dict[Any, Counter[Any]]) -> dict[Any, Counter[Any]]:
    return {key: Counter(counts) for key, counts in value.items()}


def _sets(value: dict[Any, set[Any]]) -> dict[Any, set[Any]]:
    return {key: set(items) for key, items in value.items()}


_fork_open = copier(
    _Open,
    {
        "number": SHARE,
        "seat": SHARE,
        "lead": SHARE,
        "play": SHARE,
        "held": list,
        "counts": dict,
        "need": SHARE,
        "pending": SHARE,
    },
)


def _open_follows(value: dict[Any, dict[str, list[_Open]]]) -> dict[Any, dict[str, list[_Open]]]:
    return {
        seat: {suit: [_fork_open(f) for f in follows] for suit, follows in by_suit.items()}
        for seat, by_suit in value.items()
    }


_fork_audit = copier(
    FollowAudit,
    {"ctx": SHARE, "ruleset": SHARE, "suits": SHARE, "open": _open_follows},
)


def _audit(value: FollowAudit | None) -> FollowAudit | None:
    return None if value is None else _fork_audit(value)


_fork_hand = copier(
    HandBook,
    {
        "number": SHARE,
        "seq": SHARE,
        "race": SHARE,
        "dealer": SHARE,
        "status": SHARE,
        "due_dealer": SHARE,
        "declarers": SHARE,
        "level": SHARE,
        "trump": SHARE,
        "trump_decided": SHARE,
        "bids": list,
        "standing": SHARE,
        "shown": _counters,
        "lost_bid_right": set,
        "false_bid_side": SHARE,
        "false_bid_trump": SHARE,
        "form": SHARE,
        "tricks": list,
        "audit": _audit,
        "played": dict,
        "cards_played": dict,
        "void_in": _sets,
        "next_leader": SHARE,
        "captured": SHARE,
        "adjustment": SHARE,
        "last_trick": SHARE,
        "violations": list,
        "revoke_side": SHARE,
        "revoke_points": SHARE,
        "result": SHARE,
        "void_reason": SHARE,
        "kitty": SHARE,
        "throw_failures": list,
        "concealments": list,
        "forced_lead": SHARE,
        "forced_seat": SHARE,
        "trump_ctx": SHARE,
        "ctx_key": SHARE,
        "suits": SHARE,
    },
)


def _current(value: HandBook | None) -> HandBook | None:
    return None if value is None else _fork_hand(value)


_fork_hands = copier(
    Hands,
    {
        "current": _current,
        "done": list,
        "deal_holder": SHARE,
        "next_dealer": SHARE,
        "shuffler": SHARE,
        "cutter": SHARE,
    },
)

_fork_books = copier(
    MatchBooks,
    {
        "consequences": list,
        "corrections": list,
        "dug_at_a": set,
        "end": SHARE,
        "flags": list,
        "info": SHARE,
        "levels": dict,
        "notes": list,
        "overruns": dict,
        "passed_a": SHARE,
        "referred": set,
        "ruleset": SHARE,
        "time_out_undecided": SHARE,
        "trick_rules": SHARE,
        "violations": list,
        "warnings": dict,
    },
)

_fork_clock = copier(
    ClockBook,
    {
        "elapsed_before_ms": SHARE,
        "limit_ms": SHARE,
        "paused_reason": SHARE,
        "pauses": list,
        "running_since_ms": SHARE,
        "started_at_ms": SHARE,
    },
)

fork_parts = copier(Fold, {"books": _fork_books, "clock": _fork_clock, "hands": _fork_hands})
"""A copy of a fold's parts that shares no mutable container with them."""
