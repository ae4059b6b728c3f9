"""The knockout as a tree in the workbook: one sheet per part of the draw, then the finals.

Two rows make one bracket line. A pair's name sits in a cell whose bottom border
is its line; the right borders of the rows between a match's two lines are the
connector; the winner's line is in the next column at the middle, with the match
id, table and result in the row under it. The sections are those of the PDF
(``bracket_sections``): each part's sheet ends with "continued on the final-rounds
sheet", whose first column lists the parts' winners (each under its part's label,
so that the name keeps the cell's width). Each sheet prints on one portrait page
at full size: 16 lines a part on A4, 32 on A3 (names 9 pt, notes 7 pt; larger on
A3), rather than more lines shrunk below 8 pt.
"""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from referee_desk.exports.bracket_sections import (
    PrintedLayout,
    Section,
    printed_layout,
    sections,
    skipped_note,
)
from referee_desk.exports.labels import decision_mark, entrant_text, levels_text, pair_text
from referee_desk.exports.snapshot import Snapshot
from referee_desk.exports.text_clean import ELLIPSIS, clean_text
from referee_desk.exports.xlsx_fit import UNIT_POINTS, fit_merged, text_width
from referee_desk.exports.xlsx_safe import put
from referee_desk.tournament.layout import Box, BracketLayout
from referee_desk.tournament.state import MatchState, Status

LINE = Side(style="medium", color="000000")
HELD = Side(style="thick", color="D9822B")
FONT = "Microsoft YaHei"
NOTE_FONT = Font(name=FONT, size=7, color="555555")
MARK_FONT = Font(name=FONT, size=7, color="B00020")
LOSE_COLOR = "666666"
WIN_COLOR = "0B3D91"
HELD_FILL = PatternFill("solid", fgColor="FCE4C4")
HEAD_ROWS = 3
#: Bracket lines per sheet that print at full size on one portrait page.
MAX_LINES = {"A4": 16, "A3": 32}
NOTE_SIZE = 7
CONTINUED = "→ 决赛阶段 final"


def tree_sheet_names(snap: Snapshot, paper: str = "A4") -> list[str]:
    layout = printed_layout(snap.ko()).layout
    return [sheet_name(s) for s in sections(layout, MAX_LINES[paper])]


def sheet_name(section: Section) -> str:
    if section.whole:
        return "淘汰赛 Knockout"
    if section.is_final:
        return "淘汰赛 决赛阶段 KO final"
    return f"淘汰赛 第{section.index}区 KO part {section.index}"


def add_tree_sheets(wb: Workbook, snap: Snapshot, paper: str, header, footer: str) -> None:
    """One sheet per section; ``header(ws, title, columns)`` writes the sheet's title rows."""
    printed = printed_layout(snap.ko())
    states = {m.match.match_id: m for m in snap.ko()}
    for section in sections(printed.layout, MAX_LINES[paper]):
        ws = wb.create_sheet(sheet_name(section))
        sheet = _TreeSheet(ws, snap, printed.layout, section, states, paper)
        sheet.printed = printed
        sheet.write(header, footer)


