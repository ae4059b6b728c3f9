"""Issue 17 item 9: one phrasebook, and each English refusal written once.

The book (``referee_desk.phrasebook``) holds every keyed phrase: consequences, the match
layer's refusals and the store's. A match raise site passes a key and params only; the
refusal's English line (its ``str()``) is the book's English, the same words the
English desk shows (``word_refusal(error, "en")``).
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from referee_desk import match as match_api
from referee_desk import phrasebook
from referee_desk.match.errors import EventRefused
from referee_desk.match.refusal_wording import word_refusal
from referee_desk.phrasebook import CONSEQUENCES, PHRASES, REFUSALS, STORE_REFUSALS
from referee_desk.rules.ruleset import get_ruleset

PACKAGE = Path(phrasebook.__file__).resolve().parents[1]
#: Raise sites that keep an English reason of their own, and why: the schema
#: validator's message names the JSON path of a foreign record (``verify``, import).
OWN_REASON = {("schema_check.py", "schema.invalid")}


def test_the_three_books_are_one() -> None:
    assert not set(CONSEQUENCES) & set(REFUSALS)
    assert not set(CONSEQUENCES) & set(STORE_REFUSALS)
    assert not set(REFUSALS) & set(STORE_REFUSALS)
    assert len(PHRASES) == len(CONSEQUENCES) + len(REFUSALS) + len(STORE_REFUSALS)
    # No other module keeps a phrase table: the former books are gone.
    assert not (PACKAGE / "match" / "refusal_phrases.py").exists()
    for path in ("rules/wording.py", "match/refusal_wording.py", "ui/refusals.py"):
        tree = ast.parse((PACKAGE / path).read_text(encoding="utf-8"))
        tables = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Dict)
            and node.values
            and all(isinstance(v, ast.Tuple) and len(v.elts) == 2 for v in node.values)
        ]
        assert not tables, f"{path} keeps (English, Chinese) phrases at lines {tables}"


@pytest.mark.parametrize("key", sorted(PHRASES))
def test_every_placeholder_kind_is_known(key: str) -> None:
    """Every ``{name:kind}`` of either language is a kind the renderer prints (an unknown
    kind raises PhraseError), in both languages."""
    params: dict[str, object] = {"NS_levels": 1, "NS_before": "5", "NS_after": "6"}
    for template in PHRASES[key]:
        for _text, name, spec, _conv in string.Formatter().parse(template):
            if spec in ("num", "signed"):
                params[name] = -3
            elif spec == "access_action":  # a phrase of its own: one it has, with its params
                params[name] = "import"
                params |= {"match": "N", "type": "N", "seq": "N"}
            elif spec == "access_reason":
                params[name] = "store.not_the_referee"
                params |= {"name": "N", "referee": "N"}
            elif name and name not in ("DEC", "DEF"):
                params.setdefault(name, "N")
    for language in phrasebook.LANGUAGES:
        assert phrasebook.render(key, params, language)


def _raise_sites() -> list[tuple[str, int, str | None, bool]]:
    """(file, line, key, has its own English reason) of every match-layer refusal."""
    sites = []
    for path in sorted((PACKAGE / "match").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in ("EventRefused", "SchemaRefused"):
                continue
            key = next((k.value for k in node.keywords if k.arg == "key"), None)
            constant = key.value if isinstance(key, ast.Constant) else None
            sites.append((path.name, node.lineno, constant, bool(node.args)))
    return sites


def test_raise_sites_pass_a_key_and_params_not_english() -> None:
    sites = _raise_sites()
    assert len(sites) > 100
    written_twice = [
        f"{name}:{line} {key}"
        for name, line, key, own in sites
        if key is not None and own and (name, key) not in OWN_REASON
    ]
    assert not written_twice, "English at the raise site as well as in the book:\n" + "\n".join(
        written_twice
    )


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


def _refused(events: list[match_api.Event], kind: str, payload: dict[str, object]) -> EventRefused:
    draft = match_api.new_event(
        events, kind, payload, referee="王磊", now="2026-11-29T06:01:00.000Z", match_id="m1"
    )
    with pytest.raises(EventRefused) as caught:
        match_api.validate(events, draft)
    return caught.value


def test_a_refusal_says_in_english_what_the_english_desk_shows() -> None:
    """1.5: no hand before the clock runs; 2.1: a pass shows no cards. The refusal's own
    English line is the book's, word for word (it used to be written a second time)."""
    opened = _opened()
    error = _refused(opened, "hand_started", {"dealer": None})
    assert error.key == "clock.not_started"
    assert error.reason == word_refusal(error, "en")
    assert str(error).endswith("refused: " + word_refusal(error, "en"))
    error = _refused(opened, "match_opened", dict(opened[0].payload))
    assert error.key == "match.already_opened"
    assert error.reason == word_refusal(error, "en") == "the match is already opened"


def test_a_refusal_without_key_or_reason_is_a_bug() -> None:
    with pytest.raises(TypeError):
        EventRefused()
    with pytest.raises(KeyError):
        EventRefused(key="no.such.key")


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("store.organizer_needed", {"action": "store.bogus"}),
        (
            "store.import_refused",
            {"action": "import", "match": "m1", "type": "x", "seq": 3, "why": "store.bogus"},
        ),
    ],
)
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_an_unknown_action_or_reason_is_a_phrase_error(
    key: str, params: dict[str, object], language: str
) -> None:
    """``{action:access_action}`` and ``{why:access_reason}`` never print a raw key: an
    unknown one is a PhraseError, as for ``render_action``/``render_reason``."""
    with pytest.raises(phrasebook.PhraseError, match=r"store\.bogus"):
        phrasebook.render(key, params, language)
