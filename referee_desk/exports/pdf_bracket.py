"""The knockout drawn as a tree on the results PDF, one page per part of the draw.

Each pair stands on a line; the two lines of a match are joined by a connector and
the winner's name goes on the line in the next round, with the match id, table and
result under it. Byes advance their pair. A bracket larger than a page is split
(``bracket_sections``): each part of the draw on its own page ending with "continued
on page N", then a final-rounds page whose lines are the parts' winners ("from page
N"), with the third-place match and the champion. Names are fitted to their box
(measured, shrunk to 8 pt at least, wrapped, then cut with an ellipsis).
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak

from referee_desk.exports.bracket_sections import (
    PrintedLayout,
    Section,
    printed_layout,
    sections,
    skipped_note,
)
from referee_desk.exports.labels import decision_mark, entrant_text, levels_text, pair_text
from referee_desk.exports.pdf_common import WARN_COLOR, Styles, draw_text
from referee_desk.exports.snapshot import Snapshot
from referee_desk.exports.text_fit import fit_lines
from referee_desk.tournament.layout import Box, BracketLayout
from referee_desk.tournament.state import MatchState, Status

NAME_SIZE = 9.0
MIN_NAME_SIZE = 8.0
NOTE_SIZE = 6.5
MIN_NOTE_SIZE = 6.0
#: Points between a bracket line and the baseline of the name on it (clears descenders).
NAME_LIFT = 2.4
WIN_COLOR = colors.HexColor("#0b3d91")
LOSE_COLOR = colors.HexColor("#666666")
LINE_COLOR = colors.HexColor("#222222")
MAX_LINE_H = 10 * mm


def max_lines(paper: str) -> int:
    """Bracket lines one portrait page holds with readable names (≥ 8 pt)."""
    return 64 if paper == "A3" else 32


def bracket_story(snap: Snapshot, styles: Styles, paper: str = "A4") -> list:
    """Page breaks and one tree page per section (empty when there is no knockout)."""
    printed = printed_layout(snap.ko())
    out: list = []
    for section in sections(printed.layout, max_lines(paper)):
        out += [PageBreak(), BracketPage(snap, styles, printed.layout, section, printed)]
    return out


@dataclass(frozen=True, slots=True)
class _Geometry:
    x0: float
    y_top: float
    col_w: float
    line_h: float


class BracketPage(Flowable):
    """One section of the tree, filling the frame of its page."""

    def __init__(
        self,
        snap: Snapshot,
        styles: Styles,
        layout: BracketLayout,
        section: Section,
        printed: PrintedLayout | None = None,
    ) -> None:
        super().__init__()
        self.printed = printed or PrintedLayout(layout, 0)
        self.snap = snap
        self.styles = styles
        self.layout = layout
        self.section = section
        self.states = {m.match.match_id: m for m in snap.ko()}

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width, self.height = avail_width, avail_height - 1
        return self.width, self.height

    # -- drawing ---------------------------------------------------------------------

    def draw(self) -> None:
        c = self.canv
        sec = self.section
        page = c.getPageNumber()
        fonts = self.styles.fonts
        title = self._title()
        draw_text(c, fonts, 0, self.height - 5 * mm, title, 12)
        note = skipped_note(self.printed)
        if note:
            fitted = fit_lines(fonts, note, self.width, 8, 6.5, 1)
            draw_text(c, fonts, 0, self.height - 10 * mm, fitted.lines[0], fitted.size,
                      color=LOSE_COLOR)  # fmt: skip
        third = self._third()
        with_third = third is not None and (sec.whole or sec.is_final)
        reserve = 24 * mm if with_third else 0
        head = 19 * mm if note else 14 * mm
        lines = sec.lines
        line_h = min(MAX_LINE_H, (self.height - head - reserve - 6 * mm) / lines)
        col_w = self.width / (sec.columns + 1)
        geo = _Geometry(0, self.height - head, col_w, line_h)
        self._column_titles(geo)
        for box in sec.boxes(self.layout):
            self._match(geo, box, page)
        last = [b for b in sec.boxes(self.layout) if b.column == sec.first_column + sec.columns - 1]
        for box in last:
            self._outcome_line(geo, box, page)
        if with_third and third is not None:
            top = geo.y_top - lines * line_h - 8 * mm
            self._third_place(third, geo, top)
        self._legend()

    def _title(self) -> str:
        sec = self.section
        base = "淘汰赛对阵 Knockout bracket"
        if sec.whole:
            return base
        if sec.is_final:
            return f"{base} · 决赛阶段 final rounds (各区胜者 winners of the {sec.count} parts)"
        lo = sec.first_line + 1
        hi = sec.first_line + sec.lines
        return f"{base} · 第{sec.index}区 part {sec.index} of {sec.count} (签位 lines {lo}–{hi})"

    def _column_titles(self, geo: _Geometry) -> None:
        sec = self.section
        names: dict[int, str] = {}
        for m in self.snap.ko():
            if not m.match.third_place:
                column = m.match.round - 1 - self.printed.offset
                names.setdefault(column, self.snap.round_name(m.match))
        for k in range(sec.columns):
            text = names.get(sec.first_column + k, "")
            fitted = fit_lines(self.styles.fonts, text, geo.col_w - 3, 8, 6.5, 1)
            draw_text(self.canv, self.styles.fonts, geo.x0 + k * geo.col_w + 1, geo.y_top + 3 * mm,
                      fitted.lines[0], fitted.size, color=LOSE_COLOR)  # fmt: skip
        last = "冠军 Champion" if sec.whole or sec.is_final else "本区胜者 part winner"
        draw_text(self.canv, self.styles.fonts, geo.x0 + sec.columns * geo.col_w + 1,
                  geo.y_top + 3 * mm, last, 8, color=LOSE_COLOR)  # fmt: skip

    def _slot_y(self, geo: _Geometry, line: float) -> float:
        return geo.y_top - self.section.y(line) * geo.line_h

    def _match(self, geo: _Geometry, box: Box, page: int) -> None:
        c = self.canv
        sec = self.section
        m = self.states[box.match_id]
        k = box.column - sec.first_column
        x = geo.x0 + k * geo.col_w
        ya = self._slot_y(geo, box.top + box.half / 2)
        yb = self._slot_y(geo, box.top + box.half * 3 / 2)
        room = (ya - yb) - 1 * mm
        for side, y in (("a", ya), ("b", yb)):
            c.setStrokeColor(LINE_COLOR)
            c.setLineWidth(0.6)
            c.line(x, y, x + geo.col_w, y)
            text, color = self._slot_text(m, side, k == 0 and sec.is_final, page)
            self._name(text, x + 1.2, y + NAME_LIFT, geo.col_w - 2.4, room, color)
        c.setLineWidth(0.6)
        if m.status is Status.HELD:
            c.setStrokeColor(colors.HexColor("#d9822b"))
            c.setLineWidth(1.4)
        c.line(x + geo.col_w, ya, x + geo.col_w, yb)
        self._note(m, x + geo.col_w + 1.2, (ya + yb) / 2 - NOTE_SIZE - 0.6, geo.col_w - 2.4)

    def _outcome_line(self, geo: _Geometry, box: Box, page: int) -> None:
        """The line after the section's last round: the part's winner, or the champion."""
        c = self.canv
        sec = self.section
        m = self.states[box.match_id]
        x = geo.x0 + sec.columns * geo.col_w
        ya = self._slot_y(geo, box.top + box.half / 2)
        yb = self._slot_y(geo, box.top + box.half * 3 / 2)
        y = (ya + yb) / 2
        c.setStrokeColor(LINE_COLOR)
        c.setLineWidth(1.2 if (sec.whole or sec.is_final) else 0.6)
        c.line(x, y, x + geo.col_w, y)
        name = pair_text(self.snap.pair(m.winner)) if m.winner is not None else ""
        self._name(name, x + 1.2, y + NAME_LIFT, geo.col_w - 2.4, (ya - yb) / 2, WIN_COLOR)
        if not (sec.whole or sec.is_final):
            final_page = page + (sec.count - sec.index + 1)
            text = f"→ 续见第 {final_page} 页 continued on page {final_page}"
            fitted = fit_lines(
                self.styles.fonts, text, geo.col_w - 2.4, NOTE_SIZE, MIN_NOTE_SIZE, 2
            )
            for k, part in enumerate(fitted.lines):
                draw_text(c, self.styles.fonts, x + 1.2, y - 9 * mm - k * fitted.size * 1.2,
                          part, fitted.size, color=LOSE_COLOR)  # fmt: skip

    def _slot_text(
        self, m: MatchState, side: str, from_part: bool, page: int
    ) -> tuple[str, object]:
        pid = m.pair_a if side == "a" else m.pair_b
        slot = m.match.slot_a if side == "a" else m.match.slot_b
        if pid is not None:
            text = entrant_text(self.snap.pair(pid), slot)
            color = WIN_COLOR if m.winner == pid and m.status is Status.DECIDED else None
            if m.winner is not None and m.winner != pid:
                color = LOSE_COLOR
        elif slot.kind == "bye" or m.status in (Status.BYE, Status.VOID):
            text, color = "轮空 bye", LOSE_COLOR
        else:
            text, color = slot.describe(), LOSE_COLOR
        if from_part:
            part = self._part_of(m, side)
            from_page = page - self.section.count + part - 1
            text = f"{text} ← 第 {from_page} 页 page {from_page}"
        return text, color or colors.black

    def _part_of(self, m: MatchState, side: str) -> int:
        box = self.layout.box(m.match.match_id)
        line = box.top if side == "a" else box.top + box.half
        return line // self.section.unit + 1

    def _name(self, text: str, x: float, y: float, width: float, room: float, color) -> None:
        """The name fitted to its box: shrunk (≥ 8 pt), the club dropped, wrapped, then cut."""
        lines_room = max(1, min(2, int(room // (MIN_NAME_SIZE * 1.25))))
        fitted = fit_lines(self.styles.fonts, text, width, NAME_SIZE, MIN_NAME_SIZE, lines_room)
        if fitted.cut and text.endswith(")") and " (" in text:
            short = text[: text.rindex(" (")]
            fitted = fit_lines(
                self.styles.fonts, short, width, NAME_SIZE, MIN_NAME_SIZE, lines_room
            )
        step = fitted.size * 1.15
        for i, line in enumerate(reversed(fitted.lines)):
            draw_text(self.canv, self.styles.fonts, x, y + i * step, line, fitted.size,
                      color=color)  # fmt: skip

    def _note(self, m: MatchState, x: float, y: float, width: float) -> None:
        """Two lines at ≥ 6 pt: which match at which table, then the result and how it
        was decided (a line of its own, so a forfeit mark is never cut)."""
        where = " · ".join(p for p in (m.match.match_id, m.match.table) if p)
        result = []
        color = LOSE_COLOR
        if m.outcome is not None and m.status is Status.DECIDED:
            result.append(levels_text(dict(m.outcome.levels), m.pair_a, m.pair_b))
        mark = decision_mark(m.decided_by) if m.decided_by is not None else ""
        if mark:
            result.append(mark)
            color = WARN_COLOR
        elif m.status is Status.HELD:
            result.append("待仲裁 ruling pending")
            color = colors.HexColor("#b35c00")
        lines = [where, " · ".join(result)] if result else [where]
        for k, text in enumerate(lines):
            fitted = fit_lines(self.styles.fonts, text, width, NOTE_SIZE, MIN_NOTE_SIZE, 1)
            draw_text(self.canv, self.styles.fonts, x, y - k * NOTE_SIZE * 1.15,
                      fitted.lines[0], fitted.size, color=color if k else LOSE_COLOR)  # fmt: skip

    def _third(self) -> MatchState | None:
        return next((m for m in self.snap.ko() if m.match.third_place), None)

    def _third_place(self, m: MatchState, geo: _Geometry, top: float) -> None:
        c = self.canv
        x = geo.x0 + max(self.section.columns - 1, 0) * geo.col_w
        draw_text(c, self.styles.fonts, x, top, self.snap.round_name(m.match),
                  9, color=LOSE_COLOR)  # fmt: skip
        ya, yb = top - 7 * mm, top - 15 * mm
        for side, y in (("a", ya), ("b", yb)):
            c.setStrokeColor(LINE_COLOR)
            c.setLineWidth(0.6)
            c.line(x, y, x + geo.col_w, y)
            text, color = self._slot_text(m, side, False, 0)
            self._name(text, x + 1.2, y + NAME_LIFT, geo.col_w - 2.4, 7 * mm, color)
        c.line(x + geo.col_w, ya, x + geo.col_w, yb)
        y = (ya + yb) / 2
        c.line(x + geo.col_w, y, x + 2 * geo.col_w, y)
        name = pair_text(self.snap.pair(m.winner)) if m.winner is not None else ""
        self._name(name, x + geo.col_w + 1.2, y + NAME_LIFT, geo.col_w - 2.4, 4 * mm, WIN_COLOR)
        self._note(m, x + geo.col_w + 1.2, y - NOTE_SIZE - 0.6, geo.col_w - 2.4)

    def _legend(self) -> None:
        text = (
            "蓝色=胜方 blue = winner · 弃权 W/O = forfeit 8.10 · 取消资格 DQ = disqualification "
            "8.8 · 仲裁 CR = committee ruling 8.11 · 橙色连线 = 待仲裁 ruling pending, branch held"
        )
        draw_text(self.canv, self.styles.fonts, 0, 1 * mm, text, 6.5, color=LOSE_COLOR)
