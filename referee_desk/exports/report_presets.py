"""The match report's section for the presets (RULES.md 12): kitty, dig, throws, 藏张.

Guilin records have none of these, so the section is printed only when the ruleset
has a kitty, throws or 藏张. Each row carries the consequence as the match layer
worded it, with its article (``rules.wording``).
"""

from __future__ import annotations

from reportlab.lib.units import mm

from referee_desk.exports.event_text import CONCEALMENT_CHOICES, SEATS, SIDES, cards_text
from referee_desk.exports.event_text import shape_text as _shape_words
from referee_desk.exports.labels import preset_title
from referee_desk.exports.pdf_common import Styles, grid, none_if_empty, p
from referee_desk.rules.wording import describe_line


def has_preset_section(ruleset) -> bool:
    return ruleset.kitty > 0 or ruleset.throws or ruleset.concealment


def preset_section(state, s: Styles) -> list:
    """Flowables: the preset's kitty and last-trick dig, failed throws and 藏张 per hand."""
    rules = state.ruleset
    if not has_preset_section(rules):
        return []
    worded = _worded_by_seq(state)
    parts = [
        (rules.kitty > 0, "底牌", "kitty"),
        (rules.throws, "甩牌", "throws"),
        (rules.concealment, "藏张", "concealment"),
    ]
    zh = "·".join(z for on, z, _ in parts if on)
    en = ", ".join(e for on, _, e in parts if on)
    out: list = [p(f"{zh} {en.capitalize()} · {preset_title(rules)}", s.h1)]
    if rules.kitty > 0:
        out.append(p(_kitty_rule(rules), s.small))
        out.append(_kitty_table(state, s))
    if rules.throws:
        out.append(p(_throw_rule(rules), s.small))
        out.append(_throw_table(state, worded, s))
    if rules.concealment:
        out.append(p(_conceal_rule(rules), s.small))
        out.append(_conceal_table(state, worded, s))
    return out


def _worded_by_seq(state) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for c in state.consequences:
        out.setdefault(c.seq, []).append(describe_line(c, "zh_CN"))
    return out


def _kitty_rule(rules) -> str:
    how = {
        "by_shape": "按末墩首出牌型 by the last lead's shape: 单×2 对/三张/炸弹×4 拖拉机×2^k",
        "power_of_cards": "×2^张数 by the cards of the last lead's largest unit: 单×2 对×4 三×8",
    }.get(rules.kitty_multiplier, rules.kitty_multiplier)
    return (
        f"底牌 {rules.kitty} 张 kitty of {rules.kitty} cards (12.1) · 防守方赢末墩抠底 "
        f"the defenders dig the kitty when they win the last trick (12.5): {how}"
    )


def _throw_rule(rules) -> str:
    text = (
        "甩牌失败只出最小被大的部分 a failed throw plays only its smallest beaten component (12.4)"
    )
    if rules.throw_fail_points:
        text += f" · 甩错牌罚 {rules.throw_fail_points} 分 {rules.throw_fail_points} points (002)"
    return text


def _conceal_rule(rules) -> str:
    return (
        "藏张 (12.8, 002 八.1): 对方选择 the other side chooses A 本盘结束 the hand ends, or "
        f"B ±{rules.conceal_points} 分继续打 points and play continues"
    )


def _kitty_table(state, s: Styles):
    rows: list[list[object]] = [
        ["盘 Hand", "埋底 Kitty buried", "末墩 Last trick", "末墩首出 Last lead", "倍数 ×m",
         "抠底 Dig (12.5)"]
    ]  # fmt: skip
    for h in state.hands:
        lt = h.last_trick
        if h.kitty is None and lt is None:
            continue
        rows.append(
            [
                h.number,
                kitty_text(h.kitty),
                _last_trick_text(lt),
                _shape_words(lt.lead_shape) if lt is not None and lt.lead_shape else "",
                f"×{lt.multiplier}" if lt is not None and lt.multiplier else "",
                dig_text(h),
            ]
        )
    return grid(none_if_empty(rows, 1), [14 * mm, 40 * mm, 36 * mm, 32 * mm, 14 * mm, 44 * mm], s)


def kitty_text(kitty) -> str:
    """The buried cards with their points, or only the points when no card was entered."""
    if kitty is None:
        return "未记录 not entered"
    who = SEATS.get(kitty.seat.value, kitty.seat.value)
    if kitty.cards:
        return f"{who} {cards_text(kitty.cards)} ({kitty.points} 分)"
    return f"{who} {kitty.points} 分 points"


def _last_trick_text(lt) -> str:
    if lt is None:
        return ""
    return f"{SIDES[lt.side.value]} 赢 won · {lt.points} 分"


def dig_text(h) -> str:
    """``抠底 20×4 = +80`` when the defenders dug; ``不抠底 not dug`` otherwise."""
    lt = h.last_trick
    if lt is None or lt.kitty_points is None:
        return ""
    if h.defenders is not None and lt.side == h.defenders and lt.multiplier:
        dig = lt.kitty_points * lt.multiplier
        return f"抠底 dug: {lt.kitty_points}×{lt.multiplier} = +{dig}"
    return f"庄家方赢末墩，底牌 {lt.kitty_points} 分不计 not dug"


def _throw_table(state, worded: dict[int, list[str]], s: Styles):
    rows: list[list[object]] = [
        ["#", "盘 Hand", "甩牌 Throw", "亮牌 Shown", "被大 Beaten", "须出 Forced", "分 Points",
         "判定 Consequence"]
    ]  # fmt: skip
    for h in state.hands:
        for f in h.throw_failures:
            rows.append(
                [
                    f.seq,
                    h.number,
                    f"{SEATS[f.seat.value]} {cards_text(f.thrown)}",
                    f"{SEATS[f.shown_by.value]} {cards_text(f.shown)}",
                    " / ".join(cards_text(b) for b in f.beaten),
                    cards_text(f.forced),
                    f"{f.points:+d}" if f.points else "0",
                    "; ".join(worded.get(f.seq, ())),
                ]
            )
    return grid(
        none_if_empty(rows, 2),
        [10 * mm, 12 * mm, 30 * mm, 22 * mm, 22 * mm, 18 * mm, 16 * mm, 50 * mm],
        s,
    )


def _conceal_table(state, worded: dict[int, list[str]], s: Styles):
    rows: list[list[object]] = [
        ["#", "盘 Hand", "藏张 Seat", "选择 Chosen by", "选择 Choice", "分 Points",
         "判定 Consequence"]
    ]  # fmt: skip
    for h in state.hands:
        for c in h.concealments:
            rows.append(
                [
                    c.seq,
                    h.number,
                    SEATS[c.seat.value],
                    SEATS[c.chooser.value],
                    _choice_text(c.choice, state.ruleset.conceal_points),
                    f"{c.points:+d}" if c.points else "",
                    "; ".join(worded.get(c.seq, ())),
                ]
            )
    return grid(
        none_if_empty(rows, 2), [10 * mm, 12 * mm, 18 * mm, 22 * mm, 40 * mm, 16 * mm, 62 * mm], s
    )


def _choice_text(choice: str, points: int) -> str:
    """12.8's two choices with the preset's points."""
    if choice == "B":
        return f"B ±{points} 分，继续打 points, play continues"
    return CONCEALMENT_CHOICES.get(choice, choice)
