"""The frozen values a replayed match is made of: consequences, violations, flags, the
hands and their parts, the match's end.

Kept apart from ``state`` (the whole ``MatchState`` and its JSON document) because
the fold builds these one by one while ``MatchState`` is made once per ``state()``.
Nothing here computes a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee_desk.phrasebook import render
from referee_desk.rules.cards import Rank, Suit
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.wording import Args, make_args


@dataclass(frozen=True, slots=True)
class Consequence:
    """One derived consequence and the article it applies (``"8.3 B: +160 to defenders"``).

    ``key`` and ``args`` word it in Chinese or English
    (``referee_desk.rules.wording.describe``); ``text`` is its English wording.
    """

    seq: int
    article: str
    text: str
    hand: int | None = None
    key: str = ""
    args: Args = ()

    @classmethod
    def make(
        cls, seq: int, article: str, key: str, hand: int | None = None, /, **args: Any
    ) -> Consequence:
        """A consequence worded by the phrasebook (English ``text`` from its template).

        ``hand`` is positional, so a template may take an arg named ``hand`` too.
        """
        stored = make_args(**args)
        return cls(seq, article, render(key, stored, "en"), hand, key, stored)

    def __str__(self) -> str:
        return f"{self.article}: {self.text}"


@dataclass(frozen=True, slots=True)
class Violation:
    """A recorded violation (chapter 8) with the hand it happened in (None: between hands)."""

    seq: int
    kind: str
    article: str
    seat: Seat | None
    side: Side
    hand: int | None
    detail: str


@dataclass(frozen=True, slots=True)
class Flag:
    """Something the record itself proves wrong (not a ruling: the referee decides)."""

    seq: int
    hand: int | None
    article: str
    text: str

    def __str__(self) -> str:
        return f"{self.article}: {self.text}"


@dataclass(frozen=True, slots=True)
class Note:
    seq: int
    text: str
    about_seq: int | None


@dataclass(frozen=True, slots=True)
class Correction:
    seq: int
    target_seq: int
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Bid:
    seq: int
    seat: Seat
    kind: str
    cards: tuple[str, ...]
    suit: Suit | None
    count: int
    """Level cards shown so far by this standing bid (after reinforcements)."""


@dataclass(frozen=True, slots=True)
class TrickRecord:
    number: int
    seq: int
    leader: Seat
    plays: tuple[tuple[Seat, tuple[str, ...], bool], ...]
    winner: Seat
    points: int
    throw: bool = False
    """The lead was a throw (甩牌, 12.4): two or more units of one suit."""


@dataclass(frozen=True, slots=True)
class LastTrick:
    points: int
    cards_per_player: int
    side: Side
    score: int
    """Signed change to the defenders' points (7.3): +L×c or −L×c; with a kitty (12.5)
    the trick's points plus the kitty's × m when the defenders win it, else 0."""
    kitty_points: int | None = None
    multiplier: int | None = None
    """12.5: the kitty multiplier of the last lead (kitty presets only)."""
    lead_shape: tuple[tuple[int, int], ...] = ()
    """12.5: (identical cards, ranks) of the last lead's units (kitty presets only)."""


@dataclass(frozen=True, slots=True)
class Kitty:
    """The dealer's buried cards (底牌, 12.1): the cards when entered, else only points."""

    seq: int
    seat: Seat
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ThrowFailure:
    """A failed throw (甩牌失败, 12.4): who threw, who showed which cards, what is forced.

    ``forced`` is the component the thrower must lead instead (one of ``choices``
    when beaten components are equal); ``points`` the signed change to the defenders'
    points (002: 20 taken from the defenders if a defender threw, given if a declarer).
    """

    seq: int
    seat: Seat
    shown_by: Seat
    thrown: tuple[str, ...]
    shown: tuple[str, ...]
    beaten: tuple[tuple[str, ...], ...]
    forced: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Concealment:
    """藏张 (12.8, 002 八.1): the non-offending side's choice A (the hand ends) or B
    (±``conceal_points`` to the defenders and play continues)."""

    seq: int
    seat: Seat
    chooser: Seat
    choice: str
    points: int


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What a finished hand decided (7.1-7.3, or a penalty)."""

    defenders_final: int | None
    winner: Side
    taken: bool
    gains: dict[Side, int]
    levels_after: dict[Side, Rank]
    next_dealer: Seat | None
    shuffler: Seat | None
    cutter: Seat | None
    passed_a: bool
    consequences: tuple[Consequence, ...]


@dataclass(frozen=True, slots=True)
class HandState:
    number: int
    seq: int
    status: str
    race: bool
    dealer: Seat | None
    declarers: Side | None
    level: Rank | None
    trump: Suit | None
    trump_decided: bool
    bids: tuple[Bid, ...]
    form: str | None
    tricks: tuple[TrickRecord, ...]
    defenders_points: int
    last_trick: LastTrick | None
    violations: tuple[Violation, ...]
    result: HandOutcome | None
    void_reason: str | None
    cards_played: dict[Seat, int]
    kitty: Kitty | None = None
    throw_failures: tuple[ThrowFailure, ...] = ()
    concealments: tuple[Concealment, ...] = ()
    forced_lead: tuple[tuple[str, ...], ...] = ()
    """After a failed throw (12.4): the component(s) the thrower may lead next."""

    @property
    def defenders(self) -> Side | None:
        return None if self.declarers is None else self.declarers.other

    @property
    def trump_label(self) -> str | None:
        if not self.trump_decided:
            return None
        return "NT" if self.trump is None else self.trump.value


@dataclass(frozen=True, slots=True)
class MatchInfo:
    tournament: str
    round: str
    table: str
    pairs: dict[Side, str]
    seats: dict[Seat, str]
    referee: str


@dataclass(frozen=True, slots=True)
class MatchEnd:
    reason: str
    winner: Side
    article: str
    text: str
    seq: int
    recorded: bool = False
    #: The wording of ``text`` (``referee_desk.rules.wording``), as on a Consequence.
    key: str = ""
    args: Args = ()

    def __str__(self) -> str:
        return f"{self.article}: {self.text}"
