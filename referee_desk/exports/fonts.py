"""The CJK font every PDF uses: a TrueType-outline font found on the system, embedded.

reportlab embeds TrueType (glyf) outlines only; CFF-outline fonts such as Noto
CJK are refused, so they are skipped here. When no usable font is found the PDFs
fall back to reportlab's STSong-Light CID font (not embedded: a viewer without
it substitutes) and a visible warning is returned for the caller to show.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics

FONT_NAME = "RefDeskCJK"
FALLBACK_CID = "STSong-Light"

#: (path, subfont index) tried in order. .ttc collections need the index.
CANDIDATES: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/wqy-microhei/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("C:/Windows/Fonts/msyh.ttc", 0),
    ("C:/Windows/Fonts/msyh.ttf", 0),
    ("C:/Windows/Fonts/simsun.ttc", 0),
    ("C:/Windows/Fonts/simhei.ttf", 0),
    ("/System/Library/Fonts/Supplemental/Arial Unicode.ttf", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
)

#: Characters every document prints: Chinese labels and the four suit symbols.
REQUIRED_CHARS = "裁判桂林♠♥♦♣"


@dataclass(frozen=True, slots=True)
class FontChoice:
    name: str
    path: str | None
    embedded: bool
    warning: str = ""


_registered: dict[tuple[str | None, int], FontChoice] = {}


class FontError(ValueError):
    """A font path given by the user that cannot be used for the PDFs."""


def _try_register(path: str, index: int, name: str) -> str | None:
    """Register the font; None on success, else why it cannot be used."""
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    try:
        font = TTFont(name, path, subfontIndex=index)
    except TTFError as error:
        return str(error)
    except OSError as error:
        return str(error)
    missing = [c for c in REQUIRED_CHARS if ord(c) not in font.face.charToGlyph]
    if missing:
        return f"the font lacks {''.join(missing)}"
    pdfmetrics.registerFont(font)
    return None


def choose_font(path: str | None = None, index: int = 0) -> FontChoice:
    """Register and return the font to use; ``path`` (from --font) overrides the search.

    A user-given path that cannot be used raises ``FontError`` naming the reason;
    the search falls back to the CID font with a warning.
    """
    path = path or os.environ.get("REFEREE_DESK_FONT") or None
    key = (path, index)
    if key in _registered:
        return _registered[key]
    if path is not None:
        if not Path(path).exists():
            raise FontError(f"font {path}: no such file")
        name = f"{FONT_NAME}-{len(_registered)}"
        why = _try_register(path, index, name)
        if why is not None:
            raise FontError(
                f"font {path}: cannot be embedded ({why}); use a TrueType-outline CJK font"
            )
        choice = FontChoice(name, path, True)
    else:
        choice = None
        tried = []
        for cand, idx in _candidates():
            if not Path(cand).exists():
                continue
            name = f"{FONT_NAME}-{len(_registered)}"
            why = _try_register(cand, idx, name)
            if why is None:
                choice = FontChoice(name, cand, True)
                break
            tried.append(f"{cand}: {why}")
        if choice is None:
            from reportlab.pdfbase.cidfonts import UnicodeCIDFont

            pdfmetrics.registerFont(UnicodeCIDFont(FALLBACK_CID))
            choice = FontChoice(
                FALLBACK_CID,
                None,
                False,
                "警告 WARNING: no TrueType CJK font found; using the STSong-Light CID font, "
                "which is not embedded (suit symbols may not show). Install WenQuanYi Micro "
                "Hei or pass --font PATH." + (f" Tried: {'; '.join(tried)}" if tried else ""),
            )
    _registered[key] = choice
    return choice


def _candidates() -> list[tuple[str, int]]:
    out = list(CANDIDATES)
    windir = os.environ.get("WINDIR")
    if windir and sys.platform.startswith("win"):
        out = [(str(Path(windir) / "Fonts" / f), 0) for f in ("msyh.ttc", "simsun.ttc")] + out
    return out
