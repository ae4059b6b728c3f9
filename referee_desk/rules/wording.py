"""How a consequence is worded: its key and args through the phrasebook, in any language.

A consequence (``rules.hand_values.Consequence``, ``match.state.Consequence``) carries a
``key`` and plain ``args`` (ints, strings, bools); its English ``text`` is rendered from
the English template of :mod:`referee_desk.phrasebook`, so English and Chinese come
from one place. ``describe(consequence, "zh_CN")`` words it for a Chinese referee or
club player with the glossary of RULES.md section 13. Qt-free, so the exports and the
CLI can use it as well as the desk.
"""

from __future__ import annotations

from typing import Protocol

from referee_desk.phrasebook import CONSEQUENCES, Language, PhraseError, render

#: One consequence arg: a primitive, so a record stores and compares it as it is.
Arg = int | str | bool
#: A consequence's arguments as stored: (key, value) pairs, in the order given.
Args = tuple[tuple[str, Arg], ...]

#: A consequence key without a phrase, or args that its template does not take.
WordingError = PhraseError


class Worded(Protocol):
    """Anything with a key, args and an English fallback text (both Consequence types)."""

    @property
    def key(self) -> str: ...

    @property
    def args(self) -> Args: ...

    @property
    def text(self) -> str: ...


class WordedLine(Worded, Protocol):
    """A worded consequence with the article it applies."""

    @property
    def article(self) -> str: ...


def make_args(**kwargs: object) -> Args:
    """Args as stored on a consequence (insertion order kept); primitives only."""
    args: list[tuple[str, Arg]] = []
    for name, value in kwargs.items():
        if not isinstance(value, int | str | bool):
            raise WordingError(f"consequence arg {name}={value!r} is not an int, str or bool")
        args.append((name, value))
    return tuple(args)


def describe(consequence: Worded, language: Language | str = "zh_CN") -> str:
    """A consequence worded in ``language``; its stored English text if it has no key."""
    key = getattr(consequence, "key", "")
    if not key or key not in CONSEQUENCES:
        return consequence.text
    return render(key, consequence.args, language)


def describe_line(consequence: WordedLine, language: Language | str = "zh_CN") -> str:
    """``"article: text"`` in ``language`` (the article is kept as printed)."""
    return f"{consequence.article}: {describe(consequence, language)}"
