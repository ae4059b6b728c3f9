"""The match report's level chart: each side's level over the match clock (steps).

Its own module: the points are computed from the replayed hands (tested on their own),
the drawing is reportlab graphics; the report only places the chart.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from referee_desk.exports.pdf_common import Styles
from referee_desk.match.envelope import Event
from referee_desk.tournament.model import LEVEL_NAMES, level_index, level_name

NS_COLOR = colors.HexColor("#1f5fbf")
EW_COLOR = colors.HexColor("#c0392b")


def level_points(state, events: Sequence[Event]) -> dict[str, list[tuple[float, int]]]:
    """(clock minutes, level index) per side: the start, then after every decided hand."""
    clock_at = {e.seq: (e.clock_ms or 0) for e in events}
    last_seq: dict[int, int] = {}
    for c in state.consequences:
        if c.hand is not None:
            last_seq[c.hand] = max(last_seq.get(c.hand, 0), c.seq)
    first = level_index(state.ruleset.first_level)  # 3 in Guilin, 2 in the presets (12.1)
    pts: dict[str, list[tuple[float, int]]] = {"NS": [(0.0, first)], "EW": [(0.0, first)]}
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


def step_points(points: list[tuple[float, int]], offset: float) -> list[tuple[float, float]]:
    """A level held until the hand that changes it: horizontal, then a vertical step.

    ``offset`` lifts one side a little so equal levels still show both lines.
    """
    out: list[tuple[float, float]] = []
    for x, y in points:
        if out:
            out.append((x, out[-1][1]))
        out.append((x, y + offset))
    return out


def level_chart(state, events: Sequence[Event], s: Styles) -> Drawing:
    pts = level_points(state, events)
    # A strip across the page (issue 20: not a third of it), tall enough that the
    # level labels (≥ 9 pt apart) do not touch.
    width, height = 180 * mm, 50 * mm
    d = Drawing(width, height)
    lp = LinePlot()
    lp.x, lp.y = 16 * mm, 11 * mm
    lp.width, lp.height = width - 50 * mm, height - 18 * mm
    limit = state.ruleset.match_minutes
    end = max([x for series in pts.values() for x, _ in series] + [0.0])
    ns = step_points(pts["NS"], 0.12)
    ew = step_points(pts["EW"], -0.12)
    # Hold the final level to the end of the clock so the last step is visible.
    clock_end = max(end, state.clock.elapsed_ms / 60000)
    for series in (ns, ew):
        series.append((round(clock_end, 2), series[-1][1]))
    lp.data = [ns, ew]
    xmax = max([limit or 0, clock_end, 1.0]) * 1.02
    lp.xValueAxis.valueMin, lp.xValueAxis.valueMax = 0, xmax
    lp.xValueAxis.valueStep = 15 if xmax <= 180 else 30
    low = min(0, level_index(state.ruleset.first_level))
    lp.yValueAxis.valueMin, lp.yValueAxis.valueMax = low - 0.5, 12.5
    lp.yValueAxis.valueSteps = list(range(low, 13))
    lp.yValueAxis.labelTextFormat = lambda v: level_name(round(v))
    for axis in (lp.xValueAxis, lp.yValueAxis):
        axis.labels.fontName = s.font.name
        axis.labels.fontSize = 6.5
    lp.yValueAxis.visibleGrid = True
    lp.yValueAxis.gridStrokeColor = colors.HexColor("#dddddd")
    for i, color in enumerate((NS_COLOR, EW_COLOR)):
        lp.lines[i].strokeColor = color
        lp.lines[i].strokeWidth = 1.6
        if i == 1:
            lp.lines[i].strokeDashArray = (3, 1.5)
    d.add(lp)
    if limit is not None:
        # The time limit (1.5): a dashed vertical line at match_minutes.
        x_limit = lp.x + lp.width * limit / xmax
        d.add(Line(x_limit, lp.y, x_limit, lp.y + lp.height,
                   strokeColor=colors.HexColor("#555555"), strokeWidth=0.8,
                   strokeDashArray=(2, 2)))  # fmt: skip
        d.add(String(x_limit, lp.y + lp.height + 1.5 * mm, f"时限 time limit {limit}′ (1.5)",
                     fontName=s.font.name, fontSize=7, textAnchor="middle"))  # fmt: skip
    else:
        # 12.8: the presets set no time limit: no mark, and the chart says so.
        d.add(String(lp.x + lp.width, lp.y + lp.height + 1.5 * mm,
                     "无时限 no time limit (12.8)", fontName=s.font.name, fontSize=7,
                     textAnchor="end"))  # fmt: skip
    d.add(String(lp.x + lp.width / 2, 2 * mm, "比赛用时（分钟）match clock, minutes",
                 fontName=s.font.name, fontSize=7.5, textAnchor="middle"))  # fmt: skip
    d.add(String(2 * mm, lp.y + lp.height + 3 * mm, "级 level", fontName=s.font.name, fontSize=7.5))
    legend = Legend()
    legend.x, legend.y = lp.x + lp.width + 6 * mm, lp.y + lp.height
    legend.fontName, legend.fontSize = s.font.name, 8
    legend.colorNamePairs = [(NS_COLOR, "南北 NS"), (EW_COLOR, "东西 EW (虚线 dashed)")]
    d.add(legend)
    return d
