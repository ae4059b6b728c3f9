"""The follow values and their wording (RULES.md section 5; Guilin chapter 4).

``FollowRequirement`` and ``FollowVerdict`` are what ``rules.follow`` returns; the
helpers here name a lead's article and describe a section-5 key in words a referee
reads ("a triple + 1 card", "a three-pair tractor (or bulldozer) + a pair").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from referee_desk.rules.cards import Card, Suit, format_cards
from referee_desk.rules.trump import TRUMP
from referee_desk.rules.units import Unit, UnitKind

#: A section-5 key: (tuple item, pair profile).
Key = tuple[int, tuple[int, ...]]

#: Lead kinds whose key starts with the tuple size (pair, triple, bomb).
TUPLE_LEADS = (UnitKind.PAIR, UnitKind.TRIPLE, UnitKind.BOMB)


class FollowMode(StrEnum):
    """What section 5 asks of this follower."""

    ALL_OF_SUIT = "all_of_suit"  # 5.1: |H| ≤ n, play all of H plus any cards
    ANY_OF_SUIT = "any_of_suit"  # single lead, or the 4.5 triple-lead exemption
    SHAPE = "shape"  # the greatest key over n cards of H


def lead_article(lead: Unit) -> str:
    """The Guilin article that governs following this lead."""
    if lead.kind in (UnitKind.SINGLE, UnitKind.PAIR):
        return "4.1"
    if lead.kind is UnitKind.TRACTOR:
        return "4.2" if lead.length == 2 else "4.3"
    if lead.kind is UnitKind.BOMB:
        return "4.4"
    if lead.kind is UnitKind.TRIPLE:
        return "4.5"
    return "4.6"


def suit_label(suit: str) -> str:
    return "trump" if suit == TRUMP else Suit(suit).symbol


def n_cards(count: int, suit: str) -> str:
    return f"{count} {suit} card" + ("" if count == 1 else "s")


_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}


def _value_name(value: int, count: int) -> str:
    if value == 1:
        return "a pair" if count == 1 else f"{count} pairs"
    word = _WORDS.get(value, str(value))
    extra = "bomb" if value == 2 else "bulldozer"
    name = f"{word}-pair tractor (or {extra})"
    article = "an" if word[0] == "e" else "a"
    return f"{article} {name}" if count == 1 else f"{count} × {name}"


def describe_profile(profile: tuple[int, ...]) -> str:
    """``(3, 1)`` → ``a three-pair tractor (or bulldozer) + a pair``."""
    counts = Counter(profile)
    names = [_value_name(v, counts[v]) for v in sorted(counts, reverse=True)]
    return " + ".join(names) if names else "no pair"


def describe_key(key: Key, lead: Unit) -> str:
    """English shape of a key for a referee, e.g. ``a triple + 1 card``."""
    first, profile = key
    if lead.kind in TUPLE_LEADS:
        if first == 4:
            return "a bomb"
        if first == 3:
            return "a triple" if lead.each == 3 else "a triple + 1 card"
        if first == 2:
            text = describe_profile(profile).replace(" (or bomb)", "")
            return text + ("" if sum(profile) * 2 == lead.size else " + other cards")
        return "single cards"
    if lead.kind is UnitKind.BULLDOZER and first == 1:
        return f"the {lead.describe()}"
    text = describe_profile(profile)
    return text if sum(profile) * 2 == lead.size else f"{text} + other cards"


@dataclass(frozen=True, slots=True)
class FollowRequirement:
    """What the follower must play: mode, greatest key and one play that reaches it."""

    lead: Unit
    count: int
    held: tuple[Card, ...]
    mode: FollowMode
    key: Key | None
    example: tuple[Card, ...]
    rule: str

    @property
    def suit(self) -> str:
        return self.lead.suit

    def describe(self) -> str:
        suit = suit_label(self.suit)
        if self.mode is FollowMode.ALL_OF_SUIT:
            if not self.held:
                return f"void in {suit}: any {self.count} cards"
            text = f"all {n_cards(len(self.held), suit)} held ({format_cards(self.held)})"
            extra = self.count - len(self.held)
            return f"{text} + any {extra} other cards" if extra else text
        if self.mode is FollowMode.ANY_OF_SUIT:
            return f"any {self.count} {suit} cards"
        assert self.key is not None
        return (
            f"{self.count} {suit} cards with {describe_key(self.key, self.lead)}, "
            f"e.g. {format_cards(self.example)}"
        )


@dataclass(frozen=True, slots=True)
class FollowVerdict:
    """Is the follow legal, under which article, why, and one legal play if not."""

    legal: bool
    rule: str
    reason: str
    instead: tuple[Card, ...] | None = None
