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
    assert all(h.__name__ == f"_on_{name}" for name, h in HANDLERS.items())


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
