"""Issue 11 items 1 and 2: the knockout as a tree in the results PDF, split into parts of
the draw with "continued on page N", a final-rounds page, names ≥ 8 pt fitted to their
box, rare characters drawn by a fallback font, and a warning when no font has one."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.exports.pdf_results import export_results_pdf
from referee_desk.exports.print_options import PrintOptions, fixed
from tests.exports.big import big_snapshot
from tests.exports.pdf_read import flat, font_names, pages_text, sized_runs


def bracket_pages(pages: list[str]) -> list[int]:
    return [i for i, t in enumerate(pages) if "淘汰赛对阵 Knockout bracket" in t]


@pytest.fixture(scope="module")
def sixteen(tmp_path_factory):
    return big_snapshot(tmp_path_factory.mktemp("t16"), 16)


@pytest.fixture(scope="module")
def sixty_four(tmp_path_factory):
    return big_snapshot(tmp_path_factory.mktemp("t64"), 64)


@pytest.fixture(scope="module")
def two_five_six(tmp_path_factory):
    return big_snapshot(tmp_path_factory.mktemp("t256"), 256)


def test_sixteen_pairs_on_one_tree_page(sixteen, tmp_path: Path) -> None:
    out = export_results_pdf(sixteen, tmp_path / "r.pdf", options=fixed())
    pages = pages_text(out)
    tree = bracket_pages(pages)
    assert len(tree) == 1
    text = flat(pages[tree[0]])
    for pair in sixteen.pairs.values():
        assert flat(pair.name) in text, pair.name
    final = sixteen.state.match("KO-R4-M001")
    assert "冠军Champion" in text and "三四名决赛" in text
    assert text.count(flat(sixteen.pair(final.winner).name)) >= 4  # won every round


def test_the_tree_has_connector_lines(sixteen, tmp_path: Path) -> None:
    """Each match: two pair lines and a connector; each path ends at the champion."""
    from pypdf import PdfReader

    out = export_results_pdf(sixteen, tmp_path / "r.pdf", options=fixed())
    page = PdfReader(out).pages[bracket_pages(pages_text(out))[0]]
    ops = page.get_contents().get_data().decode("latin-1")
    segments = ops.count(" l\n") + ops.count(" l S") + ops.count(" l ")
    matches = 15 + 1  # 16 pairs: 15 matches and the third-place match
    assert segments >= 3 * matches


def test_sixty_four_pairs_in_quarters_with_a_final_rounds_page(sixty_four, tmp_path: Path):
    out = export_results_pdf(sixty_four, tmp_path / "r.pdf", options=fixed())
    pages = pages_text(out)
    tree = bracket_pages(pages)
    assert len(tree) == 5  # four quarters of the draw, then the final rounds
    final_page = tree[-1] + 1  # 1-based page number
    for k, index in enumerate(tree[:4], start=1):
        text = flat(pages[index])
        assert f"第{k}区part{k}of4" in text
        assert f"续见第{final_page}页continuedonpage{final_page}" in text
    finals = flat(pages[tree[-1]])
    assert "决赛阶段finalrounds" in finals and "冠军Champion" in finals
    for index in tree[:4]:
        assert f"←第{index + 1}页page{index + 1}" in finals
    # Every pair appears in exactly one quarter.
    for pair in sixty_four.pairs.values():
        quarters = [i for i in tree[:4] if flat(pair.name) in flat(pages[i])]
        assert len(quarters) == 1, pair.name


def test_two_hundred_fifty_six_pairs_a4_and_a3(two_five_six, tmp_path: Path) -> None:
    a4 = pages_text(export_results_pdf(two_five_six, tmp_path / "a4.pdf", options=fixed()))
    a3 = pages_text(
        export_results_pdf(two_five_six, tmp_path / "a3.pdf", options=fixed(paper="A3"))
    )
    assert len(bracket_pages(a4)) == 8 + 1  # eighths of 32 lines on A4
    assert len(bracket_pages(a3)) == 4 + 1  # quarters of 64 lines on A3


def test_names_are_at_least_8_points(two_five_six, tmp_path: Path) -> None:
    out = export_results_pdf(two_five_six, tmp_path / "r.pdf", options=fixed())
    index = bracket_pages(pages_text(out))[0]
    names = {p.player1 for p in two_five_six.pairs.values()}
    runs = [(t, size) for t, size in sized_runs(out, index) if any(n in t for n in names)]
    assert len(runs) >= 32
    assert min(size for _, size in runs) >= 8


def test_long_names_are_fitted_to_the_box(tmp_path: Path) -> None:
    long = ("欧阳" * 15, "司马" * 15)
    snap = big_snapshot(tmp_path / "t", 16, names={3: long})
    out = export_results_pdf(snap, tmp_path / "r.pdf", options=fixed())
    text = pages_text(out)[bracket_pages(pages_text(out))[0]]
    assert "欧阳欧阳" in text and "…" in text
    assert flat(" / ".join(long)) not in flat(text)  # never drawn past its box


def test_rare_characters_use_the_fallback_font(tmp_path: Path) -> None:
    """𠮷 (U+20BB7, Ext B), 䶮 (U+4DAE, Ext A) and 𫖯 are drawn, not dropped."""
    snap = big_snapshot(tmp_path / "t", 16, names={1: ("𠮷野家", "刘䶮"), 2: ("赵𫖯", "钱多")})
    notices: list[str] = []
    out = export_results_pdf(snap, tmp_path / "r.pdf", options=fixed(), notices=notices)
    text = "".join(pages_text(out))
    for ch in ("𠮷", "䶮", "𫖯"):
        assert ch in text, ch
    assert any("HanaMin" in n for n in font_names(out))
    assert notices == []


def test_characters_no_font_has_are_named(tmp_path: Path) -> None:
    snap = big_snapshot(tmp_path / "t", 16, names={1: ("𓀀王", "李")})
    notices: list[str] = []
    out = export_results_pdf(snap, tmp_path / "r.pdf", options=PrintOptions(), notices=notices)
    assert notices and "U+13000" in notices[0]
    assert "U+13000" in "".join(pages_text(out))
