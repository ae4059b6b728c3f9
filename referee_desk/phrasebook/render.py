"""Filling a phrase: the template of a key in a language, with its params by kind.

Placeholders name a kind after the colon, which picks how the raw value is printed:
``{seat:seat}``, ``{side:side}``, ``{role:role}`` (plural role; with the args'
``declarers_side``/``defenders_side`` the side is added: ``declarers NS`` / ``庄家方南北``),
``{role:role1}`` (one player's role), ``{level:level}``, ``{trump:trump}``, ``{n:num}``
(true minus sign), ``{n:signed}`` (+n / −n), ``{kind:revoke_kind}``,
``{reason:end_reason}``, ``{action:correction}``, ``{cards:cards}`` (card tokens; suit
symbols in Chinese), ``{type:event}`` (event kind), ``{status:status}`` (hand stages,
joined by " or "), ``{ruleset:ruleset}``, ``{field:field}`` (a payload field),
``{problem:problem}`` (a schema keyword), ``{role:person_role}`` (a person's role in a
file: referee, committee, organizer), ``{action:access_action}`` (a refused change of
people, assignments, locks or an import, ``STORE_ACTIONS``) and ``{why:access_reason}``
(why an event may not be added, ``ACCESS_REASONS``), both filled with the same params
(a value neither table has is a PhraseError, never printed raw).
No kind: the value as it is. ``{DEC:role}`` and
``{DEF:role}`` are the declarers and defenders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from referee_desk.phrasebook.consequences import CONSEQUENCES
from referee_desk.phrasebook.glossary import (
    CORRECTION_NAMES,
    END_REASON_NAMES,
    EVENT_NAMES,
    FIELD_NAMES,
    PERSON_ROLE_NAMES,
    PROBLEM_NAMES,
    REVOKE_KIND_NAMES,
    ROLE1_NAMES,
    ROLE_NAMES,
    RULESET_NAMES,
    SEAT_NAMES,
    SIDE_NAMES,
    STATUS_NAMES,
    TRUMP_NAMES,
    Names,
)
from referee_desk.phrasebook.refusals import REFUSALS
from referee_desk.phrasebook.store_refusals import (
    ACCESS_REASONS,
    STORE_ACTIONS,
    STORE_REFUSALS,
)

Language = Literal["zh_CN", "en"]
LANGUAGES: tuple[Language, ...] = ("zh_CN", "en")

#: Every phrase by key -> (English template, Chinese template); the three key sets are
#: disjoint (tests/test_phrasebook.py).
PHRASES: dict[str, tuple[str, str]] = {**CONSEQUENCES, **REFUSALS, **STORE_REFUSALS}


class PhraseError(ValueError):
    """A key without a phrase, or params that its template does not take."""


def language_of(language: str) -> Language:
    """``zh_CN`` or ``en`` (anything but ``zh_CN`` is worded in English)."""
    return "zh_CN" if language == "zh_CN" else "en"


def number_text(n: int) -> str:
    """An integer with a true minus sign (−3)."""
    return str(n) if n >= 0 else f"−{-n}"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


#: Kinds printed by looking the raw value up in a glossary table.
_TABLES: dict[str, Names] = {
    "side": SIDE_NAMES,
    "seat": SEAT_NAMES,
    "trump": TRUMP_NAMES,
    "revoke_kind": REVOKE_KIND_NAMES,
    "end_reason": END_REASON_NAMES,
    "correction": CORRECTION_NAMES,
    "role1": ROLE1_NAMES,
    "event": EVENT_NAMES,
    "ruleset": RULESET_NAMES,
    "field": FIELD_NAMES,
    "problem": PROBLEM_NAMES,
    "person_role": PERSON_ROLE_NAMES,
}


class _Value:
    """One param, formatted by the kind its placeholder names (``{seat:seat}``)."""

    __slots__ = ("args", "language", "value")

    def __init__(self, value: object, language: Language, args: Mapping[str, object]) -> None:
        self.value = value
        self.language = language
        self.args = args

    def _look(self, table: Names) -> str:
        return table.get(self.language, {}).get(str(self.value), str(self.value))

    def __format__(self, spec: str) -> str:
        v = self.value
        if spec == "" or spec == "level":
            return str(v)
        table = _TABLES.get(spec)
        if table is not None:
            return self._look(table)
        if spec == "trump_is":  # "trump ♥" / "主 ♥", but "no trump" / "无主" (not 主 无主)
            if str(v) == "NT":
                return self._look(TRUMP_NAMES)
            return ("主 " if self.language == "zh_CN" else "trump ") + self._look(TRUMP_NAMES)
        part = _PARTS.get(spec)
        if part is not None:  # a phrase of its own, with the same params (PhraseError
            return _fill_part(part, str(v), self.args, self.language)  # for one it lacks)
        if spec == "num":
            return number_text(_whole(v))
        if spec == "signed":
            return _signed(_whole(v))
        if spec == "cards":
            return _cards_text(str(v), self.language)
        if spec == "status":  # the match layer joins the stages it would take with " or "
            joiner = "或" if self.language == "zh_CN" else " or "
            look = STATUS_NAMES.get(self.language, {})
            return joiner.join(look.get(stage, stage) for stage in str(v).split(" or "))
        if spec == "role":
            name = self._look(ROLE_NAMES)
            side = self.args.get(f"{v}_side")
            if side is None:
                return name
            where = SIDE_NAMES.get(self.language, {}).get(str(side), str(side))
            return f"{name} {where}" if self.language == "en" else f"{name}{where}"
        raise PhraseError(f"unknown placeholder kind {spec!r}")


def _whole(value: object) -> int:
    """A number param as ``int()`` makes it (ValueError or TypeError for a bad one)."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"a number placeholder got {type(value).__name__} {value!r}")


