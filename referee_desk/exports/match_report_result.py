"""The match report's seats and result: who sat where, who won and how, the levels at the end.

One section of the report (``pdf_match_report`` assembles them); like every section it
reads the replayed state, and the record only for how the match was decided, and
never folds.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm

from referee_desk.exports.event_text import SEATS, SIDES
from referee_desk.exports.labels import decision_text, forfeit_level_rule, preset_title
from referee_desk.exports.pdf_common import Styles, grid, p, ruleset_line
from referee_desk.match.clock import format_duration
from referee_desk.match.envelope import Event
from referee_desk.rules.wording import describe as word_consequence
from referee_desk.tournament.model import PASSED_A
from referee_desk.tournament.outcomes import match_decision


def seats_section(state, s: Styles) -> list:
    """Each side's pair and who sat where, and the preset the match was played under."""
    info = state.info
    story: list = [p("座位与选手 Seats and pairs", s.h1)]
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
    story.append(p(f"规则 Preset: {preset_title(state.ruleset)}", s.body, bold=True))
    story.append(p(ruleset_line(state.ruleset), s.small, full=True))
    return story


def result_section(state, events: Sequence[Event], s: Styles) -> list:
    """The winner and how the match was decided, a pending referral, the levels at the end."""
    story: list = [p("结果 Result", s.h1)]
    levels = {k.value: v for k, v in state.levels.items()}
    lv = f"南北 NS {level_label(state, 'NS')} : 东西 EW {level_label(state, 'EW')}"
    if state.passed_a is not None:
        lv += f" · {SIDES[state.passed_a.value]} 打过A passed A"
    if state.end is not None:
        e = state.end
        story.append(
            p(
                f"胜方 Winner: {SIDES[e.winner.value]} · 决胜方式 decided by "
                f"{decision_text(match_decision(state, events))}",
                s.body,
                bold=True,
            )
        )
        story.append(p(word_consequence(e, "zh_CN"), s.body))
        if e.reason == "forfeit":
            loser = "EW" if e.winner.value == "NS" else "NS"
            kept = levels[e.winner.value].label
            story.append(
                p(
                    f"计入成绩 Counted for the results: {SIDES[e.winner.value]} {kept} : "
                    f"{SIDES[loser]} {state.ruleset.first_level} · "
                    f"{forfeit_level_rule(state.ruleset)}",
                    s.body,
                )
            )
    else:
        story.append(p("比赛未结束 The match has not ended.", s.warning))
    if state.referred:
        sides = ", ".join(SIDES[x.value] for x in state.referred)
        story.append(
            p(f"待仲裁 Reported to the committee, decision pending (8.8): {sides}", s.warning)
        )
    story.append(
        p(
            f"终局级数 Levels at the table at the end: {lv} · "
            f"已用时 clock {format_duration(state.clock.elapsed_ms)}",
            s.body,
        )
    )
    return story


def level_label(state, side: str) -> str:
    """A side's level as printed everywhere: 过A once it passed A (1.5)."""
    passed = state.passed_a.value if state.passed_a is not None else None
    if passed == side:
        return PASSED_A
    return next(v.label for k, v in state.levels.items() if k.value == side)
