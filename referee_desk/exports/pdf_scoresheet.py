"""The blank table scoresheet: a paper backup with the same fields as the desk.

A referee whose laptop fails keeps the match on this sheet and enters it later:
header (tournament, round, table, referee, match id), seats and pairs, the clock,
one row per hand (dealer, bids, trump, defenders' points, last trick, result,
levels), violations with their article, pauses, the end, and signatures.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from referee_desk.exports.pdf_common import build, grid, make_styles, p, ruleset_line
from referee_desk.exports.print_options import PrintOptions
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset

VIOLATION_MENU = (
    "1 出错牌 wrong play 8.2 · 2 劳改 revoke 8.3 (A/B) · 3 明叫 open bid 8.1 · "
    "4 诈叫 false bid 8.6 · 5 坐庄顺序错误 wrong dealer 8.5 · 6 警告 warning 8.8 · "
    "7 超时 overrun 8.9 · 8 弃权 forfeit 8.10 · 9 仲裁 committee 8.11"
)


def result_scale(ruleset: Ruleset) -> str:
    """The 7.1/7.2 scale printed as a reminder (stage and step from the ruleset)."""
    st, step = ruleset.stage, ruleset.step
    parts = [f"{st - step * (k + 1)}–{st - step * k - 5}: 庄家方 +{k + 1}" for k in range(4)]
    parts.reverse()
    parts += [f"{st + step * k}–{st + step * (k + 1) - 5}: 上台 +{k}" for k in range(3)]
    return "防守方得分 defenders' points → " + " · ".join(parts) + " …"


#: Height of a row the referee writes in by hand (issue 11: at least 8 mm).
WRITING_ROW = 8 * mm


def export_scoresheet_pdf(
    out: str | Path,
    font_path: str | None = None,
    ruleset: Ruleset = GUILIN_2009,
    header: dict[str, str] | None = None,
    hands: int = 18,
    *,
    options: PrintOptions | None = None,
) -> Path:
    """Write the scoresheet; ``header`` pre-fills tournament, round, table, referee, pairs.

    Every page's head names the match (id, table, round, pairs), so a loose page 2
    still belongs to its match.
    """
    s = make_styles(font_path)
    story = scoresheet_story(s, ruleset, header or {}, hands)
    return build(
        out, story, s, title="比赛记录表 Table scoresheet", footer_left=ruleset_line(ruleset),
        wide=True, options=options, page_header=page_identity(header or {}),
    )  # fmt: skip


def page_identity(h: dict[str, str]) -> str:
    """The line at the head of every page: match, table, round, pairs (blanks to fill)."""
    blank = "________"
    return (
        f"比赛 Match {h.get('match_id') or blank} · 桌 Table {h.get('table') or blank} · "
        f"轮 Round {h.get('round') or blank} · 南北 NS {h.get('pair_ns') or blank} · "
        f"东西 EW {h.get('pair_ew') or blank}"
    )


def scoresheet_story(s, ruleset: Ruleset, h: dict[str, str], hands: int = 18) -> list:
    """The flowables of one scoresheet."""
    dynamic, static = scoresheet_parts(s, ruleset, h, hands)
    return dynamic + [f for part in static for f in part]


def scoresheet_parts(
    s, ruleset: Ruleset, h: dict[str, str], hands: int = 18
) -> tuple[list, list[list]]:
    """(the match's own fields, the blank grids in page-sized groups) of one scoresheet.

    The groups are the same for every match of a tournament, so the round pack lays
    them out once and stamps them (``pdf_common.Stamp``).
    """
    return scoresheet_fields(s, h), scoresheet_blanks(s, ruleset, hands)


def scoresheet_fields(s, h: dict[str, str]) -> list:
    """The flowables that carry the match's own fields (title, header, seats)."""
    story: list = [p("比赛记录表 Table scoresheet", s.title)]
    if s.font.warning:
        story.append(p(s.font.warning, s.warning))
    top = [
        ["赛事 Tournament", h.get("tournament", ""), "比赛编号 Match", h.get("match_id", "")],
        ["轮次 Round", h.get("round", ""), "桌号 Table", h.get("table", "")],
        ["裁判 Referee", h.get("referee", ""), "日期 Date", h.get("date", "")],
    ]
    story.append(grid(top, [34 * mm, 110 * mm, 34 * mm, 95 * mm], s, repeat=0))
    story.append(Spacer(1, 3 * mm))
    seats = [
        ["方 Side", "队 Pair", "座位 Seat", "选手 Player", "座位 Seat", "选手 Player"],
        ["南北 NS", h.get("pair_ns", ""), "北 N", h.get("N", ""), "南 S", h.get("S", "")],
        ["东西 EW", h.get("pair_ew", ""), "东 E", h.get("E", ""), "西 W", h.get("W", "")],
    ]
    story.append(grid(seats, [25 * mm, 80 * mm, 20 * mm, 64 * mm, 20 * mm, 64 * mm], s))
    story.append(Spacer(1, 2 * mm))
    return story


def scoresheet_blanks(s, ruleset: Ruleset, hands: int = 18) -> list[list]:
    """The blank grids, in page-sized groups (the same for every match)."""
    clock = [["开始 Start", "", "暂停/继续 Pauses (时间 · 原因 time · reason)", "", "结束 End", ""]]
    reminders = [
        grid(clock, [25 * mm, 35 * mm, 80 * mm, 85 * mm, 20 * mm, 28 * mm], s, repeat=0),
        Spacer(1, 2 * mm),
        p(result_scale(ruleset), s.small),
        p("出牌顺序 play order N → W → S → E; 首盘抢庄 opening hand: 小王 + 3 (2.1)", s.small),
    ]
    head = [
        "盘 Hand", "时间 Time", "庄 Dealer", "叫牌 Bids\n(座位 牌)", "主 Trump", "打 Level",
        "防守方得分\nDefenders (before last)", "末墩 Last trick\n分×张 · 方", "终分 Final",
        "上台/连庄\n+级", "级 NS", "级 EW", "裁判签 Initials",
    ]  # fmt: skip
    rows: list[list[object]] = [head]
    rows += [[str(i)] + [""] * (len(head) - 1) for i in range(1, hands + 1)]
    widths = [12, 16, 14, 50, 14, 14, 30, 30, 16, 20, 14, 14, 19]
    hands_part = [
        p("各盘记录 Hands", s.h2),
        grid(rows, [w * mm for w in widths], s, heights=[None] + [WRITING_ROW] * hands),
    ]
    vrows: list[list[object]] = [
        ["时间 Time", "盘 Hand", "座位 Seat", "编号 No.", "条款 Article",
         "说明与处理 What happened, consequence", "裁判 Initials"]
    ]  # fmt: skip
    vrows += [[""] * 7 for _ in range(8)]
    widths_v = [w * mm for w in (22, 16, 20, 18, 22, 150, 25)]
    violations = [
        p("违规与处罚 Violations and penalties", s.h2),
        p(VIOLATION_MENU, s.small),
        grid(vrows, widths_v, s, heights=[None] + [WRITING_ROW] * 8),
    ]
    end = [
        ["结束方式 End", "□ 打过A passed A (1.5)  □ 到时 time-out (1.5)  "
                         "□ 弃权 forfeit (8.10)  □ 取消资格 DQ (8.8)"],
        ["胜方 Winner", "□ 南北 NS   □ 东西 EW      终局级数 final levels  NS ____  EW ____"
                        "      时间 time ______"],
        ["备注 Notes", "\n\n"],
    ]  # fmt: skip
    sign = [
        ["裁判 Referee", "南北方队长 N–S captain", "东西方队长 E–W captain"],
        ["", "", ""],
    ]
    ending = [
        p("结束 End of match", s.h2),
        grid(end, [35 * mm, 238 * mm], s, repeat=0),
        Spacer(1, 4 * mm),
        grid(sign, [91 * mm] * 3, s, [("BOTTOMPADDING", (0, 1), (-1, 1), 26)]),
    ]
    return [reminders, hands_part, violations, ending]
