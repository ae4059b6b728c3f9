"""The match report PDF for dispute review: everything the record says, checkable on paper.

Seats and pairs, each hand's result, a chart of both sides' levels hand by hand
against the match clock, the timeline with clock readings (violations
highlighted, voided events marked with the correction's reason), consequences
with their articles, notes, the final hash of the event chain (and the seal when
the match is locked), and signature lines for the referee and both captains.

This module is the report's entry: it replays the record once, prints the heading (the
drawn match, the seal, the file's key) and assembles the sections, each a module of
its own that reads the state and never folds: ``match_report_result`` (seats and the
result), ``match_report_hands``, ``match_report_timeline``, ``match_report_findings``
(consequences, violations, flags, corrections, notes) and ``match_report_check`` (the
final hash and the signature lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from referee_desk.exports.drawn_match import DrawnMatch
from referee_desk.exports.event_text import describe
from referee_desk.exports.match_report_check import check_block
from referee_desk.exports.match_report_findings import findings_section
from referee_desk.exports.match_report_hands import hands_table
from referee_desk.exports.match_report_result import result_section, seats_section
from referee_desk.exports.match_report_timeline import timeline
from referee_desk.exports.pdf_common import (
    Styles,
    build,
    glyph_warning,
    make_styles,
    p,
    ruleset_footer,
)
from referee_desk.exports.pdf_level_chart import level_chart
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.report_presets import preset_section
from referee_desk.exports.seal_status import SealStatus
from referee_desk.match import replay
from referee_desk.match.envelope import Event, verify_chain


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

    story += seats_section(state, s)
    story += result_section(state, events, s)
    story.append(p("各盘结果 Hands", s.h1))
    story.append(hands_table(state, s))
    story += preset_section(state, s)
    story.append(Spacer(1, 3 * mm))
    story.append(level_chart(state, events, s))
    story.append(p("事件时间线 Timeline of events", s.h1))
    story.append(timeline(state, events, s, options))
    story += findings_section(state, events, s)
    story.append(check_block(events, seal_hash, s, options))
    final = events[-1].hash
    footer = (
        f"{mid} · 记录 record {record_id} · final hash {final} · {ruleset_footer(state.ruleset)}"
    )
    header = f"{mid}" + (f" · {drawn.table} · {drawn.round}" if drawn else "")
    return build(
        out, story, s, title=f"比赛报告 Match report {mid}", footer_left=footer,
        footer_right=mid, options=options, page_header=header,
    )  # fmt: skip


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