_CARD_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_JOKER_NAMES = {"BJ": "大王", "LJ": "小王"}


def _cards_text(tokens: str, language: Language) -> str:
    """Card tokens as printed: ``SA S3`` in English, ``♠A ♠3`` (大王, 小王) in Chinese."""
    if language != "zh_CN":
        return tokens
    return " ".join(
        _JOKER_NAMES.get(t) or _CARD_SYMBOLS.get(t[:1], t[:1]) + t[1:] for t in tokens.split()
    )


def render(
    key: str,
    params: Mapping[str, object] | Iterable[tuple[str, object]],
    language: str = "en",
) -> str:
    """The phrase of ``key`` with ``params`` in ``language`` (``zh_CN`` or ``en``).

    PhraseError (a ValueError) when the key has no phrase or a placeholder no param;
    a number placeholder given something that is not a number raises ValueError.
    """
    try:
        en, zh = PHRASES[key]
    except KeyError:
        raise PhraseError(f"no wording for key {key!r}") from None
    values = dict(params)
    lang = language_of(language)
    template = zh if lang == "zh_CN" else en
    fields = {k: _Value(v, lang, values) for k, v in values.items()}
    fields["DEC"] = _Value("declarers", lang, values)
    fields["DEF"] = _Value("defenders", lang, values)
    try:
        text = template.format_map(fields)
    except (KeyError, IndexError) as exc:
        raise PhraseError(f"{key!r} lacks param {exc} ({sorted(values)})") from None
    if key == "committee_ruling":
        text = "; ".join([text, *_ruling_parts(values, lang)])
    return text


#: Kinds printed as a phrase of their own (a table of (English, Chinese) templates).
_PARTS: dict[str, dict[str, tuple[str, str]]] = {
    "access_action": STORE_ACTIONS,
    "access_reason": ACCESS_REASONS,
}


def _fill_part(
    table: Mapping[str, tuple[str, str]], name: str, params: Mapping[str, object], language: str
) -> str:
    try:
        en, zh = table[name]
    except KeyError:
        raise PhraseError(f"no wording for {name!r}") from None
    lang = language_of(language)
    fields = {k: _Value(v, lang, params) for k, v in params.items()}
    try:
        return (zh if lang == "zh_CN" else en).format_map(fields)
    except (KeyError, IndexError) as exc:
        raise PhraseError(f"{name!r} lacks param {exc} ({sorted(params)})") from None


def render_action(action: str, params: Mapping[str, object], language: str = "en") -> str:
    """What a refused change was (``STORE_ACTIONS``, ``{action:access_action}``) in
    ``language``; its English is the action the file's refusal log writes.

    PhraseError when the action is unknown or its params lack one it names.
    """
    return _fill_part(STORE_ACTIONS, action, params, language)


def render_reason(key: str, params: Mapping[str, object], language: str = "en") -> str:
    """Why an event may not be added (``ACCESS_REASONS``, ``{why:access_reason}``) in
    ``language``; its English is the reason the file's refusal log writes.

    PhraseError when the key is unknown or its params lack one it names.
    """
    return _fill_part(ACCESS_REASONS, key, params, language)


def _ruling_parts(values: Mapping[str, object], language: Language) -> list[str]:
    """8.11: the level and point changes a committee ruling orders, after its text."""
    parts = []
    for side in ("NS", "EW"):
        n = values.get(f"{side}_levels")
        if n:
            parts.append(
                render(
                    "committee_ruling_levels",
                    {
                        "side": side,
                        "n": n,
                        "before": values[f"{side}_before"],
                        "after": values[f"{side}_after"],
                    },
                    language,
                )
            )
    if values.get("has_points"):
        parts.append(render("committee_ruling_points", {"points": values["points"]}, language))
    return parts
