"""The replayed state of a match: frozen values that the desk and reports display.

Built by ``replay.Replayer.state()``; nothing here computes a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee_desk.match.clock import ClockState, format_duration, format_time
from referee_desk.phrasebook import render
from referee_desk.rules.cards import Rank, Suit
from referee_desk.rules.ruleset import Ruleset
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


@dataclass(frozen=True, slots=True)
class MatchState:
    match_id: str
    info: MatchInfo | None
    ruleset: Ruleset
    levels: dict[Side, Rank]
    passed_a: Side | None
    hands: tuple[HandState, ...]
    current_hand: HandState | None
    deal_holder: Side | None
    next_dealer: Seat | None
    shuffler: Seat | None
    cutter: Seat | None
    clock: ClockState
    warnings: dict[Side, int]
    referred: frozenset[Side]
    overruns: dict[Side, int]
    violations: tuple[Violation, ...]
    consequences: tuple[Consequence, ...]
    flags: tuple[Flag, ...]
    notes: tuple[Note, ...]
    corrections: tuple[Correction, ...]
    end: MatchEnd | None
    last_seq: int
    last_recorded_at: str | None
    voided_seqs: frozenset[int] = field(default_factory=frozenset)
    dug_at_a: frozenset[Side] = field(default_factory=frozenset)
    """12.7 a_needs_dig: sides at A that have dug the kitty since they reached A."""

    @property
    def preset(self) -> str:
        """The ruleset preset's name (shown on every screen and printout)."""
        return self.ruleset.name

    @property
    def locked(self) -> bool:
        return self.end is not None

    @property
    def shuffler_side(self) -> Side | None:
        return None if self.shuffler is None else self.shuffler.side

    @property
    def cutter_side(self) -> Side | None:
        return None if self.cutter is None else self.cutter.side

    def to_json(self) -> dict[str, Any]:
        """One JSON-ready document of the state (``referee-desk replay --json``)."""
        return state_to_json(self)


def _seat(value: Seat | None) -> str | None:
    return None if value is None else value.value


def _rank(value: Rank | None) -> str | None:
    return None if value is None else value.label


def _consequences(items: tuple[Consequence, ...]) -> list[dict[str, Any]]:
    return [
        {
            "seq": c.seq,
            "article": c.article,
            "text": c.text,
            "hand": c.hand,
            "line": str(c),
            "key": c.key,
            "args": dict(c.args),
        }
        for c in items
    ]


def _violation(v: Violation) -> dict[str, Any]:
    return {
        "seq": v.seq,
        "kind": v.kind,
        "article": v.article,
        "seat": _seat(v.seat),
        "side": v.side.value,
        "hand": v.hand,
        "detail": v.detail,
    }


def _hand(h: HandState) -> dict[str, Any]:
    result = None
    if h.result is not None:
        r = h.result
        result = {
            "defenders_final": r.defenders_final,
            "winner": r.winner.value,
            "deal": "taken" if r.taken else "kept",
            "gains": {s.value: n for s, n in r.gains.items()},
            "levels_after": {s.value: lv.label for s, lv in r.levels_after.items()},
            "next_dealer": _seat(r.next_dealer),
            "shuffler": _seat(r.shuffler),
            "cutter": _seat(r.cutter),
            "passed_a": r.passed_a,
            "consequences": _consequences(r.consequences),
        }
    last: dict[str, Any] | None = None
    if h.last_trick is not None:
        last = {
            "points": h.last_trick.points,
            "cards_per_player": h.last_trick.cards_per_player,
            "side": h.last_trick.side.value,
            "score": h.last_trick.score,
        }
        if h.last_trick.multiplier is not None:
            last["kitty_points"] = h.last_trick.kitty_points
            last["multiplier"] = h.last_trick.multiplier
            last["lead_shape"] = [list(x) for x in h.last_trick.lead_shape]
    extra: dict[str, Any] = {}
    if h.kitty is not None:
        extra["kitty"] = {
            "seq": h.kitty.seq,
            "seat": h.kitty.seat.value,
            "cards": list(h.kitty.cards),
            "points": h.kitty.points,
        }
    if h.throw_failures:
        extra["throw_failures"] = [
            {
                "seq": f.seq,
                "seat": f.seat.value,
                "shown_by": f.shown_by.value,
                "thrown": list(f.thrown),
                "shown": list(f.shown),
                "beaten": [list(b) for b in f.beaten],
                "forced": list(f.forced),
                "points": f.points,
            }
            for f in h.throw_failures
        ]
    if h.concealments:
        extra["concealments"] = [
            {
                "seq": c.seq,
                "seat": c.seat.value,
                "chooser": c.chooser.value,
                "choice": c.choice,
                "points": c.points,
            }
            for c in h.concealments
        ]
    return {
        "number": h.number,
        "seq": h.seq,
        "status": h.status,
        "race": h.race,
        "dealer": _seat(h.dealer),
        "declarers": None if h.declarers is None else h.declarers.value,
        "level": _rank(h.level),
        "trump": h.trump_label,
        "bids": [
            {"seq": b.seq, "seat": b.seat.value, "kind": b.kind, "cards": list(b.cards)}
            for b in h.bids
        ],
        "form": h.form,
        "tricks": [
            {
                "number": t.number,
                "seq": t.seq,
                "leader": t.leader.value,
                "plays": [
                    {"seat": s.value, "cards": list(c), "discarded": d} for s, c, d in t.plays
                ],
                "winner": t.winner.value,
                "points": t.points,
            }
            for t in h.tricks
        ],
        "defenders_points": h.defenders_points,
        "last_trick": last,
        "violations": [_violation(v) for v in h.violations],
        "result": result,
        "void_reason": h.void_reason,
        "cards_played": {s.value: n for s, n in h.cards_played.items()},
        **extra,
    }


