"""What every PDF shares: the CJK fonts on every style, page furniture, the printed-at time.

Page furniture is drawn once the page count is known ("第 N 页 / 共 M 页"), with the
printed-at time; the PDF's CreationDate is that time. Byte-stable output is an
explicit option (``PrintOptions.reproducible``), never a faked date.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A3, A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from referee_desk.exports.fonts import FontChoice, FontSet, font_set, missing_glyph_warning
from referee_desk.exports.labels import preset_title, ruleset_rows
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.text_clean import clean_multiline
from referee_desk.exports.text_fit import fit_lines
from referee_desk.rules.ruleset import Ruleset

WARN_COLOR = colors.HexColor("#B00020")
HEAD_BG = colors.HexColor("#DDE5F0")
MARK_BG = colors.HexColor("#F8D7DA")
HELD_BG = colors.HexColor("#FCE4C4")
VIOLATION_BG = colors.HexColor("#FDECEA")


#: Font sets by primary font name, so ``p`` finds the fallbacks of a style's font.
_font_sets: dict[str, FontSet] = {}


@dataclass(frozen=True, slots=True)
class Styles:
    font: FontChoice
    fonts: FontSet
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    warning: ParagraphStyle

    def table_style(
        self, extra: Sequence[tuple] = (), header_rows: int = 1, size: float = 8
    ) -> TableStyle:
        """Grid, header shading and the CJK font on every cell."""
        cmds: list[tuple] = [
            ("FONTNAME", (0, 0), (-1, -1), self.font.name),
            ("FONTSIZE", (0, 0), (-1, -1), size),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.black),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        if size != 8:
            cmds.append(("LEADING", (0, 0), (-1, -1), size * 1.3))
        if header_rows:
            cmds.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG))
        return TableStyle([*cmds, *extra])


def make_styles(font_path: str | None = None) -> Styles:
    fonts = font_set(font_path)
    _font_sets[fonts.name] = fonts
    font = fonts.primary
    f = font.name

    def st(name: str, size: float, **kw) -> ParagraphStyle:
        return ParagraphStyle(name, fontName=f, fontSize=size, leading=size * 1.35, **kw)

    return Styles(
        font=font,
        fonts=fonts,
        title=st("title", 18, alignment=TA_CENTER, spaceAfter=4),
        subtitle=st("subtitle", 10, alignment=TA_CENTER, spaceAfter=8),
        h1=st("h1", 13, spaceBefore=10, spaceAfter=4, keepWithNext=1),
        h2=st("h2", 10.5, spaceBefore=6, spaceAfter=3, keepWithNext=1),
        body=st("body", 9),
        small=st("small", 7),
        cell=st("cell", 8),
        cell_bold=st("cell_bold", 8, textColor=colors.black),
        warning=st("warning", 9, textColor=WARN_COLOR, borderColor=WARN_COLOR, borderWidth=0.8,
                   borderPadding=4, spaceBefore=4, spaceAfter=8),
    )  # fmt: skip


def markup(text: object, fonts: FontSet | None, full: bool = False) -> str:
    """Escaped paragraph markup; characters the primary font lacks switch to a fallback.

    Text is cut to a table cell's bound unless ``full`` (a paragraph may run pages).
    """
    clean = clean_multiline(text, None, None) if full else clean_multiline(text)
    if fonts is None:
        return escape(clean).replace("\n", "<br/>")
    parts = []
    for name, run in fonts.runs(clean):
        body = escape(run).replace("\n", "<br/>")
        parts.append(body if name == fonts.name else f'<font name="{name}">{body}</font>')
    return "".join(parts)


def p(text: object, style: ParagraphStyle, bold: bool = False, full: bool = False) -> Paragraph:
    """A paragraph of plain text (escaped, cleaned); ``bold`` underlines weight with <b>;
    ``full`` prints a long text whole (outside tables) instead of cutting it."""
    body = markup(text, _font_sets.get(style.fontName), full)
    return Paragraph(f"<b>{body}</b>" if bold else body, style)


def glyph_warning(styles: Styles, texts) -> str:
    """The warning for characters in ``texts`` that no installed font can draw."""
    return missing_glyph_warning(styles.fonts.uncovered(texts))


def none_if_empty(rows: list[list[object]], column: int) -> list[list[object]]:
    """The table's rows; a table of only its header gets one row saying 无 none in
    ``column`` (an empty section is shown as empty, not left out)."""
    if len(rows) != 1:
        return rows
    row: list[object] = [""] * len(rows[0])
    row[column] = "无 none"
    return [*rows, row]


def grid(
    rows: list[list[object]],
    widths: Sequence[float],
    styles: Styles,
    extra: Sequence[tuple] = (),
    repeat: int = 1,
    heights: Sequence[float | None] | None = None,
    size: float = 8,
) -> Table:
    """A table whose cells are paragraphs (wrapping, CJK font) with a repeated header;
    ``heights`` fixes row heights (rows written in by hand); ``size`` is the text's
    size in points (8, or larger for a list read from a wall)."""
    cols = list(widths)
    style = styles.cell if size == 8 else _sized(styles.cell, size)
    data = [
        [_cell(c, styles, cols[j] if j < len(cols) else 0, style) for j, c in enumerate(row)]
        for row in rows
    ]
    t = Table(
        data, colWidths=list(widths), repeatRows=repeat,
        rowHeights=list(heights) if heights is not None else None,
    )  # fmt: skip
    t.setStyle(styles.table_style(extra, header_rows=repeat, size=size))
    return t


def _sized(style: ParagraphStyle, size: float) -> ParagraphStyle:
    return ParagraphStyle(f"{style.name}-{size}", parent=style, fontSize=size, leading=size * 1.3)


def _cell(c: object, styles: Styles, width: float, style: ParagraphStyle | None = None) -> object:
    """A paragraph for text that wraps or needs a fallback font; a short line that fits
    its column in the primary font stays a plain string (laid out many times faster)."""
    if isinstance(c, str) and c == "":
        return ""
    if isinstance(c, int | float) and not isinstance(c, bool):
        c = str(c)
    if isinstance(c, str):
        if len(c) <= 60 and "\n" not in c and c.isprintable():
            runs = styles.fonts.runs(c)
            primary = len(runs) == 1 and runs[0][0] == styles.fonts.name
            size = style.fontSize if style is not None else 8
            if primary and stringWidth(c, styles.fonts.name, size) <= width - 13:
                return c
        return p(c, style or styles.cell)
    return c


def ruleset_line(ruleset: Ruleset) -> str:
    """The ruleset in force, worded in Chinese (``labels.ruleset_rows``)."""
    rows = ruleset_rows(ruleset)
    params = "; ".join(f"{label.split(' ')[0]} {value.split(' ')[0]}" for label, value, _ in rows)
    return f"规则 ruleset {ruleset.name}: {params}"


def ruleset_footer(ruleset: Ruleset) -> str:
    """The ruleset for page footers: Guilin's whole line (it fits), a preset by its name.

    A preset's 32 parameters do not fit a footer; the document's body prints them all
    (``ruleset_line``), the footer names the preset on every page.
    """
    if ruleset.name == "guilin-2009":
        return ruleset_line(ruleset)
    return f"规则 ruleset {preset_title(ruleset)} · 全部参数见正文 every parameter in the body"


def page_size(options: PrintOptions, wide: bool = False) -> tuple[float, float]:
    size = A3 if options.paper == "A3" else A4
    return landscape(size) if wide else size


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
    options: PrintOptions | None = None,
    page_header: str = "",
) -> Path:
    """Build the PDF with page furniture on every page: ``page_header`` top left,
    ``footer_right`` and "第 N 页 / 共 M 页" top right, the footer and printed-at time."""
    options = options or PrintOptions()
    out = Path(out)
    size = page_size(options, wide)
    doc = SimpleDocTemplate(
        str(out),
        pagesize=size,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=14 * mm,
        bottomMargin=16 * mm,
        title=title,
        author="Referee Desk 裁判台",
        creator="Referee Desk 裁判台",
        subject=title,
        invariant=1 if options.reproducible else 0,
    )
    font = styles.font.name
    furniture = Furniture(styles.fonts, footer_left, footer_right, page_header, options)
    if progress is not None:
        total = [max(len(story), 1)]
        done = [0]

        def report(kind: str, value: int) -> None:
            # keepWithNext regroups flowables, so reportlab's count may step back.
            if kind == "SIZE_EST":
                total[0] = max(value, 1)
            elif kind == "PROGRESS" and value > done[0]:
                done[0] = min(value, total[0])
                progress(done[0], total[0], "pdf")

        doc.setProgressCallBack(report)
    doc.build(
        story,
        canvasmaker=functools.partial(
            NumberedCanvas, initialFontName=font, furniture=furniture, options=options
        ),
    )
    return out


@dataclass(frozen=True, slots=True)
class Furniture:
    """What every page prints around its frame."""

    fonts: FontSet
    footer_left: str
    footer_right: str
    page_header: str
    options: PrintOptions

    def draw(self, canvas: Canvas, page: int, pages: int) -> None:
        width, height = canvas._pagesize
        font = self.fonts.name
        canvas.saveState()
        canvas.setFont(font, 6.5)
        footer = clean_multiline(self.footer_left, None, None)
        lines = simpleSplit(footer, font, 6.5, width - 24 * mm)
        for i, line in enumerate(lines[:3]):
            draw_text(canvas, self.fonts, 12 * mm, (11 - 3 * i) * mm, line, 6.5)
        right = f"{self.footer_right}  第 {page} 页 / 共 {pages} 页  page {page} of {pages}"
        used = draw_text(canvas, self.fonts, width - 12 * mm, height - 8 * mm, right.strip(),
                         7.5, anchor="end")  # fmt: skip
        header = getattr(canvas, "page_header_text", "") or self.page_header
        if header:
            # The head line keeps clear of the page number: smaller, then two lines.
            room = width - 24 * mm - used - 6 * mm
            fitted = fit_lines(self.fonts, header, room, 8, 6.5, 2)
            top = height - (8 * mm if len(fitted.lines) == 1 else 6.2 * mm)
            for k, line in enumerate(fitted.lines):
                draw_text(canvas, self.fonts, 12 * mm, top - k * fitted.size * 1.15, line,
                          fitted.size)  # fmt: skip
        draw_text(canvas, self.fonts, width - 12 * mm, 4 * mm, self.options.printed_text(), 6.5,
                  anchor="end")  # fmt: skip
        canvas.restoreState()


class _Stamp:
    """reportlab's TimeStamp for a given time (the PDF's CreationDate and ModDate)."""

    def __init__(self, when) -> None:
        offset = when.utcoffset()
        minutes = int(offset.total_seconds() // 60) if offset else 0
        self.t = when.timestamp()
        self.lt = when.timetuple()
        self.YMDhms = tuple(self.lt)[:6]
        self.dhh = int(minutes / 60)
        self.dmm = abs(minutes) % 60
        self.tzname = when.tzname() or ""


class NumberedCanvas(Canvas):
    """Keeps each page until the end, so the furniture can print the page count."""

    def __init__(self, *args, furniture: Furniture, options: PrintOptions, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._doc._timeStamp = _Stamp(options.printed_local)
        self._furniture = furniture
        self._pages: list[dict] = []

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._furniture.draw(self, number, total)
            Canvas.showPage(self)
        Canvas.save(self)


def draw_text(
    canvas: Canvas,
    fonts: FontSet,
    x: float,
    y: float,
    text: str,
    size: float,
    anchor: str = "start",
    color=None,
) -> float:
    """Draw one line, switching fonts per character; returns its width."""  # fmt: skip
    runs = fonts.runs(text)
    width = sum(stringWidth(t, f, size) for f, t in runs)
    if anchor == "end":
        x -= width
    elif anchor == "middle":
        x -= width / 2
    if color is not None:
        canvas.setFillColor(color)
    for font, run in runs:
        canvas.setFont(font, size)
        canvas.drawString(x, y, run)
        x += stringWidth(run, font, size)
    return width


class PageHeader(Flowable):
    """Sets the head line of this page and the following ones (a document of many parts)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self.canv.page_header_text = self.text


