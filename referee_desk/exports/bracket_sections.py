"""How a knockout splits into printed sections: parts of the draw, then the final rounds.

A bracket up to ``max_lines`` lines prints on one page. A larger one is cut into
equal parts of the draw (at least quarters), each on its own page with the rounds
played inside it, and a final-rounds page where each part's winner is one line.
Pure geometry over ``tournament.layout``; the PDF and the xlsx share it.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.tournament.layout import Box, BracketLayout


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
