"""The player index in pinyin order ("find your table"), pinned beside the pairing list."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm

from referee_desk.exports.pdf_common import Styles, build, glyph_warning, grid, make_styles, p
from referee_desk.exports.pdf_results import snapshot_texts
from referee_desk.exports.print_options import PrintOptions
from referee_desk.exports.snapshot import Snapshot
from referee_desk.exports.text_clean import clean_text
from referee_desk.tournament.player_index import index_letter, player_index
from referee_desk.tournament.state import MatchState

#: Points of the index's text: a wall list is read standing, at least 12 pt.
INDEX_SIZE = 12
NAME_CHARS = 40


def player_index_story(
    snap: Snapshot, s: Styles, matches: Sequence[MatchState] | None = None, title: str = ""
) -> list:
    """Heading and table: every player, partner, pair, club, table and match.

    Read from a wall: the body is ``INDEX_SIZE`` pt, and the heading does not wait
    for the whole table (``keepWithNext`` would push it, alone, past page 1).
    """
    if matches is None:
        entries = player_index(snap.pairs, snap.state.matches, snap.round_names)
    else:
        # One round's pack lists the players of that round only (not every pair, most
        # of them out by the final).
        playing = {pid for m in matches for pid in (m.pair_a, m.pair_b) if pid is not None}
        pairs = {pid: pair for pid, pair in snap.pairs.items() if pid in playing}
        entries = player_index(pairs, matches, snap.round_names, only_open=False)
    heading = ParagraphStyle("index-h1", parent=s.h1, keepWithNext=0)
    story: list = [p(title or "选手索引 Player index · 查找桌号 find your table", heading)]
    rows: list[list[object]] = [
        ["", "选手 Player", "搭档 Partner", "队 Pair", "俱乐部 Club", "桌 Table", "比赛 Match"]
    ]
    last = ""
    for e in entries:
        letter = index_letter(e.name)
        rows.append([
            letter if letter != last else "", _short(e.name), _short(e.partner),
            f"#{e.pair_id}", _short(e.club),
            e.table or "—", f"{e.match_id} {e.round_name}".strip() or "—",
        ])  # fmt: skip
        last = letter
    widths = [10 * mm, 30 * mm, 30 * mm, 15 * mm, 33 * mm, 23 * mm, 45 * mm]
    story.append(grid(rows, widths, s, size=INDEX_SIZE))
    return story


def _short(text: str) -> str:
    """At most ``NAME_CHARS`` characters: a 12-pt row stays a row (an absurd name is
    cut with an ellipsis, never allowed to fill a page)."""
    return clean_text(text, NAME_CHARS)


def export_player_index_pdf(
    snap: Snapshot,
    out: str | Path,
    *,
    font_path: str | None = None,
    options: PrintOptions | None = None,
    notices: list[str] | None = None,
) -> Path:
    s = make_styles(font_path)
    story: list = [p(snap.info.name, s.title)]
    glyphs = glyph_warning(s, snapshot_texts(snap))
    if glyphs:
        story.append(p(glyphs, s.warning))
        if notices is not None:
            notices.append(glyphs)
    story += player_index_story(snap, s)
    return build(
        out, story, s, title=f"{snap.info.name} 选手索引 Player index",
        footer_left=snap.info.name, footer_right="选手索引 player index", options=options,
    )  # fmt: skip
