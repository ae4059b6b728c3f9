"""Where each knockout match sits when the bracket is drawn (sheet, PDF or screen).

Lines are the bracket's unit of height: round 1 gives each pair one line; a match of
round r spans 2^r lines, pair A over the upper half and pair B over the lower, so a
box always covers exactly the two boxes that feed it. The third-place match sits
below the bracket. Pure geometry: the xlsx export and the desk's bracket view share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee_desk.tournament.state import MatchState


@dataclass(frozen=True, slots=True)
class Box:
    match_id: str
    column: int
    """0-based round column (round 1 = 0)."""
    top: int
    """First line of the box (0-based)."""
    half: int
    """Lines per side: pair A spans ``top … top+half-1``, pair B the next ``half``."""
    third_place: bool = False

    @property
    def bottom(self) -> int:
        """Last line of the box."""
        return self.top + 2 * self.half - 1


@dataclass(frozen=True, slots=True)
class BracketLayout:
    boxes: tuple[Box, ...]
    rounds: int
    lines: int
    """Lines of the main bracket (the third-place box is below them)."""

    def box(self, match_id: str) -> Box:
        return next(b for b in self.boxes if b.match_id == match_id)


def bracket_layout(ko: Sequence[MatchState]) -> BracketLayout:
    """Boxes of the knockout matches (``stage == 'KO'``)."""
    main = [s for s in ko if not s.match.third_place]
    if not main:
        return BracketLayout((), 0, 0)
    rounds = max(s.match.round for s in main)
    lines = 2**rounds
    boxes = []
    for s in main:
        half = 2 ** (s.match.round - 1)
        top = (s.match.position - 1) * 2 * half
        boxes.append(Box(s.match.match_id, s.match.round - 1, top, half))
    for s in ko:
        if s.match.third_place:
            boxes.append(Box(s.match.match_id, 0, lines + 1, 1, third_place=True))
    return BracketLayout(tuple(boxes), rounds, lines)
