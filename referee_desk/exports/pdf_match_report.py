"""The match report PDF for dispute review: everything the record says, checkable on paper.

Seats and pairs, each hand's result, a chart of both sides' levels hand by hand
against the match clock, the timeline with clock readings (violations
highlighted, voided events marked with the correction's reason), consequences
with their articles, notes, the final hash of the event chain (and the seal when
the match is locked), and signature lines for the referee and both captains.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer

from referee_desk.exports.event_text import (
    SEATS,
    SIDES,
    TYPE_LABELS,
    VIOLATION_TYPES,
    describe,
    trump_text,
)
from referee_desk.exports.pdf_common import (
    HELD_BG,
    VIOLATION_BG,
    Styles,
    build,
    grid,
    make_styles,
    p,
    ruleset_line,
)
from referee_desk.match import replay
from referee_desk.match.clock import format_duration
from referee_desk.match.envelope import Event, verify_chain
from referee_desk.rules.wording import describe as word_consequence
from referee_desk.tournament.model import LEVEL_NAMES, level_name

NS_COLOR = colors.HexColor("#1f5fbf")
EW_COLOR = colors.HexColor("#c0392b")


def export_match_report_pdf(
    events: Sequence[Event],
    out: str | Path,
    font_path: str | None = None,
    seal_hash: str | None = None,
    tournament_name: str = "",
) -> Path:
    if not events:
        raise ValueError("the match record is empty: nothing to report")
    events = list(events)
    state = replay(events)
    s = make_styles(font_path)
    info = state.info
    mid = state.match_id
    story: list = [p(f"比赛报告 Match report · {mid}", s.title)]
    where = " · ".join(
        x
        for x in (
            tournament_name or (info.tournament if info else ""),
            info.round if info else "",
            f"{info.table}" if info else "",
            f"裁判 referee {info.referee}" if info else "",
        )
        if x
    )
    story.append(p(where, s.subtitle))
    if s.font.warning:
        story.append(p(s.font.warning, s.warning))
    broken = verify_chain(events)
    if broken is not None:
        story.append(p(f"哈希链断裂 HASH CHAIN BROKEN at event #{events[broken].seq}", s.warning))

    # Seats and pairs.
    story.append(p("座位与选手 Seats and pairs", s.h1))
    rows: list[list[object]] = [
        ["方 Side", "队 Pair", "座位 Seat", "选手 Player", "座位 Seat", "选手 Player"]
    ]
    for side, (a, b) in (("NS", ("N", "S")), ("EW", ("E", "W"))):
        pair = ""
        seats = {}
        if info is not None:
            pair = next((v for k, v in info.pairs.items() if k.value == side), "")
            seats = {k.value: v for k, v in info.seats.items()}
        rows.append([SIDES[side], pair, SEATS[a], seats.get(a, ""), SEATS[b], seats.get(b, "")])
    story.append(grid(rows, [22 * mm, 50 * mm, 16 * mm, 30 * mm, 16 * mm, 30 * mm], s))
    story.append(p(ruleset_line(state.ruleset), s.small))

    # The end.
    story.append(p("结果 Result", s.h1))
    levels = {k.value: v for k, v in state.levels.items()}
    lv = f"南北 NS {levels['NS'].label} : 东西 EW {levels['EW'].label}"
    if state.passed_a is not None:
        lv += f" · {SIDES[state.passed_a.value]} 打过A passed A"
    if state.end is not None:
        e = state.end
        story.append(
            p(
                f"胜方 Winner: {SIDES[e.winner.value]} · {e.reason} · 条款 article {e.article}",
                s.body,
                bold=True,
            )
        )
        story.append(p(word_consequence(e, "zh_CN"), s.body))
    else:
        story.append(p("比赛未结束 The match has not ended.", s.warning))
    if state.referred:
        sides = ", ".join(SIDES[x.value] for x in state.referred)
        story.append(
            p(f"待仲裁 Reported to the committee, decision pending (8.8): {sides}", s.warning)
        )
    story.append(
        p(
            f"终局级数 Levels at the end: {lv} · "
            f"已用时 clock {format_duration(state.clock.elapsed_ms)}",
            s.body,
        )
    )

    # Hands.
    story.append(p("各盘结果 Hands", s.h1))
    story.append(_hands_table(state, s))
    story.append(Spacer(1, 3 * mm))
    story.append(_level_chart(state, events, s))

    # Timeline.
    story.append(p("事件时间线 Timeline of events", s.h1))
    story.append(_timeline(state, events, s))

    # Consequences, violations, flags, corrections, notes.
    story.append(p("判定与条款 Consequences and articles", s.h1))
    rows = [["#", "盘 Hand", "条款 Article", "内容 Consequence"]]
    rows += [
        [c.seq, c.hand or "", c.article, word_consequence(c, "zh_CN")] for c in state.consequences
    ] or []
    if len(rows) == 1:
        rows.append(["", "", "", "无 none"])
    story.append(grid(rows, [12 * mm, 16 * mm, 20 * mm, 132 * mm], s))

    story.append(p("违规 Violations", s.h1))
    rows = [["#", "盘 Hand", "违规 Violation", "条款 Article", "座位 Seat", "说明 Detail"]]
    # A violation's detail is the English text of its consequence: print its wording.
    worded = {(c.seq, c.text): word_consequence(c, "zh_CN") for c in state.consequences}
    for v in state.violations:
        rows.append(
            [
                v.seq,
                v.hand or "",
                v.kind,
                v.article,
                SEATS.get(v.seat.value, "") if v.seat else SIDES[v.side.value],
                worded.get((v.seq, v.detail), v.detail),
            ]
        )
    extra = [("BACKGROUND", (0, 1), (-1, len(rows) - 1), VIOLATION_BG)] if len(rows) > 1 else []
    if len(rows) == 1:
        rows.append(["", "", "无 none", "", "", ""])
    story.append(grid(rows, [12 * mm, 14 * mm, 32 * mm, 18 * mm, 22 * mm, 82 * mm], s, extra))

    if state.flags:
        story.append(p("记录疑点 Flags (what the record itself shows)", s.h1))
        rows = [["#", "盘 Hand", "条款 Article", "内容 Text"]]
        rows += [[f.seq, f.hand or "", f.article, f.text] for f in state.flags]
        story.append(
            grid(
                rows,
                [12 * mm, 16 * mm, 20 * mm, 132 * mm],
                s,
                [("BACKGROUND", (0, 1), (-1, -1), HELD_BG)],
            )
        )

    story.append(p("更正 Corrections", s.h1))
    rows = [["#", "更正对象 Target", "方式 Action", "理由 Reason"]]
    rows += [[c.seq, f"#{c.target_seq}", c.action, c.reason] for c in state.corrections]
    if len(rows) == 1:
        rows.append(["", "", "", "无 none"])
    story.append(grid(rows, [12 * mm, 26 * mm, 22 * mm, 120 * mm], s))

    story.append(p("备注 Notes", s.h1))
    rows = [["#", "关于 About", "内容 Note"]]
    rows += [[n.seq, f"#{n.about_seq}" if n.about_seq else "", n.text] for n in state.notes]
    if len(rows) == 1:
        rows.append(["", "", "无 none"])
    story.append(grid(rows, [12 * mm, 20 * mm, 148 * mm], s))

    # Hash and signatures.
    final = events[-1].hash
    check = [
        p("记录校验 Record check", s.h1),
        p(
            f"事件数 events: {len(events)} · 最后事件 last event #{events[-1].seq} · "
            f"{events[-1].recorded_at}",
            s.body,
        ),
        p(f"事件链最终哈希 Final hash of the event chain (SHA-256):\n{final}", s.body, bold=True),
    ]
    if seal_hash:
        check.append(p(f"封存哈希 Sealed head hash: {seal_hash}", s.body))
    check.append(
        p(
            "核对方法 To check: referee-desk verify FILE, "
            "并比对上面的哈希 and compare the hash above.",
            s.small,
        )
    )
    check.append(Spacer(1, 8 * mm))
    sign = [
        ["裁判 Referee", "南北方队长 N–S captain", "东西方队长 E–W captain"],
        ["", "", ""],
        ["日期 Date:", "日期 Date:", "日期 Date:"],
    ]
    check.append(
        grid(
            sign,
            [60 * mm, 60 * mm, 60 * mm],
            s,
            [
                ("ROWBACKGROUNDS", (0, 1), (-1, 1), [colors.white]),
                ("BOTTOMPADDING", (0, 1), (-1, 1), 28),
            ],
        )
    )
    story.append(KeepTogether(check))
    footer = f"{mid} · final hash {final} · {ruleset_line(state.ruleset)}"
    return build(
        out, story, s, title=f"比赛报告 Match report {mid}", footer_left=footer, footer_right=mid
    )


def _hands_table(state, s: Styles):
    rows: list[list[object]] = [
        [
            "盘 Hand",
            "庄 Dealer",
            "庄家方 Declarers",
            "打 Level",
            "主 Trump",
            "防守方得分 Defenders",
            "结果 Result",
            "级 NS : EW",
        ]
    ]
    extra = []
    for i, h in enumerate(state.hands, start=1):
        r = h.result
        if r is not None:
            gains = ", ".join(f"{SIDES[k.value]} +{v}" for k, v in r.gains.items() if v)
            result = ("上台 taken" if r.taken else "连庄 kept") + (f"; {gains}" if gains else "")
            if r.passed_a:
                result += "; 打过A"
            after = (
                f"{r.levels_after[_side('NS', r)].label} : {r.levels_after[_side('EW', r)].label}"
            )
            pts = "" if r.defenders_final is None else r.defenders_final
        else:
            result = h.void_reason or h.status
            after = ""
            pts = ""
            if h.status == "voided":
                extra.append(("TEXTCOLOR", (0, i), (-1, i), colors.grey))
        rows.append(
            [
                h.number,
                SEATS.get(h.dealer.value, "") if h.dealer else "",
                SIDES.get(h.declarers.value, "") if h.declarers else "",
                h.level.label if h.level else "",
                trump_text(h.trump_label) if h.trump_decided else "",
                pts,
                result,
                after,
            ]
        )
    if len(rows) == 1:
        rows.append(["", "", "", "", "", "", "无 none", ""])
    return grid(
        rows, [14 * mm, 16 * mm, 22 * mm, 14 * mm, 16 * mm, 22 * mm, 52 * mm, 24 * mm], s, extra
    )


def _side(value: str, r):
    return next(k for k in r.levels_after if k.value == value)


def level_points(state, events: Sequence[Event]) -> dict[str, list[tuple[float, int]]]:
    """(clock minutes, level index) per side: the start, then after every decided hand."""
    clock_at = {e.seq: (e.clock_ms or 0) for e in events}
    last_seq: dict[int, int] = {}
    for c in state.consequences:
        if c.hand is not None:
            last_seq[c.hand] = max(last_seq.get(c.hand, 0), c.seq)
    pts: dict[str, list[tuple[float, int]]] = {"NS": [(0.0, 0)], "EW": [(0.0, 0)]}
    for h in state.hands:
        r = h.result
        if r is None:
            continue
        minutes = clock_at.get(last_seq.get(h.number, h.seq), 0) / 60000
        for side, rank in r.levels_after.items():
            idx = int(rank) - 3
            if r.passed_a and side == r.winner:
                idx = len(LEVEL_NAMES)
            pts[side.value].append((round(minutes, 2), idx))
    return pts


def _level_chart(state, events: Sequence[Event], s: Styles) -> Drawing:
    pts = level_points(state, events)
    width, height = 180 * mm, 70 * mm
    d = Drawing(width, height)
    lp = LinePlot()
    lp.x, lp.y = 16 * mm, 12 * mm
    lp.width, lp.height = width - 50 * mm, height - 20 * mm
    lp.data = [pts["NS"], pts["EW"]]
    limit = state.ruleset.match_minutes
    xmax = max([limit] + [x for series in lp.data for x, _ in series])
    lp.xValueAxis.valueMin, lp.xValueAxis.valueMax = 0, xmax
    lp.xValueAxis.valueStep = 15 if xmax <= 180 else 30
    lp.yValueAxis.valueMin, lp.yValueAxis.valueMax, lp.yValueAxis.valueStep = 0, 12, 1
    lp.yValueAxis.labelTextFormat = lambda v: level_name(int(v))
    for axis in (lp.xValueAxis, lp.yValueAxis):
        axis.labels.fontName = s.font.name
        axis.labels.fontSize = 7
    lp.yValueAxis.visibleGrid = True
    lp.yValueAxis.gridStrokeColor = colors.HexColor("#dddddd")
    for i, color in enumerate((NS_COLOR, EW_COLOR)):
        lp.lines[i].strokeColor = color
        lp.lines[i].strokeWidth = 1.4
        lp.lines[i].symbol = makeMarker("FilledCircle" if i == 0 else "FilledSquare", size=3)
        lp.lines[i].symbol.fillColor = color
    d.add(lp)
    d.add(String(lp.x + lp.width / 2, 2 * mm, "比赛用时（分钟）match clock, minutes",
                 fontName=s.font.name, fontSize=7.5, textAnchor="middle"))  # fmt: skip
    d.add(String(2 * mm, lp.y + lp.height + 3 * mm, "级 level", fontName=s.font.name, fontSize=7.5))
    legend = Legend()
    legend.x, legend.y = lp.x + lp.width + 6 * mm, lp.y + lp.height
    legend.fontName, legend.fontSize = s.font.name, 8
    legend.colorNamePairs = [(NS_COLOR, "南北 NS"), (EW_COLOR, "东西 EW")]
    d.add(legend)
    return d


def _timeline(state, events: Sequence[Event], s: Styles):
    voided = set(getattr(state, "voided_seqs", ()))
    reasons = {c.target_seq: c.reason for c in state.corrections}
    rows: list[list[object]] = [
        ["#", "时间 Time (UTC)", "比赛钟 Clock", "事件 Event", "内容 Details", "裁判 Referee"]
    ]
    extra = []
    for i, e in enumerate(events, start=1):
        text = describe(e)
        if e.seq in voided:
            text = f"[作废 voided: {reasons.get(e.seq, '')}] {text}"
            extra.append(("TEXTCOLOR", (0, i), (-1, i), colors.grey))
        elif e.type in VIOLATION_TYPES:
            extra.append(("BACKGROUND", (0, i), (-1, i), VIOLATION_BG))
        elif e.type in ("correction", "committee_ruling"):
            extra.append(("BACKGROUND", (0, i), (-1, i), HELD_BG))
        clock = "" if e.clock_ms is None else format_duration(e.clock_ms)
        rows.append(
            [e.seq, e.recorded_at[11:19], clock, TYPE_LABELS.get(e.type, e.type), text, e.referee]
        )
    return grid(rows, [10 * mm, 18 * mm, 16 * mm, 34 * mm, 82 * mm, 20 * mm], s, extra)
