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

from referee_desk.exports.pdf_common import (
    build,
    grid,
    make_styles,
    p,
    ruleset_footer,
    ruleset_line,
)
from referee_desk.exports.print_options import PrintOptions
from referee_desk.rules.result import result_from_final_score
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset

VIOLATION_MENU = (
    "1 出错牌 wrong play 8.2 · 2 劳改 revoke 8.3 (A/B) · 3 明叫 open bid 8.1 · "
    "4 诈叫 false bid 8.6 · 5 坐庄顺序错误 wrong dealer 8.5 · 6 警告 warning 8.8 · "
    "7 超时 overrun 8.9 · 8 弃权 forfeit 8.10 · 9 仲裁 committee 8.11"
)


def violation_menu(ruleset: Ruleset) -> str:
    """The numbered violations this ruleset has (12.8: 藏张 replaces 劳改 in three-deck;
    the presets bid openly, so 明叫 8.1 is not a violation there; throws fail, 12.4)."""
    if ruleset.name == "guilin-2009" and not ruleset.throws and not ruleset.concealment:
        return VIOLATION_MENU
    items = ["出错牌 wrong play 8.2"]
    if ruleset.concealment:
        items.append(f"藏张 concealment 12.8 (A/B ±{ruleset.conceal_points})")
    else:
        items.append("劳改 revoke 8.3 (A/B)")
    if ruleset.race_needs_lj:
        items.append("明叫 open bid 8.1")
    if ruleset.throws:
        fail = f" −{ruleset.throw_fail_points}" if ruleset.throw_fail_points else ""
        items.append(f"甩牌失败 failed throw 12.4{fail}")
    items += [
        "诈叫 false bid 8.6",
        "坐庄顺序错误 wrong dealer 8.5",
        "警告 warning 8.8",
        "超时 overrun 8.9",
        "弃权 forfeit 8.10",
        "仲裁 committee 8.11",
    ]
    return " · ".join(f"{i} {text}" for i, text in enumerate(items, start=1))


def result_scale(ruleset: Ruleset) -> str:
    """The result table printed as a reminder (7.1/7.2, 12.6), read from the rules.

    Each range of the defenders' final points is asked of ``result_from_final_score``
    (at the first level, so no A rule interferes), so shutout bonus and cap show as the
    rules apply them.
    """
    first = ruleset.first_level
    top = ruleset.stage + ruleset.step * (3 if ruleset.max_gain is None else 4)
    ranges: list[list] = []
    for final in range(0, top, 5):
        r = result_from_final_score(final, first, first, ruleset)
        key = (str(r.deal), r.levels_up)
        if ranges and ranges[-1][0] == key:
            ranges[-1][2] = final
        else:
            ranges.append([key, final, final])
    parts = []
    for (deal, up), low, high in ranges:
        span = str(low) if low == high else f"{low}–{high}"
        what = f"庄家方 +{up}" if deal == "declarers" else f"上台 +{up}"
        parts.append(f"{span}: {what}")
    return "防守方得分 defenders' points → " + " · ".join(parts) + " …"


#: Height of a row the referee writes in by hand (issue 11: at least 8 mm).
WRITING_ROW = 8 * mm
#: Hand rows that fit one landscape page with the grid's head.
ROWS_PER_PAGE = 18