class _TreeSheet:
    def __init__(
        self,
        ws: Worksheet,
        snap: Snapshot,
        layout: BracketLayout,
        section: Section,
        states: dict[str, MatchState],
        paper: str,
    ) -> None:
        self.ws, self.snap, self.layout, self.section = ws, snap, layout, section
        self.printed = PrintedLayout(layout, 0)
        self.states = states
        self.size = 11 if paper == "A3" else 9
        self.col_width = 24 if paper == "A3" else 16
        self.paper = paper

    # Geometry: bracket line -> sheet row of the boundary under it.
    def _row(self, line: float) -> int:
        return self._top + round(2 * self.section.y(line))

    @property
    def _top(self) -> int:
        """First row of the tree; the final-rounds sheet keeps one for the first label."""
        return HEAD_ROWS + (2 if self.section.is_final else 1)

    def write(self, header, footer: str) -> None:
        sec = self.section
        titles = self._column_titles()
        header(self.ws, self._title(), titles)
        for box in sec.boxes(self.layout):
            self._match(box)
        last = sec.first_column + sec.columns - 1
        for box in sec.boxes(self.layout):
            if box.column == last:
                self._outcome(box)
        end_row = self._top + 2 * sec.lines
        if sec.whole or sec.is_final:
            end_row = self._third_place(end_row + 1)
        legend = (
            "粗体蓝色=胜方 bold blue = winner · 弃权 W/O = forfeit 8.10 · 取消资格 DQ = "
            "disqualification 8.8 · 仲裁 CR = committee ruling 8.11 · 橙色 = 待仲裁 ruling "
            "pending"
        )
        if skipped_note(self.printed):
            legend = f"{skipped_note(self.printed)} · {legend}"
        if not (sec.whole or sec.is_final):
            legend = (
                f"{CONTINUED}: 本区胜者续见工作表「{sheet_name(_final_of(sec))}」 the part "
                f"winner continues on that sheet · {legend}"
            )
        last_col = sec.columns + 1
        for k in range(last_col):
            self.ws.column_dimensions[get_column_letter(k + 1)].width = self.col_width
        for r in range(HEAD_ROWS + 1, end_row + 2):
            self.ws.row_dimensions[r].height = 15 if self.paper == "A3" else 11.5
        self.ws.row_dimensions[HEAD_ROWS].height = 28  # round names wrap onto two lines
        put(self.ws, end_row + 1, 1, legend).font = NOTE_FONT
        self.ws.merge_cells(start_row=end_row + 1, start_column=1, end_row=end_row + 1,
                            end_column=last_col)  # fmt: skip
        fit_merged(self.ws, end_row + 1, last_col, NOTE_SIZE)
        fit_merged(self.ws, 1, last_col, 14)
        fit_merged(self.ws, 2, last_col, 9)
        self._page(last_col, end_row + 1, footer)

    def _title(self) -> str:
        sec = self.section
        if sec.whole:
            return "淘汰赛对阵 Knockout bracket"
        if sec.is_final:
            return "淘汰赛 决赛阶段 Knockout final rounds"
        lo, hi = sec.first_line + 1, sec.first_line + sec.lines
        return f"淘汰赛 第{sec.index}区 part {sec.index}/{sec.count} (签位 lines {lo}–{hi})"

    def _column_titles(self) -> list[str]:
        sec = self.section
        names: dict[int, str] = {}
        for m in self.snap.ko():
            if not m.match.third_place:
                column = m.match.round - 1 - self.printed.offset
                names.setdefault(column, self.snap.round_name(m.match))
        titles = [names.get(sec.first_column + k, "") for k in range(sec.columns)]
        titles.append("冠军 Champion" if sec.whole or sec.is_final else "本区胜者 part winner")
        return titles

    def _match(self, box: Box) -> None:
        sec = self.section
        m = self.states[box.match_id]
        col = box.column - sec.first_column + 1
        ra = self._row(box.top + box.half / 2)
        rb = self._row(box.top + box.half * 3 / 2)
        right = HELD if m.status is Status.HELD else LINE
        for side, boundary in (("a", ra), ("b", rb)):
            text, color, bold = self._slot(m, side)
            if col == 1 and sec.is_final:
                label = put(self.ws, boundary - 2, col, f"第{self._part(m, side)}区 part")
                label.font = NOTE_FONT
                label.alignment = Alignment(vertical="bottom")
            cell = put(self.ws, boundary - 1, col, self._fit(text, self.col_width))
            cell.font = Font(name=FONT, size=self.size, color=color, bold=bold)
            cell.alignment = Alignment(vertical="bottom", shrink_to_fit=False)
            cell.border = Border(bottom=LINE, right=right if side == "b" else None)
        for r in range(ra, rb - 1):
            self.ws.cell(r, col).border = Border(right=right)
        self._put_note((ra + rb) // 2, col + 1, m)

    def _outcome(self, box: Box) -> None:
        sec = self.section
        m = self.states[box.match_id]
        col = sec.columns + 1
        ra = self._row(box.top + box.half / 2)
        rb = self._row(box.top + box.half * 3 / 2)
        mid = (ra + rb) // 2
        name = pair_text(self.snap.pair(m.winner)) if m.winner is not None else ""
        cell = put(self.ws, mid - 1, col, self._fit(name, self.col_width))
        cell.font = Font(name=FONT, size=self.size + 1, bold=True, color=WIN_COLOR)
        cell.alignment = Alignment(vertical="bottom")
        cell.border = Border(bottom=LINE)
        if not (sec.whole or sec.is_final):
            here = put(self.ws, mid + 2, col, CONTINUED)
            here.font = NOTE_FONT
        # The note of this match sits under the winner (written by ``_match``).

    def _third_place(self, row: int) -> int:
        third = next((m for m in self.snap.ko() if m.match.third_place), None)
        if third is None:
            return row
        col = max(self.section.columns - 1, 1)
        put(self.ws, row, col, self.snap.round_name(third.match)).font = Font(
            name=FONT, size=self.size, bold=True
        )
        for k, side in enumerate(("a", "b")):
            text, color, bold = self._slot(third, side)
            cell = put(self.ws, row + 2 + 2 * k, col, self._fit(text, self.col_width))
            cell.font = Font(name=FONT, size=self.size, color=color, bold=bold)
            cell.border = Border(bottom=LINE, right=LINE if k == 1 else None)
        self.ws.cell(row + 3, col).border = Border(right=LINE)
        winner = pair_text(self.snap.pair(third.winner)) if third.winner is not None else ""
        cell = put(self.ws, row + 3, col + 1, self._fit(winner, self.col_width))
        cell.font = Font(name=FONT, size=self.size, bold=True, color=WIN_COLOR)
        cell.border = Border(bottom=LINE)
        self._put_note(row + 4, col + 1, third)
        return row + 7

    def _part(self, m: MatchState, side: str) -> int:
        box = self.layout.box(m.match.match_id)
        line = box.top if side == "a" else box.top + box.half
        return line // self.section.unit + 1

    def _slot(self, m: MatchState, side: str) -> tuple[str, str, bool]:
        pid = m.pair_a if side == "a" else m.pair_b
        slot = m.match.slot_a if side == "a" else m.match.slot_b
        if pid is not None:
            text = entrant_text(self.snap.pair(pid), slot)
            won = m.winner == pid and m.status is Status.DECIDED
            lost = m.winner is not None and m.winner != pid
            color = WIN_COLOR if won else (LOSE_COLOR if lost else "000000")
            bold = won
        elif slot.kind == "bye" or m.status in (Status.BYE, Status.VOID):
            text, color, bold = "轮空 bye", LOSE_COLOR, False
        else:
            text, color, bold = slot.describe(), LOSE_COLOR, False
        return text, color, bold

    def _note(self, m: MatchState) -> tuple[str, str]:
        """Two lines under a match: which match and table; result and how it was decided."""
        where = " · ".join(p for p in (m.match.match_id, m.match.table) if p)
        parts = []
        if m.outcome is not None and m.status is Status.DECIDED:
            parts.append(levels_text(dict(m.outcome.levels), m.pair_a, m.pair_b))
        mark = decision_mark(m.decided_by) if m.decided_by is not None else ""
        if mark:
            parts.append(mark)
        elif m.status is Status.HELD:
            parts.append("待仲裁")
        return where, " · ".join(parts)

    def _put_note(self, row: int, col: int, m: MatchState) -> None:
        marked = bool(decision_mark(m.decided_by))
        for k, text in enumerate(self._note(m)):
            if not text:
                continue
            note = put(self.ws, row + k, col, text)
            note.font = MARK_FONT if marked and k == 1 else NOTE_FONT
            note.alignment = Alignment(vertical="top")
            if m.status is Status.HELD:
                note.fill = HELD_FILL

    def _fit(self, text: str, width_units: float) -> str:
        """Shorten to the column: drop the club, then end with an ellipsis (≥ 8 pt kept)."""
        room = width_units * UNIT_POINTS - 4  # points a column of this width shows
        text = clean_text(text, 500)
        if _width(text, self.size) <= room:
            return text
        if text.endswith(")") and " (" in text:
            text = text[: text.rindex(" (")]
            if _width(text, self.size) <= room:
                return text
        while text and _width(text + ELLIPSIS, self.size) > room:
            text = text[:-1]
        return text.rstrip() + ELLIPSIS

    def _page(self, last_col: int, last_row: int, footer: str) -> None:
        ws = self.ws
        ws.page_setup.orientation = "portrait"
        ws.page_setup.paperSize = ws.PAPERSIZE_A3 if self.paper == "A3" else ws.PAPERSIZE_A4
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 1
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_margins.left = ws.page_margins.right = 0.4
        ws.page_margins.top = ws.page_margins.bottom = 0.5
        ws.print_options.horizontalCentered = True
        if footer:
            ws.oddFooter.left.text = footer[:230]
            ws.oddFooter.left.size = 7
        ws.oddHeader.right.text = "Referee Desk 裁判台 · &A · &P / &N"
        ws.print_area = f"A1:{get_column_letter(last_col)}{last_row}"


def _final_of(section: Section) -> Section:
    return Section(0, section.count, 0, 0, 0, 0, 1)


_width = text_width
