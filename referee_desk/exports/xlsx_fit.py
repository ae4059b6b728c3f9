"""What a sheet prints at: text widths, the paper that keeps every text readable.

A sheet set to fit one page wide is scaled down by Excel and LibreOffice until it
fits, and every font with it (the footer too). Rather than shrink, a sheet whose
columns would print below ``MIN_SCALE`` of their size on A4 takes A3 (``fit_paper``);
long merged titles wrap onto the rows they need (``fit_merged``).
"""

from __future__ import annotations

from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet
from reportlab.pdfbase.pdfmetrics import stringWidth

#: Points of text one unit of column width holds (Excel's narrower measure, ~5.6):
#: text fitted to it fits in LibreOffice too.
UNIT_POINTS = 5.6
#: Points one unit of column width takes on paper (LibreOffice's wider measure, seen
#: as 7.0 when converting; Excel's is ~5.6): the page scale is worked out from it.
PRINT_UNIT_POINTS = 7.0
#: Printed size / sheet size below which names would go under 8 pt (9 pt in the sheet).
MIN_SCALE = 0.9
#: Printable width in points, by paper and orientation (0.4 in side margins).
PRINTABLE = {
    ("A4", "landscape"): 842 - 58,
    ("A4", "portrait"): 595 - 58,
    ("A3", "landscape"): 1191 - 58,
    ("A3", "portrait"): 842 - 58,
}

_cache: dict[tuple[str, float], float] = {}


def text_width(text: str, size: float) -> float:
    """Points the text needs in the PDFs' font (a close stand-in for the sheet's)."""
    from referee_desk.exports.fonts import font_set

    key = (text, size)
    if key not in _cache:
        try:
            _cache[key] = font_set().width(text, size)
        except ValueError:
            _cache[key] = stringWidth(text, "Helvetica", size) * 1.6
    return _cache[key]


def column_points(ws: Worksheet, first: int, last: int, unit: float = UNIT_POINTS) -> float:
    """Width of columns ``first … last`` at 100 %, at ``unit`` points per width unit."""
    total = 0.0
    for c in range(first, last + 1):
        width = ws.column_dimensions[get_column_letter(c)].width or 8.43
        total += width * unit
    return total


def fit_paper(ws: Worksheet, last_col: int, paper: str = "A4") -> str:
    """The paper (``paper`` or A3) on which columns 1 … ``last_col`` print at
    ``MIN_SCALE`` or more; set on the sheet and returned."""
    orientation = ws.page_setup.orientation or "portrait"
    need = column_points(ws, 1, last_col, PRINT_UNIT_POINTS) * MIN_SCALE
    chosen = paper
    if paper == "A4" and need > PRINTABLE[("A4", orientation)]:
        chosen = "A3"
    ws.page_setup.paperSize = ws.PAPERSIZE_A3 if chosen == "A3" else ws.PAPERSIZE_A4
    return chosen


def fit_merged(ws: Worksheet, row: int, last_col: int, size: float) -> None:
    """Wrap the text of the merged row ``row`` (columns 1 … ``last_col``) and give
    the row the height of its lines, so that nothing runs past the print edge."""
    cell = ws.cell(row, 1)
    text = str(cell.value or "")
    room = max(column_points(ws, 1, last_col) - 8, 1)
    lines = max(1, -(-int(text_width(text, size) * 1.08) // int(room)))
    cell.alignment = Alignment(
        horizontal=cell.alignment.horizontal, vertical="center", wrap_text=True
    )
    ws.row_dimensions[row].height = lines * size * 1.4 + 2
