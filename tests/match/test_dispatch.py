"""Issue 17, item 2: the fold's dispatch is an explicit table, and the end has one setter."""

from __future__ import annotations

import ast
from pathlib import Path

from referee_desk.match import events as ev
from referee_desk.match.fold.replayer import HANDLERS

FOLD = Path(__file__).resolve().parents[2] / "referee_desk" / "match" / "fold"


def test_every_event_type_but_correction_has_exactly_one_handler() -> None:
    assert set(HANDLERS) == set(ev.PAYLOAD_TYPES) - {ev.CORRECTION}
    assert len({id(h) for h in HANDLERS.values()}) == len(HANDLERS)
    assert all(h.__name__ == f"on_{name}" for name, h in HANDLERS.items())


def test_no_dispatch_by_built_name_and_one_place_sets_the_end() -> None:
    built, end_set = [], []
    for path in sorted(FOLD.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "getattr"
                and any(isinstance(a, ast.BinOp) for a in node.args)
            ):
                built.append(path.name)
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and t.attr == "end":
                        value = node.value
                        if not (isinstance(value, ast.Constant) and value.value is None):
                            end_set.append(path.name)
    assert not built
    assert end_set == ["books.py"]


def test_no_mixins_and_each_part_owns_its_state() -> None:
    """Issue 17, item 2: handlers are plain functions; no fold class inherits another."""
    bases = [
        f"{path.name}:{node.name}({ast.unparse(base)})"
        for path in sorted(FOLD.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        for base in node.bases
    ]
    # NamedTuple and a dict with __missing__: values, not mixins.
    assert sorted(bases) == [
        "memo.py:Suits(dict[str, str])",
        "trick_input.py:PreparedTrick(NamedTuple)",
    ], bases
    assert all(h.__module__.startswith("referee_desk.match.fold.") for h in HANDLERS.values())
    assert not any(isinstance(h, type) or hasattr(h, "__self__") for h in HANDLERS.values())


def test_the_frozen_hand_and_state_are_made_by_name_from_their_books() -> None:
    """No field-by-field copy: a HandState field missing from HandBook fails the freeze."""
    import dataclasses

    import pytest

    from referee_desk.match.fold.books import MatchBooks
    from referee_desk.match.fold.freeze import freezer
    from referee_desk.match.fold.hand import HandBook
    from referee_desk.match.values import HandState

    @dataclasses.dataclass(frozen=True)
    class Wider:
        number: int
        not_kept: int

    with pytest.raises(AttributeError, match="not_kept"):
        freezer(Wider, HandBook)
    book = HandBook(number=3, seq=9, race=False, dealer=None)
    assert book.frozen() == HandState(
        **{
            f.name: getattr(book, f.name) if not isinstance(getattr(book, f.name), list) else ()
            for f in dataclasses.fields(HandState)
        }
    )
    assert {"levels", "consequences", "flags", "end"} <= set(MatchBooks.__slots__)
