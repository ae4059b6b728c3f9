"""The match report's timeline: every event with its local time and clock reading.

Violations are highlighted, corrected events say what replaced them and voided ones
are grey. ``correction_change`` (what a correction changed, ``field: old → new``) is
also the corrections table's (``match_report_findings``).
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.units import mm

from referee_desk.exports.event_text import (
    TYPE_LABELS,
    VIOLATION_TYPES,
    describe,
    field_label,
)
from referee_desk.exports.pdf_common import HELD_BG, VIOLATION_BG, Styles, grid
from referee_desk.exports.print_options import PrintOptions
from referee_desk.match.clock import format_duration
from referee_desk.match.envelope import Event

ACTIONS = {"void": "作废 void", "replace": "更正 replace"}


def correction_change(by_seq: dict[int, Event], seq: int, target: int) -> str:
    """``field: old → new`` for a replacement; the voided event's text for a void."""
    corr = by_seq.get(seq)
    old = by_seq.get(target)
    if corr is None or old is None:
        return ""
    if corr.payload.get("action") != "replace":
        return f"作废 voided: {TYPE_LABELS.get(old.type, old.type)} {describe(old)}"
    new = corr.payload.get("payload") or {}
    changes = []
    for key in sorted(set(old.payload) | set(new)):
        before, after = old.payload.get(key), new.get(key)
        if before != after:
            changes.append(f"{field_label(key)}: {_value(before)} → {_value(after)}")
    return "; ".join(changes) or "无变化 no change"


def _value(v: object) -> str:
    if v is None:
        return "—"
    if isinstance(v, list):
        return " ".join(str(x) for x in v) or "[]"
    return str(v)


def _first_time(events: Sequence[Event]):
    """When the record starts (the zone's offset then: a named zone may change it)."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(events[0].recorded_at.replace("Z", "+00:00"))
    except (IndexError, ValueError):
        return None


def timeline(state, events: Sequence[Event], s: Styles, options: PrintOptions):
    """Every event with its local date and time; corrected events say what replaced them."""
    from referee_desk.exports.print_options import zone_text

    voided = set(getattr(state, "voided_seqs", ()))
    by_seq = {e.seq: e for e in events}
    corrected: dict[int, list[tuple[int, str, str]]] = {}
    for c in state.corrections:
        corrected.setdefault(c.target_seq, []).append((c.seq, c.action, c.reason))
    zone = zone_text(options.tz, _first_time(events))
    rows: list[list[object]] = [
        ["#", f"时间 local time ({zone})", "比赛钟 Clock", "事件 Event",
         "内容 Details", "裁判 Referee"]
    ]  # fmt: skip
    extra = []
    for i, e in enumerate(events, start=1):
        text = describe(e)
        marks = []
        for seq, action, reason in corrected.get(e.seq, ()):
            if action == "replace":
                change = correction_change(by_seq, seq, e.seq)
                marks.append(f"[已更正 corrected by #{seq}: {change}; {reason}]")
            else:
                marks.append(f"[作废 voided by #{seq}: {reason}]")
        if marks:
            text = " ".join(marks) + " " + text
        if e.seq in voided:
            extra.append(("TEXTCOLOR", (0, i), (-1, i), colors.grey))
        elif corrected.get(e.seq):
            extra.append(("BACKGROUND", (0, i), (-1, i), HELD_BG))
        elif e.type in VIOLATION_TYPES:
            extra.append(("BACKGROUND", (0, i), (-1, i), VIOLATION_BG))
        elif e.type in ("correction", "committee_ruling"):
            extra.append(("BACKGROUND", (0, i), (-1, i), HELD_BG))
        clock = "" if e.clock_ms is None else format_duration(e.clock_ms)
        when = options.local(e.recorded_at).rsplit(" ", 1)[0]
        rows.append([e.seq, when, clock, TYPE_LABELS.get(e.type, e.type), text, e.referee])
    return grid(rows, [10 * mm, 30 * mm, 15 * mm, 28 * mm, 79 * mm, 18 * mm], s, extra)
