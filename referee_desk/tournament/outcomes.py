"""From a replayed match record to a ``MatchOutcome``: the adapter of issue 6.

The match record names its pairs by side (``match_opened``); the tournament knows
pairs by id. A side is matched to a pair by the ``#<id>`` the tournament writes
into the opening payload, else by the two players seated on that side, else by
the pair's name. Outcomes are cached per match keyed by the head of its hash
chain, so an unchanged record is not replayed again (``results``, ``outcome_cache``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.tournament.errors import OutcomeError
from referee_desk.tournament.model import Decision, MatchOutcome, Pair, Penalty, level_index

#: Bumped when the reading of a record changes: cached outcomes are replayed again.
CACHE_VERSION = "d2"
_ID = re.compile(r"^\s*#(\d+)\b")
_END_DECISION = {
    "passed_a": Decision.PASSED_A,
    "forfeit": Decision.FORFEIT,
    "disqualification": Decision.DISQUALIFICATION,
}


def _norm(text: str) -> str:
    return re.sub(r"[\s/、,，&]+", " ", text).strip()


def side_pairs(info: Any, pair_a: Pair, pair_b: Pair) -> dict[str, int]:
    """Side value (``NS``/``EW``) -> pair id, or OutcomeError when the record is unclear."""
    found: dict[str, int] = {}
    candidates = (pair_a, pair_b)
    for side, label in info.pairs.items():
        side_v = getattr(side, "value", side)
        m = _ID.match(label or "")
        if m and int(m.group(1)) in (pair_a.pair_id, pair_b.pair_id):
            found[side_v] = int(m.group(1))
            continue
        seated = {
            _norm(name)
            for seat, name in info.seats.items()
            if getattr(getattr(seat, "side", None), "value", None) == side_v
        }
        for p in candidates:
            if seated == {_norm(p.player1), _norm(p.player2)} or _norm(label) == _norm(p.name):
                found[side_v] = p.pair_id
                break
    if len(found) != 2 or len(set(found.values())) != 2:
        raise OutcomeError(
            f"the record names pairs {dict(info.pairs)}; cannot tell which of "
            f"#{pair_a.pair_id} {pair_a.name} and #{pair_b.pair_id} {pair_b.name} sat where"
        )
    return found


def _level(rank: Any) -> int:
    return int(rank) - 3


def _referral_seq(events: Sequence[Event], voided: frozenset[int]) -> int:
    """Seq of the last conduct warning (the second offence is what refers a side, 8.8)."""
    return max(
        (e.seq for e in events if e.type == "conduct_warning" and e.seq not in voided), default=0
    )


def _pending_referral(state: Any, events: Sequence[Event], rulings: Sequence[Event]) -> bool:
    """A side reported to the committee (8.8) with neither its decision nor a later ruling.

    After the end the record accepts only a ``committee_ruling`` (8.11), so a ruling
    entered after the referral settles it.
    """
    if not getattr(state, "referred", ()):
        return False
    voided: frozenset[int] = getattr(state, "voided_seqs", frozenset())
    referred_at = _referral_seq(events, voided)
    return not any(r.seq > referred_at for r in rulings)


def _rulings(state: Any, events: Sequence[Event]) -> list[Event]:
    voided: frozenset[int] = getattr(state, "voided_seqs", frozenset())
    return [e for e in events if e.type == "committee_ruling" and e.seq not in voided]


def match_decision(state: Any, events: Sequence[Event]) -> Decision | None:
    """How a replayed match was decided: the one answer every document prints.

    The end of the record says it (1.5 pass A or time-out, 8.10 forfeit, 8.8
    disqualification). The committee decided it (8.11) only when its ruling set the
    levels itself (``level_changes``); a ruling that deducts points, warns, rejects an
    appeal or lets a referred match stand leaves the match decided at the table (the
    replay applies any points it changed, and the record keeps the ruling).
    """
    end = state.end
    if end is None:
        return None
    if end.reason == "time_out":
        levels = {getattr(s, "value", s): _level(r) for s, r in state.levels.items()}
        passed = getattr(state.passed_a, "value", state.passed_a)
        if passed is not None:
            levels[passed] = 12
        equal = len(set(levels.values())) == 1
        decision = Decision.TIME_OUT_DEAL if equal else Decision.TIME_OUT_LEVEL
    else:
        decision = _END_DECISION.get(end.reason, Decision.COMMITTEE)
    table = (Decision.PASSED_A, Decision.TIME_OUT_LEVEL, Decision.TIME_OUT_DEAL)
    if decision in table and any(r.payload.get("level_changes") for r in _rulings(state, events)):
        return Decision.COMMITTEE
    return decision


def outcome_from_state(
    state: Any, events: Sequence[Event], pair_a: Pair, pair_b: Pair, match_id: str
) -> MatchOutcome:
    """The tournament's view of one replayed match (``referee_desk.match.replay``)."""
    if state.info is None:
        raise OutcomeError(f"match {match_id}: the record has no match_opened event")
    sides = side_pairs(state.info, pair_a, pair_b)
    levels = {sides[getattr(s, "value", s)]: _level(r) for s, r in state.levels.items()}
    passed = getattr(state.passed_a, "value", state.passed_a)
    if passed is not None:
        levels[sides[passed]] = 12
    winner = None
    end = state.end
    decided_by = match_decision(state, events)
    if end is not None:
        winner = sides[getattr(end.winner, "value", end.winner)]
        if decided_by is Decision.FORFEIT:
            # 8.10: the forfeiting side scores 0 for the match, counted at the first level
            # (3 in Guilin; 2 in the presets, 12.1).
            first = level_index(state.ruleset.first_level)
            levels[pair_b.pair_id if winner == pair_a.pair_id else pair_a.pair_id] = first
    rulings = _rulings(state, events)
    penalties = tuple(
        Penalty(sides.get(v.side.value), v.kind, v.article, v.detail) for v in state.violations
    )
    hands = sum(1 for h in state.hands if h.status in ("finished", "revoked"))
    return MatchOutcome(
        match_id=match_id,
        pair_a=pair_a.pair_id,
        pair_b=pair_b.pair_id,
        winner=winner,
        decided_by=decided_by,
        levels=tuple(sorted(levels.items())),
        dispute_pending=_pending_referral(state, events, rulings),
        finished=end is not None,
        penalties=penalties,
        hands=hands,
        final_hash=events[-1].hash if events else "",
        events=len(events),
        notes=tuple(n.text for n in state.notes),
    )


