"""Values of the tournament layer: pairs, settings, matches and their outcomes.

Everything here is a frozen value; persistence lives in ``repository`` and the
bracket/standings logic in ``elimination``, ``groups`` and ``standings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from referee_desk.tournament.errors import OutcomeError, PairError, TournamentError

#: Levels in order (RULES.md 2): 3 … A; a side that passed A ranks above A.
LEVEL_NAMES: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PASSED_A = "过A"
#: The presets' first level (RULES.md 12.1 levels = 2..A) sits below Guilin's 3: index -1,
#: so Guilin's stored indices (0 for 3) keep their meaning.
LEVEL_TWO = "2"
LEVEL_TWO_INDEX = -1


def level_index(level: str) -> int:
    """-1 for level 2 (the presets, 12.1), 0 for 3 … 11 for A, 12 for passed A (1.5)."""
    text = str(level).strip().upper()
    if text in (PASSED_A, "PASSED_A", "A+"):
        return len(LEVEL_NAMES)
    if text == "T":
        text = "10"
    if text == LEVEL_TWO:
        return LEVEL_TWO_INDEX
    try:
        return LEVEL_NAMES.index(text)
    except ValueError:
        raise OutcomeError(f"bad level {level!r}: use 2 … 10 J Q K A or 过A") from None


def level_name(index: int) -> str:
    if index >= len(LEVEL_NAMES):
        return PASSED_A
    return LEVEL_TWO if index <= LEVEL_TWO_INDEX else LEVEL_NAMES[index]


class Decision(StrEnum):
    """How a match was decided (RULES.md 10, 9.7, 9.9, 9.10)."""

    PASSED_A = "passed_a"
    TIME_OUT_LEVEL = "time_out_level"
    TIME_OUT_DEAL = "time_out_deal"
    FORFEIT = "forfeit"
    DISQUALIFICATION = "disqualification"
    COMMITTEE = "committee"
    BYE = "bye"

    @property
    def article(self) -> str:
        return _DECISION_ARTICLES[self]

    @property
    def label_zh(self) -> str:
        return _DECISION_ZH[self]

    @property
    def label_en(self) -> str:
        return _DECISION_EN[self]

    @property
    def is_marked(self) -> bool:
        """Wins the bracket marks specially: not won at the table (issue 6)."""
        return self in (Decision.FORFEIT, Decision.DISQUALIFICATION, Decision.COMMITTEE)


_DECISION_ARTICLES = {
    Decision.PASSED_A: "1.5",
    Decision.TIME_OUT_LEVEL: "1.5",
    Decision.TIME_OUT_DEAL: "1.5",
    Decision.FORFEIT: "8.10",
    Decision.DISQUALIFICATION: "8.8",
    Decision.COMMITTEE: "8.11",
    Decision.BYE: "",
}
_DECISION_ZH = {
    Decision.PASSED_A: "打过A",
    Decision.TIME_OUT_LEVEL: "超时·级高",
    Decision.TIME_OUT_DEAL: "超时·同级在庄",
    Decision.FORFEIT: "弃权",
    Decision.DISQUALIFICATION: "取消资格",
    Decision.COMMITTEE: "仲裁裁定",
    Decision.BYE: "轮空",
}
_DECISION_EN = {
    Decision.PASSED_A: "passed A",
    Decision.TIME_OUT_LEVEL: "time-out, higher level",
    Decision.TIME_OUT_DEAL: "time-out, equal level, holding the deal",
    Decision.FORFEIT: "forfeit",
    Decision.DISQUALIFICATION: "disqualification",
    Decision.COMMITTEE: "committee ruling",
    Decision.BYE: "bye",
}


@dataclass(frozen=True, slots=True)
class Pair:
    """A registered pair: two partners, their club and an optional seed (1 = top)."""

    pair_id: int
    player1: str
    player2: str
    club: str = ""
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.pair_id <= 0:
            raise PairError(f"pair id must be positive, not {self.pair_id}")
        if not self.player1.strip() or not self.player2.strip():
            raise PairError(f"pair {self.pair_id}: both player names are required")
        if self.seed is not None and self.seed <= 0:
            raise PairError(f"pair {self.pair_id}: seed must be positive, not {self.seed}")

    @property
    def name(self) -> str:
        return f"{self.player1} / {self.player2}"


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    GROUPS_KNOCKOUT = "groups_knockout"


class TieBreak(StrEnum):
    """Group standings criteria; their order is a tournament setting (issue 6)."""

    WINS = "wins"
    LEVEL_DIFF = "level_diff"
    HEAD_TO_HEAD = "head_to_head"
    LOTS = "lots"

    @property
    def label_zh(self) -> str:
        return {
            TieBreak.WINS: "胜场",
            TieBreak.LEVEL_DIFF: "终局级差",
            TieBreak.HEAD_TO_HEAD: "相互胜负",
            TieBreak.LOTS: "抽签",
        }[self]


DEFAULT_TIE_BREAKS: tuple[TieBreak, ...] = (
    TieBreak.WINS,
    TieBreak.LEVEL_DIFF,
    TieBreak.HEAD_TO_HEAD,
    TieBreak.LOTS,
)


def parse_tie_breaks(text: str | list[str] | tuple[str, ...]) -> tuple[TieBreak, ...]:
    """Parse an order like ``wins,level_diff,head_to_head,lots``; lots must come last."""
    items = text.split(",") if isinstance(text, str) else list(text)
    try:
        order = tuple(TieBreak(str(item).strip()) for item in items if str(item).strip())
    except ValueError:
        known = ", ".join(t.value for t in TieBreak)
        raise TournamentError(f"bad tie-break order {text!r}; known: {known}") from None
    if len(set(order)) != len(order):
        raise TournamentError(f"tie-break order {text!r} names a criterion twice")
    if TieBreak.LOTS not in order:
        order = (*order, TieBreak.LOTS)
    if order[-1] is not TieBreak.LOTS:
        raise TournamentError("the drawing of lots must be the last tie-break")
    return order


@dataclass(frozen=True, slots=True)
class Settings:
    """How the tournament is played; frozen with the ruleset at the draw."""

    format: Format = Format.SINGLE_ELIMINATION
    third_place: bool = False
    group_count: int = 0
    advance_per_group: int = 2
    tie_breaks: tuple[TieBreak, ...] = DEFAULT_TIE_BREAKS

    def to_dict(self) -> dict:
        return {
            "format": self.format.value,
            "third_place": self.third_place,
            "group_count": self.group_count,
            "advance_per_group": self.advance_per_group,
            "tie_breaks": [t.value for t in self.tie_breaks],
        }

    @classmethod
    def from_dict(cls, data: dict) -> Settings:
        return cls(
            format=Format(data.get("format", Format.SINGLE_ELIMINATION.value)),
            third_place=bool(data.get("third_place", False)),
            group_count=int(data.get("group_count", 0)),
            advance_per_group=int(data.get("advance_per_group", 2)),
            tie_breaks=parse_tie_breaks(
                data.get("tie_breaks", [t.value for t in DEFAULT_TIE_BREAKS])
            ),
        )


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What every printed page states about the event."""

    name: str
    start_date: str = ""
    end_date: str = ""
    venue: str = ""
    organizer: str = ""
    tables: tuple[str, ...] = ()
    referees: tuple[str, ...] = ()

    @property
    def dates(self) -> str:
        if self.end_date and self.end_date != self.start_date:
            return f"{self.start_date} – {self.end_date}"
        return self.start_date


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one side of a match comes from.

    kind ``pair`` (a fixed pair), ``bye``, ``winner``/``loser`` of another match,
    or ``group`` (``ref`` = group name, ``rank`` = place in that group).
    """

    kind: str
    pair_id: int | None = None
    ref: str = ""
    rank: int = 0

    def to_dict(self) -> dict:
        return {"kind": self.kind, "pair_id": self.pair_id, "ref": self.ref, "rank": self.rank}

    @classmethod
    def from_dict(cls, data: dict) -> Slot:
        return cls(data["kind"], data.get("pair_id"), data.get("ref", ""), data.get("rank", 0))

    def describe(self) -> str:
        if self.kind == "winner":
            return f"{self.ref} 胜者"
        if self.kind == "loser":
            return f"{self.ref} 负者"
        if self.kind == "group":
            return f"{self.ref}组第{self.rank}名"
        if self.kind == "bye":
            return "轮空 bye"
        return ""


@dataclass(frozen=True, slots=True)
class TournamentMatch:
    """A match of the draw: stage, round, position, where its sides come from, table, referee.

    ``stage`` is ``KO`` (knockout) or ``G:<name>`` (a group); ``position`` orders
    matches inside a round (1-based). ``third_place`` marks the match for 3rd place.
    """

    match_id: str
    stage: str
    round: int
    position: int
    slot_a: Slot
    slot_b: Slot
    table: str = ""
    referee: str = ""
    third_place: bool = False

    @property
    def group(self) -> str | None:
        return self.stage[2:] if self.stage.startswith("G:") else None


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty or violation recorded in a match, for summaries."""

    pair_id: int | None
    kind: str
    article: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """The adapter between a replayed match record and the tournament.

    ``winner``/``loser`` are pair ids (None while undecided); ``levels`` maps each
    pair id to its level index at the end (see ``level_index``); a match whose
    committee ruling is pending has ``dispute_pending`` and holds its branch.
    """

    match_id: str
    pair_a: int
    pair_b: int
    winner: int | None
    decided_by: Decision | None
    levels: tuple[tuple[int, int], ...] = ()
    dispute_pending: bool = False
    finished: bool = True
    penalties: tuple[Penalty, ...] = ()
    hands: int = 0
    final_hash: str = ""
    events: int = 0
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in (self.pair_a, self.pair_b):
            raise OutcomeError(
                f"match {self.match_id}: winner {self.winner} is neither pair "
                f"{self.pair_a} nor pair {self.pair_b}"
            )
        if self.winner is not None and self.decided_by is None:
            raise OutcomeError(f"match {self.match_id}: a winner needs the way it was decided")

    @property
    def decided(self) -> bool:
        """True when the winner advances: finished, a winner, no ruling pending."""
        return self.finished and self.winner is not None and not self.dispute_pending

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.pair_b if self.winner == self.pair_a else self.pair_a

    def level_of(self, pair_id: int) -> int:
        return dict(self.levels).get(pair_id, 0)

    def level_diff(self, pair_id: int) -> int:
        """This pair's level minus the opponent's at the end of the match."""
        other = self.pair_b if pair_id == self.pair_a else self.pair_a
        return self.level_of(pair_id) - self.level_of(other)
