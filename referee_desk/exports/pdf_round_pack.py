"""The round pack: everything the organizer prints before a round, in one PDF.

1. The pairing list for the wall: each table with its match, both pairs (players
   and club), the referee and the start time; byes listed apart.
2. A table card per table (stands on the table, readable from the room).
3. The pre-filled scoresheet of every match of the round (each page names its match).

The blank grids of the scoresheets are laid out once and stamped (``Stamp``), so a
128-match round stays fast.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer

from referee_desk.exports.fonts import FontSet
from referee_desk.exports.labels import entrant_text, pair_text, preset_title
from referee_desk.exports.pdf_common import (
    PageHeader,
    Stamp,
    Styles,
    build,
    glyph_warning,
    grid,
    make_styles,
    p,
    page_size,
    ruleset_footer,
    ruleset_line,
)
from referee_desk.exports.pdf_player_index import player_index_story
from referee_desk.exports.pdf_results import snapshot_texts
from referee_desk.exports.pdf_scoresheet import (
    page_identity,
    scoresheet_blanks,
    scoresheet_fields,
)
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.snapshot import Snapshot
from referee_desk.exports.text_fit import fit_lines
from referee_desk.tournament.rounds import PlayRound, play_round
from referee_desk.tournament.state import MatchState


def export_round_pack_pdf(
    snap: Snapshot,
    out: str | Path,
    round_number: int,
    *,
    start: str = "",
    font_path: str | None = None,
    options: PrintOptions | None = None,
    notices: list[str] | None = None,
) -> Path:
    """Write round ``round_number`` (order of play, see ``tournament.rounds``)."""
    options = options or PrintOptions()
    rnd = play_round(snap.state.matches, round_number)
    s = make_styles(font_path)
    story: list = [PageHeader(f"{snap.info.name} · {rnd.label} · 对阵表 pairings")]
    story += _pairing_list(snap, rnd, s, start, options)
    story += [
        PageBreak(), PageHeader(f"{snap.info.name} · {rnd.label} · 选手索引 player index"),
        *player_index_story(snap, s, [*rnd.matches, *rnd.byes], _index_title(rnd)),
    ]  # fmt: skip
    glyphs = glyph_warning(s, snapshot_texts(snap))
    if glyphs and notices is not None:
        notices.append(glyphs)
    width, _ = page_size(options, wide=True)
    story.append(PageBreak())
    story.append(PageHeader(f"{snap.info.name} · {rnd.label} · 桌牌 table cards"))
    for k, m in enumerate(rnd.matches):
        if k:
            story.append(PageBreak())
        story.append(TableCard(snap, m, rnd, s.fonts, start, width - 24 * mm))
    cache: dict = {}
    static = scoresheet_blanks(s, snap.ruleset)
    for m in rnd.matches:
        header = scoresheet_header(snap, m, start)
        story += [PageBreak(), PageHeader(page_identity(header)), *scoresheet_fields(s, header)]
        for k, part in enumerate(static):
            story.append(Stamp(f"sheet-{k}", part, cache))
    return build(
        out, story, s, title=f"{snap.info.name} {rnd.label} 轮次资料 round pack",
        footer_left=f"{snap.info.name} · {rnd.label} · {ruleset_footer(snap.ruleset)}",
        wide=True, options=options,
    )  # fmt: skip


def _index_title(rnd: PlayRound) -> str:
    return f"选手索引 Player index · {rnd.label} · 查找桌号 find your table"


def scoresheet_header(snap: Snapshot, m: MatchState, start: str = "") -> dict[str, str]:
    """The scoresheet's pre-filled fields for a drawn match."""
    a, b = snap.pair(m.pair_a), snap.pair(m.pair_b)
    header = {
        "tournament": snap.info.name,
        "match_id": m.match.match_id,
        "round": snap.round_name(m.match),
        "table": m.match.table,
        "referee": m.match.referee,
        "date": start or snap.info.start_date,
        "pair_ns": pair_text(a) if a else m.match.slot_a.describe(),
        "pair_ew": pair_text(b) if b else m.match.slot_b.describe(),
    }
    if a is not None:
        header.update({"N": a.player1, "S": a.player2})
    if b is not None:
        header.update({"E": b.player1, "W": b.player2})
    return header