def state_to_json(state: MatchState) -> dict[str, Any]:
    info = None
    if state.info is not None:
        info = {
            "tournament": state.info.tournament,
            "round": state.info.round,
            "table": state.info.table,
            "pairs": {s.value: n for s, n in state.info.pairs.items()},
            "seats": {s.value: n for s, n in state.info.seats.items()},
            "referee": state.info.referee,
        }
    clock = state.clock
    end = None
    if state.end is not None:
        end = {
            "reason": state.end.reason,
            "winner": state.end.winner.value,
            "article": state.end.article,
            "text": state.end.text,
            "seq": state.end.seq,
            "recorded": state.end.recorded,
        }
    return {
        "match_id": state.match_id,
        "info": info,
        "ruleset": state.ruleset.to_dict(),
        "levels": {s.value: lv.label for s, lv in state.levels.items()},
        "passed_a": None if state.passed_a is None else state.passed_a.value,
        "deal_holder": None if state.deal_holder is None else state.deal_holder.value,
        "next_dealer": _seat(state.next_dealer),
        "shuffler": _seat(state.shuffler),
        "cutter": _seat(state.cutter),
        "clock": {
            "started_at": None if clock.started_at_ms is None else format_time(clock.started_at_ms),
            "running": clock.running,
            "paused_reason": clock.paused_reason,
            "elapsed_ms": clock.elapsed_ms,
            "remaining_ms": clock.remaining_ms,
            "elapsed": format_duration(clock.elapsed_ms),
            "remaining": format_duration(clock.remaining_ms),
            "limit_ms": clock.limit_ms,
            "pauses": [
                {
                    "seq": p.seq,
                    "reason": p.reason,
                    "from": format_time(p.started_ms),
                    "to": None if p.ended_ms is None else format_time(p.ended_ms),
                }
                for p in clock.pauses
            ],
        },
        "warnings": {s.value: n for s, n in state.warnings.items()},
        "referred": sorted(s.value for s in state.referred),
        "overruns": {s.value: n for s, n in state.overruns.items()},
        "hands": [_hand(h) for h in state.hands],
        "violations": [_violation(v) for v in state.violations],
        "consequences": _consequences(state.consequences),
        "flags": [
            {"seq": f.seq, "hand": f.hand, "article": f.article, "text": f.text}
            for f in state.flags
        ],
        "notes": [{"seq": n.seq, "text": n.text, "about_seq": n.about_seq} for n in state.notes],
        "corrections": [
            {"seq": c.seq, "target_seq": c.target_seq, "action": c.action, "reason": c.reason}
            for c in state.corrections
        ],
        "end": end,
        "locked": state.locked,
        "last_seq": state.last_seq,
        "last_recorded_at": state.last_recorded_at,
    }
