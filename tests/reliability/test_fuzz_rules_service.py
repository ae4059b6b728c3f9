"""Issue 5, hostile input: the rules service (``referee-desk rules``).

In-process, ``answer`` gets random JSON and near-valid queries (a valid query with one
field changed, dropped, added or its cards garbled): the answer is always one
JSON-encodable object; a refusal is ``{"error": ...}``, one line naming the reason, and
never the catch-all "internal error" (a typed refusal, not an escaped exception).

As a real subprocess, batches of random byte lines go through one process, each followed
by a marker query carrying its line number as ``id``: exactly one JSON object comes back
per line, in order (the markers' ids prove it), nothing on stderr, exit 0.

The plain random-object fuzz of ``answer`` (300 examples) is in tests/cli/test_rules_service.py;
this file adds near-valid queries, the error wording and the subprocess with random bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_desk.rules.service import OP_FIELDS, RulesService, answer

FAST = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=10000, deadline=None, suppress_health_check=list(HealthCheck))
BATCHES = settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
LONG_BATCHES = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

COMMAND = [sys.executable, "-m", "referee_desk.cli.main", "rules"]

#: One valid query per op (RULES.md 11 worked checks and 7.3).
VALID: list[dict[str, Any]] = [
    {"op": "unit", "level": "5", "trump": "H", "cards": "HA HA HK HK HQ HQ"},
    {"op": "unit", "level": "4", "trump": "S", "cards": ["H5", "H5", "H6", "H6"]},
    {
        "op": "follow",
        "level": "3",
        "trump": "S",
        "lead": "H8 H8 H8 H9 H9 H9",
        "hand": "H5 H5 H5 H6 H6 H6 HJ HJ HQ HQ HK HK S4",
        "play": "HJ HJ HQ HQ HK HK",
    },
    {"op": "winner", "level": "9", "trump": "S", "plays": ["HA HA HK HK", "S3 S3 S4 S4"]},
    {
        "op": "result",
        "defenders_points": 155,
        "last_trick_points": 25,
        "last_trick_cards": 2,
        "last_trick_winner": "declarers",
        "declarer_level": "7",
        "defender_level": "5",
        "params": {"last_trick": "bonus"},
    },
    {  # RULES 12.4: HK HK HQ against shown HA HA fails
        "op": "throw",
        "level": "8",
        "trump": "S",
        "ruleset": "qq-four-deck",
        "lead": "HK HK HQ",
        "shown": "HA HA",
    },
]
FIELDS = sorted({k for q in VALID for k in q} | {"ruleset", "id"})

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["", "H5", "BJ", "大王", "A", "2", "NT", "x" * 300, "guilin-2009"]),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)


@st.composite
def near_valid(draw: st.DrawFn) -> tuple[dict[str, Any], str, str]:
    """A valid query with one change; returns it, the change and the key changed."""
    query = dict(draw(st.sampled_from(VALID)))
    action = draw(st.sampled_from(["set", "drop", "add", "garble", "none"]))
    key = ""
    if action == "set":
        key = draw(st.sampled_from(FIELDS))
        query[key] = draw(json_values)
    elif action == "drop":
        key = draw(st.sampled_from(sorted(query)))
        query.pop(key)
    elif action == "add":
        key = draw(st.text(min_size=1, max_size=8))
        query[key] = draw(json_values)
    elif action == "garble":
        keys = [k for k in ("cards", "lead", "hand", "play") if isinstance(query.get(k), str)]
        if keys:
            key = draw(st.sampled_from(keys))
            text = query[key]
            at = draw(st.integers(0, len(text)))
            query[key] = text[:at] + draw(st.text(max_size=4)) + text[at + 1 :]
    return query, action, key


def required(query: dict[str, Any], key: str) -> bool:
    """Whether the service must refuse a query of this op without ``key``."""
    op = query.get("op")
    needed = {"op", *OP_FIELDS.get(op, ())} if isinstance(op, str) else {"op"}
    if op in ("unit", "follow", "winner"):
        needed |= {"level", "trump"}
    return key in needed


def check_answer(query: Any, got: Any) -> None:
    assert isinstance(got, dict)
    line = json.dumps(got, ensure_ascii=False)
    assert "\n" not in line
    if "error" in got:
        assert set(got) <= {"error", "id"}, got
        assert isinstance(got["error"], str) and got["error"].strip()
        assert "Traceback" not in got["error"]
        assert "internal error" not in got["error"], (query, got)
    if isinstance(query, dict) and "id" in query:
        assert got["id"] == query["id"]


@FAST
@given(near_valid())
def test_near_valid_queries_get_an_answer_or_a_named_refusal(case: tuple[dict, str, str]) -> None:
    check_near_valid(*case)


def check_near_valid(query: dict[str, Any], action: str, key: str) -> None:
    """Unchanged: answered; a required field dropped: refused naming it; an unknown
    field added: refused naming it."""
    got = answer(query)
    check_answer(query, got)
    if action == "none":
        assert "error" not in got, got
    if action == "drop" and (key == "op" or required({**query, key: None}, key)):
        assert "missing" in got.get("error", "") and key in got["error"], (query, got)
    if action == "add" and key not in FIELDS and key not in OP_FIELDS.get(query["op"], ()):
        assert repr(key) in got.get("error", ""), (query, got)


@FAST
@given(json_values)
def test_random_json_values(value: Any) -> None:
    check_answer(value, answer(value))


@FAST
@given(st.binary(max_size=200))
def test_random_bytes_lines_in_process(raw: bytes) -> None:
    check_answer(None, RulesService().answer_line(raw))


def test_every_op_has_a_valid_example() -> None:
    assert {q["op"] for q in VALID} == set(OP_FIELDS)
    for query in VALID:
        assert "error" not in answer(query), query


def marker(number: int) -> bytes:
    return json.dumps(
        {"op": "unit", "level": "5", "trump": "H", "cards": "S9", "id": number}
    ).encode()


def serve_batch(lines: list[bytes]) -> None:
    """One process, every line followed by a marker: one object per line, in order."""
    stream = b"".join(line + b"\n" + marker(n) + b"\n" for n, line in enumerate(lines))
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    proc = subprocess.run(COMMAND, input=stream, capture_output=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stderr == b"", proc.stderr.decode(errors="replace")
    out = proc.stdout.decode("utf-8").split("\n")
    assert out[-1] == "" and len(out) - 1 == 2 * len(lines)
    for n, line in enumerate(lines):
        got = json.loads(out[2 * n])
        check_answer(None, got)
        mark = json.loads(out[2 * n + 1])
        assert mark == {"unit": "single", "length": 1, "each": 1, "suit": "S", "id": n}, (
            line,
            mark,
        )


byte_lines = st.binary(max_size=120).map(lambda b: b.replace(b"\n", b""))
mixed_lines = st.one_of(
    byte_lines,
    json_values.map(lambda v: json.dumps(v).encode()),
    near_valid().map(lambda case: json.dumps(case[0], ensure_ascii=False).encode()),
)


@BATCHES
@given(st.lists(mixed_lines, min_size=50, max_size=150))
def test_subprocess_random_byte_lines(lines: list[bytes]) -> None:
    serve_batch(lines)


@pytest.mark.slow
@LONG
@given(near_valid())
def test_near_valid_queries_long(case: tuple[dict, str, str]) -> None:
    check_near_valid(*case)


@pytest.mark.slow
@LONG
@given(st.binary(max_size=400))
def test_random_bytes_lines_in_process_long(raw: bytes) -> None:
    check_answer(None, RulesService().answer_line(raw))


@pytest.mark.slow
@LONG_BATCHES
@given(st.lists(mixed_lines, min_size=200, max_size=400))
def test_subprocess_random_byte_lines_long(lines: list[bytes]) -> None:
    serve_batch(lines)
