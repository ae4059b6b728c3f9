"""Writing user text into a workbook: always a string, never a formula.

A pair, player, table or referee name that starts with ``=`` (``=HYPERLINK(…)``,
DDE ``=cmd|' /C calc'!A0``) would be stored as a live formula by openpyxl, and one
starting with ``+ - @`` is taken for a formula when retyped in Excel. Every text
goes through ``put``: control characters cleaned (openpyxl refuses them), a bounded
length, the cell typed as a string and marked quote-prefixed (so it stays text when
edited), the value otherwise unchanged.
"""

from __future__ import annotations

from openpyxl.cell.cell import Cell
from openpyxl.worksheet.worksheet import Worksheet

from referee_desk.exports.text_clean import clean_multiline

#: Excel's limit is 32,767 characters per cell; a document cell needs far less.
MAX_XLSX_CHARS = 2000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_value(value: object) -> object:
    """Numbers and None as they are; any other value as cleaned text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    return clean_multiline(value, MAX_XLSX_CHARS)


def put(ws: Worksheet, row: int, column: int, value: object) -> Cell:
    """Write ``value`` into the cell as data: text is never a formula."""
    cell = ws.cell(row, column)
    set_value(cell, value)
    return cell


def set_value(cell: Cell, value: object) -> None:
    clean = safe_value(value)
    cell.value = clean
    if isinstance(clean, str):
        cell.data_type = "s"
        if clean.startswith(FORMULA_STARTS):
            cell.quotePrefix = True
