"""The CJK fonts every PDF uses: one primary TrueType font, fallbacks per character.

reportlab embeds TrueType (glyf) outlines only; CFF-outline fonts such as Noto
CJK are refused, so they are skipped here. The primary font is searched on Linux,
Windows and macOS (TrueType collections ``.ttc`` are tried subfont by subfont).
Names may hold rare characters (CJK Extension A/B: 𠮷 U+20BB7, 䶮 U+4DAE, 𫖯) the
primary font lacks: ``FontSet.runs`` switches to a fallback font (HanaMin A/B,
SimSun-ExtB …) for exactly those characters, and ``FontSet.uncovered`` names the
characters no font has, so an export can say so instead of dropping them. When no
usable primary font is found the PDFs fall back to reportlab's STSong-Light CID
font (not embedded) and a visible warning is returned for the caller to show.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics

FONT_NAME = "RefDeskCJK"
FALLBACK_CID = "STSong-Light"

#: (path, subfont index) tried in order; .ttc collections need the index (more are
#: tried when the given one cannot be embedded).
CANDIDATES: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/wqy-microhei/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    # Windows
    ("C:/Windows/Fonts/msyh.ttc", 0),
    ("C:/Windows/Fonts/msyh.ttf", 0),
    ("C:/Windows/Fonts/simhei.ttf", 0),
    ("C:/Windows/Fonts/simsun.ttc", 0),
    ("C:/Windows/Fonts/simkai.ttf", 0),
    # macOS
    ("/System/Library/Fonts/PingFang.ttc", 0),
    ("/System/Library/Fonts/STHeiti Light.ttc", 0),
    ("/System/Library/Fonts/STHeiti Medium.ttc", 0),
    ("/System/Library/Fonts/Supplemental/Songti.ttc", 0),
    ("/Library/Fonts/Songti.ttc", 0),
    ("/System/Library/Fonts/Supplemental/Arial Unicode.ttf", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
    # Last resort on Linux: a Mincho that covers Extension A as well.
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),
)

#: Fonts tried, in order, for characters the primary font lacks (Extension A/B).
FALLBACK_CANDIDATES: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),
    ("/usr/share/fonts/truetype/hanazono/HanaMinB.ttf", 0),
    ("/usr/share/fonts/opentype/hanazono/HanaMinA.ttf", 0),
    ("/usr/share/fonts/opentype/hanazono/HanaMinB.ttf", 0),
    ("C:/Windows/Fonts/simsunb.ttf", 0),
    ("C:/Windows/Fonts/mingliub.ttc", 0),
    ("/System/Library/Fonts/Supplemental/Songti.ttc", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
)

#: Characters every document prints: Chinese labels and the four suit symbols.
REQUIRED_CHARS = "裁判桂林♠♥♦♣"

#: Characters that need no glyph (spaces and joiners are drawn as space).
_NO_GLYPH = frozenset(" \u00a0\u200b\u200c\u200d\ufeff")


@dataclass(frozen=True, slots=True)
class FontChoice:
    name: str
    path: str | None
    embedded: bool
    warning: str = ""
    index: int = 0


class FontError(ValueError):
    """A font path given by the user that cannot be used for the PDFs."""


_registered: dict[tuple[str | None, int], FontChoice] = {}
_counter = [0]


def _next_name() -> str:
    _counter[0] += 1
    return f"{FONT_NAME}-{_counter[0]}"


def split_font_spec(spec: str) -> tuple[str, int]:
    """``simsun.ttc#1`` -> (path, 1): a collection's subfont index after ``#``."""
    path, sep, index = spec.rpartition("#")
    if sep and index.isdigit():
        return path, int(index)
    return spec, 0


