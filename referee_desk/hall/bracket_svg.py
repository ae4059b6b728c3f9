"""The knockout tree as SVG: one column per round, each match a box with both pairs.

Any size: the drawing scales by its viewBox and the page lets a phone zoom and scroll
it. Names are escaped (``xml.sax.saxutils``) and cut to fit a box; the full name is the
box's tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from referee_desk.hall.view import MatchRow

BOX_W = 200
BOX_H = 46
GAP_X = 40
UNIT_Y = 56
MAX_NAME = 13


def _cut(name: str) -> str:
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def bracket_svg(matches: Sequence[MatchRow], lang: str) -> str:
    """The tree of ``matches`` (knockout rows; the third-place match drawn under it)."""
    main = [m for m in matches if m.knockout_round and "3P" not in m.match_id]
    extra = [m for m in matches if m.knockout_round and "3P" in m.match_id]
    if not main:
        return ""
    rounds = sorted({m.knockout_round for m in main})
    first = [m for m in main if m.knockout_round == rounds[0]]
    height = max(len(first), 1) * UNIT_Y + (UNIT_Y + BOX_H if extra else 0) + 20
    width = len(rounds) * (BOX_W + GAP_X) + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}" role="img">'
    ]
    for col, rnd in enumerate(rounds):
        in_round = sorted((m for m in main if m.knockout_round == rnd), key=_position)
        span = UNIT_Y * (2**col)
        for i, m in enumerate(in_round):
            x = 10 + col * (BOX_W + GAP_X)
            y = 10 + i * span + (span - BOX_H) / 2
            parts.append(_box(m, x, y, lang))
            if col + 1 < len(rounds):
                mid = y + BOX_H / 2
                parts.append(f'<path class="line" d="M{x + BOX_W} {mid:.1f} h{GAP_X / 2}" />')
            if col:
                mid = y + BOX_H / 2
                parts.append(
                    f'<path class="line" d="M{x - GAP_X / 2} {mid - span / 4:.1f}'
                    f' v{span / 2:.1f} M{x - GAP_X / 2} {mid:.1f} h{GAP_X / 2}" />'
                )
    for m in extra:
        x = 10 + (len(rounds) - 1) * (BOX_W + GAP_X)
        parts.append(_box(m, x, height - BOX_H - 10, lang))
    parts.append("</svg>")
    return "".join(parts)


def _position(m: MatchRow) -> str:
    return m.match_id


def _box(m: MatchRow, x: float, y: float, lang: str) -> str:
    decided = m.decided_zh if lang == "zh" else m.decided_en
    title = f"{m.match_id} · {m.name_a} / {m.name_b}" + (f" · {decided}" if decided else "")
    rows = []
    for k, (name, level, side) in enumerate(
        ((m.name_a, m.level_a, "a"), (m.name_b, m.level_b, "b"))
    ):
        cls = "won" if m.winner == side else "lost" if m.winner else ""
        ty = y + 18 + k * 21
        rows.append(
            f'<text class="name {cls}" x="{x + 6}" y="{ty:.1f}">{escape(_cut(name))}</text>'
            f'<text class="level" x="{x + BOX_W - 6}" y="{ty:.1f}" text-anchor="end">'
            f"{escape(level)}</text>"
        )
    table = (
        f'<text class="table" x="{x}" y="{y - 3:.1f}">{escape(m.table)}</text>' if m.table else ""
    )
    return (
        f'<g class="match {m.status}"><title>{escape(title)}</title>{table}'
        f'<rect x="{x}" y="{y:.1f}" width="{BOX_W}" height="{BOX_H}" rx="4" />'
        + "".join(rows)
        + "</g>"
    )
