"""The hands of a match: the one in progress (``HandBook``) and ``Hands``, which owns it,
the hands already over and the deal's rotation.

A ``HandBook`` keeps a ``HandState``'s fields under the same names (lists where the
frozen value has tuples) plus the running values only the fold needs (cards shown in
bidding, cards played, voids, the follow audit). ``freeze`` makes the ``HandState``
from those names, so a field added to ``HandState`` is either kept here or fails the
first freeze: nothing is copied by hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.audit import FollowAudit
from referee_desk.match.fold.freeze import freezer
from referee_desk.match.fold.memo import CtxKey, Suits, ctx_key_of, ctx_of, suit_memo
from referee_desk.match.values import (
    Bid,
    Concealment,
    HandOutcome,
    HandState,
    Kitty,
    LastTrick,
    ThrowFailure,
    TrickRecord,
    Violation,
)
from referee_desk.rules.cards import Card, Rank, Suit
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.trump import TrumpContext

BIDDING, PLAYING, REVOKED, FINISHED, VOIDED = "bidding", "playing", "revoked", "finished", "voided"

#: What ``Hands.need`` says a hand in each status is waiting for.
_WANTED = {
    BIDDING: "bidding",
    PLAYING: "play (after bidding_closed)",
    REVOKED: "a revoke awaiting the penalty choice",
}


@dataclass(slots=True)
class HandBook:
    """The hand in progress, mutable while the fold runs (``freeze`` → ``HandState``)."""

    number: int
    seq: int
    race: bool
    dealer: Seat | None
    status: str = BIDDING
    #: The dealer the rotation named when the hand started (None in a bidding race);
    #: 8.5 (wrong dealer) applies only when ``dealer`` differs from it.
    due_dealer: Seat | None = None
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
    #: The follows of this hand the later plays may still prove illegal (4.x, 12.4).
    audit: FollowAudit | None = None
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
    kitty: Kitty | None = None
    throw_failures: list[ThrowFailure] = field(default_factory=list)
    concealments: list[Concealment] = field(default_factory=list)
    #: After a failed throw: the components the thrower may lead (12.4).
    forced_lead: tuple[tuple[str, ...], ...] = ()
    forced_seat: Seat | None = None
    trump_ctx: TrumpContext | None = None
    ctx_key: CtxKey = (3, None, False)
    #: Token → effective suit in this hand's trump context (shared per context; set
    #: with the context by ``ctx``).
    suits: Suits | None = None

    @property
    def defenders(self) -> Side | None:
        return None if self.declarers is None else self.declarers.other

    @property
    def defenders_points(self) -> int:
        return self.captured + self.adjustment

    def ctx(self, ruleset: Ruleset) -> TrumpContext:
        assert self.level is not None
        if self.trump_ctx is None:
            trump = None if self.trump is None else self.trump.value
            if ruleset.fixed_ranks == ("2",) and not ruleset.trump_tractor_chain:
                self.ctx_key = (int(self.level), trump, ruleset.bridge_level_gap)
            else:
                self.ctx_key = ctx_key_of(self.level, trump, ruleset)
            self.trump_ctx = ctx_of(self.ctx_key)
            self.suits = suit_memo(self.ctx_key)
        return self.trump_ctx

    def frozen(self) -> HandState:
        """The hand as the state shows it (one generic freeze, see ``fold.freeze``)."""
        return HandState(**_freeze_hand(self))


_freeze_hand = freezer(HandState, HandBook)


class Hands:
    """The hands of the match: the one in progress, those over, and the deal's rotation.

    ``deal_holder``, ``next_dealer``, ``shuffler`` and ``cutter`` are set when a hand
    closes (2.3) or a bidding race ends; ``current`` only by ``start`` and ``close``.
    """

    __slots__ = ("current", "cutter", "deal_holder", "done", "next_dealer", "shuffler")

    def __init__(self) -> None:
        self.done: list[HandState] = []
        self.current: HandBook | None = None
        self.deal_holder: Side | None = None
        self.next_dealer: Seat | None = None
        self.shuffler: Seat | None = None
        self.cutter: Seat | None = None

    def start(self, seq: int, race: bool, dealer: Seat | None) -> HandBook:
        hand = HandBook(
            number=len(self.done) + 1,
            seq=seq,
            race=race,
            dealer=dealer,
            due_dealer=self.next_dealer,
        )
        self.current = hand
        return hand

    def close(self, hand: HandBook, status: str) -> None:
        """``hand`` is over (finished or voided): frozen into the hands done."""
        hand.status = status
        self.done.append(hand.frozen())
        self.current = None

    def need(self, *statuses: str) -> HandBook:
        """The hand in progress, refused unless it is in one of ``statuses`` (if given)."""
        hand = self.current
        if hand is None:
            raise EventRefused(key="hand.none_in_progress")
        if statuses and hand.status not in statuses:
            need = " or ".join(_WANTED[s] for s in statuses)
            raise EventRefused(
                key="hand.wrong_status",
                params={"hand": hand.number, "status": hand.status, "need": need},
            )
        return hand

    @property
    def number(self) -> int | None:
        """The number of the hand in progress (None between hands)."""
        return None if self.current is None else self.current.number