def _try_register(path: str, index: int, name: str, required: str = REQUIRED_CHARS) -> str | None:
    """Register the font; None on success, else why it cannot be used."""
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    try:
        font = TTFont(name, path, subfontIndex=index)
    except (TTFError, OSError, KeyError, ValueError) as error:
        return str(error) or type(error).__name__
    missing = [c for c in required if ord(c) not in font.face.charToGlyph]
    if missing:
        return f"the font lacks {''.join(missing)}"
    pdfmetrics.registerFont(font)
    return None


def _register_any_subfont(path: str, index: int, required: str) -> tuple[str | None, int, str]:
    """(registered name or None, subfont index used, why not): tries the collection's others."""
    name = _next_name()
    why = _try_register(path, index, name, required)
    if why is None:
        return name, index, ""
    if path.lower().endswith((".ttc", ".otc")):
        for other in range(8):
            if other == index:
                continue
            name = _next_name()
            other_why = _try_register(path, other, name, required)
            if other_why is None:
                return name, other, ""
            if "subfont" in other_why.lower():
                break  # past the collection's last font
    return None, index, why


def choose_font(path: str | None = None, index: int = 0) -> FontChoice:
    """Register and return the primary font; ``path`` (from --font) overrides the search.

    ``path`` may carry a collection's subfont index as ``file.ttc#1``. A user-given path
    that cannot be used raises ``FontError`` naming the reason; the search falls back
    to the CID font with a warning.
    """
    path = path or os.environ.get("REFEREE_DESK_FONT") or None
    if path is not None and "#" in path:
        path, index = split_font_spec(path)
    key = (path, index)
    if key in _registered:
        return _registered[key]
    if path is not None:
        if not Path(path).exists():
            raise FontError(f"font {path}: no such file")
        name, used, why = _register_any_subfont(path, index, REQUIRED_CHARS)
        if name is None:
            raise FontError(
                f"font {path}: cannot be embedded ({why}); use a TrueType-outline CJK font"
            )
        choice = FontChoice(name, path, True, index=used)
    else:
        choice = None
        tried = []
        for cand, idx in _candidates():
            if not Path(cand).exists():
                continue
            name, used, why = _register_any_subfont(cand, idx, REQUIRED_CHARS)
            if name is not None:
                choice = FontChoice(name, cand, True, index=used)
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
        fonts = Path(windir) / "Fonts"
        names = ("msyh.ttc", "msyh.ttf", "simhei.ttf", "simsun.ttc")
        out = [(str(fonts / f), 0) for f in names] + out
    local = os.environ.get("LOCALAPPDATA")
    if local and sys.platform.startswith("win"):
        user_fonts = Path(local) / "Microsoft" / "Windows" / "Fonts"
        out += [(str(user_fonts / f), 0) for f in ("msyh.ttc", "simhei.ttf", "simsun.ttc")]
    home = Path.home() / "Library" / "Fonts"
    if sys.platform == "darwin":
        out += [(str(home / f), 0) for f in ("PingFang.ttc", "Songti.ttc", "simsun.ttc")]
    return out


def _charset(name: str) -> frozenset[int] | None:
    """Code points the registered font has; None for a CID font (assumed to cover CJK)."""
    font = pdfmetrics.getFont(name)
    face = getattr(font, "face", None)
    glyphs = getattr(face, "charToGlyph", None)
    return None if glyphs is None else frozenset(glyphs)


