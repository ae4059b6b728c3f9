"""The books a replay keeps: the match-wide running values and the helpers every part uses.

``Books`` holds plain mutable values (levels, clock readings, lists of consequences);
the handler mixins (bidding, play, penalties, clock and end, corrections) fold events
into them and ``Replayer.state()`` freezes them into a ``MatchState``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee_desk.match.clock import ClockState, Pause, limit_of
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.hand import BIDDING, PLAYING, REVOKED, VOIDED, HandBook
from referee_desk.match.fold.memo import event_ms
from referee_desk.match.state import (
    Consequence,
    Correction,
    Flag,
    HandState,
    MatchEnd,
    MatchInfo,
    Note,
    Violation,
)
from referee_desk.rules.cards import Rank
from referee_desk.rules.levels import FIRST_LEVEL
from referee_desk.rules.result import HandResult
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.seats import Seat, Side


class Books:
    """Running values of the fold; see ``Replayer`` for the event handlers."""

    events: list[Event]
    check_schema: bool

    if TYPE_CHECKING:  # provided by Replayer and Play; the parts call them through self

        def __init__(self, *, check_schema: bool = False) -> None: ...

        def _fold(
            self, event: Event, fixes: dict[int, tuple[str, Any]], *, strict: bool
        ) -> None: ...

        def _close_hand(self, seq: int, hand: HandBook, result: HandResult) -> None: ...

    def _reset(self) -> None:
        self.match_id: str | None = None
        self.info: MatchInfo | None = None
        self.ruleset: Ruleset = GUILIN_2009
        self.levels: dict[Side, Rank] = {Side.NS: FIRST_LEVEL, Side.EW: FIRST_LEVEL}
        self.passed_a: Side | None = None
        #: 12.7 a_needs_dig: sides at A that have dug the kitty since reaching A.
        self.dug_at_a: set[Side] = set()
        self.hands: list[HandState] = []
        self.hand: HandBook | None = None
        self.hand_count = 0
        self.deal_holder: Side | None = None
        self.next_dealer: Seat | None = None
        self.shuffler: Seat | None = None
        self.cutter: Seat | None = None
        self.limit_ms = limit_of(GUILIN_2009.match_minutes)
        self.clock_started_at: int | None = None
        self.elapsed_before = 0
        self.running_since: int | None = None
        self.paused_reason: str | None = None
        self.pauses: list[Pause] = []
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
        self.last_seq = 0
        self.last_time: int | None = None
        self.last_recorded_at: str | None = None
        self.types_by_seq: dict[int, str] = {}
        # seq -> ("void", None) or ("replace", payload)
        self.fixes: dict[int, tuple[str, dict[str, Any] | None]] = {}

    # -- shared helpers ----------------------------------------------------------------

    def _set_end(self, end: MatchEnd) -> None:
        """The one place the match's end is set (passing A, time-out, forfeit,
        disqualification; ``match_ended`` marks it recorded)."""
        self.end = end

    def _touch(self, event: Event, at: int | None = None) -> None:
        """Note ``event`` as the last folded; ``at`` is its time in ms when already read."""
        self.last_seq = event.seq
        self.last_time = event_ms(event.recorded_at) if at is None else at
        self.last_recorded_at = event.recorded_at
        self.types_by_seq[event.seq] = event.type
        if self.match_id is None:
            self.match_id = event.match_id

    def _clock(self, read_at: int | None) -> ClockState:
        return ClockState(
            limit_ms=self.limit_ms,
            started_at_ms=self.clock_started_at,
            elapsed_before_ms=self.elapsed_before,
            running_since_ms=self.running_since,
            paused_reason=self.paused_reason,
            pauses=tuple(self.pauses),
            read_at_ms=read_at,
        )

    def _elapsed(self, at: int) -> int:
        if self.running_since is None:
            return self.elapsed_before
        return self.elapsed_before + max(0, at - self.running_since)

    @property
    def _all_points(self) -> int:
        """RULES 7: 100 points per deck (5, 10, K)."""
        return 100 * self.ruleset.decks

    def _check_captured(self, points: int, what: str) -> None:
        """RULES 7: captured points are 0 … 100 × decks in steps of 5 (5, 10 and K)."""
        if points < 0 or points % 5 or points > self._all_points:
            raise EventRefused(
                key="points.not_capturable", params={"points": points, "total": self._all_points}
            )

    def _time_up(self, at: int) -> bool:
        """True once the match time (1.5) has run out at ``at``."""
        return self.clock_started_at is not None and self._elapsed(at) >= self.limit_ms

    def _need_running_clock(self) -> None:
        if self.clock_started_at is None:
            raise EventRefused(key="clock.not_started")
        if self.running_since is None:
            raise EventRefused(key="clock.paused", params={"reason": self.paused_reason or ""})

    def _need_hand(self, *statuses: str) -> HandBook:
        hand = self.hand
        if hand is None:
            raise EventRefused(key="hand.none_in_progress")
        if statuses and hand.status not in statuses:
            wanted = {
                BIDDING: "bidding",
                PLAYING: "play (after bidding_closed)",
                REVOKED: "a revoke awaiting the penalty choice",
            }
            need = " or ".join(wanted[s] for s in statuses)
            raise EventRefused(
                key="hand.wrong_status",
                params={"hand": hand.number, "status": hand.status, "need": need},
            )
        return hand

    def _violation(
        self, event: Event, kind: str, article: str, seat: Seat | None, side: Side, detail: str
    ) -> Violation:
        hand = self.hand
        v = Violation(event.seq, kind, article, seat, side, hand.number if hand else None, detail)
        self.violations.append(v)
        if hand is not None:
            hand.violations.append(v)
        return v

    def _void_hand(self, hand: HandBook, seq: int, article: str, key: str, **args: Any) -> None:
        """Void ``hand``; ``key`` (``hand_voided_*``) words why, e.g. a redeal (2.1)."""
        c = Consequence.make(seq, article, key, None, hand=hand.number, **args)
        hand.status = VOIDED
        hand.void_reason = c.text.split(": ", 1)[1]
        self.hands.append(hand.frozen())
        self.hand = None
        self.consequences.append(c)
