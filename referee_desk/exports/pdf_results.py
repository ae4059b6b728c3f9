"""The results PDF: header, ruleset, final places, the bracket tree, matches, penalties.

Each match is listed once: knockout matches by round, group matches by group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Spacer

from referee_desk.exports.labels import (
    decision_mark,
    decision_text,
    entrant_text,
    forfeit_level_rule,
    levels_text,
    pair_text,
    preset_title,
    ruleset_rows,
    tie_break_mark,
    tie_break_text,
    violation_text,
)
from referee_desk.exports.pdf_bracket import bracket_story
from referee_desk.exports.pdf_common import (
    HELD_BG,
    MARK_BG,
    build,
    glyph_warning,
    grid,
    make_styles,
    p,
    ruleset_footer,
)
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.snapshot import Snapshot
from referee_desk.tournament.final_places import final_places
from referee_desk.tournament.model import Decision
from referee_desk.tournament.state import MatchState, Status


def export_results_pdf(
    snap: Snapshot,
    out: str | Path,
    font_path: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    *,
    options: PrintOptions | None = None,
    notices: list[str] | None = None,
) -> Path:
    """Write the results; ``progress(done, total, what)`` follows the layout (for a dialog).

    ``notices`` receives warnings to show the organizer (characters no font has).
    """
    options = options or PrintOptions()
    s = make_styles(font_path)
    info = snap.info
    story: list = [p(info.name, s.title)]
    sub = " · ".join(x for x in (info.dates, info.venue, info.organizer) if x)
    story.append(p(f"成绩公告 Results  ·  {sub}", s.subtitle))
    story.append(p(options.printed_text(), s.subtitle))
    if s.font.warning:
        story.append(p(s.font.warning, s.warning))
    glyphs = glyph_warning(s, snapshot_texts(snap))
    if glyphs:
        story.append(p(glyphs, s.warning))
        if notices is not None:
            notices.append(glyphs)
    if snap.problems:
        story.append(p("待处理 Open problems:\n" + "\n".join(snap.problems[:40]), s.warning))
    if not snap.state.finished:
        story.append(
            p(
                "比赛尚未全部结束：以下为当前成绩（暂定）。Not all matches are finished: "
                "provisional results.",
                s.warning,
            )
        )

    story.append(p("赛制与规则 Format and ruleset", s.h1))
    story.append(
        p(
            f"规则 Ruleset: {preset_title(snap.ruleset)}  ·  "
            f"抽签 drawn {options.local(snap.drawn_at, seconds=False)} (seed {snap.draw_seed})",
            s.body,
        )
    )
    story.append(
        p(f"小组排名规则 Group tie-breaks: {tie_break_text(snap.settings.tie_breaks)}", s.body)
    )
    rows = [["参数 Parameter", "取值 Value", "条款 Article"]]
    rows += [list(r) for r in ruleset_rows(snap.ruleset)]
    story.append(grid(rows, [80 * mm, 75 * mm, 25 * mm], s))

    final = "最终名次 Final places" if snap.state.finished else "名次（已确定部分）Places so far"
    story.append(p(final, s.h1))
    places = [["名次 Place", "选手 Pair", "俱乐部 Club", "说明 Note"]]
    for pl in final_places(snap.state, snap.settings):
        pair = snap.pair(pl.pair_id)
        places.append(
            [pl.label, f"#{pl.pair_id} {pair.name if pair else ''}", pair.club if pair else "",
             pl.note]
        )  # fmt: skip
    if len(places) == 1:
        places.append(["—", "尚无 none yet", "", ""])
    story.append(grid(places, [28 * mm, 82 * mm, 45 * mm, 31 * mm], s))
    if not snap.state.finished:
        story.append(p("仍在比赛的选手未列出。Pairs still playing are not listed yet.", s.small))

    ko = snap.ko()
    if ko:
        story += bracket_story(snap, s, options.paper)
        story.append(PageBreak())
        story.append(p("淘汰赛各场 Knockout matches", s.h1))
        rounds = sorted({(m.match.round, m.match.third_place) for m in ko})
        for rnd, third in rounds:
            ms = [m for m in ko if m.match.round == rnd and m.match.third_place == third]
            ms = [m for m in ms if m.status is not Status.VOID]
            if not ms:
                continue
            story.append(p(snap.round_name(ms[0].match), s.h2))
            story.append(_match_table(snap, ms, s))

    for name in snap.groups:
        st = next(x for x in snap.state.standings if x.group == name)
        story.append(p(f"{name}组积分 Group {name} standings", s.h1))
        rows = [["名次", "选手 Pair", "赛", "胜", "负", "级差", "相互 H2H", "抽签",
                 "排名依据 Separated by"]]  # fmt: skip
        for r in st.rows:
            pair = snap.pair(r.pair_id)
            rows.append([
                f"{r.rank}{'=' if r.tied else ''}", f"#{r.pair_id} {pair.name if pair else ''}",
                r.played, r.wins, r.losses, r.level_diff,
                "" if r.head_to_head is None else r.head_to_head,
                "" if r.lot is None else r.lot, tie_break_mark(r.separated_by),
            ])  # fmt: skip
        widths = [12, 62, 9, 9, 9, 13, 16, 12, 44]
        story.append(grid(rows, [w * mm for w in widths], s))
        if st.lots_due:
            story.append(p(f"需抽签 lots needed: {[list(t) for t in st.lots_due]}", s.warning))
        story.append(Spacer(1, 2 * mm))
        story.append(p(f"{name}组比赛 Group {name} matches", s.h2))
        story.append(_match_table(snap, snap.group_matches(name), s))

    story.append(p("处罚汇总 Penalties summary", s.h1))
    story.append(_penalties(snap, s))
    if any(m.decided_by is Decision.FORFEIT for m in snap.state.matches):
        story.append(p(forfeit_level_rule(snap.ruleset), s.small))
    order = tie_break_text(snap.settings.tie_breaks)
    footer = f"{info.name} · {ruleset_footer(snap.ruleset)} · 排名 {order}"
    return build(
        out, story, s, title=f"{info.name} 成绩 Results", footer_left=footer, progress=progress,
        options=options, footer_right=info.name,
    )  # fmt: skip


def snapshot_texts(snap: Snapshot) -> list[str]:
    """Every user text a tournament document may print (for the glyph check)."""
    info = snap.info
    texts = [info.name, info.venue, info.organizer, *info.tables, *info.referees]
    for pair in snap.pairs.values():
        texts += [pair.player1, pair.player2, pair.club]
    texts += [m.match.table for m in snap.state.matches]
    texts += [m.match.referee for m in snap.state.matches]
    return texts


def _match_table(snap: Snapshot, ms: list[MatchState], s, full: bool = False):
    head = [
        "比赛 Match",
        "A方 Pair A",
        "B方 Pair B",
        "胜方 Winner",
        "级 Levels",
        "决胜方式 Decided by (article)",
    ]
    widths = [25 * mm, 41 * mm, 41 * mm, 30 * mm, 16 * mm, 33 * mm]
    if full:
        head.insert(1, "轮次 Round")
        widths = [25 * mm, 20 * mm, 34 * mm, 34 * mm, 26 * mm, 16 * mm, 31 * mm]
    rows: list[list[object]] = [head]
    extra: list[tuple] = []
    for i, m in enumerate(ms, start=1):
        o = m.outcome
        a = entrant_text(snap.pair(m.pair_a), m.match.slot_a) or m.match.slot_a.describe()
        b = entrant_text(snap.pair(m.pair_b), m.match.slot_b) or m.match.slot_b.describe()
        winner = pair_text(snap.pair(m.winner), with_seed=False) if m.winner else m.status.label_zh
        how = decision_text(m.decided_by)
        mark = decision_mark(m.decided_by)
        if mark:
            how = f"{how} [{mark}]"
        if m.decided_by is Decision.FORFEIT:
            first = snap.ruleset.first_level
            how += f"; 弃权方按{first}级计 forfeiting side counted at level {first}"
            extra.append(("BACKGROUND", (0, i), (-1, i), MARK_BG))
        if m.status is Status.HELD:
            how = "待仲裁 committee ruling pending (8.11)"
            extra.append(("BACKGROUND", (0, i), (-1, i), HELD_BG))
        row: list[object] = [
            m.match.match_id + (f"\n{m.match.table}" if m.match.table else ""),
            a, b, winner,
            levels_text(dict(o.levels), m.pair_a, m.pair_b) if o else "",
            how,
        ]  # fmt: skip
        if full:
            row.insert(1, snap.round_name(m.match))
        rows.append(row)
    return grid(rows, widths, s, extra)


def _penalties(snap: Snapshot, s):
    counts: Counter[tuple[int | None, str, str]] = Counter()
    where: dict[tuple[int | None, str, str], list[str]] = {}
    for m in snap.state.matches:
        if m.outcome is None:
            continue
        for pen in m.outcome.penalties:
            key = (pen.pair_id, pen.kind, pen.article)
            counts[key] += 1
            where.setdefault(key, []).append(m.match.match_id)
    rows: list[list[object]] = [
        ["选手 Pair", "违规 Violation", "条款 Article", "次数 Count", "比赛 Matches"]
    ]
    for key in sorted(counts, key=lambda k: (k[0] or 0, k[2], k[1])):
        pid, kind, article = key
        pair = snap.pair(pid)
        rows.append([
            f"#{pid} {pair.name}" if pair else "—", violation_text(kind), article, counts[key],
            ", ".join(sorted(set(where[key]))),
        ])  # fmt: skip
    if len(rows) == 1:
        rows.append(["—", "无 none", "", "", ""])
    return grid(rows, [50 * mm, 40 * mm, 18 * mm, 16 * mm, 56 * mm], s)
