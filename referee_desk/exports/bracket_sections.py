"""How a knockout splits into printed sections: parts of the draw, then the final rounds.

A bracket up to ``max_lines`` lines prints on one page. A larger one is cut into
equal parts of the draw (at least quarters), each on its own page with the rounds
played inside it, and a final-rounds page where each part's winner is one line.
Pure geometry over ``tournament.layout``; the PDF and the xlsx share it.

A first round that is mostly byes (33 pairs: 31 byes, one match) is not drawn: the
tree starts at round 2, where the byes' pairs already stand, and the few round-1
matches are named under the title (``printed_layout``), so 33 pairs print like 32.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee_desk.tournament.layout import Box, BracketLayout, bracket_layout
from referee_desk.tournament.state import MatchState, Status


@dataclass(frozen=True, slots=True)
class Section:
    index: int
    """1-based part of the draw; 0 for the final-rounds page (or the whole bracket)."""
    count: int
    """How many parts of the draw there are (1 when the bracket is on one page)."""
    first_column: int
    columns: int
    first_line: int
    lines: int
    unit: int
    """Bracket lines per printed line (1, or the part size on the final-rounds page)."""

    @property
    def is_final(self) -> bool:
        return self.index == 0 and self.count > 1

    @property
    def whole(self) -> bool:
        return self.count == 1

    def boxes(self, layout: BracketLayout) -> list[Box]:
        """The main-bracket boxes printed in this section."""
        last = self.first_line + self.lines * self.unit
        return [
            b
            for b in layout.boxes
            if not b.third_place
            and self.first_column <= b.column < self.first_column + self.columns
            and self.first_line <= b.top < last
        ]

    def y(self, line: float) -> float:
        """A bracket line as a printed line of this section (0 = top)."""
        return (line - self.first_line) / self.unit


def sections(layout: BracketLayout, max_lines: int) -> list[Section]:
    """The parts of the draw then the final rounds; one section when the bracket fits."""
    if not layout.boxes:
        return []
    if layout.lines <= max_lines:
        return [Section(0, 1, 0, layout.rounds, 0, layout.lines, 1)]
    fit = 1
    while fit * 2 <= max_lines:
        fit *= 2
    size = min(fit, layout.lines // 4)
    count = layout.lines // size
    part_rounds = size.bit_length() - 1
    parts = [Section(k + 1, count, 0, part_rounds, k * size, size, 1) for k in range(count)]
    final = Section(0, count, part_rounds, layout.rounds - part_rounds, 0, count, size)
    return [*parts, final]


@dataclass(frozen=True, slots=True)
class PrintedLayout:
    layout: BracketLayout
    offset: int
    """Rounds left out at the start (0, or 1 when round 1 is mostly byes)."""
    skipped: tuple[MatchState, ...] = ()
    """The real matches of the round left out."""
    byes: int = 0


def printed_layout(ko: Sequence[MatchState]) -> PrintedLayout:
    """The layout to print: round 1 left out when at least three in four of its
    matches are byes (and the bracket has more than two rounds)."""
    layout = bracket_layout(ko)
    first = [s for s in ko if s.match.round == 1 and not s.match.third_place]
    byes = [s for s in first if s.status is Status.BYE]
    if layout.rounds <= 2 or not first or len(byes) * 4 < len(first) * 3:
        return PrintedLayout(layout, 0)
    boxes = tuple(
        b if b.third_place else Box(b.match_id, b.column - 1, b.top // 2, b.half // 2)
        for b in layout.boxes
        if b.third_place or b.column > 0
    )
    lines = layout.lines // 2
    boxes = tuple(
        Box(b.match_id, 0, lines + 1, 1, third_place=True) if b.third_place else b for b in boxes
    )
    skipped = tuple(s for s in first if s.status is not Status.BYE)
    return PrintedLayout(BracketLayout(boxes, layout.rounds - 1, lines), 1, skipped, len(byes))


def skipped_note(printed: PrintedLayout) -> str:
    """Under the title when round 1 is not drawn: how many byes, which matches."""
    if not printed.offset:
        return ""
    ids = ", ".join(s.match.match_id for s in printed.skipped)
    return (
        f"第1轮 {printed.byes} 对轮空、{len(printed.skipped)} 场比赛 ({ids})，见各场列表 · "
        f"round 1: {printed.byes} byes and {len(printed.skipped)} match(es), in the match list"
    )
