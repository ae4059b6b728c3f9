"""The knockout bracket drawn on screen from the tournament state (QGraphicsScene).

Box positions come from ``tournament.layout.bracket_layout`` (the same geometry as the
xlsx sheet); this module only paints: pair names and seeds, table and referee, the
levels at the end, marks for wins by forfeit, disqualification or committee ruling,
and matches held while a committee ruling is pending.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
)

from referee_desk.tournament.layout import Box, bracket_layout
from referee_desk.tournament.model import Pair
from referee_desk.tournament.state import MatchState, Status
from referee_desk.ui.organizer import texts

LINE = 40.0
"""Height of one bracket line (a round-1 box spans two)."""
BOX_W = 250.0
BOX_H = 72.0
GAP = 48.0
ROW = 21.0

FILL = {
    Status.WAITING: "#f2f2f2",
    Status.READY: "#ffffff",
    Status.PLAYING: "#e3f2fd",
    Status.HELD: "#ffe0b2",
    Status.DECIDED: "#ffffff",
    Status.BYE: "#fafafa",
    Status.VOID: "#fafafa",
}


@dataclass(frozen=True, slots=True)
class BoxText:
    """What one box says, line by line (kept for tests and tooltips)."""

    side_a: str
    side_b: str
    info: str
    mark: str
    held: bool


class MatchBoxItem(QGraphicsRectItem):
    """One match of the bracket; ``match_id`` and ``content`` identify what it shows."""

    def __init__(self, state: MatchState, content: BoxText, rect: QRectF) -> None:
        super().__init__(rect)
        self.match_id = state.match.match_id
        self.status = state.status
        self.content = content
        held = state.status is Status.HELD
        pen = QPen(QColor("#e65100" if held else "#455a64"), 2.5 if held else 1.2)
        if state.status in (Status.BYE, Status.VOID):
            pen.setStyle(Qt.PenStyle.DashLine)
        self.setPen(pen)
        self.setBrush(QBrush(QColor(FILL[state.status])))
        self.setToolTip("\n".join(x for x in (content.side_a, content.side_b, content.info) if x))
        x, y = rect.x() + 6, rect.y() + 3
        bold = QFont()
        bold.setBold(True)
        for k, text in enumerate((content.side_a, content.side_b)):
            item = QGraphicsSimpleTextItem(text, self)
            item.setPos(x, y + k * ROW)
            won = state.winner is not None and state.winner == (state.pair_a, state.pair_b)[k]
            if won and state.status is Status.DECIDED:
                item.setFont(bold)
            if not text or state.status is Status.WAITING:
                item.setBrush(QBrush(QColor("#757575")))
        info = QGraphicsSimpleTextItem(content.info, self)
        small = QFont()
        small.setPointSizeF(max(small.pointSizeF() - 1.0, 7.0))
        info.setFont(small)
        info.setBrush(QBrush(QColor("#37474f")))
        info.setPos(x, y + 2 * ROW)
        if content.mark:
            # On the winner's line (the first line while held), over a patch of the fill.
            sides = (state.pair_a, state.pair_b)
            line = sides.index(state.winner) if state.winner in sides else 0
            mark = QGraphicsSimpleTextItem(content.mark)
            mark.setFont(bold)
            mark.setBrush(QBrush(QColor("#e65100" if held else "#b00020")))
            width = mark.boundingRect().width()
            patch = QGraphicsRectItem(
                rect.right() - width - 10, y + line * ROW, width + 8, ROW - 2, self
            )
            patch.setPen(QPen(Qt.PenStyle.NoPen))
            patch.setBrush(QBrush(QColor(FILL[state.status])))
            mark.setParentItem(patch)
            mark.setPos(rect.right() - width - 6, y + line * ROW)
        # Clip long names to the box.
        self.setFlag(QGraphicsRectItem.GraphicsItemFlag.ItemClipsChildrenToShape, True)

    def texts(self) -> list[str]:
        """Every text the box shows (names, info line, mark)."""
        found: list[str] = []
        stack = list(self.childItems())
        while stack:
            item = stack.pop(0)
            if isinstance(item, QGraphicsSimpleTextItem):
                found.append(item.text())
            stack.extend(item.childItems())
        return found


def box_text(state: MatchState, pairs: dict[int, Pair]) -> BoxText:
    m = state.match

    def side(pid: int | None, slot: object) -> str:
        if pid is not None and pid in pairs:
            return texts.pair_text(pairs[pid])
        return texts.slot_text(slot)  # type: ignore[arg-type]

    parts = [m.match_id]
    if m.table:
        parts.append(m.table)
    if m.referee:
        parts.append(m.referee)
    if state.outcome is not None and state.pair_a is not None and state.pair_b is not None:
        known = dict(state.outcome.levels)
        if state.pair_a in known and state.pair_b in known:
            parts.append(
                f"{texts.level_text(known[state.pair_a])} : {texts.level_text(known[state.pair_b])}"
            )
    held = state.status is Status.HELD
    if held:
        mark = QCoreApplication.translate("OrganizerBracket", "held: ruling pending")
    else:
        mark = texts.decision_mark(state.decided_by)
    return BoxText(side(state.pair_a, m.slot_a), side(state.pair_b, m.slot_b), " · ".join(parts),
                   mark, held)  # fmt: skip


def _box_rect(box: Box, rounds: int) -> QRectF:
    x = box.column * (BOX_W + GAP)
    if box.third_place:
        x = max(rounds - 1, 0) * (BOX_W + GAP)
        centre = (box.top + 1) * LINE
    else:
        centre = (box.top + box.half) * LINE
    return QRectF(x, centre - BOX_H / 2, BOX_W, BOX_H)


def build_bracket_scene(
    states: Sequence[MatchState], pairs: dict[int, Pair], scene: QGraphicsScene | None = None
) -> QGraphicsScene:
    """Fill ``scene`` (cleared) with the knockout matches of ``states``."""
    scene = scene or QGraphicsScene()
    scene.clear()
    ko = [s for s in states if s.match.stage == "KO"]
    layout = bracket_layout(ko)
    by_id = {s.match.match_id: s for s in ko}
    rects: dict[str, QRectF] = {}
    for box in layout.boxes:
        rects[box.match_id] = _box_rect(box, layout.rounds)
    pen = QPen(QColor("#90a4ae"), 1.2)
    for match_id, rect in rects.items():
        m = by_id[match_id].match
        if m.third_place:
            continue
        for slot in (m.slot_a, m.slot_b):
            child = rects.get(slot.ref) if slot.kind == "winner" else None
            if child is None:
                continue
            path = QPainterPath()
            mid_x = child.right() + GAP / 2
            path.moveTo(child.right(), child.center().y())
            path.lineTo(mid_x, child.center().y())
            path.lineTo(mid_x, rect.center().y())
            path.lineTo(rect.left(), rect.center().y())
            item = QGraphicsPathItem(path)
            item.setPen(pen)
            scene.addItem(item)
    for box in layout.boxes:
        state = by_id[box.match_id]
        rect = rects[box.match_id]
        if box.third_place:
            title = QGraphicsSimpleTextItem(texts.round_name(state.match, [s.match for s in ko]))
            title.setPos(rect.x(), rect.y() - ROW)
            scene.addItem(title)
        scene.addItem(MatchBoxItem(state, box_text(state, pairs), rect))
    for column in range(layout.rounds):
        first = next(
            (by_id[b.match_id] for b in layout.boxes if b.column == column and not b.third_place),
            None,
        )
        if first is None:
            continue
        head = QGraphicsSimpleTextItem(texts.round_name(first.match, [s.match for s in ko]))
        bold = QFont()
        bold.setBold(True)
        head.setFont(bold)
        head.setPos(column * (BOX_W + GAP), -2 * ROW)
        scene.addItem(head)
    return scene


def match_boxes(scene: QGraphicsScene) -> list[MatchBoxItem]:
    return [i for i in scene.items() if isinstance(i, MatchBoxItem)]
