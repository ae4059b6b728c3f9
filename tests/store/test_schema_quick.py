"""The quick payload check (``store/schema_quick.py``) never says yes where the schema
says no: every sample event's payload, and thousands of mutations of them, checked
against the match layer's own ``validate_schema``; real records take the quick path."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee_desk.match.errors import SchemaRefused
from referee_desk.match.schema_check import validate_schema
from referee_desk.store import match_checks
from referee_desk.store.schema_quick import compile_rule

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"

ODD_VALUES: list[Any] = [
    None, True, False, 0, 1, 5, -5, 1.0, 2.5, "", "N", "N\n", "BJ\n", "x" * 4001,
    "NS", "A", "replace", "void", "H10", [], [1], ["H10"], {}, {"seat": "N"},
]  # fmt: skip


def sample_events() -> list[dict[str, Any]]:
    events = []
    for path in sorted(SAMPLES.glob("*.jsonl")):
        events += [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    return events


def accepted(event: dict[str, Any]) -> bool:
    try:
        validate_schema(event)
    except SchemaRefused:
        return False
    return True


def mutations(value: Any) -> Iterator[Any]:
    """``value`` changed in one place: a leaf replaced, a key dropped or added, a list
    shortened, lengthened or an item replaced (recursively)."""
    for odd in ODD_VALUES:
        yield odd
    if isinstance(value, dict):
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for changed in mutations(value[key]):
                yield {**value, key: changed}
        yield {**value, "extra": 1}
        for key in ("payload", "cards", "seat", "text", "about_seq", "last", "discarded"):
            if key not in value:
                for odd in ODD_VALUES[:14]:
                    yield {**value, key: odd}
    if isinstance(value, list):
        yield value[:-1]
        yield value + value[-1:]
        yield []
        for index, item in enumerate(value[:3]):
            for changed in mutations(item):
                yield [*value[:index], changed, *value[index + 1 :]]


def compiled_here(check: Any) -> bool:
    return check is not None and check.__code__.co_filename == "<payload rule>"


def test_every_sample_payload_takes_the_quick_path() -> None:
    for event in sample_events():
        check = match_checks._payload_check(event["type"])
        assert compiled_here(check) and check(event["payload"]), event


def test_the_quick_path_does_not_depend_on_who_compiled_the_schema_first() -> None:
    """fastjsonschema rewrites the ``$ref``s of the shared ``load_schema()`` dict it
    compiles; the store's checks read a copy of their own, so they recognise the schema
    whatever was compiled before (a desk previews through the match layer first)."""
    validate_schema(sample_events()[0])  # the match layer's own compile
    for cached in (
        match_checks._schema,
        match_checks._event_types,
        match_checks._payload_rule,
        match_checks._payload_check,
    ):
        cached.cache_clear()
    assert match_checks._event_types() is not None
    assert compiled_here(match_checks._payload_check("note"))


def test_the_quick_check_never_says_yes_where_the_schema_says_no() -> None:
    seen: set[tuple[str, str]] = set()
    checked = doubted = 0
    per_type: dict[str, int] = {}
    for event in sample_events():
        per_type[event["type"]] = per_type.get(event["type"], 0) + 1
        if per_type[event["type"]] > 3:  # three of each type: every shape, and quick
            continue
        check = match_checks._payload_check(event["type"])
        assert check is not None
        for payload in mutations(copy.deepcopy(event["payload"])):
            key = (event["type"], json.dumps(payload, sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            quick = check(payload)
            truth = accepted({**event, "payload": payload})
            assert not quick or truth, (event["type"], payload)
            checked += 1
            doubted += truth and not quick
    assert checked > 2000, checked
    assert doubted < checked // 20  # stricter only at the edges (floats, "\n" endings)


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        ({"type": "string", "pattern": "^[A-Z]$"}, ["N"], ["N\n", "NN", 1]),
        ({"oneOf": [{"enum": ["N"]}, {"type": "null"}]}, ["N", None], ["E", 1]),
        ({"not": {"required": ["x"]}}, [{}], [{"x": 1}, 1]),
        ({"type": "integer", "minimum": 1, "multipleOf": 5}, [5, 10], [0, 7, 5.0, True]),
        (
            {"if": {"properties": {"a": {"const": "r"}}}, "then": {"required": ["p"]}},
            [{"a": "r", "p": 1}, {"a": "v"}],
            [{"a": "r"}],
        ),
        (
            {"type": "array", "prefixItems": [{"type": "integer"}], "minItems": 1},
            [[1], [1, "x"]],
            [[], ["x"]],
        ),
    ],
)
def test_compiled_rules(rule: dict[str, Any], good: list[Any], bad: list[Any]) -> None:
    check = compile_rule(rule, {})
    assert check is not None
    assert all(check(value) for value in good)
    assert not any(check(value) for value in bad)


@pytest.mark.parametrize(
    "rule",
    [
        {"not": {"pattern": "^a$"}},  # a stricter pattern under "not" would be looser
        {"oneOf": [{"type": "integer"}, {"type": "string"}]},  # integer is not exact
        {"if": {"type": "integer"}, "then": {"minimum": 1}},
        {"type": "number"},
        {"enum": [1, 2]},
        {"format": "date-time"},
        {"$ref": "#/$defs/missing"},
    ],
)
def test_what_it_cannot_compile_exactly_is_left_to_the_full_check(rule: dict[str, Any]) -> None:
    assert compile_rule(rule, {}) is None
