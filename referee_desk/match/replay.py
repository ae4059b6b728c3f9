"""Replay: fold a match's events into its state, refusing what cannot happen.

``Replayer.apply(event)`` checks one event against the state the earlier events
left and folds it in; ``replay(events)`` applies a whole record. Every rule comes
from ``referee_desk.rules`` (trick winner, follow check, hand result, levels); this
module only keeps the books and names the article behind each consequence.

Corrections void or replace an earlier event: the record is then folded again from
the start with the correction in force, and a correction whose new record would not
be acceptable is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache, lru_cache
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.clock import ClockState, Pause, format_duration, format_time, parse_time
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.schema_check import validate_schema
from referee_desk.match.state import (
    Bid,
    Consequence,
    Correction,
    Flag,
    HandOutcome,
    HandState,
    LastTrick,
    MatchEnd,
    MatchInfo,
    MatchState,
    Note,
    TrickRecord,
    Violation,
)
from referee_desk.rules.cards import (
    LITTLE_JOKER,
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
)
from referee_desk.rules.errors import RulesError
from referee_desk.rules.levels import FIRST_LEVEL, LADDER, compare_levels
from referee_desk.rules.result import Consequence as RulesConsequence
from referee_desk.rules.result import (
    HandResult,
    Role,
    hand_result,
    next_dealer,
    result_from_final_score,
    result_from_levels_up,
    shuffle_and_cut,
)
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.trick import TrickResult, trick_result
from referee_desk.rules.trump import TrumpContext, parse_trump

#: A trump context as plain values (level, trump letter or None, bridge_level_gap).
CtxKey = tuple[int, str | None, bool]

BIDDING, PLAYING, REVOKED, FINISHED, VOIDED = "bidding", "playing", "revoked", "finished", "voided"


@lru_cache(maxsize=1 << 16)
def _time(text: str) -> int:
    """``parse_time`` memoised (each event's time is read several times per replay)."""
    return parse_time(text)


_SEAT = {seat.value: seat for seat in Seat}
_ORDER = {seat: seat.play_order_from() for seat in Seat}


@cache
def _card(token: str) -> Card:
    return parse_card(token)


@cache
def _canon(token: str) -> str:
    """The canonical notation of a card token (``♥10`` → ``H10``)."""
    return format_card(parse_card(token))


def _cards(tokens: Iterable[str]) -> tuple[Card, ...]:
    return tuple(_card(t) for t in tokens)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


@dataclass
class _Hand:
    """The hand in progress, mutable while the fold runs."""

    number: int
    seq: int
    race: bool
    dealer: Seat | None
    status: str = BIDDING
    declarers: Side | None = None
    level: Rank | None = None
    trump: Suit | None = None
    trump_decided: bool = False
    bids: list[Bid] = field(default_factory=list)
    standing: Bid | None = None
    shown: dict[Seat, Counter[Card]] = field(default_factory=dict)
    lost_bid_right: set[Side] = field(default_factory=set)
    false_bid_side: Side | None = None
    false_bid_trump: str | None = None
    form: str | None = None
    tricks: list[TrickRecord] = field(default_factory=list)
    trick_cards: list[tuple[Seat, tuple[tuple[Seat, tuple[str, ...]], ...], int]] = field(
        default_factory=list
    )
    played: dict[str, int] = field(default_factory=dict)
    cards_played: dict[Seat, int] = field(default_factory=lambda: dict.fromkeys(Seat, 0))
    void_in: dict[Seat, set[str]] = field(default_factory=dict)
    next_leader: Seat | None = None
    captured: int = 0
    adjustment: int = 0
    last_trick: LastTrick | None = None
    violations: list[Violation] = field(default_factory=list)
    revoke_side: Side | None = None
    revoke_points: int | None = None
    result: HandOutcome | None = None
    void_reason: str | None = None
    _ctx: TrumpContext | None = None
    ctx_key: CtxKey = (3, None, False)
    _suits: dict[str, str] = field(default_factory=dict)

    @property
    def defenders(self) -> Side | None:
        return None if self.declarers is None else self.declarers.other

    @property
    def defenders_points(self) -> int:
        return self.captured + self.adjustment

    def suit_of(self, token: str) -> str:
        """Effective suit of a canonical card token in this hand (memoised)."""
        found = self._suits.get(token)
        if found is None:
            assert self._ctx is not None
            found = self._suits[token] = self._ctx.effective_suit(_card(token))
        return found

    def ctx(self, ruleset: Ruleset) -> TrumpContext:
        assert self.level is not None
        if self._ctx is None:
            trump = None if self.trump is None else self.trump.value
            self.ctx_key = (int(self.level), trump, ruleset.bridge_level_gap)
            self._ctx = _ctx_of(self.ctx_key)
            self._suits = _suit_memo(self.ctx_key)
        return self._ctx

    def frozen(self) -> HandState:
        return HandState(
            number=self.number,
            seq=self.seq,
            status=self.status,
            race=self.race,
            dealer=self.dealer,
            declarers=self.declarers,
            level=self.level,
            trump=self.trump,
            trump_decided=self.trump_decided,
            bids=tuple(self.bids),
            form=self.form,
            tricks=tuple(self.tricks),
            defenders_points=self.defenders_points,
            last_trick=self.last_trick,
            violations=tuple(self.violations),
            result=self.result,
            void_reason=self.void_reason,
            cards_played=dict(self.cards_played),
        )


class Replayer:
    """The incremental fold. After a refused ``apply`` the replayer must be discarded."""

    def __init__(self, *, check_schema: bool = False) -> None:
        self.check_schema = check_schema
        self.events: list[Event] = []
        self._reset()

    # -- bookkeeping -------------------------------------------------------------------

    def _reset(self) -> None:
        self.match_id: str | None = None
        self.info: MatchInfo | None = None
        self.ruleset: Ruleset = GUILIN_2009
        self.levels: dict[Side, Rank] = {Side.NS: FIRST_LEVEL, Side.EW: FIRST_LEVEL}
        self.passed_a: Side | None = None
        self.hands: list[HandState] = []
        self.hand: _Hand | None = None
        self.hand_count = 0
        self.deal_holder: Side | None = None
        self.next_dealer: Seat | None = None
        self.shuffler: Seat | None = None
        self.cutter: Seat | None = None
        self.limit_ms = GUILIN_2009.match_minutes * 60_000
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
        self.last_seq = 0
        self.last_time: int | None = None
        self.last_recorded_at: str | None = None
        self.types_by_seq: dict[int, str] = {}
        # seq -> ("void", None) or ("replace", payload)
        self.fixes: dict[int, tuple[str, dict[str, Any] | None]] = {}

    # -- public ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check ``event`` against the state and fold it in; raise EventRefused if it cannot."""
        try:
            self._check_envelope(event)
            if event.type == ev.CORRECTION:
                self._apply_correction(event)
            else:
                self._fold(event, self.fixes, strict=True)
            self.events.append(event)
        except EventRefused as exc:
            if exc.seq is None:
                raise EventRefused(exc.reason, seq=event.seq, event_type=event.type) from None
            raise
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            raise EventRefused(str(exc), seq=event.seq, event_type=event.type) from None

    def state(self, now: str | datetime | int | None = None) -> MatchState:
        """The frozen state; ``now`` reads the clock (and a derived time-out) at that time."""
        now_ms = _now_ms(now) if now is not None else self.last_time
        clock = self._clock(now_ms)
        end = self.end
        hands = list(self.hands)
        current = self.hand.frozen() if self.hand is not None else None
        if end is None and now_ms is not None and clock.time_up_at(now_ms):
            derived = self._time_out_end(now_ms, self.last_seq, dry=True)
            if derived is not None:
                end, current = derived
        if current is not None:
            hands.append(current)
        return MatchState(
            match_id=self.match_id or "",
            info=self.info,
            ruleset=self.ruleset,
            levels=dict(self.levels),
            passed_a=self.passed_a,
            hands=tuple(hands),
            current_hand=current
            if current is not None
            and current.status
            not in (
                FINISHED,
                VOIDED,
            )
            else None,
            deal_holder=self.deal_holder,
            next_dealer=self.next_dealer,
            shuffler=self.shuffler,
            cutter=self.cutter,
            clock=clock,
            warnings=dict(self.warnings),
            referred=frozenset(self.referred),
            overruns=dict(self.overruns),
            violations=tuple(self.violations),
            consequences=tuple(self.consequences),
            flags=tuple(self.flags),
            notes=tuple(self.notes),
            corrections=tuple(self.corrections),
            end=end,
            last_seq=self.last_seq,
            last_recorded_at=self.last_recorded_at,
            voided_seqs=frozenset(s for s, (a, _) in self.fixes.items() if a == "void"),
        )

    def clock_at(self, when: str | datetime | int) -> int | None:
        """The clock reading (ms) at a time, None before the clock starts."""
        if self.clock_started_at is None:
            return None
        return self._clock(_now_ms(when)).elapsed_at(_now_ms(when))

    # -- envelope ----------------------------------------------------------------------

    def _check_envelope(self, event: Event) -> None:
        if self.check_schema:
            validate_schema(event.to_dict())
        elif event.type not in ev.PAYLOAD_TYPES:
            raise EventRefused(f"unknown event type {event.type!r}")
        if event.seq != self.last_seq + 1:
            raise EventRefused(f"seq must be {self.last_seq + 1} (events are gapless)")
        if self.match_id is None:
            if event.type != ev.MATCH_OPENED:
                raise EventRefused("the first event of a match must be match_opened")
        elif event.match_id != self.match_id:
            raise EventRefused(f"match_id {event.match_id!r} is not this match ({self.match_id!r})")
        at = _time(event.recorded_at)
        if self.last_time is not None and at < self.last_time:
            raise EventRefused(
                f"recorded_at {event.recorded_at} is earlier than the previous event "
                f"({self.last_recorded_at})"
            )
        if self.clock_started_at is not None:
            expected: int | None = self._elapsed(at)
        else:
            expected = 0 if event.type == ev.CLOCK_STARTED else None
        if event.clock_ms != expected:
            raise EventRefused(
                f"clock_ms {event.clock_ms} does not match the clock derived from the record "
                f"({expected}); build events with new_event()"
            )

    # -- corrections -------------------------------------------------------------------

    def _apply_correction(self, event: Event) -> None:
        p: ev.CorrectionPayload = ev.payload_of(event)
        target = p.target_seq
        if target >= event.seq or target not in self.types_by_seq:
            raise EventRefused(f"target_seq {target} is not an earlier event of this match")
        target_type = self.types_by_seq[target]
        if target_type == ev.CORRECTION:
            raise EventRefused(
                "a correction cannot target another correction; correct the original event"
            )
        if self.fixes.get(target, ("", None))[0] == "void":
            raise EventRefused(f"event {target} is already voided")
        if target_type == ev.MATCH_OPENED and p.action == "void":
            raise EventRefused("match_opened cannot be voided (replace it to fix its details)")
        if p.action == "replace":
            original = self.events[target - 1]
            validate_schema(replace(original, payload=dict(p.payload or {})).to_dict())
        fixes = dict(self.fixes)
        fixes[target] = (p.action, dict(p.payload) if p.payload is not None else None)
        # Fold the whole record again with the correction in force.
        previous = self.events
        fresh = Replayer(check_schema=False)
        fresh.fixes = fixes
        try:
            for old in previous:
                fresh._refold(old)
        except EventRefused as exc:
            raise EventRefused(
                f"with event {target} {'voided' if p.action == 'void' else 'replaced'}, "
                f"event {exc.seq} ({exc.event_type}) would be refused: {exc.reason}"
            ) from None
        keep = ("events", "check_schema")
        self.__dict__.update({k: v for k, v in fresh.__dict__.items() if k not in keep})
        self.fixes = fixes
        self._fold(event, fixes, strict=True)

    def _refold(self, event: Event) -> None:
        try:
            self._fold(event, self.fixes, strict=False)
        except EventRefused as exc:
            if exc.seq is None:
                raise EventRefused(exc.reason, seq=event.seq, event_type=event.type) from None
            raise
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            raise EventRefused(str(exc), seq=event.seq, event_type=event.type) from None

    def _touch(self, event: Event) -> None:
        self.last_seq = event.seq
        self.last_time = _time(event.recorded_at)
        self.last_recorded_at = event.recorded_at
        self.types_by_seq[event.seq] = event.type
        if self.match_id is None:
            self.match_id = event.match_id

    # -- the fold ----------------------------------------------------------------------

    def _fold(self, event: Event, fixes: dict[int, tuple[str, Any]], *, strict: bool) -> None:
        at = _time(event.recorded_at)
        fix = fixes.get(event.seq)
        if event.type == ev.CORRECTION:
            p: ev.CorrectionPayload = ev.payload_of(event)
            self._touch(event)
            self.corrections.append(Correction(event.seq, p.target_seq, p.action, p.reason))
            self.consequences.append(
                Consequence(
                    event.seq,
                    "record",
                    f"event {p.target_seq} {'voided' if p.action == 'void' else 'replaced'}: "
                    f"{p.reason}",
                )
            )
            return
        if fix is not None and fix[0] == "void":
            self._touch(event)
            return
        data = ev.parse_payload(event.type, fix[1]) if fix is not None else _parsed(event)
        if self.match_id is not None and event.type != ev.MATCH_OPENED:
            self._time_out_check(at, event.seq)
            if self.end is not None and event.type not in ev.AFTER_END_TYPES:
                raise EventRefused(
                    f"the match has ended ({self.end.reason}, {self.end.article}); only notes, "
                    "corrections and committee rulings may follow"
                )
            if self.end is not None and self.end.recorded and event.type == ev.MATCH_ENDED:
                raise EventRefused("match_ended is already recorded")
        handler = _HANDLERS.get(event.type)
        if handler is None:
            raise EventRefused(f"unknown event type {event.type!r}")
        handler(self, event, data, at)
        if self.match_id is not None and self.clock_started_at is not None:
            self._time_out_check(at, event.seq)  # e.g. the hand in play at time-out is over
        self._touch(event)

    # -- clock -------------------------------------------------------------------------

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

    def _time_up(self, at: int) -> bool:
        return self.clock_started_at is not None and self._elapsed(at) >= self.limit_ms

    def _time_out_check(self, at: int, seq: int) -> None:
        if self.end is None and self._time_up(at):
            derived = self._time_out_end(at, seq, dry=False)
            if derived is not None:
                self.end = derived[0]

    def _time_out_end(
        self, at: int, seq: int, *, dry: bool
    ) -> tuple[MatchEnd, HandState | None] | None:
        """The time-out end (1.5) if the record has reached it, else None.

        With ``at_time_out=finish_hand`` a hand in progress is played out first; with
        ``stop`` it is voided. ``dry`` computes without changing the fold.
        """
        hand = self.hand
        current = hand.frozen() if hand is not None else None
        in_progress = hand is not None and hand.status in (BIDDING, PLAYING, REVOKED)
        if in_progress and self.ruleset.at_time_out == "finish_hand":
            return None
        holder = self.deal_holder
        if in_progress:
            assert hand is not None and current is not None
            reason = "1.5 at_time_out=stop: the hand in progress at time-out is voided"
            current = replace(current, status=VOIDED, void_reason=reason)
            if hand.declarers is not None:
                holder = hand.declarers
            if not dry:
                hand.status = VOIDED
                hand.void_reason = reason
                self.hands.append(hand.frozen())
                self.hand = None
                self.consequences.append(Consequence(seq, "1.5", reason, hand.number))
        minutes = self.limit_ms // 60_000
        ns, ew = self.levels[Side.NS], self.levels[Side.EW]
        order = compare_levels(ns, ew)
        if order:
            winner = Side.NS if order > 0 else Side.EW
            text = (
                f"time-out after {minutes} minutes: {winner.value} win at level "
                f"{self.levels[winner].label} against {self.levels[winner.other].label}"
            )
        elif holder is not None:
            winner = holder
            text = (
                f"time-out after {minutes} minutes at equal levels ({ns.label}): "
                f"{winner.value} hold the deal for the next hand and win"
            )
        else:
            return None
        end = MatchEnd("time_out", winner, "1.5", text, seq)
        if not dry:
            self.consequences.append(Consequence(seq, "1.5", text))
        return end, current

    # -- handlers: match and clock -----------------------------------------------------

    def _on_match_opened(self, event: Event, p: ev.MatchOpenedPayload, at: int) -> None:
        if self.info is not None:
            raise EventRefused("the match is already opened")
        self.ruleset = Ruleset.from_dict(p.ruleset)
        missing = sorted(set(self.ruleset.parameters()) - set(p.ruleset.get("params") or {}))
        if missing:
            raise EventRefused(
                "match_opened must freeze every ruleset parameter (Ruleset.to_dict()); "
                f"missing: {', '.join(missing)}"
            )
        self.limit_ms = self.ruleset.match_minutes * 60_000
        self.info = MatchInfo(
            tournament=p.tournament,
            round=p.round,
            table=p.table,
            pairs={Side(k): v for k, v in p.pairs.items()},
            seats={Seat(k): v for k, v in p.seats.items()},
            referee=p.referee,
        )
        self.match_id = event.match_id

    def _on_clock_started(self, event: Event, p: ev.EmptyPayload, at: int) -> None:
        if self.clock_started_at is not None:
            raise EventRefused("the clock is already started (1.5)")
        self.clock_started_at = at
        self.running_since = at

    def _on_clock_paused(self, event: Event, p: ev.ClockPausedPayload, at: int) -> None:
        if self.clock_started_at is None:
            raise EventRefused("the clock is not started")
        if self.running_since is None:
            raise EventRefused("the clock is already paused")
        self.elapsed_before = self._elapsed(at)
        self.running_since = None
        self.paused_reason = p.reason
        self.pauses.append(Pause(at, None, p.reason, event.seq))

    def _on_clock_resumed(self, event: Event, p: ev.EmptyPayload, at: int) -> None:
        if self.clock_started_at is None or self.running_since is not None:
            raise EventRefused("the clock is not paused")
        self.running_since = at
        self.paused_reason = None
        last = self.pauses[-1]
        self.pauses[-1] = replace(last, ended_ms=at)
        self.consequences.append(
            Consequence(
                event.seq,
                "1.5",
                f"clock paused {format_duration(at - last.started_ms)} ({last.reason})",
            )
        )

    # -- handlers: hands and bidding ---------------------------------------------------

    def _need_running_clock(self) -> None:
        if self.clock_started_at is None:
            raise EventRefused("the match clock is not started (1.5): record clock_started")
        if self.running_since is None:
            raise EventRefused(f"the clock is paused ({self.paused_reason}): resume it first")

    def _need_hand(self, *statuses: str) -> _Hand:
        hand = self.hand
        if hand is None:
            raise EventRefused("no hand is in progress: record hand_started first")
        if statuses and hand.status not in statuses:
            wanted = {
                BIDDING: "bidding",
                PLAYING: "play (after bidding_closed)",
                REVOKED: "a revoke awaiting the penalty choice",
            }
            need = " or ".join(wanted[s] for s in statuses)
            raise EventRefused(f"hand {hand.number} is in {hand.status}, not in {need}")
        return hand

    def _on_hand_started(self, event: Event, p: ev.HandStartedPayload, at: int) -> None:
        self._need_running_clock()
        if self.hand is not None:
            raise EventRefused(f"hand {self.hand.number} is still in {self.hand.status}")
        race = self.next_dealer is None
        dealer = Seat(p.dealer) if p.dealer is not None else None
        if race and dealer is not None:
            raise EventRefused(
                "this hand's dealer is decided by the bidding race (2.1, 8.5): dealer must be null"
            )
        if not race and dealer is None:
            assert self.next_dealer is not None
            raise EventRefused(
                f"the dealer is {self.next_dealer.value} by rotation; name the dealer"
            )
        self.hand_count += 1
        hand = _Hand(number=self.hand_count, seq=event.seq, race=race, dealer=dealer)
        if dealer is not None:
            hand.declarers = dealer.side
            hand.level = self.levels[dealer.side]
            if dealer != self.next_dealer:
                assert self.next_dealer is not None
                self.flags.append(
                    Flag(
                        event.seq,
                        hand.number,
                        "8.5",
                        f"{dealer.value} deals hand {hand.number} but {self.next_dealer.value} "
                        "is due by rotation",
                    )
                )
        self.hand = hand

    def _bid_level(self, hand: _Hand, seat: Seat) -> Rank:
        if hand.level is not None:
            return hand.level
        return self.levels[seat.side]  # bidding race: each side shows its own level cards

    def _on_bid(self, event: Event, p: ev.BidPayload, at: int) -> None:
        self._need_running_clock()
        hand = self._need_hand(BIDDING)
        seat = Seat(p.seat)
        cards = _cards(p.cards)
        if hand.false_bid_side is not None:
            raise EventRefused("after a false bid the non-offending side names the trump (8.6)")
        if p.kind == "pass":
            if cards:
                raise EventRefused("a pass shows no cards")
            hand.bids.append(Bid(event.seq, seat, "pass", (), None, 0))
            return
        if seat.side in hand.lost_bid_right:
            raise EventRefused(
                f"{seat.side.value} lost the right to bid in this hand by an open bid (8.1)"
            )
        level = self._bid_level(hand, seat)
        standing = hand.standing
        if p.kind == "reinforce":
            if standing is None:
                raise EventRefused("there is no standing bid to reinforce (2.1)")
            if standing.seat != seat:
                raise EventRefused(
                    f"only the standing bidder ({standing.seat.value}) may reinforce their bid "
                    "(2.1)"
                )
            if not cards or any(c.rank != level or c.suit != standing.suit for c in cards):
                raise EventRefused(
                    f"a reinforcement adds level cards ({level.label}) of the bid's suit "
                    f"({standing.suit.value if standing.suit else '?'}) (2.1)"
                )
            self._check_shown(hand, seat, cards, add=True)
            count = standing.count + len(cards)
            bid = Bid(event.seq, seat, "reinforce", p.cards, standing.suit, count)
            hand.bids.append(bid)
            hand.standing = bid
            return
        suit, count = self._bid_shape(hand, cards, level)
        if p.kind == "dark":
            if standing is not None:
                raise EventRefused(
                    f"there is a standing bid by {standing.seat.value}: counter it or reinforce"
                )
        else:  # counter
            if standing is None:
                raise EventRefused("there is no standing bid to counter (2.1)")
            if standing.seat == seat:
                raise EventRefused(f"{seat.value} cannot counter their own bid (2.1)")
            if count <= standing.count:
                raise EventRefused(
                    f"a counter needs more level cards than the standing bid: {count} does not "
                    f"exceed {standing.count} (2.1: 2 counters 1, 3 counters 2)"
                )
        self._check_shown(hand, seat, cards, add=False)
        bid = Bid(event.seq, seat, p.kind, p.cards, suit, count)
        hand.bids.append(bid)
        hand.standing = bid

    def _bid_shape(self, hand: _Hand, cards: tuple[Card, ...], level: Rank) -> tuple[Suit, int]:
        jokers = [c for c in cards if c.is_joker]
        levels = [c for c in cards if not c.is_joker]
        shown = format_cards(cards) or "no cards"
        if hand.race:
            if jokers != [LITTLE_JOKER]:
                raise EventRefused(
                    f"{shown}: a bid in the bidding race shows exactly one LJ plus level cards "
                    f"({level.label}) of one suit (2.1)"
                )
        elif jokers:
            raise EventRefused(
                f"{shown}: after the opening hand a bid shows level cards only (2.2)"
            )
        if not levels or any(c.rank != level for c in levels):
            raise EventRefused(f"{shown}: a bid needs level cards ({level.label}) (2.1)")
        suits = {c.suit for c in levels}
        if len(suits) != 1:
            raise EventRefused(f"{shown}: the level cards of a bid are of one suit (2.1)")
        suit = suits.pop()
        assert suit is not None
        return suit, len(levels)

    def _check_shown(self, hand: _Hand, seat: Seat, cards: tuple[Card, ...], *, add: bool) -> None:
        mine = Counter(cards)
        had = hand.shown.get(seat, Counter())
        merged = had + mine if add else had | mine
        for card, count in merged.items():
            total = count + sum(c[card] for s, c in hand.shown.items() if s != seat)
            if total > self.ruleset.decks:
                raise EventRefused(
                    f"{card} would be shown {total} times: there are only {self.ruleset.decks} "
                    "copies (1.4)"
                )
        hand.shown[seat] = merged

    def _violation(
        self, event: Event, kind: str, article: str, seat: Seat | None, side: Side, detail: str
    ) -> Violation:
        hand = self.hand
        v = Violation(event.seq, kind, article, seat, side, hand.number if hand else None, detail)
        self.violations.append(v)
        if hand is not None:
            hand.violations.append(v)
        return v

    def _on_open_bid(self, event: Event, p: ev.SeatPayload, at: int) -> None:
        hand = self._need_hand(BIDDING)
        seat = Seat(p.seat)
        side = seat.side
        if side in hand.lost_bid_right:
            raise EventRefused(f"{side.value} already lost the right to bid in this hand (8.1)")
        hand.lost_bid_right.add(side)
        text = f"{seat.value} showed a bid openly: {side.value} lose the right to bid this hand"
        self._violation(event, "open_bid", "8.1", seat, side, text)
        self.consequences.append(Consequence(event.seq, "8.1", text, hand.number))

    def _on_false_bid(self, event: Event, p: ev.SeatPayload, at: int) -> None:
        hand = self._need_hand(BIDDING)
        seat = Seat(p.seat)
        if hand.false_bid_side is not None:
            raise EventRefused("a false bid is already recorded in this hand (8.6)")
        hand.false_bid_side = seat.side
        text = (
            f"false bid by {seat.value}: {seat.side.other.value} name the trump, "
            "or the hand is played in no-trump"
        )
        self._violation(event, "false_bid", "8.6", seat, seat.side, text)
        self.consequences.append(Consequence(event.seq, "8.6", text, hand.number))

    def _on_false_bid_trump(self, event: Event, p: ev.FalseBidTrumpPayload, at: int) -> None:
        hand = self._need_hand(BIDDING)
        if hand.false_bid_side is None:
            raise EventRefused("no false bid is recorded in this hand (8.6)")
        if hand.false_bid_trump is not None:
            raise EventRefused("the trump after the false bid is already named (8.6)")
        if p.seat is None:
            if p.trump != "NT":
                raise EventRefused(
                    "8.6: if nobody of the non-offending side names a trump, the hand is no-trump"
                )
            text = "nobody of the non-offending side names a trump: no-trump"
        else:
            seat = Seat(p.seat)
            if seat.side == hand.false_bid_side:
                raise EventRefused(
                    f"8.6: the trump is named by the non-offending side; {seat.value} is on the "
                    f"offending side {seat.side.value}"
                )
            text = f"{seat.value} names the trump: {p.trump}"
        hand.false_bid_trump = p.trump
        self.consequences.append(Consequence(event.seq, "8.6", text, hand.number))

    def _on_bidding_closed(self, event: Event, p: ev.BiddingClosedPayload, at: int) -> None:
        self._need_running_clock()
        hand = self._need_hand(BIDDING)
        dealer = Seat(p.dealer)
        trump = p.trump
        standing = hand.standing
        if hand.false_bid_side is not None:
            if hand.false_bid_trump is None:
                raise EventRefused("8.6: record the non-offending side's trump choice first")
            expected_trump = hand.false_bid_trump
            if hand.race and dealer.side == hand.false_bid_side:
                raise EventRefused(
                    "8.6: after a false bid in the bidding race the dealer is of the "
                    f"non-offending side {hand.false_bid_side.other.value}"
                )
            note = "8.6"
        elif standing is not None:
            assert standing.suit is not None
            expected_trump = standing.suit.value
            if hand.race and dealer != standing.seat:
                raise EventRefused(
                    f"2.1: the last standing bidder {standing.seat.value} becomes the dealer"
                )
            note = "2.1"
        else:
            if hand.race:
                raise EventRefused(
                    "nobody bid in the bidding race: record a redeal (2.1, no_bid="
                    f"{self.ruleset.no_bid})"
                )
            expected_trump = "NT"
            note = "no_bid"
        if trump != expected_trump:
            raise EventRefused(
                f"the trump is {expected_trump} by the bidding ({note}), not {trump}"
            )
        if not hand.race and dealer != hand.dealer:
            assert hand.dealer is not None
            raise EventRefused(
                f"the dealer of this hand is {hand.dealer.value}, not {dealer.value}"
            )
        hand.dealer = dealer
        hand.declarers = dealer.side
        hand.level = self.levels[dealer.side]
        hand.trump = parse_trump(trump)
        hand.trump_decided = True
        hand.status = PLAYING
        hand.next_leader = dealer
        if hand.race:
            self.deal_holder = dealer.side
        text = (
            f"hand {hand.number}: dealer {dealer.value}, declarers {dealer.side.value} at "
            f"level {hand.level.label}, trump {trump}"
        )
        self.consequences.append(Consequence(event.seq, note, text, hand.number))

    def _on_redeal(self, event: Event, p: ev.ReasonPayload, at: int) -> None:
        hand = self._need_hand(BIDDING)
        self._void_hand(hand, event.seq, "2.1", f"redeal: {p.reason}")

    def _void_hand(self, hand: _Hand, seq: int, article: str, reason: str) -> None:
        hand.status = VOIDED
        hand.void_reason = reason
        self.hands.append(hand.frozen())
        self.hand = None
        self.consequences.append(Consequence(seq, article, f"hand {hand.number} voided: {reason}"))

    # -- handlers: play ----------------------------------------------------------------

    def _on_trick(self, event: Event, p: ev.TrickPayload, at: int) -> None:
        self._need_running_clock()
        hand = self._need_hand(PLAYING)
        if hand.form == "summary":
            raise EventRefused("this hand is recorded in summary form")
        leader = _SEAT[p.leader]
        if leader != hand.next_leader:
            assert hand.next_leader is not None
            why = (
                "the dealer leads the first trick"
                if not hand.tricks
                else (f"{hand.next_leader.value} won trick {len(hand.tricks)}")
            )
            raise EventRefused(f"the leader must be {hand.next_leader.value} ({why})")
        seats = tuple(_SEAT[play.seat] for play in p.plays)
        order = _ORDER[leader]
        if seats != order:
            seen: set[Seat] = set()
            for seat in seats:
                if seat in seen:
                    raise EventRefused(f"{seat.value} plays twice in this trick")
                seen.add(seat)
            raise EventRefused(
                "plays must be in play order from the leader: " + " ".join(s.value for s in order)
            )
        # Canonical tokens: cheap to hash and count; Cards only inside the rules calls.
        plays = tuple(tuple(map(_canon, play.cards)) for play in p.plays)
        size = len(plays[0])
        for seat, cards in zip(seats, plays, strict=True):
            if len(cards) != size:
                raise EventRefused(
                    f"{seat.value} plays {len(cards)} cards to a lead of {size} (record a revoke "
                    "if a player held too many or too few cards, 8.3)"
                )
        in_trick: dict[str, int] = {}
        for cards in plays:
            for t in cards:
                in_trick[t] = in_trick.get(t, 0) + 1
        played = hand.played
        decks = self.ruleset.decks
        for token, count in in_trick.items():
            if played.get(token, 0) + count > decks:
                raise EventRefused(
                    f"a {decks + 1}th copy of {token} would be in play: there are only {decks} "
                    "(1.4)"
                )
        per_player = 54 * decks // 4
        for seat in seats:
            if hand.cards_played[seat] + size > per_player:
                raise EventRefused(
                    f"{seat.value} would have played {hand.cards_played[seat] + size} cards; a "
                    f"player holds {per_player}"
                )
        ctx = hand.ctx(self.ruleset)
        discarded = tuple(i for i, play in enumerate(p.plays) if play.discarded)
        result = _judge_trick(plays, hand.ctx_key, discarded)
        winner = seats[result.winner]
        number = len(hand.tricks) + 1
        # What the record proves: a seat void in a suit that later plays it.
        self._void_flags(hand, event.seq, number, seats, plays)
        for token, count in in_trick.items():
            played[token] = played.get(token, 0) + count
        for seat in seats:
            hand.cards_played[seat] += size
        hand.tricks.append(
            TrickRecord(
                number=number,
                seq=event.seq,
                leader=leader,
                plays=tuple(
                    [
                        (seat, play.cards, play.discarded)
                        for seat, play in zip(seats, p.plays, strict=True)
                    ]
                ),
                winner=winner,
                points=result.points,
            )
        )
        hand.trick_cards.append((leader, tuple(zip(seats, plays, strict=True)), event.seq))
        hand.form = "detailed"
        hand.next_leader = winner
        last = p.last or min(hand.cards_played.values()) >= per_player
        if not last:
            if winner.side == hand.defenders:
                hand.captured += result.points
            return
        for seat, n in hand.cards_played.items():
            if n != per_player:
                self.flags.append(
                    Flag(
                        event.seq,
                        hand.number,
                        "8.3",
                        f"{seat.value} played {n} cards in hand {hand.number}, not {per_player}",
                    )
                )
        self._follow_flags(hand, ctx)
        self._finish_by_score(event.seq, hand, result.points, size, winner.side)

    def _void_flags(
        self,
        hand: _Hand,
        seq: int,
        number: int,
        seats: Sequence[Seat],
        plays: Sequence[tuple[str, ...]],
    ) -> None:
        memo = hand._suits
        eff = hand.suit_of
        lead_suit = memo.get(plays[0][0]) or eff(plays[0][0])
        void_in = hand.void_in
        if void_in:
            for seat, cards in zip(seats, plays, strict=True):
                voids = void_in.get(seat)
                if not voids:
                    continue
                played = {memo.get(c) or eff(c) for c in cards}
                for suit in sorted(played & voids):
                    self.flags.append(
                        Flag(
                            seq,
                            hand.number,
                            "8.3",
                            f"{seat.value} plays {suit} in trick {number} after showing void in it",
                        )
                    )
                    voids.discard(suit)
        for i in range(1, len(plays)):
            for c in plays[i]:
                if (memo.get(c) or eff(c)) != lead_suit:
                    void_in.setdefault(seats[i], set()).add(lead_suit)
                    break

    def _follow_flags(self, hand: _Hand, ctx: TrumpContext) -> None:
        """Judge every follow against the cards the record proves the seat held (4.x)."""
        if _check_follow() is None:
            return
        for seq, rule, text in _follow_findings(tuple(hand.trick_cards), ctx, self.ruleset):
            self.flags.append(Flag(seq, hand.number, rule, text))

    def _on_hand_summary(self, event: Event, p: ev.HandSummaryPayload, at: int) -> None:
        self._need_running_clock()
        hand = self._need_hand(PLAYING)
        if hand.form == "detailed":
            raise EventRefused("this hand is recorded trick by trick; its result is derived")
        hand.form = "summary"
        hand.captured = p.defenders_points_before_last
        self._finish_by_score(
            event.seq,
            hand,
            p.last_trick_points,
            p.last_trick_cards_per_player,
            Side(p.last_trick_side),
        )

    def _finish_by_score(
        self, seq: int, hand: _Hand, points: int, cards_each: int, side: Side
    ) -> None:
        assert hand.declarers is not None and hand.defenders is not None
        role = Role.DECLARERS if side == hand.declarers else Role.DEFENDERS
        before = hand.defenders_points
        result = hand_result(
            defenders_points=before,
            last_trick_points=points,
            last_trick_cards=cards_each,
            last_trick_winner=role,
            declarer_level=self.levels[hand.declarers],
            defender_level=self.levels[hand.defenders],
            ruleset=self.ruleset,
        )
        assert result.defenders_final is not None
        hand.last_trick = LastTrick(points, cards_each, side, result.defenders_final - before)
        self._close_hand(seq, hand, result)

    def _close_hand(self, seq: int, hand: _Hand, result: HandResult) -> None:
        assert hand.declarers is not None and hand.defenders is not None
        assert hand.dealer is not None
        winner = hand.declarers if result.kept_deal else hand.defenders
        levels_after = {
            hand.declarers: result.declarer_level,
            hand.defenders: result.defender_level,
        }
        gains = {s: int(levels_after[s]) - int(self.levels[s]) for s in Side}
        upcoming = next_dealer(hand.dealer, result.deal, self.ruleset)
        sc = shuffle_and_cut(hand.dealer, result.deal, self.ruleset)
        consequences = tuple(
            Consequence(
                seq,
                c.article,
                c.text.replace("declarers", f"declarers {hand.declarers}").replace(
                    "defenders", f"defenders {hand.defenders}"
                ),
                hand.number,
            )
            for c in result.consequences
        )
        hand.result = HandOutcome(
            defenders_final=result.defenders_final,
            winner=winner,
            taken=not result.kept_deal,
            gains=gains,
            levels_after=levels_after,
            next_dealer=upcoming,
            shuffler=sc.shuffler,
            cutter=sc.cutter,
            passed_a=result.passed_a,
            consequences=consequences,
        )
        self.consequences.extend(consequences)
        self.levels.update(levels_after)
        self.next_dealer = upcoming
        self.deal_holder = winner
        self.shuffler, self.cutter = sc.shuffler, sc.cutter
        self.consequences.append(
            Consequence(
                seq,
                "2.3",
                f"next hand: {upcoming.value} deals; {sc.shuffler.value} shuffles, "
                f"{sc.cutter.value} cuts",
                hand.number,
            )
        )
        hand.status = FINISHED
        self.hands.append(hand.frozen())
        self.hand = None
        if result.passed_a:
            self.passed_a = winner
            text = f"{winner.value} pass A (打过A) and win the match"
            self.end = MatchEnd("passed_a", winner, "1.5", text, seq)

    # -- handlers: violations ----------------------------------------------------------

    def _on_wrong_play(self, event: Event, p: ev.WrongPlayPayload, at: int) -> None:
        hand = self._need_hand(PLAYING)
        seat = Seat(p.seat)
        if p.cards and len(p.cards) != p.cards_exposed:
            raise EventRefused(
                f"cards_exposed is {p.cards_exposed} but {len(p.cards)} cards are listed"
            )
        if p.cards:
            _cards(p.cards)
        assert hand.declarers is not None
        amount = self.ruleset.misplay_points_per_card * p.cards_exposed
        if seat.side == hand.declarers:
            hand.adjustment += amount
            change = f"+{amount} to defenders"
            role = "declarer"
        else:
            hand.adjustment -= amount
            change = f"−{amount} to defenders"
            role = "defender"
        text = (
            f"{seat.value} ({role}) exposed {p.cards_exposed} card(s) × "
            f"{self.ruleset.misplay_points_per_card}: {change}"
        )
        self._violation(event, "wrong_play", "8.2", seat, seat.side, text)
        self.consequences.append(Consequence(event.seq, "8.2", text, hand.number))

    def _on_revoke(self, event: Event, p: ev.RevokePayload, at: int) -> None:
        hand = self._need_hand(PLAYING)
        seat = Seat(p.seat)
        if p.trick is not None and hand.form == "detailed" and p.trick > len(hand.tricks):
            raise EventRefused(
                f"trick {p.trick} is not recorded yet; a revoke is established once the next "
                "trick has begun (8.3)"
            )
        if hand.form == "detailed":
            points = hand.defenders_points
            if p.defenders_points is not None and p.defenders_points != hand.captured:
                raise EventRefused(
                    f"defenders_points {p.defenders_points} differs from the {hand.captured} "
                    "the recorded tricks give"
                )
        else:
            points = hand.adjustment + (p.defenders_points or 0)
            if p.defenders_points is not None:
                hand.captured = p.defenders_points
        hand.status = REVOKED
        hand.revoke_side = seat.side
        known = hand.form == "detailed" or p.defenders_points is not None
        hand.revoke_points = points if known else None
        where = f" in trick {p.trick}" if p.trick is not None else ""
        text = (
            f"劳改 by {seat.value} ({p.kind}{where}): hand {hand.number} ends; "
            f"{seat.side.other.value} choose A or B"
        )
        self._violation(event, "revoke", "8.3", seat, seat.side, text)
        self.consequences.append(Consequence(event.seq, "8.3", text, hand.number))

    def _on_penalty_choice(self, event: Event, p: ev.PenaltyChoicePayload, at: int) -> None:
        hand = self._need_hand(REVOKED)
        seat = Seat(p.seat)
        offender = hand.revoke_side
        assert offender is not None and hand.declarers is not None and hand.defenders is not None
        if seat.side == offender:
            raise EventRefused(
                f"8.3: the choice is the non-offending side's; {seat.value} is on the offending "
                f"side {offender.value}"
            )
        chooser = offender.other
        role = Role.DECLARERS if chooser == hand.declarers else Role.DEFENDERS
        dec_level, def_level = self.levels[hand.declarers], self.levels[hand.defenders]
        if p.choice == "A":
            result = result_from_levels_up(
                role, 2, dec_level, def_level, self.ruleset, article="8.3 A"
            )
        else:
            if hand.revoke_points is None:
                raise EventRefused(
                    "8.3 B needs the defenders' points as they stand: give defenders_points in "
                    "the revoke event"
                )
            delta = 160 if offender == hand.declarers else -160
            final = hand.revoke_points + delta
            step = RulesConsequence(
                "8.3 B",
                f"{_signed(delta)} to defenders: {hand.revoke_points} → {final}",
            )
            result = result_from_final_score(
                final, dec_level, def_level, self.ruleset, prior=(step,)
            )
        self._close_hand(event.seq, hand, result)

    def _on_wrong_dealer(self, event: Event, p: ev.SeatPayload, at: int) -> None:
        hand = self._need_hand(BIDDING, PLAYING, REVOKED)
        seat = Seat(p.seat)
        if hand.race:
            raise EventRefused("in a bidding race the dealer is the last standing bidder (2.1)")
        text = (
            f"{seat.value} dealt out of turn: hand {hand.number} is replayed, the dealer is "
            "decided again by the bidding race and rotation restarts from that dealer; levels "
            "do not change"
        )
        self._violation(event, "wrong_dealer", "8.5", seat, seat.side, text)
        self._void_hand(hand, event.seq, "8.5", f"wrong dealer {seat.value}")
        self.consequences.append(Consequence(event.seq, "8.5", text, hand.number))
        self.next_dealer = None

    def _conduct(self, event: Event, seat: Seat, text: str, article: str) -> None:
        side = seat.side
        self.warnings[side] += 1
        n = self.warnings[side]
        if n == 1:
            outcome = f"first offence of {side.value}: warning"
        else:
            outcome = f"offence {n} of {side.value}: reported at once to the arbitration committee"
            self.referred.add(side)
        self._violation(event, "conduct_warning", article, seat, side, f"{seat.value}: {text}")
        self.consequences.append(
            Consequence(event.seq, "8.8", outcome, self.hand.number if self.hand else None)
        )

    def _on_conduct_warning(self, event: Event, p: ev.ConductWarningPayload, at: int) -> None:
        self._conduct(event, Seat(p.seat), p.text, "8.8")

    def _on_committee_decision(self, event: Event, p: ev.CommitteeDecisionPayload, at: int) -> None:
        side = Side(p.side)
        if side not in self.referred:
            raise EventRefused(
                f"8.8: {side.value} has not been reported to the arbitration committee (that "
                "takes a second offence)"
            )
        self.referred.discard(side)
        if p.decision == "disqualification":
            text = f"the committee disqualifies {side.value}: {side.other.value} win ({p.text})"
            self.consequences.append(Consequence(event.seq, "8.8", text))
            self.end = MatchEnd("disqualification", side.other, "8.8", text, event.seq)
            if self.hand is not None:
                self._void_hand(self.hand, event.seq, "8.8", "match ended by disqualification")
        else:
            self.consequences.append(
                Consequence(event.seq, "8.8", f"committee decision on {side.value}: {p.text}")
            )

    def _on_think_overrun(self, event: Event, p: ev.ThinkOverrunPayload, at: int) -> None:
        seat = Seat(p.seat)
        text = f"{seat.value} thought {p.seconds} s (limit {self.ruleset.think_seconds} s per play)"
        if p.seconds <= self.ruleset.think_seconds:
            raise EventRefused(
                f"{p.seconds} s is within the {self.ruleset.think_seconds} s thinking time (8.9)"
            )
        self.overruns[seat.side] += 1
        self._violation(event, "think_overrun", "8.9", seat, seat.side, text)
        self.consequences.append(
            Consequence(
                event.seq,
                "8.9",
                f"overrun recorded: {text}",
                self.hand.number if self.hand else None,
            )
        )
        if self.ruleset.overrun_counts_as_warning:
            self._conduct(event, seat, "thinking-time overrun (overrun_counts_as_warning)", "8.9")

    def _on_forfeit(self, event: Event, p: ev.ForfeitPayload, at: int) -> None:
        side = Side(p.side)
        text = (
            f"{side.value} forfeit: {side.value} score 0 for the match, {side.other.value} advance"
        )
        self._violation(event, "forfeit", "8.10", None, side, p.text or text)
        self.consequences.append(Consequence(event.seq, "8.10", text))
        self.end = MatchEnd("forfeit", side.other, "8.10", text, event.seq)
        if self.hand is not None:
            self._void_hand(self.hand, event.seq, "8.10", "match ended by forfeit")

    def _on_committee_ruling(self, event: Event, p: ev.CommitteeRulingPayload, at: int) -> None:
        changes = {Side(k): v for k, v in (p.level_changes or {}).items() if v}
        new_levels = dict(self.levels)
        for side, n in changes.items():
            index = LADDER.index(self.levels[side]) + n
            if not 0 <= index < len(LADDER):
                raise EventRefused(
                    f"8.11: {side.value} at {self.levels[side].label} {_signed(n)} leaves the "
                    "ladder 3 … A"
                )
            new_levels[side] = LADDER[index]
        if p.defenders_points is not None:
            hand = self.hand
            if hand is None or hand.status not in (PLAYING, REVOKED):
                raise EventRefused("8.11: a point adjustment needs a hand in play")
            hand.adjustment += p.defenders_points
            if hand.revoke_points is not None:
                hand.revoke_points += p.defenders_points
        parts = [p.text]
        for side, n in changes.items():
            parts.append(
                f"{side.value} {_signed(n)} level(s): {self.levels[side].label} → "
                f"{new_levels[side].label}"
            )
        if p.defenders_points is not None:
            parts.append(f"{_signed(p.defenders_points)} to defenders")
        self.levels = new_levels
        self.consequences.append(
            Consequence(
                event.seq, "8.11", "; ".join(parts), self.hand.number if self.hand else None
            )
        )

    def _on_note(self, event: Event, p: ev.NotePayload, at: int) -> None:
        if p.about_seq is not None and p.about_seq >= event.seq:
            raise EventRefused(f"about_seq {p.about_seq} is not an earlier event")
        self.notes.append(Note(event.seq, p.text, p.about_seq))

    def _on_match_ended(self, event: Event, p: ev.MatchEndedPayload, at: int) -> None:
        end = self.end
        if end is None:
            clock = self._clock(at)
            if not clock.started:
                raise EventRefused("the match has not ended: the clock was never started")
            raise EventRefused(
                "the match has not ended: no side passed A, forfeited or was disqualified, "
                f"and {format_duration(clock.remaining_at(at))} of match time remain "
                "(or a hand is still in play, at_time_out=finish_hand)"
            )
        if p.reason != end.reason or Side(p.winner) != end.winner:
            raise EventRefused(
                f"the record shows {end.reason} won by {end.winner.value} ({end}), not "
                f"{p.reason} won by {p.winner}"
            )
        self.end = replace(end, recorded=True)
        self.consequences.append(
            Consequence(
                event.seq, end.article, f"match ended: {end.winner.value} win ({end.reason})"
            )
        )


_PARSED: dict[str, tuple[dict[str, Any], Any]] = {}
_PARSED_MAX = 1 << 16


def _parsed(event: Event) -> Any:
    """The typed payload, memoised for the very same event object (re-replays repeat it).

    The memo is keyed by the sealed hash and used only when the payload is the same
    object, so an event read again from a file (or altered) is parsed afresh.
    """
    key = event.hash
    if not key:
        return ev.parse_payload(event.type, event.payload)
    found = _PARSED.get(key)
    if found is not None and found[0] is event.payload:
        return found[1]
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    parsed = ev.parse_payload(event.type, event.payload)
    _PARSED[key] = (event.payload, parsed)
    return parsed


@cache
def _ctx_of(key: CtxKey) -> TrumpContext:
    level, trump, gap = key
    return TrumpContext(Rank(level), None if trump is None else Suit(trump), gap)


@cache
def _suit_memo(key: CtxKey) -> dict[str, str]:
    """A shared token → effective-suit memo for one trump context (filled on demand)."""
    return {}


@lru_cache(maxsize=1 << 16)
def _judge_trick(
    plays: tuple[tuple[str, ...], ...], ctx_key: CtxKey, discarded: tuple[int, ...]
) -> TrickResult:
    """The rules core's trick judgement, memoised: replays of one record repeat it.

    Keyed by plain values (card tokens, level, trump) so a cache hit costs little.
    """
    return trick_result([_cards(p) for p in plays], _ctx_of(ctx_key), discarded=discarded)


@lru_cache(maxsize=1 << 16)
def _judge_follow(
    lead: tuple[str, ...],
    held: tuple[str, ...],
    play: tuple[str, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> Any:
    """The rules core's follow verdict, memoised like :func:`_judge_trick`."""
    check = _check_follow()
    return check(_cards(lead), _cards(held), _cards(play), ctx, ruleset)


_HANDLERS = {
    name: getattr(Replayer, "_on_" + name) for name in ev.PAYLOAD_TYPES if name != ev.CORRECTION
}


@lru_cache(maxsize=1 << 10)
def _follow_findings(
    trick_cards: tuple[tuple[Seat, tuple[tuple[Seat, tuple[str, ...]], ...], int], ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> tuple[tuple[int, str, str], ...]:
    """(seq, article, text) of every follow the rules core judges illegal in a hand.

    The cards a seat played from a trick to the end of the hand are cards it held
    when it followed. Follows that section 5 rule 1 settles by counting alone
    (single leads, or no more cards of the suit than the lead) are not sent to the
    rules core; every other follow is judged by ``rules.follow.check_follow``.
    """
    suits: dict[str, str] = {}

    def eff(token: str) -> str:
        found = suits.get(token)
        if found is None:
            found = suits[token] = ctx.effective_suit(_card(token))
        return found

    later: dict[Seat, list[str]] = {s: [] for s in Seat}
    later_suits: dict[Seat, Counter[str]] = {s: Counter() for s in Seat}
    found: list[tuple[int, str, str]] = []
    for number in range(len(trick_cards), 0, -1):
        _leader, plays, seq = trick_cards[number - 1]
        for seat, cards in plays:
            later[seat].extend(cards)
            later_suits[seat].update(eff(c) for c in cards)
        lead = plays[0][1]
        suit, n = eff(lead[0]), len(lead)
        for seat, cards in plays[1:]:
            held = later_suits[seat][suit]
            in_suit = sum(1 for c in cards if eff(c) == suit)
            if in_suit >= min(n, held) and (n == 1 or held <= n):
                continue  # section 5 rule 1 (or any single of the suit) is met
            try:
                verdict = _judge_follow(lead, tuple(later[seat]), cards, ctx, ruleset)
            except RulesError:
                continue
            if not verdict.legal:
                rule = getattr(verdict, "rule", "") or "4"
                found.append((seq, rule, f"{seat.value} in trick {number}: {verdict.reason}"))
    return tuple(sorted(found, key=lambda f: f[0]))


@cache
def _check_follow() -> Any:
    """``rules.follow.check_follow`` when the rules core has it, else None."""
    try:
        from referee_desk.rules.follow import check_follow
    except ImportError:
        return None
    return check_follow


def _now_ms(now: str | datetime | int) -> int:
    if isinstance(now, int):
        return now
    if isinstance(now, datetime):
        return parse_time(format_time(now))
    return parse_time(now)


def replay(
    events: Sequence[Event],
    upto: int | None = None,
    *,
    now: str | datetime | int | None = None,
    check_schema: bool = False,
) -> MatchState:
    """Fold ``events[:upto]`` into the match state; raise EventRefused at the first bad event."""
    return replayer_for(events, upto, check_schema=check_schema).state(now)


def replayer_for(
    events: Sequence[Event], upto: int | None = None, *, check_schema: bool = False
) -> Replayer:
    replayer = Replayer(check_schema=check_schema)
    for event in events if upto is None else events[:upto]:
        replayer.apply(event)
    return replayer
