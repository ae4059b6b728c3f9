"""The organizer's table board: per table, who was heard when, what is held back, conflicts.

Qt-free and read-only, for the desk's organizer view and the hall's web page alike:
``table_board(server)`` reads the server once (desks, heartbeats, assignments,
conflicts, settlements) and returns frozen values. One owner for when a conflict is
settled (``is_settled``) and when a table is offline (``OFFLINE_MINUTES``).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.store.postgres.server import (
    Heartbeat,
    ServerConflict,
    Settlement,
    TournamentServer,
)

#: A table still playing that sent no heartbeat for this long is offline.
OFFLINE_MINUTES = 3.0


@dataclass(frozen=True, slots=True)
class Laptop:
    """One desk laptop at a table, told apart from another on the same address by its key."""

    desk_key: str
    client: str
    last_heard: str
    seconds_ago: float
    waiting: int
    behind: tuple[str, ...]
    restored: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoardConflict:
    match_id: str
    seq: int
    kind: str
    reported_by: str
    reported_at: str
    detail: str
    settled: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table: its laptops (by desk key), whether it is playing, offline, in conflict."""

    table: str
    desk_role: str
    laptops: tuple[Laptop, ...]
    playing: tuple[str, ...]  # its published matches not ended yet
    offline: bool
    open_conflicts: tuple[BoardConflict, ...]
    settled_conflicts: tuple[BoardConflict, ...]

    @property
    def last_heard(self) -> str:
        return max((lap.last_heard for lap in self.laptops), default="")

    @property
    def seconds_ago(self) -> float | None:
        return min((lap.seconds_ago for lap in self.laptops), default=None)

    @property
    def waiting(self) -> int:
        return sum(lap.waiting for lap in self.laptops)

    @property
    def behind(self) -> tuple[str, ...]:
        return tuple(sorted({m for lap in self.laptops for m in lap.behind}))

    @property
    def restored(self) -> tuple[str, ...]:
        return tuple(sorted({m for lap in self.laptops for m in lap.restored}))

    @property
    def desk_keys(self) -> tuple[str, ...]:
        return tuple(lap.desk_key for lap in self.laptops)

    @property
    def shared(self) -> bool:
        """Two laptops (two desk keys) used this table's address."""
        return len(self.laptops) > 1


@dataclass(frozen=True, slots=True)
class TableBoard:
    rows: tuple[TableRow, ...]
    open_conflicts: tuple[BoardConflict, ...]
    settled_conflicts: tuple[BoardConflict, ...]
    offline_minutes: float

    @property
    def offline(self) -> tuple[TableRow, ...]:
        return tuple(r for r in self.rows if r.offline)


def is_settled(
    conflict: ServerConflict,
    settlements: list[Settlement],
    holders: dict[str, str | None],
    seal_times: dict[str, str],
) -> bool:
    """Whether the organizer (or a later push) has since settled this conflict.

    A settlement of the match after it settles any kind (and a fork at the point it
    settled, reported again by a desk not yet on the kept record); a claim is settled once the
    match belongs to the desk that was refused; a refused lock once the server took a
    lock of the match after it.
    """
    if any(
        s.match_id == conflict.match_id
        and (
            s.settled_at >= conflict.reported_at
            or (conflict.kind == "fork" and conflict.seq == s.fork_seq)  # the same fork, again
        )
        for s in settlements
    ):
        return True
    if conflict.kind == "claimed":
        return holders.get(conflict.match_id) == conflict.reported_by
    if conflict.kind == "seal":
        return seal_times.get(conflict.match_id, "") >= conflict.reported_at
    return False


def conflicts_of(server: TournamentServer) -> list[BoardConflict]:
    """Every conflict desks reported, each marked settled or open (organizer)."""
    settlements = server.settlements()
    holders = {a.match_id: a.desk_role for a in server.assignments()}
    seal_times = server.seal_times()
    return [
        BoardConflict(
            c.match_id,
            c.seq,
            c.kind,
            c.reported_by,
            c.reported_at,
            c.detail,
            is_settled(c, settlements, holders, seal_times),
        )
        for c in server.conflicts()
    ]


def table_board(server: TournamentServer, offline_minutes: float = OFFLINE_MINUTES) -> TableBoard:
    """The board now, from the organizer's connection."""
    beats: dict[str, list[Heartbeat]] = {}
    for beat in server.heartbeats():
        beats.setdefault(beat.desk_role, []).append(beat)
    ended = server.ended_matches()
    playing: dict[str, list[str]] = {}
    for a in server.assignments():
        if a.desk_role and a.opening is not None and a.match_id not in ended:
            playing.setdefault(a.desk_role, []).append(a.match_id)
    conflicts = conflicts_of(server)
    rows = []
    for desk in server.desks():
        laptops = tuple(
            Laptop(
                b.desk_key, b.client, b.last_heard, b.seconds_ago, b.waiting, b.behind, b.restored
            )
            for b in beats.get(desk.role, [])
        )
        mine = [c for c in conflicts if c.reported_by == desk.role]
        ago = min((lap.seconds_ago for lap in laptops), default=None)
        plays = tuple(playing.get(desk.role, []))
        rows.append(
            TableRow(
                desk.table_label,
                desk.role,
                laptops,
                plays,
                bool(plays) and (ago is None or ago > offline_minutes * 60),
                tuple(c for c in mine if not c.settled),
                tuple(c for c in mine if c.settled),
            )
        )
    return TableBoard(
        tuple(rows),
        tuple(c for c in conflicts if not c.settled),
        tuple(c for c in conflicts if c.settled),
        offline_minutes,
    )
