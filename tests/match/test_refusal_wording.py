"""Every refusal of the match layer carries a phrasebook key worded in Chinese (issue 10, 2).

Static checks read the match package's source: each ``raise EventRefused(...)`` names a
key of ``REFUSALS`` (wrappers that pass a caught refusal's key on excepted), and the
params it passes fill both templates. Dynamic checks raise real refusals through the
match layer and word them.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from referee_desk import match as match_api
from referee_desk.match.errors import EventRefused
from referee_desk.match.refusal_wording import word_key, word_refusal
from referee_desk.phrasebook import REFUSALS
from referee_desk.rules.ruleset import get_ruleset

MATCH = Path(match_api.__file__).parent
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"\b[a-z]{3,}\b")


def _refusal_calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for path in sorted(MATCH.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in ("EventRefused", "SchemaRefused"):
                    calls.append((path.name, node.lineno, node.exc))
    return calls


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _placeholders(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


def test_every_raise_names_a_key_of_the_phrasebook() -> None:
    calls = _refusal_calls()
    assert len(calls) > 80
    unkeyed = []
    for name, line, call in calls:
        key = _keyword(call, "key")
        if isinstance(key, ast.Constant):
            assert key.value in REFUSALS, f"{name}:{line}: {key.value!r} has no wording"
        elif not (isinstance(key, ast.Attribute) and key.attr == "key"):
            unkeyed.append(f"{name}:{line}")
    # Only the wrappers of foreign errors (RulesError, a bad payload) stay keyless; the
    # desk words them by ``fallback_text``.
    assert len(unkeyed) <= 3, unkeyed


def test_params_fill_both_templates() -> None:
    for name, line, call in _refusal_calls():
        key = _keyword(call, "key")
        if not isinstance(key, ast.Constant):
            continue
        params = _keyword(call, "params")
        given: set[str] = set()
        if isinstance(params, ast.Dict):
            given = {k.value for k in params.keys if isinstance(k, ast.Constant)}
        for template in REFUSALS[key.value]:
            needed = _placeholders(template) - {"inner"}
            assert needed <= given, f"{name}:{line}: {key.value} lacks {needed - given}"


def test_every_chinese_template_is_chinese() -> None:
    for key, (_en, zh) in REFUSALS.items():
        assert _HAN.search(zh), key
        words = _LATIN_WORD.findall(re.sub(r"\{[^}]*\}", "", zh))
        assert not words, f"{key}: English words {words} in {zh!r}"


def _opened() -> list[match_api.Event]:
    payload = {
        "tournament": "桂林杯",
        "round": "1",
        "table": "1",
        "pairs": {"NS": "甲", "EW": "乙"},
        "seats": {"N": "a", "E": "b", "S": "c", "W": "d"},
        "referee": "王磊",
        "ruleset": get_ruleset().to_dict(),
    }
    draft = match_api.new_event(
        [], "match_opened", payload, referee="王磊", now="2026-11-29T06:00:00.000Z", match_id="m1"
    )
    return [match_api.seal([], draft)]


def _refusal(events: list[match_api.Event], kind: str, payload: dict) -> EventRefused:
    draft = match_api.new_event(
        events, kind, payload, referee="王磊", now="2026-11-29T06:01:00.000Z", match_id="m1"
    )
    with pytest.raises(EventRefused) as caught:
        match_api.validate(events, draft)
    return caught.value


def test_a_bid_before_the_clock_runs_is_worded_in_chinese() -> None:
    """1.5: nothing is dealt before the clock starts; the refusal says so in Chinese."""
    error = _refusal(_opened(), "hand_started", {"dealer": None})
    assert error.key == "clock.not_started"
    assert "1.5" in str(error)  # the English line is unchanged
    zh = word_refusal(error, "zh_CN")
    assert zh == "比赛尚未开始计时（1.5）：按 P 开始计时"
    assert word_refusal(error, "en").startswith("the match clock is not started")


def test_a_schema_refusal_names_the_field_in_chinese() -> None:
    """An empty note text: "payload/text: '' should be non-empty" becomes 文字说明…不能为空."""
    error = _refusal(_opened(), "note", {"text": ""})
    assert error.key == "schema.invalid" and error.params["field"] == "text"
    assert word_refusal(error, "zh_CN") == "“文字说明”填写不符合要求（不能为空）"


def test_unknown_keys_fall_back_without_english() -> None:
    error = EventRefused("something odd (4.2)", event_type="trick", seq=9, key="no.such.key")
    assert word_refusal(error, "zh_CN") == "出牌（一墩）不符合规则或记录（4.2）"
    assert word_refusal(error, "en") == "something odd (4.2)"
    assert word_key("no.such.key", {}) is None
