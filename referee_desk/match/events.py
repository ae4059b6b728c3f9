"""Event type names and one frozen payload dataclass per type.

The envelope (``envelope.Event``) carries the payload as a plain dict so the store
never interprets it; ``parse_payload`` turns it into the typed value replay uses.
Field names equal the JSON keys documented in docs/events.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from referee_desk.match.envelope import Event

MATCH_OPENED = "match_opened"
CLOCK_STARTED = "clock_started"
CLOCK_PAUSED = "clock_paused"
CLOCK_RESUMED = "clock_resumed"
HAND_STARTED = "hand_started"
BID = "bid"
OPEN_BID = "open_bid"
FALSE_BID = "false_bid"
FALSE_BID_TRUMP = "false_bid_trump"
BIDDING_CLOSED = "bidding_closed"
REDEAL = "redeal"
TRICK = "trick"
HAND_SUMMARY = "hand_summary"
WRONG_PLAY = "wrong_play"
REVOKE = "revoke"
PENALTY_CHOICE = "penalty_choice"
WRONG_DEALER = "wrong_dealer"
CONDUCT_WARNING = "conduct_warning"
COMMITTEE_DECISION = "committee_decision"
THINK_OVERRUN = "think_overrun"
FORFEIT = "forfeit"
COMMITTEE_RULING = "committee_ruling"
CORRECTION = "correction"
NOTE = "note"
MATCH_ENDED = "match_ended"
KITTY_BURIED = "kitty_buried"
THROW_FAILED = "throw_failed"
CONCEALMENT = "concealment"

#: Event types accepted once the match has ended (the desk locks everything else).
AFTER_END_TYPES = frozenset({NOTE, CORRECTION, COMMITTEE_RULING, MATCH_ENDED})

#: Types that are not part of the game itself and are accepted while the clock is paused.
#: (Everything else that happens at the table needs a running clock.)
PLAY_TYPES = frozenset({HAND_STARTED, BID, TRICK, HAND_SUMMARY, KITTY_BURIED, THROW_FAILED})


@dataclass(frozen=True, slots=True)
class MatchOpenedPayload:
    tournament: str
    round: str
    table: str
    pairs: dict[str, str]
    seats: dict[str, str]
    referee: str
    ruleset: dict[str, Any]


@dataclass(frozen=True, slots=True)
class EmptyPayload:
    pass


@dataclass(frozen=True, slots=True)
class ClockPausedPayload:
    reason: str


@dataclass(frozen=True, slots=True)
class HandStartedPayload:
    dealer: str | None


@dataclass(frozen=True, slots=True)
class BidPayload:
    seat: str
    kind: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatPayload:
    seat: str


@dataclass(frozen=True, slots=True)
class FalseBidTrumpPayload:
    seat: str | None
    trump: str


@dataclass(frozen=True, slots=True)
class BiddingClosedPayload:
    dealer: str
    trump: str


@dataclass(frozen=True, slots=True)
class ReasonPayload:
    reason: str


@dataclass(frozen=True, slots=True)
class Play:
    seat: str
    cards: tuple[str, ...]
    discarded: bool = False


@dataclass(frozen=True, slots=True)
class TrickPayload:
    leader: str
    plays: tuple[Play, ...]
    last: bool = False


@dataclass(frozen=True, slots=True)
class HandSummaryPayload:
    defenders_points_before_last: int
    last_trick_points: int
    last_trick_cards_per_player: int
    last_trick_side: str
    kitty_points: int | None = None
    last_lead_shape: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class KittyBuriedPayload:
    """12.1: the dealer's buried cards, or only their points."""

    seat: str
    cards: tuple[str, ...] = ()
    points: int | None = None


