"""Finding a player by what a phone keyboard types: the name, its pinyin or initials.

``张三`` is found by ``张三``, ``张``, ``zhangsan``, ``zhang`` and ``zs``. Pinyin comes
from ``pypinyin`` (a well-kept dictionary, heteronyms included: every reading of a
character is a key, so ``曾`` is found by ``z`` and ``c``). Latin names match
case-insensitively.
"""

from __future__ import annotations

import itertools

from pypinyin import Style, pinyin

#: At most this many readings per name (a name of many heteronyms stays cheap).
MAX_READINGS = 16


def name_keys(name: str) -> tuple[str, ...]:
    """The lower-case texts a search for ``name`` matches the start of."""
    text = "".join(name.split()).casefold()
    full = pinyin(text, style=Style.NORMAL, heteronym=True, errors=lambda s: [s])
    first = pinyin(text, style=Style.FIRST_LETTER, heteronym=True, errors=lambda s: [s])
    keys = {text}
    for readings in (full, first):
        choices = [[r.casefold() for r in syllable] for syllable in readings]
        for combo in itertools.islice(itertools.product(*choices), MAX_READINGS):
            keys.add("".join(combo))
    return tuple(sorted(keys))


def matches(query: str, keys: tuple[str, ...]) -> bool:
    """Whether ``query`` (spaces ignored) starts any key of a name."""
    q = "".join(query.split()).casefold()
    return bool(q) and any(k.startswith(q) for k in keys)
