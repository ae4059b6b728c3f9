"""The replayed state of a match (``MatchState``) and its one JSON document.

Built by ``replay.Replayer.state()``; nothing here computes a rule. The values a
state is made of live in ``values`` and are importable from here as well.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee_desk.match.clock import ClockState, format_duration, format_time
from referee_desk.match.values import (
    Bid,
    Concealment,
    Consequence,
    Correction,
    Flag,
    HandOutcome,
    HandState,
    Kitty,
    LastTrick,
    MatchEnd,
    MatchInfo,
    Note,
    ThrowFailure,
    TrickRecord,
    Violation,
)
from referee_desk.rules.cards import Rank
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat, Side

__all__ = [
    "Bid",
    "Concealment",
    "Consequence",
    "Correction",
    "Flag",
    "HandOutcome",
    "HandState",
    "Kitty",
    "LastTrick",
    "MatchEnd",
    "MatchInfo",
    "MatchState",
    "Note",
    "ThrowFailure",
    "TrickRecord",
    "Violation",
    "state_to_json",
]


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