def export_scoresheet_pdf(
    out: str | Path,
    font_path: str | None = None,
    ruleset: Ruleset = GUILIN_2009,
    header: dict[str, str] | None = None,
    hands: int | None = None,
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
        out, story, s, title="比赛记录表 Table scoresheet", footer_left=ruleset_footer(ruleset),
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


def scoresheet_story(s, ruleset: Ruleset, h: dict[str, str], hands: int | None = None) -> list:
    """The flowables of one scoresheet."""
    dynamic, static = scoresheet_parts(s, ruleset, h, hands)
    return dynamic + [f for part in static for f in part]


def scoresheet_parts(
    s, ruleset: Ruleset, h: dict[str, str], hands: int | None = None
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


def scoresheet_blanks(s, ruleset: Ruleset, hands: int | None = None) -> list[list]:
    """The blank grids, in page-sized groups (the same for every match)."""
    clock = [["开始 Start", "", "暂停/继续 Pauses (时间 · 原因 time · reason)", "", "结束 End", ""]]
    hands = hands if hands is not None else hand_rows(ruleset)
    if ruleset.race_needs_lj:
        race = "首盘抢庄 opening hand: 小王 + 3 (2.1)"
    else:
        race = (
            f"首盘抢亮级牌 opening hand: show level cards ({ruleset.first_level}), "
            f"反牌须更多张 a counter shows more (12.3)"
        )
    reminders = [
        grid(clock, [25 * mm, 35 * mm, 80 * mm, 85 * mm, 20 * mm, 28 * mm], s, repeat=0),
        Spacer(1, 2 * mm),
        p(ruleset_line(ruleset), s.small, full=True),
        p(result_scale(ruleset), s.small),
        p(f"出牌顺序 play order N → W → S → E; {race}; {levels_reminder(ruleset)}", s.small),
    ]
    if ruleset.last_trick == "kitty":
        reminders.append(p(kitty_reminder(ruleset), s.small))
    head, widths = hand_columns(ruleset)
    # At most 18 written rows fit a page: more hands continue in a second grid.
    hands_parts = []
    for first in range(1, hands + 1, ROWS_PER_PAGE):
        numbers = range(first, min(first + ROWS_PER_PAGE, hands + 1))
        rows: list[list[object]] = [head]
        rows += [[str(i)] + [""] * (len(head) - 1) for i in numbers]
        title = "各盘记录 Hands" if first == 1 else "各盘记录（续）Hands (continued)"
        hands_parts.append(
            [
                p(title, s.h2),
                grid(
                    rows,
                    [w * mm for w in widths],
                    s,
                    heights=[None] + [WRITING_ROW] * len(numbers),
                ),
            ]
        )
    vrows: list[list[object]] = [
        ["时间 Time", "盘 Hand", "座位 Seat", "编号 No.", "条款 Article",
         "说明与处理 What happened, consequence", "裁判 Initials"]
    ]  # fmt: skip
    vrows += [[""] * 7 for _ in range(8)]
    widths_v = [w * mm for w in (22, 16, 20, 18, 22, 150, 25)]
    violations = [
        p("违规与处罚 Violations and penalties", s.h2),
        p(violation_menu(ruleset), s.small),
        grid(vrows, widths_v, s, heights=[None] + [WRITING_ROW] * 8),
    ]
    violations += preset_boxes(s, ruleset)
    end = [
        ["结束方式 End", end_choices(ruleset)],
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
    return [reminders, *hands_parts, violations, ending]


def hand_rows(ruleset: Ruleset) -> int:
    """Rows for hands: Guilin's 18; a preset plays from 2 to A without a time limit
    (12.1, 12.8), so more hands fit a match: 24."""
    return 18 if ruleset.match_minutes is not None and ruleset.first_level == "3" else 24


def hand_columns(ruleset: Ruleset) -> tuple[list[str], list[float]]:
    """The hands grid's head and widths (mm): kitty presets add the kitty's points and the
    last lead's shape with its ×m (12.5); every sheet is 273 mm wide."""
    if ruleset.last_trick != "kitty":
        head = [
            "盘 Hand", "时间 Time", "庄 Dealer", "叫牌 Bids\n(座位 牌)", "主 Trump", "打 Level",
            "防守方得分\nDefenders (before last)", "末墩 Last trick\n分×张 · 方", "终分 Final",
            "上台/连庄\n+级", "级 NS", "级 EW", "裁判签 Initials",
        ]  # fmt: skip
        return head, [12, 16, 14, 50, 14, 14, 30, 30, 16, 20, 14, 14, 19]
    head = [
        "盘 Hand", "时间 Time", "庄 Dealer", "叫牌 Bids\n(座位 牌)", "主 Trump", "打 Level",
        "埋底分\nKitty points", "防守方得分\nDefenders (before last)",
        "末墩 Last trick\n分 · 方 side", "末墩首出牌型\nLast-lead shape", "倍数\n×m",
        "终分 Final", "上台/连庄\n+级", "级 NS", "级 EW", "裁判签 Initials",
    ]  # fmt: skip
    return head, [12, 14, 14, 30, 14, 14, 16, 22, 22, 24, 11, 14, 18, 13, 12, 16]


def levels_reminder(ruleset: Ruleset) -> str:
    """Levels from the first to A, and what passing A needs (1.5, 12.1, 12.7)."""
    text = f"级 levels {ruleset.first_level} → A"
    if ruleset.a_needs_dig:
        text += (
            f"; 打A须先抠底一次，否则退回{ruleset.a_fallback} at A a side must dig the kitty "
            f"once before it passes A, else it falls back to {ruleset.a_fallback} (12.7)"
        )
    if ruleset.match_minutes is None:
        text += "; 无时限 no time limit (12.8)"
    else:
        text += f"; 时限 time limit {ruleset.match_minutes}′ (1.5)"
    return text


def kitty_reminder(ruleset: Ruleset) -> str:
    """How the kitty is dug at the last trick (12.5), for the kitty and ×m columns."""
    how = {
        "by_shape": "单×2 · 对/三张/炸弹×4 · 拖拉机k连×2^k single ×2, pair ×4, tractor ×2^k",
        "power_of_cards": "×2^张数：单×2 对×4 三张×8 445566×64 ×2^cards of the largest unit",
    }.get(ruleset.kitty_multiplier, ruleset.kitty_multiplier)
    return (
        f"底牌 {ruleset.kitty} 张 kitty of {ruleset.kitty} (12.1) · 防守方赢末墩：末墩分 + "
        f"底分×m; 庄家方赢末墩：底分不计 defenders win the last trick: its points + kitty×m; "
        f"declarers win it: nothing (12.5) · {how}"
    )


def preset_boxes(s, ruleset: Ruleset) -> list:
    """Boxes for what only the presets have: failed throws (12.4) and 藏张 (12.8)."""
    out: list = []
    if ruleset.throws:
        fail = f"，甩错牌 {ruleset.throw_fail_points} 分" if ruleset.throw_fail_points else ""
        rows: list[list[object]] = [
            ["盘 Hand", "甩牌者 Thrower", "甩的牌 Cards thrown", "亮牌者 Shown by",
             "亮的牌 Cards shown", "须出 Forced", "分 Points", "裁判 Initials"]
        ]  # fmt: skip
        rows += [[""] * 8 for _ in range(3)]
        out += [
            p(f"甩牌失败 Failed throws (12.4{fail})", s.h2),
            grid(
                rows,
                [w * mm for w in (16, 26, 60, 26, 60, 35, 20, 30)],
                s,
                heights=[None] + [WRITING_ROW] * 3,
            ),
        ]
    if ruleset.concealment:
        rows = [
            ["盘 Hand", "藏张者 Seat", "选择方 Chosen by",
             f"□ A 本盘结束 hand ends   □ B ±{ruleset.conceal_points} 继续 play continues",
             "分 Points", "裁判 Initials"]
        ]  # fmt: skip
        rows += [[""] * 6 for _ in range(2)]
        out += [
            p("藏张 Concealment (12.8, 002 八.1)", s.h2),
            grid(
                rows,
                [w * mm for w in (16, 30, 34, 143, 20, 30)],
                s,
                heights=[None] + [WRITING_ROW] * 2,
            ),
        ]
    return out


def end_choices(ruleset: Ruleset) -> str:
    """How a match can end under this ruleset (no time-out without a time limit, 12.8)."""
    parts = ["□ 打过A passed A (1.5)"]
    if ruleset.match_minutes is not None:
        parts.append("□ 到时 time-out (1.5)")
    parts += ["□ 弃权 forfeit (8.10)", "□ 取消资格 DQ (8.8)"]
    return "  ".join(parts)
