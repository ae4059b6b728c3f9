"""Reading PDFs back: text per page (pdftotext), text with its font size (pypdf)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from pypdf import PdfReader


def pages_text(path: Path) -> list[str]:
    """Each page's text as pdftotext lays it out (poppler-utils)."""
    out = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return out.split("\f")[: len(PdfReader(path).pages)]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def sized_runs(path: Path, page: int) -> list[tuple[str, float]]:
    """(text, font size in points) of every text run drawn on a page (0-based)."""
    runs: list[tuple[str, float]] = []

    def visit(text, cm, tm, font, size) -> None:
        if text.strip():
            scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            runs.append((text, size * (scale or 1)))

    PdfReader(path).pages[page].extract_text(visitor_text=visit)
    return runs


def font_names(path: Path) -> set[str]:
    names = set()
    for page in PdfReader(path).pages:
        fonts = page["/Resources"].get("/Font", {})
        for f in fonts.values():
            names.add(str(f.get_object()["/BaseFont"]))
    return names
