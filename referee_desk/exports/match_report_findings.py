"""The match report's findings: consequences with their articles, violations, flags,
corrections and notes (a long note also in full, beyond the table's cell).

One section of the report (``pdf_match_report`` assembles them); it reads the replayed
state and never folds.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm

from referee_desk.exports.event_text import SEATS, SIDES
from referee_desk.exports.labels import violation_text
from referee_desk.exports.match_report_timeline import ACTIONS, correction_change
from referee_desk.exports.pdf_common import HELD_BG, VIOLATION_BG, Styles, grid, none_if_empty, p
from referee_desk.exports.text_clean import MAX_CELL_CHARS
from referee_desk.match.envelope import Event
from referee_desk.rules.wording import describe as word_consequence


def findings_section(state, events: Sequence[Event], s: Styles) -> list:
    """Consequences, violations, flags (when any), corrections and notes, in that order."""
    story: list = [p("判定与条款 Consequences and articles", s.h1)]
    rows = [["#", "盘 Hand", "条款 Article", "内容 Consequence"]]
    rows += [
        [c.seq, c.hand or "", c.article, word_consequence(c, "zh_CN")] for c in state.consequences
    ] or []
    story.append(grid(none_if_empty(rows, 3), [12 * mm, 16 * mm, 20 * mm, 132 * mm], s))

    story.append(p("违规 Violations", s.h1))
    rows = [["#", "盘 Hand", "违规 Violation", "条款 Article", "座位 Seat", "说明 Detail"]]
    # A violation's detail is the English text of its consequence: print its wording.
    worded = {(c.seq, c.text): word_consequence(c, "zh_CN") for c in state.consequences}
    for v in state.violations:
        rows.append(
            [
                v.seq,
                v.hand or "",
                violation_text(v.kind),
                v.article,
                SEATS.get(v.seat.value, "") if v.seat else SIDES[v.side.value],
                worded.get((v.seq, v.detail), v.detail),
            ]
        )
    extra = [("BACKGROUND", (0, 1), (-1, len(rows) - 1), VIOLATION_BG)] if len(rows) > 1 else []
    story.append(
        grid(
            none_if_empty(rows, 2), [12 * mm, 14 * mm, 32 * mm, 18 * mm, 22 * mm, 82 * mm], s, extra
        )
    )

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
    rows = [["#", "更正对象 Target", "方式 Action", "原值 → 新值 Old → new", "理由 Reason"]]
    by_seq = {e.seq: e for e in events}
    for c in state.corrections:
        change = correction_change(by_seq, c.seq, c.target_seq)
        rows.append([c.seq, f"#{c.target_seq}", ACTIONS.get(c.action, c.action), change, c.reason])
    story.append(grid(none_if_empty(rows, 4), [12 * mm, 20 * mm, 18 * mm, 80 * mm, 50 * mm], s))

    story.append(p("备注 Notes", s.h1))
    rows = [["#", "关于 About", "内容 Note"]]
    rows += [[n.seq, f"#{n.about_seq}" if n.about_seq else "", n.text] for n in state.notes]
    story.append(grid(none_if_empty(rows, 2), [12 * mm, 20 * mm, 148 * mm], s))
    long_texts = [n for n in state.notes if len(n.text) > MAX_CELL_CHARS]
    for n in long_texts:
        story.append(p(f"备注 #{n.seq} 全文 full text:", s.h2))
        story.append(p(n.text, s.body, full=True))
    return story
