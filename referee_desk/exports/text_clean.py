"""User text made safe to print: no control characters, a bounded length.

Names are validated at entry (the store's job); a document still never lets a stray
control character or a 10,000-character name break its layout: control characters
become spaces and an over-long text is shortened with an ellipsis.
"""

from __future__ import annotations

import unicodedata

#: The longest user text one line of a document cell prints (a bracket box fits far less).
MAX_CELL_CHARS = 300
ELLIPSIS = "…"


def clean_text(value: object, limit: int | None = MAX_CELL_CHARS) -> str:
    """``value`` as one printable line: controls → space, runs of spaces collapsed."""
    text = str(value)
    if any(_is_control(ch) for ch in text):
        text = "".join(" " if _is_control(ch) else ch for ch in text)
        text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + ELLIPSIS
    return text


def clean_multiline(
    value: object, limit: int | None = MAX_CELL_CHARS * 4, line_limit: int | None = MAX_CELL_CHARS
) -> str:
    """Like ``clean_text`` but keeps line breaks (notes, reasons)."""
    lines = str(value).splitlines() or [""]
    text = "\n".join(clean_text(line, line_limit) for line in lines)
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + ELLIPSIS
    return text


def _is_control(ch: str) -> bool:
    """C0/C1 controls, separators that break lines, and unpaired surrogates."""
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs", "Zl", "Zp") or ch in "\u2028\u2029\u0085"