def outcome_to_dict(o: MatchOutcome) -> dict:
    return {
        "match_id": o.match_id,
        "pair_a": o.pair_a,
        "pair_b": o.pair_b,
        "winner": o.winner,
        "decided_by": o.decided_by.value if o.decided_by else None,
        "levels": [list(x) for x in o.levels],
        "dispute_pending": o.dispute_pending,
        "finished": o.finished,
        "penalties": [[p.pair_id, p.kind, p.article, p.text] for p in o.penalties],
        "hands": o.hands,
        "final_hash": o.final_hash,
        "events": o.events,
        "notes": list(o.notes),
    }


def outcome_from_dict(d: dict) -> MatchOutcome:
    return MatchOutcome(
        match_id=d["match_id"],
        pair_a=d["pair_a"],
        pair_b=d["pair_b"],
        winner=d["winner"],
        decided_by=Decision(d["decided_by"]) if d["decided_by"] else None,
        levels=tuple(tuple(x) for x in d["levels"]),
        dispute_pending=d["dispute_pending"],
        finished=d["finished"],
        penalties=tuple(Penalty(*p) for p in d["penalties"]),
        hands=d["hands"],
        final_hash=d["final_hash"],
        events=d["events"],
        notes=tuple(d["notes"]),
    )


def replay_events(events: Sequence[Event]) -> Any:
    from referee_desk.match import replay  # the match layer's public entry point

    return replay(list(events))


def check_ruleset(state: Any, frozen: str, record_id: str) -> None:
    """A record counts only under the ruleset frozen at the draw (every match alike)."""
    played = state.ruleset.name
    if played != frozen:
        raise OutcomeError(
            f"record {record_id} was played under the ruleset {played}, "
            f"the tournament's is {frozen} (frozen at the draw)"
        )
