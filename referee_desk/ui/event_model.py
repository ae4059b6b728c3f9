"""The event log as a table model, and the proxy that keeps only violations.

One row per recorded event, newest last. Texts come from the event and from what the
match layer's replay says about it (consequences, corrections); nothing is computed
here. Corrected events are struck through and carry the correction's reason.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont

from referee_desk.match.envelope import Event
from referee_desk.match.state import MatchState
from referee_desk.rules.cards import format_cards, parse_cards
from referee_desk.rules.errors import RulesError
from referee_desk.ui import texts
from referee_desk.ui.clock_display import format_ms

COLUMNS = ("time", "clock", "seat", "what", "consequence", "article", "referee")
EVENT_ROLE = Qt.ItemDataRole.UserRole + 1
AnyIndex = QModelIndex | QPersistentModelIndex


def _header(name: str) -> str:
    headers = {
        "time": QCoreApplication.translate("EventLogModel", "Time"),
        "clock": QCoreApplication.translate("EventLogModel", "Clock"),
        "seat": QCoreApplication.translate("EventLogModel", "Seat"),
        "what": QCoreApplication.translate("EventLogModel", "What"),
        "consequence": QCoreApplication.translate("EventLogModel", "Consequence"),
        "article": QCoreApplication.translate("EventLogModel", "Article"),
        "referee": QCoreApplication.translate("EventLogModel", "Referee"),
    }
    return headers[name]


def local_time(recorded_at: str) -> str:
    """``14:03:40`` in the computer's time zone."""
    try:
        moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    except ValueError:
        return recorded_at
    return moment.astimezone().strftime("%H:%M:%S")


def _cards_text(cards: Any) -> str:
    try:
        return format_cards(parse_cards(cards), symbols=True)
    except (RulesError, TypeError, AttributeError):
        return str(cards)


def describe(event: Event, ruleset: Any = None, throw: bool = False) -> str:
    """The 'what' column: the event's name and its main payload values; ``throw`` (the
    replay's word that a trick's lead was a throw, 12.4) names the lead 甩牌."""
    payload = event.payload
    name = texts.event_kind_name(event.type)
    parts = [name]
    if event.type == "bid":
        parts = [texts.bid_kind_name(str(payload.get("kind", "")), ruleset)]
        if payload.get("cards"):
            parts.append(_cards_text(payload["cards"]))
    elif event.type == "trick":
        plays = payload.get("plays", [])
        named = [f"{texts.seat_name(p['seat'])} {_cards_text(p.get('cards', []))}" for p in plays]
        if throw and named:
            throw_word = QCoreApplication.translate("EventLogModel", "throw")
            named[0] = f"{texts.seat_name(plays[0]['seat'])} {throw_word} "
            named[0] += _cards_text(plays[0].get("cards", []))
        parts.append(" · ".join(named))
    elif event.type == "hand_summary":
        parts.append(
            QCoreApplication.translate(
                "EventLogModel", "defenders %1, last trick %2 × %3 won by %4"
            )
            .replace("%1", str(payload.get("defenders_points_before_last")))
            .replace("%2", str(payload.get("last_trick_points")))
            .replace("%3", str(payload.get("last_trick_cards_per_player")))
            .replace("%4", texts.side_name(str(payload.get("last_trick_side", ""))))
        )
    elif event.type in ("wrong_play",):
        parts.append(str(payload.get("cards_exposed", "")))
    elif event.type == "penalty_choice":
        parts.append(str(payload.get("choice", "")))
    elif event.type in ("bidding_closed", "false_bid_trump"):
        trump = payload.get("trump")
        if trump:
            # 无主 / no-trump in the desk's language, never the payload's "NT"
            parts.append(texts.trump_text(None) if trump == "NT" else _cards_trump(trump))
    if event.type == "match_ended":
        parts.append(
            f"{texts.side_name(str(payload.get('winner', '')))} · "
            f"{texts.end_reason_name(str(payload.get('reason', '')))}"
        )
        return " ".join(parts)
    for key in ("reason", "text"):
        if payload.get(key):
            parts.append(str(payload[key]))
    return " ".join(p for p in parts if p)


def trick_outcome(trick: Any) -> str:
    """``南 赢第 3 墩 · 15 分``: who won a recorded trick and the points in it."""
    return (
        QCoreApplication.translate("EventLogModel", "%1 wins trick %2 · %3 points")
        .replace("%1", texts.seat_name(trick.winner))
        .replace("%2", str(trick.number))
        .replace("%3", str(trick.points))
    )


