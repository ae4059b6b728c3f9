"""What the hall page shows, read once from the tournament: small frozen values.

Everything here comes from the tournament layer (``Tournament.state``, ``play_rounds``,
``player_index``, ``bracket_layout``, ``opening_payload``): the page computes no rule,
it lays out what the layer decided. One ``HallView`` is built per change and shared by
every page and client until the next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee_desk.hall.names import name_keys
from referee_desk.tournament.elimination import KO_STAGE
from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.layout import bracket_layout
from referee_desk.tournament.model import Pair, level_name
from referee_desk.tournament.player_index import player_index
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.rounds import play_rounds
from referee_desk.tournament.state import MatchState, Status

OPEN = (Status.READY, Status.PLAYING, Status.HELD)
FINISHED = (Status.DECIDED, Status.BYE, Status.VOID)


@dataclass(frozen=True, slots=True)
class MatchRow:
    match_id: str
    round_name: str
    table: str
    pair_a: str
    pair_b: str
    status: str
    """A ``Status`` value (the template words it)."""
    level_a: str = ""
    level_b: str = ""
    decided_by: str = ""
    """A ``Decision`` value, or empty."""
    winner: str = ""
    """``a``, ``b`` or empty."""
    events: int = 0


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    label: str
    finished: int
    total: int
    matches: tuple[MatchRow, ...]


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    pair: str
    played: int
    wins: int
    losses: int
    level_diff: int
    tied: bool


@dataclass(frozen=True, slots=True)
class GroupTable:
    name: str
    lines: tuple[StandingLine, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class BracketBox:
    match_id: str
    x: int
    y: int
    pair_a: str
    pair_b: str
    winner: str
    status: str
    third_place: bool
    feeds: tuple[int, int, int] | None = None
    """(x, y, y2): where the box's line goes to the next round's box, when drawn."""


@dataclass(frozen=True, slots=True)
class Bracket:
    width: int
    height: int
    boxes: tuple[BracketBox, ...]
    round_labels: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Seat:
    direction: str
    """``N``, ``S``, ``E`` or ``W``."""
    name: str


@dataclass(frozen=True, slots=True)
class PlayerRow:
    name: str
    keys: tuple[str, ...]
    """What finds this player: the name, its pinyin and pinyin initials (lower case)."""
    pair: str
    partner: str
    club: str
    table: str = ""
    match_id: str = ""
    round_name: str = ""
    seat: str = ""
    opponents: str = ""
    seats: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True)
class HallView:
    name: str
    venue: str = ""
    drawn: bool = False
    rounds: tuple[RoundRow, ...] = ()
    groups: tuple[GroupTable, ...] = ()
    bracket: Bracket | None = None
    players: tuple[PlayerRow, ...] = ()
    places: tuple[tuple[int, str], ...] = ()
    problems: tuple[str, ...] = field(default=())

    @property
    def current_round(self) -> RoundRow | None:
        """The first round not yet finished (the last one once all are)."""
        for r in self.rounds:
            if r.finished < r.total:
                return r
        return self.rounds[-1] if self.rounds else None


def build_view(t: Tournament) -> HallView:
    """The page's values from an open tournament (read-only)."""
    info = t.info
    if not t.drawn:
        return HallView(name=info.name, venue=info.venue)
    state = t.state()
    pairs = t.pair_map()
    names = {pid: p.name for pid, p in pairs.items()}
    rows = {s.match.match_id: _match_row(t, s, names) for s in state.matches}
    rounds = tuple(
        RoundRow(
            r.number,
            r.label,
            sum(1 for m in r.matches if m.status in FINISHED),
            len(r.matches),
            tuple(rows[m.match.match_id] for m in r.matches),
        )
        for r in play_rounds(state.matches)
    )
    groups = tuple(
        GroupTable(
            g.group,
            tuple(
                StandingLine(
                    row.rank,
                    names.get(row.pair_id, f"#{row.pair_id}"),
                    row.played,
                    row.wins,
                    row.losses,
                    row.level_diff,
                    row.tied,
                )
                for row in g.rows
            ),
            g.complete,
        )
        for g in state.standings
    )
    round_names = {s.match.match_id: t.round_name(s.match) for s in state.matches}
    players = tuple(_players(t, state.matches, pairs, round_names))
    return HallView(
        name=info.name,
        venue=info.venue,
        drawn=True,
        rounds=rounds,
        groups=groups,
        bracket=_bracket(state.matches, names),
        players=players,
        places=tuple((p.place, names.get(p.pair_id, "")) for p in state.places),
        problems=state.problems,
    )