def _pairing_list(
    snap: Snapshot, rnd: PlayRound, s: Styles, start: str, options: PrintOptions
) -> list:
    story: list = [p(snap.info.name, s.title)]
    when = f"开始时间 start: {start}" if start else "开始时间 start: ______"
    story.append(p(f"{rnd.label} · 对阵表 Pairings · {when}", s.subtitle))
    story.append(p(f"规则 Preset: {preset_title(snap.ruleset)}", s.subtitle))
    story.append(p(ruleset_line(snap.ruleset), s.small, full=True))
    rows: list[list[object]] = [
        ["桌 Table", "比赛 Match", "南北 NS (A方)", "东西 EW (B方)", "裁判 Referee", "开始 Start"]
    ]
    wall = ParagraphStyle("wall", parent=s.cell, fontSize=12, leading=15)
    for m in rnd.matches:
        cells = (
            m.match.table or "—", m.match.match_id, _side(snap, m, "a"), _side(snap, m, "b"),
            m.match.referee, start,
        )  # fmt: skip
        rows.append([p(c, wall) if c else "" for c in cells])
    story.append(grid(rows, [28 * mm, 30 * mm, 75 * mm, 75 * mm, 30 * mm, 35 * mm], s))
    if rnd.byes:
        # Every pair with a bye is named, one row each: a pair not listed would not
        # know it advances (never a line cut with "…").
        story.append(Spacer(1, 4 * mm))
        story.append(p(f"轮空直接晋级 Byes (advance without playing): {len(rnd.byes)}", s.h2))
        bye_rows: list[list[object]] = [["比赛 Match", "轮空晋级 Pair advancing (bye)"]]
        bye_rows += [
            [p(m.match.match_id, wall), p(pair_text(snap.pair(m.winner)), wall)] for m in rnd.byes
        ]
        story.append(grid(bye_rows, [40 * mm, 140 * mm], s, size=12))
    return story


def _side(snap: Snapshot, m: MatchState, side: str) -> str:
    pid = m.pair_a if side == "a" else m.pair_b
    slot = m.match.slot_a if side == "a" else m.match.slot_b
    pair = snap.pair(pid)
    return entrant_text(pair, slot) if pair else slot.describe()


class TableCard(Flowable):
    """A table card: the table's name large, the match, both pairs, the referee."""

    def __init__(
        self, snap: Snapshot, m: MatchState, rnd: PlayRound, fonts: FontSet, start: str,
        width: float,
    ) -> None:  # fmt: skip
        super().__init__()
        self.snap, self.m, self.rnd, self.fonts, self.start = snap, m, rnd, fonts, start
        self.card_width = width

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width, self.height = avail_width, avail_height - 1
        return self.width, self.height

    def draw(self) -> None:
        from referee_desk.exports.pdf_common import draw_text

        c, w, h = self.canv, self.width, self.height
        m = self.m
        c.setLineWidth(1.5)
        c.rect(0, 0, w, h)
        table = fit_lines(self.fonts, m.match.table or m.match.match_id, w - 20 * mm, 96, 24)
        draw_text(c, self.fonts, w / 2, h - 40 * mm, table.lines[0], table.size, anchor="middle")
        # The match's own round: the third-place card is not headed "Final".
        line = f"{self.snap.round_name(m.match)} · {m.match.match_id}"
        if self.start:
            line += f" · 开始 start {self.start}"
        draw_text(c, self.fonts, w / 2, h - 55 * mm, line, 16, anchor="middle")
        y = h - 85 * mm
        for label, side in (("南北 NS", "a"), ("东西 EW", "b")):
            text = fit_lines(self.fonts, f"{label}  {_side(self.snap, m, side)}", w - 20 * mm,
                             26, 12, 2)  # fmt: skip
            for k, part in enumerate(text.lines):
                draw_text(c, self.fonts, w / 2, y - k * text.size * 1.2, part, text.size,
                          anchor="middle")  # fmt: skip
            y -= 35 * mm
        referee = f"裁判 referee {m.match.referee}" if m.match.referee else ""
        draw_text(c, self.fonts, w / 2, 14 * mm, referee, 18, anchor="middle")
