"""The match report's record check and signature lines, kept together on one page.

The final hash of the event chain and how to check it (``referee-desk verify --heads``),
then lines for the referee, both captains and, when it ruled, the committee.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer

from referee_desk.exports.pdf_common import Styles, grid, p
from referee_desk.exports.print_options import PrintOptions
from referee_desk.match.envelope import Event


def check_block(
    events: Sequence[Event], seal_hash: str | None, s: Styles, options: PrintOptions
) -> KeepTogether:
    """The record check (event count, last event, final hash) and the signature lines."""
    final = events[-1].hash
    check = [
        p("记录校验 Record check", s.h1),
        p(
            f"事件数 events: {len(events)} · 最后事件 last event #{events[-1].seq} · "
            f"{options.local(events[-1].recorded_at)}",
            s.body,
        ),
        p(f"事件链最终哈希 Final hash of the event chain (SHA-256):\n{final}", s.body, bold=True),
    ]
    if seal_hash:
        check.append(p(f"封存哈希 Sealed head hash: {seal_hash}", s.body))
    check.append(
        p(
            "核对方法 To check: referee-desk verify --heads FILE "
            "（列出每场比赛的最终哈希 lists every match's final hash），"
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
    if committee_ruled(events):
        for row, text in zip(sign, ("仲裁委员会 Arbitration committee", "", "日期 Date:"),
                             strict=True):  # fmt: skip
            row.append(text)
    check.append(
        grid(
            sign,
            [180 * mm / len(sign[0])] * len(sign[0]),
            s,
            [
                ("ROWBACKGROUNDS", (0, 1), (-1, 1), [colors.white]),
                ("BOTTOMPADDING", (0, 1), (-1, 1), 28),
            ],
        )
    )
    return KeepTogether(check)


def committee_ruled(events: Sequence[Event]) -> bool:
    """Whether the arbitration committee decided or ruled in this match (8.8, 8.11)."""
    return any(e.type in ("committee_ruling", "committee_decision") for e in events)
