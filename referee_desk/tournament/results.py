"""Outcomes of every drawn match from the store's records: the owner of that derivation.

It takes only what it needs: the frozen draw as plain values (``DrawnTournament``), the
store's records and the outcome cache. The tournament handle (``repository``) builds
those and keeps the answer; nothing here reaches back into it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from referee_desk.store.tables import Records
from referee_desk.tournament.deciding import counted_events, decide
from referee_desk.tournament.model import MatchOutcome, Pair, Settings, TournamentMatch
from referee_desk.tournament.outcome_cache import OutcomeCache
from referee_desk.tournament.outcomes import (
    CACHE_VERSION,
    check_ruleset,
    outcome_from_dict,
    outcome_from_state,
    outcome_to_dict,
    replay_events,
)
from referee_desk.tournament.state import resolve


@dataclass(frozen=True, slots=True)
class DrawnTournament:
    """What deriving outcomes reads of a tournament: its draw and organizer data."""

    matches: list[TournamentMatch]
    groups: dict[str, list[int]]
    settings: Settings
    lots: dict[str, dict[int, int]]
    pairs: dict[int, Pair]
    ruleset_name: str
    links: list[tuple[str, str, str]]
    """(record id, drawn match id, linked by): records kept under a desk's own id that
    count for a drawn match (``deciding`` says which link stands)."""


@dataclass(frozen=True, slots=True)
class Derived:
    outcomes: dict[str, MatchOutcome]
    problems: dict[str, str] = field(default_factory=dict)
    """match id -> why its record could not be read as an outcome (left out)."""


def derive_outcomes(draw: DrawnTournament, records: Records, cache: OutcomeCache) -> Derived:
    """Outcomes of every drawn match with a record in the store (cached by chain head).

    A record that cannot be read as an outcome is left out and named in ``problems``.
    """
    # Which record decides each drawn match, and how much of it counts (one owner).
    decided = decide(records, draw.matches, draw.links)
    problems: dict[str, str] = dict(decided.problems)
    choices = decided.choices
    if not choices:
        return Derived({}, problems)
    # Which pairs play each match is known only after earlier results; resolve in
    # passes until no new match gains its pairs (each pass adds at least one round).
    cached = cache.load()
    outcomes: dict[str, MatchOutcome] = {}
    fresh: list[tuple[str, str, str]] = []
    done: set[str] = set()
    while True:
        st = resolve(draw.matches, draw.groups, outcomes, draw.settings, draw.lots)
        new = [
            s
            for s in st.matches
            if s.match.match_id in choices
            and s.match.match_id not in done
            and s.pair_a is not None
            and s.pair_b is not None
        ]
        if not new:
            break
        for s in new:
            mid = s.match.match_id
            assert s.pair_a is not None and s.pair_b is not None
            done.add(mid)
            choice = choices[mid]
            key = f"{choice.head[1]}:{s.pair_a}:{s.pair_b}:{CACHE_VERSION}"
            if choice.length is not None:  # not all vouched for: cached only while live
                key += f":live{choice.length}"
            if mid in cached and cached[mid][0] == key:
                outcomes[mid] = outcome_from_dict(cached[mid][1])
                continue
            try:
                events, state, problem = counted_events(records, choice, replay_events)
                if problem is not None:
                    problems[mid] = problem
                if not events:
                    continue
                check_ruleset(state, draw.ruleset_name, choice.record_id)
                o = outcome_from_state(
                    state, events, draw.pairs[s.pair_a], draw.pairs[s.pair_b], mid
                )
            except (ValueError, ImportError) as error:
                problems[mid] = str(error)
                continue
            outcomes[mid] = o
            if problem is None:
                fresh.append((mid, key, json.dumps(outcome_to_dict(o), ensure_ascii=False)))
    cache.save(fresh)
    return Derived(outcomes, problems)
