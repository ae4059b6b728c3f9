"""The bracket sheet (xlsx): bracket, group standings, every match, the rules in force.

Each knockout match is a box: pair A's cell over the upper half of its block,
pair B's over the lower half, both merged so a later round's box spans exactly
the two boxes that feed it. Borders are set on a range's first cell before the
merge (openpyxl then draws them round the whole range). Pages print landscape,
one page wide (``fitToPage`` set, or Excel ignores the width), with print titles
and frozen header rows.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from referee_desk.exports.labels import (
    compact_ruleset,
    decision_mark,
    decision_text,
    levels_text,
    pair_text,
    ruleset_rows,
    tie_break_text,
)
from referee_desk.exports.snapshot import Snapshot
from referee_desk.tournament.layout import bracket_layout
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
) -> Path:
    """Write the bracket workbook; ``template`` is an organizer workbook to fill and extend."""
    out = Path(out)
    wb = load_workbook(template) if template else Workbook()
    if template:
        _fill_template(wb, snap)
    else:
        wb.remove(wb.active)
    steps = 2 + (1 if snap.ko() else 0) + len(snap.groups)
    done = 0

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, steps, what)

    _info_sheet(wb.create_sheet("赛事 Info"), snap)
    tick("info")
    if snap.ko():
        _bracket_sheet(wb.create_sheet("淘汰赛 Knockout"), snap)
        tick("bracket")
    for name in snap.groups:
        _group_sheet(wb.create_sheet(f"{name}组 Group {name}"), snap, name)
        tick(f"group {name}")
    _matches_sheet(wb.create_sheet("全部比赛 Matches"), snap)
    tick("matches")
    stamp = _stamp(snap)
    wb.properties.creator = "Referee Desk 裁判台"
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.title = snap.info.name
    wb.save(out)
    return out


def _stamp(snap: Snapshot) -> datetime:
    try:
        return datetime.strptime(snap.drawn_at[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return datetime(2000, 1, 1)


# -- page setup ---------------------------------------------------------------------


def _page(ws: Worksheet, last_col: int, footer: str = "") -> None:
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
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
        ws.oddFooter.left.size = 6
    # The page number sits in the header: the ruleset footer can run the page's width.
    ws.oddHeader.right.text = "Referee Desk 裁判台 · &P / &N"
    ws.print_area = f"A1:{get_column_letter(last_col)}{max(ws.max_row, HEADER_ROWS)}"


def _footer(snap: Snapshot) -> str:
    """The ruleset in force, printed at the foot of every page."""
    return compact_ruleset(snap.ruleset)


def _header(ws: Worksheet, snap: Snapshot, title: str, columns: list[str]) -> None:
    info = snap.info
    last = max(len(columns), 2)
    ws.cell(1, 1, f"{info.name} · {title}").font = TITLE_FONT
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=last)
    sub = " · ".join(
        x
        for x in (
            info.dates,
            info.venue,
            info.organizer,
            f"规则 ruleset {snap.ruleset.name}",
            f"抽签 drawn {snap.drawn_at}",
        )
        if x
    )
    ws.cell(2, 1, sub).font = BODY_FONT
    ws.merge_cells(start_row=2, start_column=1, end_row=2, end_column=last)
    for c, text in enumerate(columns, start=1):
        cell = ws.cell(HEADER_ROWS, c, text)
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
    cell = ws.cell(r1, c1, value)
    cell.font = font
    cell.alignment = align
    if fill is not None:
        cell.fill = fill
    cell.border = Border(left=left, right=right, top=top, bottom=bottom)
    if r2 > r1 or c2 > c1:
        ws.merge_cells(start_row=r1, start_column=c1, end_row=r2, end_column=c2)


# -- sheets ---------------------------------------------------------------------------


def _info_sheet(ws: Worksheet, snap: Snapshot) -> None:
    _header(ws, snap, "赛事信息 Tournament", ["项目 Item", "内容 Value", "条款 Article"])
    info = snap.info
    rows: list[tuple[str, str, str]] = [
        ("赛事 Tournament", info.name, ""),
        ("日期 Dates", info.dates, ""),
        ("地点 Venue", info.venue, ""),
        ("主办 Organizer", info.organizer, ""),
        ("赛制 Format", _format_text(snap), ""),
        ("排名规则 Tie-breaks", tie_break_text(snap.settings.tie_breaks), ""),
        ("抽签 Draw", f"{snap.drawn_at} · seed {snap.draw_seed}", ""),
        ("规则 Ruleset", snap.ruleset.name, ""),
    ]
    rows += ruleset_rows(snap.ruleset)
    rows += [
        ("名次 Place", _place_name(p.place, p.note), pair_text(snap.pair(p.pair_id)))
        for p in snap.state.places
    ]
    widths = {"A": 34, "B": 44, "C": 36}
    for r, (a, b, c) in enumerate(rows, start=HEADER_ROWS + 1):
        for col, text in enumerate((a, b, c), start=1):
            cell = ws.cell(r, col, text)
            cell.font = BODY_FONT
            cell.alignment = LEFT
            cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
        # Wrapped text needs a taller row: Excel and LibreOffice keep the default height.
        cells = zip(widths.values(), (a, b, c), strict=True)
        lines = max(_wrapped_lines(text, width) for width, text in cells)
        if lines > 1:
            ws.row_dimensions[r].height = 15 * lines
    for letter, width in widths.items():
        ws.column_dimensions[letter].width = width
    _page(ws, 3, _footer(snap))


def _wrapped_lines(text: str, width: int) -> int:
    """Lines a wrapped cell needs; CJK characters take two columns of width."""
    columns = sum(2 if ord(ch) > 0x2E80 else 1 for ch in text) + 2
    return max(1, -(-columns // (width - 2)))


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


def _place_name(place: int, note: str) -> str:
    if place == 0:
        return note
    return f"第{place}名" + (f" {note}" if note else "")


def _bracket_sheet(ws: Worksheet, snap: Snapshot) -> None:
    ko = [s for s in snap.ko() if not s.match.third_place]
    third = [s for s in snap.ko() if s.match.third_place]
    rounds = max(s.match.round for s in ko)
    cols_per_round = 2
    titles: list[str] = []
    for r in range(1, rounds + 1):
        first = next(s for s in ko if s.match.round == r)
        titles += [snap.round_name(first.match), "桌/结果 Table · result"]
    titles.append("冠军 Champion")
    _header(ws, snap, "淘汰赛对阵 Knockout bracket", titles)
    base = HEADER_ROWS + 1
    layout = bracket_layout(snap.ko())
    states = {s.match.match_id: s for s in snap.ko()}
    for box in layout.boxes:
        if box.third_place:
            continue
        col = 1 + box.column * cols_per_round
        _match_box(ws, snap, states[box.match_id], base + box.top, box.half, col)
    for row in range(base, base + layout.lines):
        ws.row_dimensions[row].height = 21
    champion_col = 1 + rounds * cols_per_round
    final = next(s for s in ko if s.match.round == rounds)
    top = base
    bottom = base + 2**rounds - 1
    champ = pair_text(snap.pair(final.winner)) if final.status is Status.DECIDED else ""
    _boxed_merge(
        ws, top, champion_col, bottom, champion_col, champ,
        top=THICK, bottom=THICK, font=Font(name="Microsoft YaHei", size=12, bold=True),
        align=CENTER,
    )  # fmt: skip
    last_row = bottom
    if third:
        box = layout.box(third[0].match.match_id)
        ws.cell(base + box.top, 1, snap.round_name(third[0].match)).font = HEAD_FONT
        _match_box(ws, snap, third[0], base + box.top + 1, box.half, 1)
        last_row = base + box.top + 2
    for r in range(1, rounds + 1):
        ws.column_dimensions[get_column_letter(1 + (r - 1) * 2)].width = 30
        ws.column_dimensions[get_column_letter(2 + (r - 1) * 2)].width = 18
    ws.column_dimensions[get_column_letter(champion_col)].width = 30
    legend = last_row + 2
    ws.cell(legend, 1, "粗体=胜方 bold = winner; 弃权 W/O = forfeit 8.10; "
            "取消资格 DQ = disqualification 8.8; 仲裁 CR = committee ruling 8.11; "
            "待仲裁 = ruling pending, branch held").font = BODY_FONT  # fmt: skip
    _page(ws, champion_col, _footer(snap))


def _match_box(
    ws: Worksheet, snap: Snapshot, s: MatchState, start: int, half: int, col: int
) -> None:
    a_win = s.winner is not None and s.winner == s.pair_a
    b_win = s.winner is not None and s.winner == s.pair_b
    fill = HELD_FILL if s.status is Status.HELD else None
    _boxed_merge(
        ws, start, col, start + half - 1, col, _slot_text(snap, s, "a"),
        top=THICK, bottom=THIN, font=WIN_FONT if a_win else BODY_FONT, fill=fill,
    )  # fmt: skip
    _boxed_merge(
        ws, start + half, col, start + 2 * half - 1, col, _slot_text(snap, s, "b"),
        top=THIN, bottom=THICK, font=WIN_FONT if b_win else BODY_FONT, fill=fill,
    )  # fmt: skip
    mark_fill = MARK_FILL if s.decided_by is not None and s.decided_by.is_marked else fill
    _boxed_merge(
        ws, start, col + 1, start + 2 * half - 1, col + 1, _result_text(snap, s),
        top=THICK, bottom=THICK, left=THIN, right=THICK, fill=mark_fill, align=CENTER,
    )  # fmt: skip


def _slot_text(snap: Snapshot, s: MatchState, side: str) -> str:
    pid = s.pair_a if side == "a" else s.pair_b
    slot = s.match.slot_a if side == "a" else s.match.slot_b
    if pid is not None:
        return pair_text(snap.pair(pid))
    if slot.kind == "bye" or (s.status is Status.BYE):
        return "轮空 bye"
    return slot.describe()


def _result_text(snap: Snapshot, s: MatchState) -> str:
    lines = [s.match.match_id]
    if s.match.table:
        lines.append(f"{s.match.table} · {s.match.referee}".rstrip(" ·"))
    if s.status is Status.DECIDED and s.outcome is not None:
        o = s.outcome
        lv = levels_text(dict(o.levels), s.pair_a, s.pair_b)
        lines.append(f"{lv}  {o.decided_by.label_zh if o.decided_by else ''}".strip())
        mark = decision_mark(o.decided_by)
        if mark:
            lines.append(mark)
    elif s.status is not Status.VOID:
        lines.append(s.status.label_zh)
    return "\n".join(lines)


def _group_sheet(ws: Worksheet, snap: Snapshot, name: str) -> None:
    standings = next(st for st in snap.state.standings if st.group == name)
    ids = snap.groups[name]
    cols = ["名次 Rank", "选手 Pair", "俱乐部 Club", "赛 P", "胜 W", "负 L", "级差 Lv±", "抽签 Lot"]
    cols += [f"对 #{pid}" for pid in ids]
    _header(ws, snap, f"{name}组积分 Group {name} standings", cols)
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
    r = HEADER_ROWS + 1
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
            "" if row.lot is None else row.lot,
        ]
        values += [
            "—" if other == row.pair_id else results.get((row.pair_id, other), "") for other in ids
        ]
        for c, v in enumerate(values, start=1):
            cell = ws.cell(r, c, v)
            cell.font = BODY_FONT
            cell.alignment = CENTER if c != 2 else LEFT
            cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
        r += 1
    r += 1
    ws.cell(
        r, 1, f"排名规则 tie-breaks: {tie_break_text(snap.settings.tie_breaks)}"
    ).font = BODY_FONT
    if standings.needs_lots:
        r += 1
        ws.cell(
            r, 1, f"需抽签 lots needed: {[list(t) for t in standings.needs_lots]}"
        ).font = WIN_FONT
    if not standings.complete:
        r += 1
        ws.cell(r, 1, "小组赛未完成 group not finished").font = BODY_FONT
    widths = [9, 30, 14, 6, 6, 6, 8, 8] + [14] * len(ids)
    for c, w in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = w
    _page(ws, len(cols), _footer(snap))


MATCH_COLUMNS = [
    "比赛 Match",
    "阶段 Stage",
    "轮次 Round",
    "桌 Table",
    "裁判 Referee",
    "A方 Pair A",
    "B方 Pair B",
    "状态 Status",
    "胜方 Winner",
    "终局级 Levels",
    "决胜方式 Decided by",
    "违规 Penalties",
    "记录哈希 Record hash",
]


def _matches_sheet(ws: Worksheet, snap: Snapshot) -> None:
    _header(ws, snap, "全部比赛 Every match", MATCH_COLUMNS)
    r = HEADER_ROWS + 1
    for s in snap.state.matches:
        o = s.outcome
        stage = "淘汰赛 KO" if s.match.group is None else f"{s.match.group}组"
        values = [
            s.match.match_id,
            stage,
            snap.round_name(s.match),
            s.match.table,
            s.match.referee,
            _slot_text(snap, s, "a"),
            _slot_text(snap, s, "b"),
            s.status.label_zh,
            pair_text(snap.pair(s.winner), with_seed=False) if s.winner else "",
            levels_text(dict(o.levels), s.pair_a, s.pair_b) if o else "",
            decision_text(s.decided_by),
            "; ".join(f"{p.article} {p.kind}" for p in o.penalties) if o else "",
            o.final_hash[:16] if o and o.final_hash else "",
        ]
        fill = HELD_FILL if s.status is Status.HELD else None
        if s.decided_by is not None and s.decided_by.is_marked:
            fill = MARK_FILL
        for c, v in enumerate(values, start=1):
            cell = ws.cell(r, c, v)
            cell.font = BODY_FONT
            cell.alignment = LEFT
            cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
            if fill is not None:
                cell.fill = fill
        r += 1
    widths = [14, 9, 18, 8, 9, 28, 28, 8, 22, 10, 26, 22, 18]
    for c, w in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = w
    ws.auto_filter.ref = (
        f"A{HEADER_ROWS}:{get_column_letter(len(MATCH_COLUMNS))}{max(r - 1, HEADER_ROWS)}"
    )
    _page(ws, len(MATCH_COLUMNS), _footer(snap))


def _fill_template(wb: Workbook, snap: Snapshot) -> None:
    """Fill the organizer's named cells (those of ``TEMPLATE_NAMES`` that exist)."""
    places = {p.place: pair_text(snap.pair(p.pair_id)) for p in snap.state.places if p.place}
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
            ws[first] = value
