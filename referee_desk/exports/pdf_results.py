"""The results PDF: header, ruleset, final places, bracket, standings, every match, penalties."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Spacer

from referee_desk.exports.labels import (
    decision_mark,
    decision_text,
    levels_text,
    pair_text,
    ruleset_rows,
    tie_break_text,
)
from referee_desk.exports.pdf_common import (
    HELD_BG,
    MARK_BG,
    build,
    grid,
    make_styles,
    p,
    ruleset_line,
)
from referee_desk.exports.snapshot import Snapshot
from referee_desk.tournament.layout import bracket_layout
from referee_desk.tournament.state import MatchState, Status


def export_results_pdf(
    snap: Snapshot,
    out: str | Path,
    font_path: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> Path:
    """Write the results; ``progress(done, total, what)`` follows the layout (for a dialog)."""
    s = make_styles(font_path)
    info = snap.info
    story: list = [p(info.name, s.title)]
    sub = " · ".join(x for x in (info.dates, info.venue, info.organizer) if x)
    story.append(p(f"成绩公告 Results  ·  {sub}", s.subtitle))
    if s.font.warning:
        story.append(p(s.font.warning, s.warning))
    if snap.problems:
        story.append(p("待处理 Open problems:\n" + "\n".join(snap.problems[:40]), s.warning))
    if not snap.state.finished:
        story.append(
            p(
                "比赛尚未全部结束：以下为当前成绩。Not all matches are finished: results so far.",
                s.warning,
            )
        )

    story.append(p("赛制与规则 Format and ruleset", s.h1))
    story.append(
        p(
            f"规则 Ruleset: {snap.ruleset.name}  ·  "
            f"抽签 drawn {snap.drawn_at} (seed {snap.draw_seed})",
            s.body,
        )
    )
    story.append(
        p(f"小组排名规则 Group tie-breaks: {tie_break_text(snap.settings.tie_breaks)}", s.body)
    )
    rows = [["参数 Parameter", "取值 Value", "条款 Article"]]
    rows += [list(r) for r in ruleset_rows(snap.ruleset)]
    story.append(grid(rows, [90 * mm, 50 * mm, 30 * mm], s))

    story.append(p("最终名次 Final places", s.h1))
    places = [["名次 Place", "选手 Pair", "俱乐部 Club"]]
    for pl in snap.state.places:
        pair = snap.pair(pl.pair_id)
        label = pl.note if pl.place == 0 else f"第{pl.place}名 {pl.note}".strip()
        places.append(
            [label, f"#{pl.pair_id} {pair.name if pair else ''}", pair.club if pair else ""]
        )
    if len(places) == 1:
        places.append(["—", "尚无 none yet", ""])
    story.append(grid(places, [35 * mm, 90 * mm, 55 * mm], s))

    ko = snap.ko()
    if ko:
        story.append(PageBreak())
        story.append(p("淘汰赛对阵 Knockout bracket", s.h1))
        drawing = bracket_drawing(snap, s)
        if drawing is not None:
            story.append(drawing)
            story.append(PageBreak())
        rounds = sorted({(m.match.round, m.match.third_place) for m in ko})
        for rnd, third in rounds:
            ms = [m for m in ko if m.match.round == rnd and m.match.third_place == third]
            story.append(p(snap.round_name(ms[0].match), s.h2))
            story.append(_match_table(snap, ms, s))

    for name in snap.groups:
        st = next(x for x in snap.state.standings if x.group == name)
        story.append(p(f"{name}组积分 Group {name} standings", s.h1))
        rows = [["名次", "选手 Pair", "赛", "胜", "负", "级差", "抽签"]]
        for r in st.rows:
            pair = snap.pair(r.pair_id)
            rows.append([
                f"{r.rank}{'=' if r.tied else ''}", f"#{r.pair_id} {pair.name if pair else ''}",
                r.played, r.wins, r.losses, r.level_diff, "" if r.lot is None else r.lot,
            ])  # fmt: skip
        story.append(grid(rows, [14 * mm, 80 * mm, 12 * mm, 12 * mm, 12 * mm, 16 * mm, 14 * mm], s))
        if st.needs_lots:
            story.append(p(f"需抽签 lots needed: {[list(t) for t in st.needs_lots]}", s.warning))
        story.append(Spacer(1, 2 * mm))
        story.append(p(f"{name}组比赛 Group {name} matches", s.h2))
        story.append(_match_table(snap, snap.group_matches(name), s))

    story.append(PageBreak())
    story.append(p("全部比赛 Every match", s.h1))
    playable = [m for m in snap.state.matches if m.status not in (Status.VOID, Status.BYE)]
    story.append(_match_table(snap, playable, s, full=True))

    story.append(p("处罚汇总 Penalties summary", s.h1))
    story.append(_penalties(snap, s))
    order = tie_break_text(snap.settings.tie_breaks)
    footer = f"{info.name} · {ruleset_line(snap.ruleset)} · 排名 {order}"
    return build(
        out, story, s, title=f"{info.name} 成绩 Results", footer_left=footer, progress=progress
    )


def _match_table(snap: Snapshot, ms: list[MatchState], s, full: bool = False):
    head = [
        "比赛 Match",
        "A方 Pair A",
        "B方 Pair B",
        "胜方 Winner",
        "级 Levels",
        "决胜方式 Decided by (article)",
    ]
    widths = [25 * mm, 41 * mm, 41 * mm, 30 * mm, 16 * mm, 33 * mm]
    if full:
        head.insert(1, "轮次 Round")
        widths = [25 * mm, 20 * mm, 34 * mm, 34 * mm, 26 * mm, 16 * mm, 31 * mm]
    rows: list[list[object]] = [head]
    extra: list[tuple] = []
    for i, m in enumerate(ms, start=1):
        o = m.outcome
        a = pair_text(snap.pair(m.pair_a)) or m.match.slot_a.describe()
        b = pair_text(snap.pair(m.pair_b)) or m.match.slot_b.describe()
        winner = pair_text(snap.pair(m.winner), with_seed=False) if m.winner else m.status.label_zh
        how = decision_text(m.decided_by)
        mark = decision_mark(m.decided_by)
        if mark:
            how = f"{how} [{mark}]"
            extra.append(("BACKGROUND", (0, i), (-1, i), MARK_BG))
        if m.status is Status.HELD:
            how = "待仲裁 committee ruling pending (8.11)"
            extra.append(("BACKGROUND", (0, i), (-1, i), HELD_BG))
        row: list[object] = [
            m.match.match_id + (f"\n{m.match.table}" if m.match.table else ""),
            a, b, winner,
            levels_text(dict(o.levels), m.pair_a, m.pair_b) if o else "",
            how,
        ]  # fmt: skip
        if full:
            row.insert(1, snap.round_name(m.match))
        rows.append(row)
    return grid(rows, widths, s, extra)


def _penalties(snap: Snapshot, s):
    counts: Counter[tuple[int | None, str, str]] = Counter()
    where: dict[tuple[int | None, str, str], list[str]] = {}
    for m in snap.state.matches:
        if m.outcome is None:
            continue
        for pen in m.outcome.penalties:
            key = (pen.pair_id, pen.kind, pen.article)
            counts[key] += 1
            where.setdefault(key, []).append(m.match.match_id)
    rows: list[list[object]] = [
        ["选手 Pair", "违规 Violation", "条款 Article", "次数 Count", "比赛 Matches"]
    ]
    for key in sorted(counts, key=lambda k: (k[0] or 0, k[2], k[1])):
        pid, kind, article = key
        pair = snap.pair(pid)
        rows.append([
            f"#{pid} {pair.name}" if pair else "—", kind, article, counts[key],
            ", ".join(sorted(set(where[key]))),
        ])  # fmt: skip
    if len(rows) == 1:
        rows.append(["—", "无 none", "", "", ""])
    return grid(rows, [50 * mm, 40 * mm, 18 * mm, 16 * mm, 56 * mm], s)


#: Largest bracket (lines) drawn as a picture; bigger fields get the tables only.
DRAWN_LINES = 32


def bracket_drawing(snap: Snapshot, s) -> Drawing | None:
    """The knockout drawn as nested boxes (``tournament.layout``), winners in bold."""
    layout = bracket_layout(snap.ko())
    if not layout.boxes or layout.lines > DRAWN_LINES:
        return None
    width, height = 186 * mm, 235 * mm
    extra_lines = 3 if any(b.third_place for b in layout.boxes) else 0
    line_h = height / (layout.lines + extra_lines)
    col_w = width / (layout.rounds + 1)
    size = min(7.0, line_h * 0.42)
    d = Drawing(width, height)
    states = {m.match.match_id: m for m in snap.ko()}
    bold = s.font.name

    def y_of(line: int) -> float:
        return height - line * line_h

    def label(text: str, x: float, y: float, strong: bool) -> None:
        shown = text if len(text) <= 22 else text[:21] + "…"
        color = colors.HexColor("#0b3d91") if strong else colors.HexColor("#444444")
        if strong:
            shown = "▶ " + shown
        d.add(String(x + 2, y, shown, fontName=bold, fontSize=size + (0.5 if strong else 0),
                     fillColor=color))  # fmt: skip

    for box in layout.boxes:
        m = states[box.match_id]
        x = box.column * col_w
        top, mid, bottom = y_of(box.top), y_of(box.top + box.half), y_of(box.bottom + 1)
        fill = None
        if m.status is Status.HELD:
            fill = HELD_BG
        elif m.decided_by is not None and m.decided_by.is_marked:
            fill = MARK_BG
        d.add(Rect(x, bottom, col_w - 3 * mm, top - bottom, strokeColor=colors.black,
                   strokeWidth=0.8, fillColor=fill))  # fmt: skip
        d.add(Line(x, mid, x + col_w - 3 * mm, mid, strokeColor=colors.grey, strokeWidth=0.4))
        for pid, slot, y_top, y_bot in (
            (m.pair_a, m.match.slot_a, top, mid),
            (m.pair_b, m.match.slot_b, mid, bottom),
        ):
            pair = snap.pair(pid)
            text = (
                pair_text(pair) if pair else ("轮空 bye" if slot.kind == "bye" else slot.describe())
            )
            label(text, x, (y_top + y_bot) / 2 - size / 3, pid is not None and pid == m.winner)
        note = m.match.match_id
        if m.outcome is not None and m.status is Status.DECIDED:
            note += "  " + levels_text(dict(m.outcome.levels), m.pair_a, m.pair_b)
        if m.decided_by is not None and m.decided_by.is_marked:
            note += f" {decision_mark(m.decided_by)}"
        elif m.status is Status.HELD:
            note += " 待仲裁"
        d.add(String(x + 2, bottom + 1.5, note, fontName=bold, fontSize=max(size - 1.5, 4),
                     fillColor=colors.HexColor("#555555")))  # fmt: skip
        if box.third_place:
            d.add(String(x + 2, top + 2, snap.round_name(m.match), fontName=bold, fontSize=size))
    final = next(b for b in layout.boxes if b.column == layout.rounds - 1 and not b.third_place)
    winner = states[final.match_id].winner
    if winner is not None:
        x = layout.rounds * col_w
        y = (y_of(final.top) + y_of(final.bottom + 1)) / 2
        d.add(String(x + 2, y + size + 2, "冠军 Champion", fontName=bold, fontSize=size))
        label(pair_text(snap.pair(winner)), x, y - size / 3, True)
    return d
