"""What the hall page shows, as frozen values built from one tournament snapshot.

Built once per change of the records and shared by every open page: the web layer
only lays these values out. Results, standings, places and levels come from the
tournament layer (``exports.snapshot``, ``tournament.final_places``); nothing here
decides a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from referee_desk.exports.snapshot import Snapshot
from referee_desk.hall.search import matches as name_matches
from referee_desk.tournament.elimination import KO_STAGE
from referee_desk.tournament.final_places import final_places
from referee_desk.tournament.model import Decision, level_name
from referee_desk.tournament.rounds import play_rounds
from referee_desk.tournament.state import MatchState, Status

#: Statuses of a match still to be played or being played.
OPEN = (Status.READY, Status.PLAYING, Status.HELD, Status.WAITING)
_BILINGUAL = re.compile(r" (?=[A-Za-z0-9])")


def one_language(label: str, lang: str) -> str:
    """A bilingual label of the tournament layer ("决赛 Final") in one language."""
    parts = []
    for part in label.split(" · "):
        cut = next(
            (m.start() for m in _BILINGUAL.finditer(part) if not part[: m.start()].isascii()), None
        )
        if cut is None:
            parts.append(part)
        else:
            parts.append(part[:cut] if lang == "zh" else part[cut + 1 :])
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class MatchRow:
    match_id: str
    round_zh: str
    round_en: str
    table: str
    name_a: str
    name_b: str
    status: str
    level_a: str
    level_b: str
    winner: str  # "a", "b" or ""
    decided_zh: str
    decided_en: str
    article: str
    knockout_round: int  # 0 for a group match


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    tied: bool
    pair_id: int
    name: str
    wins: int
    losses: int
    level_diff: int


@dataclass(frozen=True, slots=True)
class GroupTable:
    group: str
    complete: bool
    lines: tuple[StandingLine, ...]


@dataclass(frozen=True, slots=True)
class PlaceLine:
    label: str
    name: str


@dataclass(frozen=True, slots=True)
class Progress:
    round_zh: str
    round_en: str
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Seating:
    """Where one player plays next: table, seat, partner and opponents."""

    name: str
    partner: str
    pair_name: str
    match_id: str
    round_zh: str
    round_en: str
    table: str
    seat: str  # N, S, E or W as the draw seats them (pair A N–S)
    opponents: str


@dataclass(frozen=True, slots=True)
class HallView:
    title: str
    drawn: bool
    progress: Progress | None
    groups: tuple[GroupTable, ...]
    places: tuple[PlaceLine, ...]
    matches: tuple[MatchRow, ...]
    players: tuple[Seating, ...]
    built_at: datetime

    def find(self, query: str, limit: int = 20) -> tuple[Seating, ...]:
        """The players whose name ``query`` finds (characters, pinyin or its initials)."""
        return tuple(p for p in self.players if name_matches(p.name, query))[:limit]

    @property
    def knockout(self) -> tuple[MatchRow, ...]:
        return tuple(m for m in self.matches if m.knockout_round)


def build_view(snap: Snapshot, built_at: datetime | None = None) -> HallView:
    """The page's values for ``snap``."""
    states = snap.state.matches
    return HallView(
        title=snap.info.name,
        drawn=bool(states),
        progress=_progress(states),
        groups=tuple(_group(snap, st) for st in snap.state.standings),
        places=tuple(
            PlaceLine(p.label, _name(snap, p.pair_id))
            for p in final_places(snap.state, snap.settings)
        ),
        matches=tuple(_row(snap, s) for s in states if s.status is not Status.VOID),
        players=_seatings(snap),
        built_at=built_at or datetime.now().astimezone(),
    )


def _name(snap: Snapshot, pair_id: int | None) -> str:
    pair = snap.pair(pair_id)
    return pair.name if pair else ""


def _row(snap: Snapshot, s: MatchState) -> MatchRow:
    levels = dict(s.outcome.levels) if s.outcome else {}
    decided: Decision | None = s.outcome.decided_by if s.outcome and s.winner else None
    label = snap.round_name(s.match)
    return MatchRow(
        match_id=s.match.match_id,
        round_zh=one_language(label, "zh"),
        round_en=one_language(label, "en"),
        table=s.match.table,
        name_a=_name(snap, s.pair_a) or s.match.slot_a.describe(),
        name_b=_name(snap, s.pair_b) or s.match.slot_b.describe(),
        status=s.status.value,
        level_a=level_name(levels[s.pair_a]) if s.pair_a in levels else "",
        level_b=level_name(levels[s.pair_b]) if s.pair_b in levels else "",
        winner="a" if s.winner and s.winner == s.pair_a else "b" if s.winner else "",
        decided_zh=decided.label_zh if decided else "",
        decided_en=decided.label_en if decided else "",
        article=decided.article if decided else "",
        knockout_round=s.match.round if s.match.stage == KO_STAGE else 0,
    )


def _group(snap: Snapshot, st) -> GroupTable:
    return GroupTable(
        group=st.group,
        complete=st.complete,
        lines=tuple(
            StandingLine(
                r.rank, r.tied, r.pair_id, _name(snap, r.pair_id), r.wins, r.losses, r.level_diff
            )
            for r in st.rows
        ),
    )


def _progress(states: tuple[MatchState, ...]) -> Progress | None:
    """The first round in the order of play with a table still playing (else the last)."""
    rounds = [r for r in play_rounds(states) if r.matches]
    if not rounds:
        return None
    current = next((r for r in rounds if any(m.status in OPEN for m in r.matches)), rounds[-1])
    done = sum(1 for m in current.matches if m.status is Status.DECIDED)
    return Progress(
        one_language(current.label, "zh"),
        one_language(current.label, "en"),
        done,
        len(current.matches),
    )


def _seatings(snap: Snapshot) -> tuple[Seating, ...]:
    """Every player with the next match their pair plays (in the order of play)."""
    upcoming: dict[int, MatchState] = {}
    for r in play_rounds(snap.state.matches):
        for s in r.matches:
            if s.status not in (Status.READY, Status.PLAYING, Status.HELD):
                continue
            for pid in (s.pair_a, s.pair_b):
                if pid is not None:
                    upcoming.setdefault(pid, s)
    out: list[Seating] = []
    for pair in snap.pairs.values():
        nxt = upcoming.get(pair.pair_id)
        for me, partner, seats in (
            (pair.player1, pair.player2, "NE"),
            (pair.player2, pair.player1, "SW"),
        ):
            if nxt is None:
                out.append(Seating(me, partner, pair.name, "", "", "", "", "", ""))
                continue
            is_a = nxt.pair_a == pair.pair_id
            label = snap.round_name(nxt.match)
            out.append(
                Seating(
                    name=me,
                    partner=partner,
                    pair_name=pair.name,
                    match_id=nxt.match.match_id,
                    round_zh=one_language(label, "zh"),
                    round_en=one_language(label, "en"),
                    table=nxt.match.table,
                    seat=seats[0] if is_a else seats[1],
                    opponents=_name(snap, nxt.pair_b if is_a else nxt.pair_a),
                )
            )
    return tuple(sorted(out, key=lambda p: (p.name, p.pair_name)))
