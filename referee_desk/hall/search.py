"""Finding a player by name: the characters, the full pinyin or its initials (zs → 张三).

Players type on a phone in the hall; most type pinyin initials. ``pypinyin`` gives
each character's readings; a name matches when the query is a part of the name, or
the start of the name's initials or toneless pinyin for any of its readings.
"""

from __future__ import annotations

import itertools
import unicodedata
from functools import lru_cache

from pypinyin import Style, pinyin

#: At most this many reading combinations per name (heteronyms multiply).
MAX_READINGS = 16


def normalized(query: str) -> str:
    """The query as compared: NFKC (full-width letters), no spaces, lower case."""
    return "".join(unicodedata.normalize("NFKC", query).split()).casefold()


@lru_cache(maxsize=4096)
def spellings(name: str) -> tuple[str, ...]:
    """The name itself, then every (bounded) toneless pinyin and initials spelling."""
    plain = normalized(name)
    full = pinyin(plain, style=Style.NORMAL, heteronym=True, errors="default")
    first = pinyin(plain, style=Style.FIRST_LETTER, heteronym=True, errors="default")
    out = [plain]
    for readings in (full, first):
        combos = itertools.islice(itertools.product(*readings), MAX_READINGS)
        out.extend("".join(c).casefold() for c in combos)
    return tuple(dict.fromkeys(out))


def matches(name: str, query: str) -> bool:
    """True when ``query`` finds ``name`` (see the module's docstring)."""
    q = normalized(query)
    if not q:
        return False
    plain, *spelled = spellings(name)
    return q in plain or any(s.startswith(q) for s in spelled)