@dataclass
class FontSet:
    """The primary font and, loaded only when a text needs them, the fallbacks."""

    primary: FontChoice
    _primary_chars: frozenset[int] | None = None
    _fallbacks: list[tuple[str, frozenset[int]]] | None = None
    _cache: dict[str, str | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._primary_chars = _charset(self.primary.name)

    @property
    def name(self) -> str:
        return self.primary.name

    def _load_fallbacks(self) -> list[tuple[str, frozenset[int]]]:
        if self._fallbacks is None:
            self._fallbacks = list(_fallback_fonts())
        return self._fallbacks

    def font_for(self, ch: str) -> str | None:
        """The font that draws ``ch``: the primary when it can, else a fallback, else None."""
        if ch in _NO_GLYPH or self._primary_chars is None or ord(ch) in self._primary_chars:
            return self.primary.name
        if ch in self._cache:
            return self._cache[ch]
        found = next((n for n, chars in self._load_fallbacks() if ord(ch) in chars), None)
        self._cache[ch] = found
        return found

    def runs(self, text: str) -> list[tuple[str, str]]:
        """(font name, text) runs: a character no font has stays in the primary font."""
        out: list[tuple[str, str]] = []
        for ch in text:
            font = self.font_for(ch) or self.primary.name
            if out and out[-1][0] == font:
                out[-1] = (font, out[-1][1] + ch)
            else:
                out.append((font, ch))
        return out

    def uncovered(self, texts: Iterable[str]) -> str:
        """Characters of ``texts`` that no font can draw, in order of first use."""
        seen: dict[str, None] = {}
        for text in texts:
            for ch in str(text):
                if ch.isprintable() and self.font_for(ch) is None:
                    seen.setdefault(ch, None)
        return "".join(seen)

    def width(self, text: str, size: float) -> float:
        """Width of ``text`` in points, each run measured in the font that draws it."""
        return sum(pdfmetrics.stringWidth(t, f, size) for f, t in self.runs(text))


_fallback_cache: list[tuple[str, frozenset[int]]] | None = None


def _fallback_fonts() -> list[tuple[str, frozenset[int]]]:
    global _fallback_cache
    if _fallback_cache is None:
        found: list[tuple[str, frozenset[int]]] = []
        seen: set[str] = set()
        for path, index in FALLBACK_CANDIDATES:
            if path in seen or not Path(path).exists():
                continue
            seen.add(path)
            name, _, _ = _register_any_subfont(path, index, "")
            if name is not None:
                chars = _charset(name)
                if chars:
                    found.append((name, chars))
        _fallback_cache = found
    return _fallback_cache


_sets: dict[str, FontSet] = {}


def font_set(path: str | None = None) -> FontSet:
    """The primary font (as ``choose_font``) with its per-character fallbacks."""
    choice = choose_font(path)
    if choice.name not in _sets:
        _sets[choice.name] = FontSet(choice)
    return _sets[choice.name]


def missing_glyph_warning(chars: str) -> str:
    """The sentence an export prints when some characters have no glyph in any font."""
    if not chars:
        return ""
    codes = ", ".join(f"{c} U+{ord(c):04X}" for c in chars[:20])
    return (
        f"警告 WARNING: 以下字符没有可用字体，打印为空白 no installed font has these "
        f"characters, they print as blanks: {codes}. 请安装 install fonts-hanazono "
        "(HanaMinA/B) or pass --font."
    )


def _utf16_hex(code: int) -> str:
    """A code point as the UTF-16BE hex a ToUnicode CMap needs (surrogates above U+FFFF)."""
    return chr(code).encode("utf-16-be", "surrogatepass").hex().upper()


def _to_unicode_cmap(fontname: str, subset) -> str:
    """reportlab's ToUnicode CMap, with characters beyond the BMP written as UTF-16.

    reportlab writes ``<%04X>``, so 𠮷 (U+20BB7) reads back as ₻ (U+20BB) when the
    PDF's text is copied or searched; the glyph itself is drawn right either way.
    """
    text = _original_cmap(fontname, subset)
    if all(v <= 0xFFFF for v in subset):
        return text
    for i, v in enumerate(subset):
        if v > 0xFFFF:
            text = text.replace(f"<{i:02X}> <{v:04X}>", f"<{i:02X}> <{_utf16_hex(v)}>")
    return text


def _install_cmap_fix() -> None:
    from reportlab.pdfbase import ttfonts

    global _original_cmap
    if ttfonts.makeToUnicodeCMap is not _to_unicode_cmap:
        _original_cmap = ttfonts.makeToUnicodeCMap
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap


_original_cmap = None
_install_cmap_fix()