class Stamp(Flowable):
    """Flowables drawn once into a PDF form and stamped wherever they recur.

    A round pack prints the same blank grids for every match; laying them out once
    and reusing the form keeps 128 scoresheets fast and the file small.
    """

    def __init__(self, key: str, flowables: list, cache: dict) -> None:
        super().__init__()
        self.key = key
        self.flowables = flowables
        self.cache = cache

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        if self.key not in self.cache:
            sizes = [f.wrap(avail_width, 10**6) for f in self.flowables]
            gaps = [f.getSpaceBefore() + f.getSpaceAfter() for f in self.flowables]
            self.cache[self.key] = (
                max(w for w, _ in sizes),
                sum(h for _, h in sizes) + sum(gaps),
                sizes,
            )
        width, height, _ = self.cache[self.key]
        self.width, self.height = width, height
        return width, height

    def draw(self) -> None:
        canvas = self.canv
        name = f"stamp-{self.key}"
        defined = getattr(canvas, "_stamps_defined", None)
        if defined is None:
            defined = canvas._stamps_defined = set()
        if name not in defined:
            _, height, sizes = self.cache[self.key]
            canvas.beginForm(name, lowerx=0, lowery=0, upperx=self.width, uppery=height)
            y = height
            for f, (_, h) in zip(self.flowables, sizes, strict=True):
                y -= f.getSpaceBefore() + h
                f.drawOn(canvas, 0, y)
                y -= f.getSpaceAfter()
            canvas.endForm()
            defined.add(name)
        canvas.doForm(name)
