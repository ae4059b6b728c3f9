"""The alphabetical player index: every player, their pair and where they play next.

Pinned beside the pairing list ("find your table"): players sorted by pinyin
(``pypinyin``; a Latin name sorts by its letters among them), syllable by syllable,
then by tone; names that read the same (伟 and 玮 are both wei3) fall back to the
order of the Unicode CJK tables, which is radical then remaining strokes (no
maintained Python library gives stroke counts). Each player has their pair, club
and the table of their next (or current) match.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee_desk.tournament.model import Pair
from referee_desk.tournament.state import MatchState, Status


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    name: str
    pair_id: int
    partner: str
    club: str
    table: str
    match_id: str
    round_name: str


def player_index(
    pairs: Mapping[int, Pair],
    states: Sequence[MatchState],
    round_names: Mapping[str, str],
    only_open: bool = True,
) -> list[PlayerEntry]:
    """Every player in name order, with the next match their pair plays (if known).

    ``only_open=False`` takes every match of ``states`` (one round's pack, played or not).
    """
    upcoming: dict[int, MatchState] = {}
    for s in states:
        if only_open and s.status not in (Status.READY, Status.PLAYING, Status.HELD):
            continue
        for pid in (s.pair_a, s.pair_b):
            if pid is not None and pid not in upcoming:
                upcoming[pid] = s
    out = []
    for pair in pairs.values():
        nxt = upcoming.get(pair.pair_id)
        for me, partner in ((pair.player1, pair.player2), (pair.player2, pair.player1)):
            out.append(
                PlayerEntry(
                    name=me,
                    pair_id=pair.pair_id,
                    partner=partner,
                    club=pair.club,
                    table=nxt.match.table if nxt else "",
                    match_id=nxt.match.match_id if nxt else "",
                    round_name=round_names.get(nxt.match.match_id, "") if nxt else "",
                )
            )
    return sorted(out, key=lambda e: (sort_key(e.name), e.pair_id))


def sort_key(name: str) -> tuple[tuple[str, ...], tuple[int, ...], str]:
    """Pinyin syllables, then tones, then radical-and-stroke order (code points).

    Numbers inside a name sort by value (张2 before 张10).
    """
    text = name.strip()
    plain, toned = _syllables(text)
    letters = tuple(_DIGITS.sub(lambda m: f"{int(m.group()):012d}", p) for p in plain)
    tones = tuple(int(t[len(p) :] or 0) for p, t in zip(plain, toned, strict=True))
    return (letters, tones, text)


_DIGITS = re.compile(r"\d+")


def _syllables(text: str) -> tuple[list[str], list[str]]:
    """Per character its lower-case pinyin without and with the tone digit (TONE3, 5 =
    neutral); a run of other characters stays as it is, case-folded, in both."""
    from pypinyin import Style, lazy_pinyin

    plain = [p.casefold() for p in lazy_pinyin(text, style=Style.NORMAL)]
    toned = [
        p.casefold() for p in lazy_pinyin(text, style=Style.TONE3, neutral_tone_with_five=True)
    ]
    if len(plain) != len(toned) or any(
        not t.startswith(p) for p, t in zip(plain, toned, strict=True)
    ):
        return plain, plain  # never expected: keep the letters, drop the tones
    return plain, toned


def index_letter(name: str) -> str:
    """The heading a name is listed under: the first letter of its pinyin (or ``#``)."""
    text = name.strip()
    syllables = _syllables(text)[0] if text else []
    first = syllables[0].strip()[:1].upper() if syllables else ""
    return first if first.isascii() and first.isalpha() else (text[:1].upper() or "#")
