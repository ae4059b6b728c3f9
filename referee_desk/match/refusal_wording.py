"""How a refusal of the match layer is worded: its key and params through the phrasebook.

A refusal carries a stable dotted ``key`` (``bid.counter_not_higher``) and plain
``params``; its English line is the English phrase of :mod:`referee_desk.phrasebook`
(written once, there). ``word_refusal(error, "zh_CN")`` words it for a Chinese referee,
with seats, sides, trumps, event kinds and hand stages in the glossary's terms
(RULES.md section 13), so the desk and the CLI say the same thing. A refusal without a
known key (a wrapped error of the rules core) is worded by ``fallback_text``: what was
refused and the articles its English line names, never the English line itself in
Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

from referee_desk.phrasebook import REFUSALS, language_of, render
from referee_desk.phrasebook.glossary import EVENT_NAMES

_ARTICLE = re.compile(r"\b\d{1,2}\.\d{1,2}\b")


class Refusal(Protocol):
    """What the wording reads of an ``EventRefused`` (this module does not import it)."""

    @property
    def reason(self) -> str: ...

    @property
    def event_type(self) -> str | None: ...

    @property
    def key(self) -> str | None: ...

    @property
    def params(self) -> Mapping[str, object]: ...


def word_key(key: str, params: Mapping[str, object], language: str = "zh_CN") -> str | None:
    """The phrase of refusal ``key`` filled with ``params``; None if the key or a param is
    unknown."""
    if key not in REFUSALS:
        return None
    lang = language_of(language)
    values = dict(params)
    if key == "correction.would_refuse":
        inner_params = params.get("inner", {})
        inner = word_key(
            str(params.get("inner_key", "")),
            inner_params if isinstance(inner_params, Mapping) else {},
            lang,
        )
        # A keyless inner refusal (a rules-core error): its own line in English.
        reason = params.get("inner_reason") if lang == "en" else None
        values["inner"] = (
            inner or (reason if isinstance(reason, str) else None) or (fallback_text(None, lang))
        )
    try:
        return render(key, values, lang)
    except (KeyError, IndexError, ValueError):
        return None


def english(key: str, params: Mapping[str, object]) -> str:
    """The English line of a keyed refusal (its ``str()``); a key or params the book
    cannot word is a bug, raised as such (tests/match/test_refusal_wording.py)."""
    worded = word_key(key, params, "en")
    if worded is None:
        raise KeyError(f"refusal {key!r} cannot be worded with params {sorted(params)}")
    return worded


def fallback_text(error: Refusal | None, language: str = "zh_CN") -> str:
    """A keyless refusal: the English line in English; in Chinese what was refused and
    the articles the English line names."""
    lang = language_of(language)
    if error is not None and lang == "en":
        return error.reason
    articles = [] if error is None else list(dict.fromkeys(_ARTICLE.findall(error.reason)))
    what = ""
    if error is not None and error.event_type:
        what = EVENT_NAMES["zh_CN"].get(error.event_type, "")
    text = f"{what}不符合规则或记录" if what else "不符合规则或记录"
    if articles:
        text += "（" + "、".join(articles) + "）"
    return text


def word_refusal(error: Refusal, language: str = "zh_CN") -> str:
    """The refusal worded in ``language`` (``zh_CN`` or ``en``)."""
    if error.key:
        worded = word_key(error.key, error.params, language)
        if worded is not None:
            return worded
    return fallback_text(error, language)
