"""What every PDF shares: the CJK font on every style, page furniture, byte-stable output."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from referee_desk.exports.fonts import FontChoice, choose_font
from referee_desk.rules.ruleset import Ruleset

# Byte-stable output: no creation date or random document id in the file.
rl_config.invariant = 1

WARN_COLOR = colors.HexColor("#B00020")
HEAD_BG = colors.HexColor("#DDE5F0")
MARK_BG = colors.HexColor("#F8D7DA")
HELD_BG = colors.HexColor("#FCE4C4")
VIOLATION_BG = colors.HexColor("#FDECEA")


@dataclass(frozen=True, slots=True)
class Styles:
    font: FontChoice
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    warning: ParagraphStyle

    def table_style(self, extra: Sequence[tuple] = (), header_rows: int = 1) -> TableStyle:
        """Grid, header shading and the CJK font on every cell."""
        cmds: list[tuple] = [
            ("FONTNAME", (0, 0), (-1, -1), self.font.name),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.black),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        if header_rows:
            cmds.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG))
        return TableStyle([*cmds, *extra])


def make_styles(font_path: str | None = None) -> Styles:
    font = choose_font(font_path)
    f = font.name

    def st(name: str, size: float, **kw) -> ParagraphStyle:
        return ParagraphStyle(name, fontName=f, fontSize=size, leading=size * 1.35, **kw)

    return Styles(
        font=font,
        title=st("title", 18, alignment=TA_CENTER, spaceAfter=4),
        subtitle=st("subtitle", 10, alignment=TA_CENTER, spaceAfter=8),
        h1=st("h1", 13, spaceBefore=10, spaceAfter=4),
        h2=st("h2", 10.5, spaceBefore=6, spaceAfter=3),
        body=st("body", 9),
        small=st("small", 7),
        cell=st("cell", 8),
        cell_bold=st("cell_bold", 8, textColor=colors.black),
        warning=st("warning", 9, textColor=WARN_COLOR, borderColor=WARN_COLOR, borderWidth=0.8,
                   borderPadding=4, spaceBefore=4, spaceAfter=8),
    )  # fmt: skip


def p(text: object, style: ParagraphStyle, bold: bool = False) -> Paragraph:
    """A paragraph of plain text (escaped); ``bold`` underlines weight with <b>."""
    body = escape(str(text)).replace("\n", "<br/>")
    return Paragraph(f"<b>{body}</b>" if bold else body, style)


def grid(
    rows: list[list[object]],
    widths: Sequence[float],
    styles: Styles,
    extra: Sequence[tuple] = (),
    repeat: int = 1,
) -> Table:
    """A table whose cells are paragraphs (wrapping, CJK font) with a repeated header."""
    data = [
        [c if not isinstance(c, str | int | float) else p(c, styles.cell) for c in row]
        for row in rows
    ]
    t = Table(data, colWidths=list(widths), repeatRows=repeat)
    t.setStyle(styles.table_style(extra, header_rows=repeat))
    return t


def ruleset_line(ruleset: Ruleset) -> str:
    params = " ".join(f"{k}={_short(v)}" for k, v in ruleset.parameters().items())
    return f"规则 ruleset {ruleset.name}: {params}"


def _short(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def build(
    out: str | Path,
    story: list,
    styles: Styles,
    *,
    title: str,
    footer_left: str,
    footer_right: str = "",
    wide: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
) -> Path:
    """Build the PDF (invariant, fixed metadata) with a footer on every page."""
    out = Path(out)
    size = landscape(A4) if wide else A4
    doc = SimpleDocTemplate(
        str(out),
        pagesize=size,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=16 * mm,
        title=title,
        author="Referee Desk 裁判台",
        creator="Referee Desk 裁判台",
        subject=title,
        invariant=1,
    )
    font = styles.font.name

    def furniture(canvas, document) -> None:
        canvas.saveState()
        canvas.setFont(font, 6.5)
        width, height = size
        lines = simpleSplit(footer_left, font, 6.5, width - 24 * mm)
        for i, line in enumerate(lines[:3]):
            canvas.drawString(12 * mm, (11 - 3 * i) * mm, line)
        canvas.setFont(font, 7.5)
        canvas.drawRightString(
            width - 12 * mm, height - 8 * mm, f"{footer_right}  第 {document.page} 页 page"
        )
        canvas.restoreState()

    if progress is not None:
        total = [max(len(story), 1)]

        def report(kind: str, value: int) -> None:
            if kind == "SIZE_EST":
                total[0] = max(value, 1)
            elif kind == "PROGRESS":
                progress(min(value, total[0]), total[0], "pdf")

        doc.setProgressCallBack(report)
    doc.build(
        story,
        onFirstPage=furniture,
        onLaterPages=furniture,
        canvasmaker=functools.partial(Canvas, initialFontName=font),
    )
    return out
