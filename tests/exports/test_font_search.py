"""Issue 11 items 2 and 10: the CJK font search on Linux, Windows and macOS (TrueType
collections with their subfont index), the per-character fallback (CJK Extension A/B)
and the characters no font has."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee_desk.exports import fonts
from referee_desk.exports.fonts import choose_font, font_set, split_font_spec

WQY = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def test_windows_and_macos_fonts_are_searched() -> None:
    paths = [p for p, _ in fonts.CANDIDATES]
    for name in ("msyh.ttc", "simhei.ttf", "simsun.ttc", "PingFang.ttc", "STHeiti Light.ttc"):
        assert any(p.endswith(name) for p in paths), name
    fallbacks = [p for p, _ in fonts.FALLBACK_CANDIDATES]
    assert any(p.endswith("HanaMinB.ttf") for p in fallbacks)
    assert any(p.endswith("simsunb.ttf") for p in fallbacks)  # SimSun-ExtB on Windows


def test_a_collection_subfont_index(tmp_path: Path) -> None:
    """``file.ttc#1`` picks the collection's second font; a bad index tries the others."""
    assert split_font_spec("C:/Windows/Fonts/simsun.ttc#1") == ("C:/Windows/Fonts/simsun.ttc", 1)
    assert split_font_spec("/a/b.ttf") == ("/a/b.ttf", 0)
    copy = tmp_path / "msyh.ttc"  # a collection under a Windows font's name
    shutil.copy(WQY, copy)
    second = choose_font(f"{copy}#1")
    assert second.embedded and second.index == 1
    wrong = choose_font(f"{copy}#7")  # no such subfont: another one of the file is used
    assert wrong.embedded and wrong.index in (0, 1)


def test_the_search_finds_a_font_at_a_windows_path(monkeypatch, tmp_path: Path) -> None:
    copy = tmp_path / "simhei.ttf"
    shutil.copy(WQY, copy)
    monkeypatch.setattr(fonts, "CANDIDATES", ((str(tmp_path / "msyh.ttc"), 0), (str(copy), 0)))
    monkeypatch.setattr(fonts, "_registered", {})
    monkeypatch.delenv("REFEREE_DESK_FONT", raising=False)
    choice = choose_font()
    assert choice.path == str(copy) and choice.embedded


def test_rare_characters_switch_font_per_character() -> None:
    fs = font_set()
    runs = fs.runs("张𠮷䶮王")
    assert [t for _, t in runs] == ["张", "𠮷䶮", "王"] or [t for _, t in runs] == [
        "张", "𠮷", "䶮", "王",
    ]  # fmt: skip
    assert runs[0][0] == fs.name and runs[-1][0] == fs.name
    assert all(name != fs.name for name, text in runs if text[0] in "𠮷䶮")
    assert fs.uncovered(["张𠮷䶮𫖯"]) == ""
    assert fs.uncovered(["王𓀀"]) == "𓀀"


@pytest.mark.parametrize("width", [30.0, 60.0])
def test_fit_text_shrinks_then_cuts(width: float) -> None:
    from referee_desk.exports.text_fit import fit_lines

    fs = font_set()
    fitted = fit_lines(fs, "欧阳欧阳欧阳欧阳欧阳欧阳 / 司马司马司马", width, 9, 8, 1)
    assert fitted.size >= 8 and fitted.cut and fitted.lines[0].endswith("…")
    assert fs.width(fitted.lines[0], fitted.size) <= width
    short = fit_lines(fs, "王磊", width, 9, 8, 1)
    assert short.lines == ("王磊",) and short.size == 9 and not short.cut
