"""The match's books: what a record has decided so far, across hands.

``MatchBooks`` owns the ruleset and the match's details, the sides' levels, warnings,
referrals and overruns, the lists of violations, consequences, flags, notes and
corrections, and the match's end. Its attributes carry ``MatchState``'s names, so the
state is frozen from them generically (``fold.freeze``). The end is set in one place,
``set_end``.
"""

from __future__ import annotations

from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.hand import HandBook
from referee_desk.match.values import (
    Consequence,
    Correction,
    Flag,
    MatchEnd,
    MatchInfo,
    Note,
    Violation,
)
from referee_desk.rules.cards import Rank
from referee_desk.rules.levels import FIRST_LEVEL
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.seats import Seat, Side


class MatchBooks:
    """The match-wide running values of the fold (everything but the clock and hands)."""

    __slots__ = (
        "consequences",
        "corrections",
        "dug_at_a",
        "end",
        "flags",
        "info",
        "levels",
        "notes",
        "overruns",
        "passed_a",
        "referred",
        "ruleset",
        "time_out_undecided",
        "trick_rules",
        "violations",
        "warnings",
    )

    def __init__(self) -> None:
        self.info: MatchInfo | None = None
        self.ruleset: Ruleset = GUILIN_2009
        #: The ruleset for the trick judgement when it is not Guilin's (12.2, 12.4).
        self.trick_rules: Ruleset | None = None
        self.levels: dict[Side, Rank] = {Side.NS: FIRST_LEVEL, Side.EW: FIRST_LEVEL}
        self.passed_a: Side | None = None
        #: 12.7 a_needs_dig: sides at A that have dug the kitty since reaching A.
        self.dug_at_a: set[Side] = set()
        self.warnings: dict[Side, int] = {Side.NS: 0, Side.EW: 0}
        self.referred: set[Side] = set()
        self.overruns: dict[Side, int] = {Side.NS: 0, Side.EW: 0}
        self.violations: list[Violation] = []
        self.consequences: list[Consequence] = []
        self.flags: list[Flag] = []
        self.notes: list[Note] = []
        self.corrections: list[Correction] = []
        self.end: MatchEnd | None = None
        #: 1.5 could not decide the time-out (equal levels, nobody holds the deal).
        self.time_out_undecided = False

    def use_ruleset(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        rules_differ = ruleset.throws or not ruleset.bombs_beat_tractors
        self.trick_rules = ruleset if rules_differ else None

    def set_end(self, end: MatchEnd) -> None:
        """The one place the match's end is set (passing A, time-out, forfeit,
        disqualification; ``match_ended`` marks it recorded)."""
        self.end = end

    @property
    def all_points(self) -> int:
        """RULES 7: 100 points per deck (5, 10, K)."""
        return 100 * self.ruleset.decks

    def check_captured(self, points: int) -> None:
        """RULES 7: captured points are 0 … 100 × decks in steps of 5 (5, 10 and K)."""
        if points < 0 or points % 5 or points > self.all_points:
            raise EventRefused(
                key="points.not_capturable", params={"points": points, "total": self.all_points}
            )

    def violation(
        self,
        seq: int,
        hand: HandBook | None,
        kind: str,
        article: str,
        seat: Seat | None,
        side: Side,
        detail: str,
    ) -> Violation:
        """Book a violation, in the match's list and the hand's (``hand``: in progress)."""
        v = Violation(seq, kind, article, seat, side, hand.number if hand else None, detail)
        self.violations.append(v)
        if hand is not None:
            hand.violations.append(v)
        return v

    def note_dig(self, side: Side | None) -> None:
        """12.7: ``side`` dug the kitty; at A that counts."""
        if side is not None and self.levels[side] == Rank.ACE:
            self.dug_at_a.add(side)

    def forget_digs(self) -> None:
        """A side that left A (passed it or fell back) digs again next time."""
        self.dug_at_a = {s for s in self.dug_at_a if self.levels[s] == Rank.ACE}