@dataclass(frozen=True, slots=True)
class ThrowFailedPayload:
    """12.4: ``seat`` threw ``thrown``; ``shown_by`` showed ``shown``; ``forced`` is the
    component the referee names when several equal ones are beaten (else derived)."""

    seat: str
    thrown: tuple[str, ...]
    shown_by: str
    shown: tuple[str, ...]
    forced: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ConcealmentPayload:
    """12.8 藏张 (002 八.1): ``seat`` hid a card; ``chooser`` (the other side) chose."""

    seat: str
    chooser: str
    choice: str


@dataclass(frozen=True, slots=True)
class WrongPlayPayload:
    seat: str
    cards_exposed: int
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RevokePayload:
    seat: str
    kind: str
    trick: int | None = None
    defenders_points: int | None = None


@dataclass(frozen=True, slots=True)
class PenaltyChoicePayload:
    seat: str
    choice: str


@dataclass(frozen=True, slots=True)
class ConductWarningPayload:
    seat: str
    text: str


@dataclass(frozen=True, slots=True)
class CommitteeDecisionPayload:
    side: str
    decision: str
    text: str


@dataclass(frozen=True, slots=True)
class ThinkOverrunPayload:
    seat: str
    seconds: int


@dataclass(frozen=True, slots=True)
class ForfeitPayload:
    side: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class CommitteeRulingPayload:
    text: str
    level_changes: dict[str, int] = dataclasses.field(default_factory=dict)
    defenders_points: int | None = None


@dataclass(frozen=True, slots=True)
class CorrectionPayload:
    target_seq: int
    action: str
    reason: str
    payload: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class NotePayload:
    text: str
    about_seq: int | None = None


@dataclass(frozen=True, slots=True)
class MatchEndedPayload:
    reason: str
    winner: str


PAYLOAD_TYPES: dict[str, type] = {
    MATCH_OPENED: MatchOpenedPayload,
    CLOCK_STARTED: EmptyPayload,
    CLOCK_PAUSED: ClockPausedPayload,
    CLOCK_RESUMED: EmptyPayload,
    HAND_STARTED: HandStartedPayload,
    BID: BidPayload,
    OPEN_BID: SeatPayload,
    FALSE_BID: SeatPayload,
    FALSE_BID_TRUMP: FalseBidTrumpPayload,
    BIDDING_CLOSED: BiddingClosedPayload,
    REDEAL: ReasonPayload,
    TRICK: TrickPayload,
    HAND_SUMMARY: HandSummaryPayload,
    WRONG_PLAY: WrongPlayPayload,
    REVOKE: RevokePayload,
    PENALTY_CHOICE: PenaltyChoicePayload,
    WRONG_DEALER: SeatPayload,
    CONDUCT_WARNING: ConductWarningPayload,
    COMMITTEE_DECISION: CommitteeDecisionPayload,
    THINK_OVERRUN: ThinkOverrunPayload,
    FORFEIT: ForfeitPayload,
    COMMITTEE_RULING: CommitteeRulingPayload,
    CORRECTION: CorrectionPayload,
    NOTE: NotePayload,
    MATCH_ENDED: MatchEndedPayload,
    KITTY_BURIED: KittyBuriedPayload,
    THROW_FAILED: ThrowFailedPayload,
    CONCEALMENT: ConcealmentPayload,
}

#: Every event type, in the order docs/events.md lists them.
EVENT_TYPES: tuple[str, ...] = tuple(PAYLOAD_TYPES)


def parse_payload(event_type: str, payload: dict[str, Any]) -> Any:
    """The typed payload of a schema-valid event (lists become tuples)."""
    cls = PAYLOAD_TYPES[event_type]
    if cls is TrickPayload:
        plays = tuple(
            Play(p["seat"], tuple(p["cards"]), bool(p.get("discarded", False)))
            for p in payload["plays"]
        )
        return TrickPayload(payload["leader"], plays, bool(payload.get("last", False)))
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in payload.items()}
    if cls is HandSummaryPayload and "last_lead_shape" in values:
        values["last_lead_shape"] = tuple(tuple(x) for x in values["last_lead_shape"])
    return cls(**values)


def payload_of(event: Event) -> Any:
    return parse_payload(event.type, event.payload)
