"""The hand in progress: the mutable books the fold keeps until the hand is frozen."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee_desk.match.fold.audit import FollowAudit
from referee_desk.match.fold.memo import CtxKey, card_of, ctx_key_of, ctx_of, suit_memo
from referee_desk.match.state import (
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


@dataclass
class HandBook:
    """The hand in progress, mutable while the fold runs."""

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
            found = self._suits[token] = self._ctx.effective_suit(card_of(token))
        return found

    def ctx(self, ruleset: Ruleset) -> TrumpContext:
        assert self.level is not None
        if self._ctx is None:
            trump = None if self.trump is None else self.trump.value
            if ruleset.fixed_ranks == ("2",) and not ruleset.trump_tractor_chain:
                self.ctx_key = (int(self.level), trump, ruleset.bridge_level_gap)
            else:
                self.ctx_key = ctx_key_of(self.level, trump, ruleset)
            self._ctx = ctx_of(self.ctx_key)
            self._suits = suit_memo(self.ctx_key)
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
            kitty=self.kitty,
            throw_failures=tuple(self.throw_failures),
            concealments=tuple(self.concealments),
            forced_lead=self.forced_lead,
        )
