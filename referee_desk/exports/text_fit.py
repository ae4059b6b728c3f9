"""Fit a text to a box: measured with the fonts that draw it, shrunk, then wrapped or cut.

A bracket box or a card has a fixed width; cutting a name at a character count
overflows with wide CJK characters and wastes room with narrow Latin ones.
``fit_line`` shrinks the size down to ``min_size`` and then ends the text with an
ellipsis; ``fit_lines`` wraps onto as many lines as the box holds first.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.exports.fonts import FontSet
from referee_desk.exports.text_clean import ELLIPSIS, clean_text


@dataclass(frozen=True, slots=True)
class Fitted:
    lines: tuple[str, ...]
    size: float
    cut: bool
    """True when the text had to be shortened (the full text is not shown)."""


def fit_line(fonts: FontSet, text: str, width: float, size: float, min_size: float = 8) -> Fitted:
    """One line no wider than ``width`` points, at the largest size ≥ ``min_size``."""
    return fit_lines(fonts, text, width, size, min_size, max_lines=1)


def fit_lines(
    fonts: FontSet, text: str, width: float, size: float, min_size: float = 8, max_lines: int = 1
) -> Fitted:
    """Up to ``max_lines`` lines no wider than ``width``: shrink, then wrap, then ellipsize."""
    text = clean_text(text, 2000)
    current = size
    while current > min_size and fonts.width(text, current) > width:
        current = max(min_size, current - 0.5)
    if fonts.width(text, current) <= width:
        return Fitted((text,), current, False)
    lines = _wrap(fonts, text, width, current)
    if len(lines) <= max_lines:
        return Fitted(tuple(lines), current, False)
    kept = lines[:max_lines]
    kept[-1] = _ellipsize(fonts, " ".join(lines[max_lines - 1 :]), width, current)
    return Fitted(tuple(kept), current, True)


def _wrap(fonts: FontSet, text: str, width: float, size: float) -> list[str]:
    """Greedy wrap: at spaces or '/' for Latin words, anywhere between CJK characters."""
    lines: list[str] = []
    line = ""
    for token in _tokens(text):
        candidate = line + token
        if line and fonts.width(candidate.rstrip(), size) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
            while fonts.width(line, size) > width and len(line) > 1:
                cut = _longest_prefix(fonts, line, width, size)
                lines.append(line[:cut])
                line = line[cut:]
        else:
            line = candidate
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """Words (Latin letters and digits stay together), each CJK character alone."""
    out: list[str] = []
    word = ""
    for ch in text:
        if ch.isascii() and (ch.isalnum() or ch in "#[]().-_'"):
            word += ch
            continue
        if word:
            out.append(word)
            word = ""
        out.append(ch)
    if word:
        out.append(word)
    return _glue(out)


#: Never at the start of a line (closing marks) / never at its end (opening marks).
_CLOSING = frozenset(")）]】」』》,，.。、;；:：!！?？…")
_OPENING = frozenset("(（[【「『《")


def _glue(tokens: list[str]) -> list[str]:
    """Keep a closing mark with the token before it and an opening mark with the next,
    so that a ")" never wraps alone onto a line."""
    out: list[str] = []
    pending = ""
    for token in tokens:
        if out and not pending and token and all(ch in _CLOSING for ch in token):
            out[-1] += token
            continue
        if token and all(ch in _OPENING for ch in token):
            pending += token
            continue
        out.append(pending + token)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _longest_prefix(fonts: FontSet, text: str, width: float, size: float) -> int:
    lo, hi = 1, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fonts.width(text[:mid], size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _ellipsize(fonts: FontSet, text: str, width: float, size: float) -> str:
    if fonts.width(text, size) <= width:
        return text
    room = width - fonts.width(ELLIPSIS, size)
    if room <= 0:
        return ELLIPSIS
    return text[: _longest_prefix(fonts, text, room, size)].rstrip() + ELLIPSIS
