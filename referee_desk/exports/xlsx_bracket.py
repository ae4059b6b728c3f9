"""The bracket workbook (xlsx): the knockout tree, group standings, every match, the rules.

The knockout is drawn as a tree (``xlsx_tree``), one sheet per part of the draw.
Groups share one sheet, several per printed page, each a cross-table whose rows
and columns are both in rank order. Every user text is written as a string, never
a formula (``xlsx_safe``); rows with wrapped text get the height they need. Pages
print one page wide (``fitToPage`` set, or Excel ignores the width), with print
titles and frozen header rows.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from pathlib import Path

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from referee_desk.exports.labels import (
    compact_ruleset,
    decision_mark,
    decision_text,
    entrant_text,
    levels_text,
    pair_text,
    preset_title,
    ruleset_rows,
    tie_break_mark,
    tie_break_text,
    violation_text,
)
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.snapshot import Snapshot
from referee_desk.exports.xlsx_fit import UNIT_POINTS, fit_merged, fit_paper, text_width
from referee_desk.exports.xlsx_safe import put, set_value
from referee_desk.exports.xlsx_tree import add_tree_sheets, tree_sheet_names
from referee_desk.tournament.final_places import final_places
from referee_desk.tournament.model import level_name
from referee_desk.tournament.state import MatchState, Status

HEADER_ROWS = 3
THIN = Side(style="thin", color="000000")
THICK = Side(style="medium", color="000000")
TITLE_FONT = Font(name="Microsoft YaHei", size=14, bold=True)
HEAD_FONT = Font(name="Microsoft YaHei", size=10, bold=True)
BODY_FONT = Font(name="Microsoft YaHei", size=9)
WIN_FONT = Font(name="Microsoft YaHei", size=9, bold=True)
HEAD_FILL = PatternFill("solid", fgColor="DDE5F0")
HELD_FILL = PatternFill("solid", fgColor="FCE4C4")
MARK_FILL = PatternFill("solid", fgColor="F8D7DA")
CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)
LEFT = Alignment(horizontal="left", vertical="center", wrap_text=True, indent=1)

#: Defined names an organizer's template may hold; the export fills those present.
TEMPLATE_NAMES = (
    "tournament_name",
    "tournament_dates",
    "tournament_venue",
    "tournament_organizer",
    "ruleset_name",
    "tie_breaks",
    "champion",
    "runner_up",
    "third_place",
    "drawn_at",
)

Progress = Callable[[int, int, str], None]


def export_bracket_xlsx(
    snap: Snapshot,
    out: str | Path,
    template: str | Path | None = None,
    progress: Progress | None = None,
    *,
    options: PrintOptions | None = None,
) -> Path:
    """Write the bracket workbook; ``template`` is an organizer workbook to fill and extend.

    ``options`` gives the paper (A3 prints the bracket parts larger), the venue's zone
    and the printed-at time, which is the workbook's created/modified time.
    """
    options = options or PrintOptions()
    paper = options.paper
    out = Path(out)
    wb = load_workbook(template) if template else Workbook()
    if template:
        _fill_template(wb, snap)
    else:
        wb.remove(wb.active)
    tree = tree_sheet_names(snap, paper) if snap.ko() else []
    steps = 2 + len(tree) + (1 if snap.groups else 0)
    done = 0

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, steps, what)

    _info_sheet(wb.create_sheet("赛事 Info"), snap, options)
    tick("info")
    if snap.ko():
        add_tree_sheets(
            wb, snap, paper, lambda ws, t, c: _header(ws, snap, t, c, options), _footer(snap)
        )
        for name in tree:
            tick(name)
    if snap.groups:
        _groups_sheet(wb.create_sheet("小组 Groups"), snap, options)
        tick("groups")
    _matches_sheet(wb.create_sheet("全部比赛 Matches"), snap, options)
    tick("matches")
    stamp = options.printed_at.astimezone(UTC).replace(tzinfo=None, microsecond=0)
    wb.properties.creator = "Referee Desk 裁判台"
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.title = snap.info.name
    wb.save(out)
    return out


# -- page setup ---------------------------------------------------------------------


def _page(ws: Worksheet, last_col: int, footer: str = "") -> None:
    """Landscape, one page wide at ≥ ``MIN_SCALE`` (A3 where A4 would shrink the text)."""
    ws.page_setup.orientation = "landscape"
    fit_paper(ws, last_col)
    fit_merged(ws, 1, last_col, TITLE_FONT.size)
    fit_merged(ws, 2, last_col, BODY_FONT.size)
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = f"1:{HEADER_ROWS}"
    ws.freeze_panes = ws.cell(row=HEADER_ROWS + 1, column=1)
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    if footer:
        # Excel limits a header/footer to 255 characters in all.
        ws.oddFooter.left.text = footer[:230]
        ws.oddFooter.left.size = 7
    # The page number sits in the header: the ruleset footer can run the page's width.
    ws.oddHeader.right.text = "Referee Desk 裁判台 · &P / &N"
    ws.print_area = f"A1:{get_column_letter(last_col)}{max(ws.max_row, HEADER_ROWS)}"


def _footer(snap: Snapshot) -> str:
    """The ruleset in force, printed at the foot of every page."""
    return compact_ruleset(snap.ruleset)


def _header(
    ws: Worksheet, snap: Snapshot, title: str, columns: list[str], options: PrintOptions
) -> None:
    info = snap.info
    last = max(len(columns), 2)
    put(ws, 1, 1, f"{info.name} · {title}").font = TITLE_FONT
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=last)
    sub = " · ".join(
        x
        for x in (
            info.dates,
            info.venue,
            info.organizer,
            f"规则 ruleset {preset_title(snap.ruleset)}",
            f"抽签 drawn {options.local(snap.drawn_at, seconds=False)}",
        )
        if x
    )
    put(ws, 2, 1, sub).font = BODY_FONT
    ws.merge_cells(start_row=2, start_column=1, end_row=2, end_column=last)
    for c, text in enumerate(columns, start=1):
        cell = put(ws, HEADER_ROWS, c, text)
        cell.font = HEAD_FONT
        cell.fill = HEAD_FILL
        cell.alignment = CENTER
        cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)


def _boxed_merge(
    ws: Worksheet,
    r1: int,
    c1: int,
    r2: int,
    c2: int,
    value: str,
    *,
    top: Side = THIN,
    bottom: Side = THIN,
    left: Side = THICK,
    right: Side = THICK,
    font: Font = BODY_FONT,
    fill: PatternFill | None = None,
    align: Alignment = LEFT,
) -> None:
    """Write, border, then merge (borders first, or Excel draws them on one cell only)."""
    cell = put(ws, r1, c1, value)
    cell.font = font
    cell.alignment = align
    if fill is not None:
        cell.fill = fill
    cell.border = Border(left=left, right=right, top=top, bottom=bottom)
    if r2 > r1 or c2 > c1:
        ws.merge_cells(start_row=r1, start_column=c1, end_row=r2, end_column=c2)


# -- sheets ---------------------------------------------------------------------------


def _info_sheet(ws: Worksheet, snap: Snapshot, options: PrintOptions) -> None:
    _header(ws, snap, "赛事信息 Tournament", ["项目 Item", "内容 Value", "条款 Article"], options)
    info = snap.info
    rows: list[tuple[str, str, str]] = [
        ("赛事 Tournament", info.name, ""),
        ("日期 Dates", info.dates, ""),
        ("地点 Venue", info.venue, ""),
        ("主办 Organizer", info.organizer, ""),
        ("赛制 Format", _format_text(snap), ""),
        ("排名规则 Tie-breaks", tie_break_text(snap.settings.tie_breaks), ""),
        ("抽签 Draw", f"{options.local(snap.drawn_at)} · seed {snap.draw_seed}", ""),
        ("规则 Ruleset", preset_title(snap.ruleset), ""),
    ]
    rows += ruleset_rows(snap.ruleset)
    title = "名次 Place" if snap.state.finished else "名次（已定）Place so far"
    rows += [
        (f"{title} {pl.label}", pair_text(snap.pair(pl.pair_id)), pl.note)
        for pl in final_places(snap.state, snap.settings)
    ]
    widths = {"A": 34, "B": 44, "C": 36}
    for r, (a, b, c) in enumerate(rows, start=HEADER_ROWS + 1):
        for col, text in enumerate((a, b, c), start=1):
            cell = put(ws, r, col, text)
            cell.font = BODY_FONT
            cell.alignment = LEFT
            cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    for letter, width in widths.items():
        ws.column_dimensions[letter].width = width
    fit_row_heights(ws, HEADER_ROWS, HEADER_ROWS + len(rows), {1: 34, 2: 44, 3: 36})
    _page(ws, 3, _footer(snap))


def _wrapped_lines(text: object, width: float, size: float = 9) -> int:
    """Lines a wrapped cell of ``width`` units needs at ``size`` pt (measured in the
    PDFs' font, in the narrower of Excel's and LibreOffice's column widths)."""
    room = max(width * UNIT_POINTS - 8, 1)
    total = 0
    for part in str(text).split("\n"):
        total += max(1, -(-int(text_width(part, size) * 1.1) // int(room)))
    return total


def fit_row_heights(ws: Worksheet, first: int, last: int, widths: dict[int, float]) -> None:
    """Give every row of ``first … last`` the height its wrapped text needs (Excel and
    LibreOffice keep the default height otherwise, and wrapped lines overlap)."""
    for r in range(first, last + 1):
        lines = 1
        for c, width in widths.items():
            value = ws.cell(r, c).value
            if value not in (None, ""):
                lines = max(lines, _wrapped_lines(value, width))
        ws.row_dimensions[r].height = 13 * lines + 2


def _format_text(snap: Snapshot) -> str:
    s = snap.settings
    if s.format.value == "single_elimination":
        text = f"单败淘汰 single elimination, {len(snap.pairs)} 对 pairs"
    else:
        text = (
            f"小组循环 {s.group_count} 组 + 淘汰赛 round robin in {s.group_count} groups, "
            f"每组前 {s.advance_per_group} 名出线 top {s.advance_per_group} advance"
        )
    if s.third_place:
        text += "; 三四名决赛 third-place match"
    return text


def _slot_text(snap: Snapshot, s: MatchState, side: str) -> str:
    pid = s.pair_a if side == "a" else s.pair_b
    slot = s.match.slot_a if side == "a" else s.match.slot_b
    if pid is not None:
        return entrant_text(snap.pair(pid), slot)
    if slot.kind == "bye" or (s.status is Status.BYE):
        return "轮空 bye"
    return slot.describe()


#: First column of the cross-table (after the standings' own columns).
CROSS_FROM = 11
#: Rows a printed page of the groups sheet holds (landscape A4 at the sheet's row height).
GROUP_PAGE_ROWS = 26


def _groups_sheet(ws: Worksheet, snap: Snapshot, options: PrintOptions) -> None:
    """Every group on one sheet, several per printed page, each a cross-table in rank order."""
    size = max((len(ids) for ids in snap.groups.values()), default=0)
    cols = ["名次 Rank", "选手 Pair", "俱乐部 Club", "赛 P", "胜 W", "负 L", "级差 Lv±",
            "相互 H2H", "抽签 Lot", "排名依据 By"]  # fmt: skip
    cols += [f"对 vs {k}" for k in range(1, size + 1)]
    _header(ws, snap, "小组赛积分 Group standings", cols, options)
    r = HEADER_ROWS + 1
    page_start = r
    for name in snap.groups:
        standings = next(st for st in snap.state.standings if st.group == name)
        block = len(standings.rows) + 4
        if r > page_start and r - page_start + block > GROUP_PAGE_ROWS:
            ws.row_breaks.append(Break(id=r - 1))
            page_start = r
        r = _group_block(ws, snap, name, standings, r)
    widths = [6, 22, 10, 4, 4, 4, 6, 6, 5, 10] + [9] * size
    for c, w in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = w
    fit_row_heights(ws, HEADER_ROWS + 1, r, {2: 22, 3: 10, 10: 10})
    ws.page_setup.fitToHeight = 0
    _page(ws, len(cols), _footer(snap))


def _group_block(ws: Worksheet, snap: Snapshot, name: str, standings, r: int) -> int:
    """One group: its title, the standings with the cross-table, the notes. Next free row."""
    ranked = [row.pair_id for row in standings.rows]
    unfinished = "" if standings.complete else " (未完成 not finished)"
    title = put(ws, r, 1, f"{name}组 Group {name}{unfinished}")
    title.font = HEAD_FONT
    for k, pid in enumerate(ranked, start=CROSS_FROM):
        cell = put(ws, r, k, f"{k - CROSS_FROM + 1}. #{pid}")
        cell.font = HEAD_FONT
        cell.fill = HEAD_FILL
        cell.alignment = CENTER
        cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    r += 1
    results = _cross_results(snap, name)
    for row in standings.rows:
        p = snap.pair(row.pair_id)
        values = [
            f"{row.rank}{'=' if row.tied else ''}",
            f"#{row.pair_id} {p.name if p else ''}",
            p.club if p else "",
            row.played,
            row.wins,
            row.losses,
            row.level_diff,
            "" if row.head_to_head is None else row.head_to_head,
            "" if row.lot is None else row.lot,
            tie_break_mark(row.separated_by),
        ]
        values += [
            "—" if other == row.pair_id else results.get((row.pair_id, other), "")
            for other in ranked
        ]
        for c, v in enumerate(values, start=1):
            cell = put(ws, r, c, v)
            cell.font = BODY_FONT
            cell.alignment = CENTER if c != 2 else LEFT
            cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
        r += 1
    notes = [f"排名规则 tie-breaks: {tie_break_text(snap.settings.tie_breaks)}"]
    if standings.lots_due:
        notes.append(f"需抽签 lots needed: {[list(t) for t in standings.lots_due]}")
    put(ws, r, 1, " · ".join(notes)).font = Font(name="Microsoft YaHei", size=8)
    return r + 2


def _cross_results(snap: Snapshot, name: str) -> dict[tuple[int, int], str]:
    results: dict[tuple[int, int], str] = {}
    for s in snap.group_matches(name):
        if s.status is Status.DECIDED and s.outcome is not None and s.pair_a and s.pair_b:
            o = s.outcome
            for me, other in ((s.pair_a, s.pair_b), (s.pair_b, s.pair_a)):
                wl = "胜" if o.winner == me else "负"
                mark = decision_mark(o.decided_by).split(" ")[0] if o.decided_by else ""
                results[(me, other)] = (
                    f"{wl} {level_name(o.level_of(me))}:{level_name(o.level_of(other))}"
                    + (f" {mark}" if mark else "")
                )
        elif s.status is Status.HELD and s.pair_a and s.pair_b:
            results[(s.pair_a, s.pair_b)] = results[(s.pair_b, s.pair_a)] = "待仲裁"
    return results


MATCH_COLUMNS = [
    "比赛 Match",
    "轮次 Round",
    "桌 Table / 裁判 Referee",
    "A方 Pair A",
    "B方 Pair B",
    "状态 Status",
    "胜方 Winner",
    "终局级 Levels",
    "决胜方式 Decided by",
    "违规 Penalties",
    "记录哈希 Record hash",
]


def _matches_sheet(ws: Worksheet, snap: Snapshot, options: PrintOptions) -> None:
    _header(ws, snap, "全部比赛 Every match", MATCH_COLUMNS, options)
    r = HEADER_ROWS + 1
    for s in snap.state.matches:
        o = s.outcome
        values = [
            s.match.match_id,
            snap.round_name(s.match),  # "A组 第1轮" or a knockout round (the id says KO)
            "\n".join(x for x in (s.match.table, s.match.referee) if x),
            _slot_text(snap, s, "a"),
            _slot_text(snap, s, "b"),
            s.status.label_zh,
            pair_text(snap.pair(s.winner), with_seed=False) if s.winner else "",
            levels_text(dict(o.levels), s.pair_a, s.pair_b) if o else "",
            decision_text(s.decided_by),
            "; ".join(f"{p.article} {violation_text(p.kind)}" for p in o.penalties) if o else "",
            o.final_hash[:12] if o and o.final_hash else "",
        ]
        fill = HELD_FILL if s.status is Status.HELD else None
        if s.decided_by is not None and s.decided_by.is_marked:
            fill = MARK_FILL
        for c, v in enumerate(values, start=1):
            cell = put(ws, r, c, v)
            cell.font = BODY_FONT
            cell.alignment = LEFT
            cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
            if fill is not None:
                cell.fill = fill
        r += 1
    # One A4 landscape page wide at full size (9 pt): names and rules wrap instead.
    widths = [10, 12, 8, 16, 16, 6, 11, 7, 11, 9, 10]
    for c, w in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = w
    fit_row_heights(ws, HEADER_ROWS, r - 1, dict(enumerate(widths, start=1)))
    ws.auto_filter.ref = (
        f"A{HEADER_ROWS}:{get_column_letter(len(MATCH_COLUMNS))}{max(r - 1, HEADER_ROWS)}"
    )
    _page(ws, len(MATCH_COLUMNS), _footer(snap))


def _fill_template(wb: Workbook, snap: Snapshot) -> None:
    """Fill the organizer's named cells (those of ``TEMPLATE_NAMES`` that exist)."""
    places = {
        p.first: pair_text(snap.pair(p.pair_id))
        for p in final_places(snap.state, snap.settings)
        if not p.shared
    }
    values = {
        "tournament_name": snap.info.name,
        "tournament_dates": snap.info.dates,
        "tournament_venue": snap.info.venue,
        "tournament_organizer": snap.info.organizer,
        "ruleset_name": snap.ruleset.name,
        "tie_breaks": tie_break_text(snap.settings.tie_breaks),
        "champion": places.get(1, ""),
        "runner_up": places.get(2, ""),
        "third_place": places.get(3, ""),
        "drawn_at": snap.drawn_at,
    }
    for name, value in values.items():
        defined = wb.defined_names.get(name)
        if defined is None:
            continue
        for sheet_title, ref in defined.destinations:
            ws = wb[sheet_title]
            first = ref.replace("$", "").split(":")[0]
            set_value(ws[first], value)
