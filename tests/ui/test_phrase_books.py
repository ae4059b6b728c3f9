"""Issue 19 item 5: no internal identifier reaches the referee. Every refusal and every
consequence key is worded in both languages with realistic parameters (the values the
match layer passes: hand stages, preset names, event kinds) and checked for snake_case
names, preset ids, seed numbers and English words in the Chinese text."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from referee_desk.match.refusal_wording import word_key
from referee_desk.phrasebook import CONSEQUENCES as TEMPLATES
from referee_desk.phrasebook import REFUSALS, render
from referee_desk.phrasebook import STORE_REFUSALS as STORE_PHRASES

#: Raw values by placeholder name, as the match layer fills them.
RAW: dict[str, Any] = {
    "ruleset": "three-deck",
    "need": "bidding or play (after bidding_closed)",
    "status": "playing",
    "type": "bid",  # {type:event}; an unknown type is what was typed: shown as it is
    "seat": "N",
    "side": "NS",
    "winner": "EW",
    "claimed_winner": "NS",
    "other": "EW",
    "trump": "H",
    "expected": "S",
    "suit": "D",
    "reason": "passed_a",
    "claimed": "time_out",
    "kind": "not_following",
    "action": "void",
    "field": "last_trick_side",
    "problem": "minimum",
    "role": "declarers",
    "cards": "SA SA",
    "thrown": "SA SA C2 C2",
    "shown": "S2 S2",
    "forced": "C2 C2",
    "level": "5",
    "before": "5",
    "after": "A",
    "other_level": "7",
    "article": "12.4",
    "text": "记录",
}
IDENTIFIER = {
    "zh_CN": re.compile(r"[a-z]+_[a-z_]+|three-deck|qq-four-deck|guilin-2009|\(after "),
    # English names JSON fields in the record's own refusals (match_id); never in brackets
    "en": re.compile(r"\([a-z]+_[a-z_]+\)|three-deck|qq-four-deck|guilin-2009|after [a-z]+_"),
}
SEED = re.compile(r"(?<![\d.])00[0-2](?![\d])")
#: English a Chinese line may carry: notations and names of formats.
ALLOWED_LATIN = {"ISO", "UTC", "JSON", "PIN", "PostgreSQL", "SQLite", "NT", "LJ", "BJ", "SA"}


#: Placeholder names that hold a plain number or a typed text when they have no kind.
UNTYPED_RAW = {"ruleset", "need", "status", "article", "text", "level"}


def _args(template: str) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for _t, name, spec, _c in string.Formatter().parse(template):
        if not name or name in ("DEC", "DEF"):
            continue
        typed = bool(spec) or name in UNTYPED_RAW
        args[name] = RAW.get(name, 3) if typed else 3
    return args


def _problems(text: str, language: str, where: str) -> list[str]:
    found = []
    if IDENTIFIER[language].search(text) or SEED.search(text):
        found.append(f"{where} {language}: {text}")
    if language == "zh_CN":
        latin = set(re.findall(r"[A-Za-z]{3,}", text)) - ALLOWED_LATIN
        if latin:
            found.append(f"{where}: English {sorted(latin)} in {text}")
    return found


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_refusal_key_is_worded_without_identifiers(language: str) -> None:
    assert len(REFUSALS) > 50
    problems = []
    for key, (en, zh) in REFUSALS.items():
        params = _args(en) | _args(zh)
        text = word_key(key, params, language)
        assert text, key
        problems += _problems(text, language, key)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_consequence_key_is_worded_without_identifiers(language: str) -> None:
    assert len(TEMPLATES) > 20
    problems = []
    for key, (en, zh) in TEMPLATES.items():
        args = _args(en) | _args(zh)
        if key == "committee_ruling":
            args |= {
                "NS_levels": 1,
                "NS_before": "5",
                "NS_after": "6",
                "has_points": 1,
                "points": 20,
            }
        problems += _problems(render(key, args, language), language, key)
    assert not problems, "\n".join(problems)


#: Raw values of the store's params that name a kind (a person's role, a refused action).
STORE_RAW: dict[str, Any] = {
    "role": "committee",
    "wanted": "referee",
    "who_role": "organizer",
    "action": "register",
    "why": "store.not_the_referee",
    "referee": "李裁判",
    "name": "王磊",
}


def test_every_store_phrase_is_worded_without_identifiers() -> None:
    problems = []
    for key, (en, zh) in STORE_PHRASES.items():
        args = _args(en) | _args(zh) | STORE_RAW
        problems += _problems(render(key, args, "en"), "en", key)
        problems += _problems(render(key, args, "zh_CN"), "zh_CN", key)
    assert not problems, "\n".join(problems)