def _match_row(t: Tournament, s: MatchState, names: Mapping[int, str]) -> MatchRow:
    o = s.outcome
    levels = dict(o.levels) if o else {}
    winner = ""
    if s.winner is not None and s.status in (Status.DECIDED, Status.BYE):
        winner = "a" if s.winner == s.pair_a else "b"
    decided = s.decided_by
    return MatchRow(
        match_id=s.match.match_id,
        round_name=t.round_name(s.match),
        table=s.match.table,
        pair_a=names.get(s.pair_a, "") if s.pair_a else "",
        pair_b=names.get(s.pair_b, "") if s.pair_b else "",
        status=s.status.value,
        level_a=level_name(levels[s.pair_a]) if s.pair_a in levels else "",
        level_b=level_name(levels[s.pair_b]) if s.pair_b in levels else "",
        decided_by=decided.value if decided else "",
        winner=winner,
        events=o.events if o else 0,
    )


BOX_W, BOX_H, GAP_X, LINE_H = 220, 56, 60, 36


def _bracket(states, names: Mapping[int, str]) -> Bracket | None:
    ko = [s for s in states if s.match.stage == KO_STAGE]
    layout = bracket_layout(ko)
    if not layout.boxes:
        return None
    by_id = {s.match.match_id: s for s in ko}
    place = {}
    for b in layout.boxes:
        center = (b.top + b.half) * LINE_H if not b.third_place else (b.top + 1) * LINE_H
        place[b.match_id] = (b.column * (BOX_W + GAP_X), center - BOX_H // 2 + 30)
    boxes = []
    for b in layout.boxes:
        s = by_id[b.match_id]
        x, y = place[b.match_id]
        feeds = None
        nxt = next(
            (
                o
                for o in layout.boxes
                if not o.third_place
                and not b.third_place
                and o.column == b.column + 1
                and o.top <= b.top <= o.bottom
            ),
            None,
        )
        if nxt is not None:
            nx, ny = place[nxt.match_id]
            feeds = (nx, y + BOX_H // 2, ny + BOX_H // 2)
        winner = ""
        if s.winner is not None and s.status in (Status.DECIDED, Status.BYE):
            winner = "a" if s.winner == s.pair_a else "b"
        boxes.append(
            BracketBox(
                b.match_id,
                x,
                y,
                names.get(s.pair_a, "") if s.pair_a else "",
                names.get(s.pair_b, "") if s.pair_b else "",
                winner,
                s.status.value,
                b.third_place,
                feeds,
            )
        )
    width = layout.rounds * (BOX_W + GAP_X)
    height = max(y for _, y in place.values()) + BOX_H + 20
    return Bracket(width, height, tuple(boxes))


def _players(t: Tournament, states, pairs: Mapping[int, Pair], round_names) -> list[PlayerRow]:
    by_id = {s.match.match_id: s for s in states}
    seats_of: dict[str, dict[str, str]] = {}
    held = set(t.file.heads())
    out = []
    for e in player_index(pairs, states, round_names):
        pair = pairs[e.pair_id]
        row = PlayerRow(
            name=e.name,
            keys=name_keys(e.name),
            pair=pair.name,
            partner=e.partner,
            club=e.club,
        )
        if e.match_id:
            s = by_id[e.match_id]
            if e.match_id not in seats_of:
                seats_of[e.match_id] = _seats(t, s, held)
            seats = seats_of[e.match_id]
            other = s.pair_b if s.pair_a == e.pair_id else s.pair_a
            row = PlayerRow(
                name=e.name,
                keys=row.keys,
                pair=pair.name,
                partner=e.partner,
                club=e.club,
                table=e.table,
                match_id=e.match_id,
                round_name=e.round_name,
                seat=next((d for d, n in seats.items() if n == e.name), ""),
                opponents=pairs[other].name if other in pairs else "",
                seats=tuple(Seat(d, seats[d]) for d in "NESW" if d in seats),
            )
        out.append(row)
    return out


def _seats(t: Tournament, s: MatchState, held: set[str]) -> dict[str, str]:
    """Who sits where: the desk's opening when the match is recorded, else the drawn one."""
    record = t.record_id(s.match.match_id)
    events = t.file.events(record) if record in held else []
    if events and isinstance(events[0].payload.get("seats"), dict):
        return {str(k): str(v) for k, v in events[0].payload["seats"].items()}
    try:
        return dict(t.opening_payload(s.match.match_id)["seats"])
    except DrawError:  # its pairs are not known yet
        return {}
