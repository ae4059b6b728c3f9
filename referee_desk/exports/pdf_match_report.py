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

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer

from referee_desk.exports.drawn_match import DrawnMatch
from referee_desk.exports.event_text import (
    SEATS,
    SIDES,
    TYPE_LABELS,
    VIOLATION_TYPES,
    describe,
    field_label,
    trump_text,
)
from referee_desk.exports.labels import (
    decision_text,
    forfeit_level_rule,
    preset_title,
    violation_text,
)
from referee_desk.exports.pdf_common import (
    HELD_BG,
    VIOLATION_BG,
    Styles,
    build,
    glyph_warning,
    grid,
    make_styles,
    none_if_empty,
    p,
    ruleset_footer,
    ruleset_line,
)
from referee_desk.exports.pdf_level_chart import level_chart
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.report_presets import preset_section
from referee_desk.exports.seal_status import SealStatus
from referee_desk.exports.text_clean import MAX_CELL_CHARS
from referee_desk.match import replay
from referee_desk.match.clock import format_duration
from referee_desk.match.envelope import Event, verify_chain
from referee_desk.rules.wording import describe as word_consequence
from referee_desk.tournament.model import PASSED_A
from referee_desk.tournament.outcomes import match_decision


def export_match_report_pdf(
    events: Sequence[Event],
    out: str | Path,
    font_path: str | None = None,
    seal_hash: str | None = None,
    tournament_name: str = "",
    *,
    drawn: DrawnMatch | None = None,
    seal: SealStatus | None = None,
    options: PrintOptions | None = None,
    notices: list[str] | None = None,
    key_fingerprint: str = "",
    settled: Sequence[str] = (),
) -> Path:
    """Write the report of one record; ``drawn`` names the drawn match it counts for.

    ``settled`` (a server's record): one line per fork the organizer settled, naming the
    branch kept and the one archived on the server (``server resolve``).

    ``seal`` is the record's seal (``seal_status``); without it a bare ``seal_hash``
    (older callers) is printed as sealed, and neither prints "未封存 not sealed" in red.
    """
    if not events:
        raise ValueError("the match record is empty: nothing to report")
    options = options or PrintOptions()
    events = list(events)
    state = replay(events)
    s = make_styles(font_path)
    info = state.info
    record_id = state.match_id
    mid = drawn.match_id if drawn else record_id
    story: list = [p(f"比赛报告 Match report · {mid}", s.title)]
    story += _identity(drawn, info, record_id, tournament_name, s)
    story.append(p(options.printed_text(), s.subtitle))
    if s.font.warning:
        story.append(p(s.font.warning, s.warning))
    glyphs = glyph_warning(s, _record_texts(events, drawn))
    if glyphs:
        story.append(p(glyphs, s.warning))
        if notices is not None:
            notices.append(glyphs)
    broken = verify_chain(events)
    if broken is not None:
        story.append(p(f"哈希链断裂 HASH CHAIN BROKEN at event #{events[broken].seq}", s.warning))
    if seal is None and seal_hash:
        seal = SealStatus(seal_hash, None, "", "", "", None)
    story += _seal_lines(seal, events, s, options)
    story += [p(line, s.body, bold=True) for line in settled]
    if key_fingerprint:
        story.append(p(f"本文件签名密钥指纹 the file's signing key fingerprint: {key_fingerprint}",
                       s.small))  # fmt: skip

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
    story.append(p(f"规则 Preset: {preset_title(state.ruleset)}", s.body, bold=True))
    story.append(p(ruleset_line(state.ruleset), s.small, full=True))

    # The end.
    story.append(p("结果 Result", s.h1))
    levels = {k.value: v for k, v in state.levels.items()}
    lv = f"南北 NS {_label(state, 'NS')} : 东西 EW {_label(state, 'EW')}"
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

    # Hands.
    story.append(p("各盘结果 Hands", s.h1))
    story.append(_hands_table(state, s))
    story += preset_section(state, s)
    story.append(Spacer(1, 3 * mm))
    story.append(level_chart(state, events, s))

    # Timeline.
    story.append(p("事件时间线 Timeline of events", s.h1))
    story.append(_timeline(state, events, s, options))

    # Consequences, violations, flags, corrections, notes.
    story.append(p("判定与条款 Consequences and articles", s.h1))
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

    # Hash and signatures.
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
    story.append(KeepTogether(check))
    footer = (
        f"{mid} · 记录 record {record_id} · final hash {final} · {ruleset_footer(state.ruleset)}"
    )
    header = f"{mid}" + (f" · {drawn.table} · {drawn.round}" if drawn else "")
    return build(
        out, story, s, title=f"比赛报告 Match report {mid}", footer_left=footer,
        footer_right=mid, options=options, page_header=header,
    )  # fmt: skip


