"""The values a hand's result is made of: the two roles, the result, each step's article.

Shared by ``result`` (the hand's working) and ``digs`` (the last trick's 反抠 and the
kitty dig), so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee_desk.phrasebook import render
from referee_desk.rules.cards import Rank
from referee_desk.rules.errors import RulesError
from referee_desk.rules.seats import Side
from referee_desk.rules.wording import Args, make_args


class Role(StrEnum):
    """The two sides of a hand (glossary: 庄家方 declarers, 防守方 defenders)."""

    DECLARERS = "declarers"
    DEFENDERS = "defenders"

    @property
    def other(self) -> Role:
        return Role.DEFENDERS if self is Role.DECLARERS else Role.DECLARERS


class HandResultError(RulesError):
    """Figures of a hand's result that cannot be right (named in the message)."""


def parse_role(value: Role | str, what: str = "side") -> Role:
    """``"declarers"`` or ``"defenders"`` (also 庄家/防守方 and 攻方/守方)."""
    if isinstance(value, Role):
        return value
    text = str(value).strip().lower()
    aliases = {
        "庄家": Role.DECLARERS,
        "庄家方": Role.DECLARERS,
        "攻方": Role.DECLARERS,
        "防守方": Role.DEFENDERS,
        "守方": Role.DEFENDERS,
    }
    if text in aliases:
        return aliases[text]
    try:
        return Role(text)
    except ValueError:
        raise HandResultError(f"{what} must be declarers or defenders, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class Consequence:
    """One applied article and what it did, e.g. ``7.2: defenders 105 → declarers +2``.

    ``key`` and ``args`` word it in any language (:mod:`referee_desk.rules.wording`);
    ``text`` is the English wording of the same template.
    """

    article: str
    text: str
    key: str = ""
    args: Args = ()

    @classmethod
    def make(cls, article: str, key: str, **args: object) -> Consequence:
        """A consequence worded by the phrasebook (English ``text`` from its template)."""
        stored = make_args(**args)
        return cls(article, render(key, stored, "en"), key, stored)

    def __str__(self) -> str:
        return f"{self.article}: {self.text}"


@dataclass(frozen=True, slots=True)
class HandResult:
    """Everything a hand's result decides.

    ``defenders_final`` (D) and ``b`` are None when a penalty set the levels directly
    (8.3 A). ``deal`` is the side that holds the deal for the next hand, which is also
    the side that won the hand; ``levels_up`` is what that side earned (7.1, 7.2, or
    the penalty), ``levels_moved`` how far it actually went up the ladder (less at
    the cap at A). Levels are given by role in the hand just played.
    """

    defenders_final: int | None
    b: int | None
    deal: Role
    levels_up: int
    levels_moved: int
    declarer_level_before: Rank
    defender_level_before: Rank
    declarer_level: Rank
    defender_level: Rank
    passed_a: bool
    consequences: tuple[Consequence, ...]

    @property
    def winner(self) -> Role:
        """The side that won the hand (2.3: it shuffles for the next one)."""
        return self.deal

    @property
    def kept_deal(self) -> bool:
        """True for 连庄 (declarers keep the deal), False for 上台 (defenders take it)."""
        return self.deal is Role.DECLARERS

    def level_of(self, role: Role | str) -> Rank:
        """A side's level after the hand, by its role in the hand just played."""
        role = parse_role(role)
        return self.declarer_level if role is Role.DECLARERS else self.defender_level

    def side_of(self, role: Role | str, declarer_side: Side) -> Side:
        """The seating side (N–S or E–W) that had ``role`` in the hand just played."""
        return declarer_side if parse_role(role) is Role.DECLARERS else declarer_side.other

    def levels_by_side(self, declarer_side: Side) -> dict[Side, Rank]:
        """Levels after the hand by seating side, given which side declared."""
        return {
            declarer_side: self.declarer_level,
            declarer_side.other: self.defender_level,
        }

    @property
    def articles(self) -> tuple[str, ...]:
        """The consequences as text (``"7.3: …"``), in the order applied."""
        return tuple(str(c) for c in self.consequences)


def whole_number(value: object, what: str) -> int:
    """``value`` when it is a whole number (not a bool); ``HandResultError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandResultError(f"{what} must be a whole number, not {value!r}")
    return value


def signed_text(n: int) -> str:
    """``+2`` or ``−2`` (a true minus sign)."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def score_text(n: int) -> str:
    """A score as printed: a true minus sign for negatives."""
    return str(n) if n >= 0 else f"−{-n}"