def _cards_trump(trump: str) -> str:
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return symbols.get(str(trump), str(trump))


def _seat_text(payload: dict[str, Any]) -> str:
    if payload.get("seat"):
        return texts.seat_name(payload["seat"])
    if payload.get("side"):
        return texts.side_name(payload["side"])
    return ""


class EventLogModel(QAbstractTableModel):
    """Rows are the match's events; replay facts are looked up by seq."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._events: list[Event] = []
        self._consequences: dict[int, list[Any]] = {}
        self._violations: dict[int, Any] = {}
        self._corrected: dict[int, str] = {}
        self._tricks: dict[int, Any] = {}

    def set_record(self, events: list[Event], state: MatchState | None) -> None:
        """Show ``events``; ``state`` (their replay) gives consequences and corrections."""
        self.beginResetModel()
        self._events = list(events)
        self._consequences = {}
        self._violations = {}
        self._corrected = {}
        self._tricks = {}
        self._ruleset = None if state is None else state.ruleset
        if state is not None:
            self._tricks = {trick.seq: trick for hand in state.hands for trick in hand.tricks}
            for consequence in state.consequences:
                self._consequences.setdefault(consequence.seq, []).append(consequence)
            self._violations = {v.seq: v for v in state.violations}
            for correction in state.corrections:
                self._corrected[correction.target_seq] = correction.reason
        self.endResetModel()

    def event_at(self, row: int) -> Event:
        return self._events[row]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._events)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            return _header(COLUMNS[section])
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._events):
            return str(self._events[section].seq)
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._events)):
            return None
        event = self._events[index.row()]
        column = COLUMNS[index.column()] if 0 <= index.column() < len(COLUMNS) else None
        if column is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(event, column)
        if role == EVENT_ROLE:
            return event.seq
        if role == Qt.ItemDataRole.FontRole and event.seq in self._corrected:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column in ("what", "consequence"):
            return self._display(event, column)
        if role == Qt.ItemDataRole.ToolTipRole and event.seq in self._corrected:
            return QCoreApplication.translate("EventLogModel", "Corrected: %1").replace(
                "%1", self._corrected[event.seq]
            )
        if role == Qt.ItemDataRole.ForegroundRole and event.type in texts.VIOLATION_TYPES:
            return QBrush(QColor("#b00020"))
        return None

    def _display(self, event: Event, column: str) -> str:
        if column == "time":
            return local_time(event.recorded_at)
        if column == "clock":
            return "" if event.clock_ms is None else format_ms(event.clock_ms)
        if column == "seat":
            return _seat_text(event.payload)
        if column == "what":
            trick = self._tricks.get(event.seq)
            throw = bool(trick is not None and getattr(trick, "throw", False))
            return describe(event, getattr(self, "_ruleset", None), throw)
        if column == "consequence":
            lines = [texts.consequence_text(c) for c in self._consequences.get(event.seq, [])]
            trick = self._tricks.get(event.seq)
            if trick is not None:
                lines.insert(0, trick_outcome(trick))
            text = "; ".join(lines)
            if event.seq in self._corrected:
                note = QCoreApplication.translate("EventLogModel", "corrected: %1").replace(
                    "%1", self._corrected[event.seq]
                )
                text = f"{text} ({note})" if text else note
            return text
        if column == "article":
            articles = [
                texts.article_text(c.article)
                for c in self._consequences.get(event.seq, [])
                if c.article
            ]
            violation = self._violations.get(event.seq)
            if violation is not None and violation.article and violation.article not in articles:
                articles.insert(0, violation.article)
            return " ".join(dict.fromkeys(articles))
        if column == "referee":
            return event.referee
        return ""


class ViolationFilterProxy(QSortFilterProxyModel):
    """Keeps only violation and committee events when enabled."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._only_violations = False

    def set_only_violations(self, enabled: bool) -> None:
        if hasattr(self, "endFilterChange"):
            self.beginFilterChange()
            self._only_violations = enabled
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._only_violations = enabled
            self.invalidateFilter()

    @property
    def only_violations(self) -> bool:
        return self._only_violations

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        if not self._only_violations:
            return True
        model = self.sourceModel()
        if not isinstance(model, EventLogModel):
            return True
        return model.event_at(source_row).type in texts.VIOLATION_TYPES