ACTIONS = {"void": "作废 void", "replace": "更正 replace"}


def committee_ruled(events: Sequence[Event]) -> bool:
    """Whether the arbitration committee decided or ruled in this match (8.8, 8.11)."""
    return any(e.type in ("committee_ruling", "committee_decision") for e in events)


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


def _label(state, side: str) -> str:
    """A side's level as printed everywhere: 过A once it passed A (1.5)."""
    passed = state.passed_a.value if state.passed_a is not None else None
    if passed == side:
        return PASSED_A
    return next(v.label for k, v in state.levels.items() if k.value == side)


def _identity(drawn: DrawnMatch | None, info, record_id: str, name: str, s: Styles) -> list:
    """The subtitle: the drawn match (round, table, referee, pairs), the record id beside."""
    if drawn is None:
        where = " · ".join(
            x
            for x in (
                name or (info.tournament if info else ""),
                info.round if info else "",
                f"{info.table}" if info else "",
                f"裁判 referee {info.referee}" if info else "",
            )
            if x
        )
        return [p(where, s.subtitle)]
    out = [
        p(
            " · ".join(
                x for x in (name, drawn.round, drawn.table, f"裁判 referee {drawn.referee}") if x
            ),
            s.subtitle,
        ),
        p(f"A方 {drawn.pair_a}  对  B方 {drawn.pair_b}", s.subtitle),
    ]
    record = f"台上记录编号 desk record id: {record_id}"
    if info is not None and (info.table != drawn.table or info.referee != drawn.referee):
        record += f" (记录中 in the record: {info.table} · 裁判 {info.referee})"
    out.append(p(record, s.subtitle))
    return out


def _record_texts(events: Sequence[Event], drawn: DrawnMatch | None) -> list[str]:
    texts = [describe(e) for e in events] + [e.referee for e in events]
    if drawn is not None:
        texts += [drawn.pair_a, drawn.pair_b, drawn.table, drawn.referee]
    return texts


def _seal_lines(seal: SealStatus | None, events: Sequence[Event], s: Styles, options) -> list:
    if seal is None:
        return [p("未封存 NOT SEALED: 本记录尚未锁定签名 this record is not locked by a seal.",
                  s.warning)]  # fmt: skip
    parts = ["已封存 Sealed"]
    if seal.head_seq is not None:
        parts.append(f"至事件 up to event #{seal.head_seq}")
    if seal.signer:
        parts.append(f"签名人 signer {seal.signer}")
    if seal.sealed_at:
        parts.append(options.local(seal.sealed_at))
    parts.append(
        f"密钥指纹 key fingerprint {seal.fingerprint}" if seal.fingerprint
        else "密钥指纹 key fingerprint: — (旧式密钥封存 keyed seal, no public key)"
    )  # fmt: skip
    out = [p(" · ".join(parts), s.body, bold=True)]
    if seal.valid is False:
        out.append(p("封存签名无效 SEAL SIGNATURE DOES NOT VERIFY", s.warning))
    if not seal.matches(events[-1].hash):
        out.append(
            p("封存之后另有事件 events were recorded after the seal (see the record check)",
              s.warning)
        )  # fmt: skip
    return out


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


def _first_time(events: Sequence[Event]):
    """When the record starts (the zone's offset then: a named zone may change it)."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(events[0].recorded_at.replace("Z", "+00:00"))
    except (IndexError, ValueError):
        return None


def _timeline(state, events: Sequence[Event], s: Styles, options: PrintOptions):
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
