"""The match report's hands table: each hand's dealer, declarers, trump, points and result.

One section of the report (``pdf_match_report`` assembles them); it reads the replayed
hands and never folds. A voided hand is printed grey with its reason.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import mm

from referee_desk.exports.event_text import SEATS, SIDES, trump_text
from referee_desk.exports.pdf_common import Styles, grid, none_if_empty
from referee_desk.tournament.model import PASSED_A


def hands_table(state, s: Styles):
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
            # A negative gain is 12.7's fall back (at A without a dig, back to a_fallback).
            gains = ", ".join(
                f"{SIDES[k.value]} {v:+d}" + (f" 退回{state.ruleset.a_fallback}" if v < 0 else "")
                for k, v in r.gains.items()
                if v
            )
            result = ("上台 taken" if r.taken else "连庄 kept") + (f"; {gains}" if gains else "")
            if r.passed_a:
                result += "; 打过A"
            after = f"{_after(r, 'NS')} : {_after(r, 'EW')}"
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
    return grid(
        none_if_empty(rows, 6),
        [14 * mm, 16 * mm, 22 * mm, 14 * mm, 16 * mm, 22 * mm, 52 * mm, 24 * mm],
        s,
        extra,
    )


def _side(value: str, r):
    return next(k for k in r.levels_after if k.value == value)


def _after(r, value: str) -> str:
    """A side's level after a hand; 过A for the side that passed A (as the chart)."""
    side = _side(value, r)
    if r.passed_a and side == r.winner:
        return PASSED_A
    return r.levels_after[side].label
