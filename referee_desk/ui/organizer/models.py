"""Table models of the organizer view: pairs, matches (with assignment) and group standings.

Each model holds rows of values read from the tournament layer and only formats them;
nothing is ranked or decided here. Headers go through Qt's catalogue (context of the
model class), so switching the language only needs ``headerDataChanged``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from referee_desk.tournament.model import Pair, TournamentMatch
from referee_desk.tournament.standings import Standings
from referee_desk.tournament.state import MatchState, Status
from referee_desk.ui.organizer import texts

#: The id (pair id or match id) of a row, for views and tests.
ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1
#: The choices an editable cell offers (tables or referees of the tournament).
CHOICES_ROLE = int(Qt.ItemDataRole.UserRole) + 2

Index = QModelIndex | QPersistentModelIndex

HELD_COLOUR = QColor("#e65100")
MARKED_COLOUR = QColor("#b00020")


class _RowsModel(QAbstractTableModel):
    """Rows of display texts plus an id per row; subclasses give headers and styling."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[list[str]] = []
        self._ids: list[Any] = []

    def headers(self) -> list[str]:
        raise NotImplementedError

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            names = self.headers()
            return names[section] if 0 <= section < len(names) else None
        return str(section + 1)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        row, column = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._rows[row][column]
        if role == ID_ROLE:
            return self._ids[row]
        return self.style(row, column, role)

    def style(self, row: int, column: int, role: int) -> Any:
        return None

    def id_at(self, row: int) -> Any:
        return self._ids[row]

    def row_of(self, key: Any) -> int:
        return self._ids.index(key)

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)


class OrganizerPairsModel(_RowsModel):
    """The registered pairs: id, both players, club, seed."""

    def headers(self) -> list[str]:
        return [self.tr("No."), self.tr("Player 1"), self.tr("Player 2"), self.tr("Club"),
                self.tr("Seed")]  # fmt: skip

    def set_pairs(self, pairs: Sequence[Pair]) -> None:
        self.beginResetModel()
        self._rows = [
            [str(p.pair_id), p.player1, p.player2, p.club, "" if p.seed is None else str(p.seed)]
            for p in pairs
        ]
        self._ids = [p.pair_id for p in pairs]
        self.endResetModel()


class OrganizerMatchesModel(_RowsModel):
    """Every drawn match with its state; the table and referee cells are editable.

    ``assign(match_id, table, referee)`` is the tournament layer's call; it raises a
    ValueError (shown by the view) when the assignment is refused.
    """

    TABLE, REFEREE = 2, 3

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._states: list[MatchState] = []
        self.tables: tuple[str, ...] = ()
        self.referees: tuple[str, ...] = ()
        self.assign: Callable[[str, str | None, str | None], None] | None = None
        self.last_error = ""

    def headers(self) -> list[str]:
        return [self.tr("Match"), self.tr("Round"), self.tr("Table"), self.tr("Referee"),
                self.tr("Pair A"), self.tr("Pair B"), self.tr("Status"), self.tr("Winner"),
                self.tr("Levels at the end"), self.tr("Decided by")]  # fmt: skip

    def set_state(
        self,
        states: Sequence[MatchState],
        pairs: dict[int, Pair],
        tables: tuple[str, ...] = (),
        referees: tuple[str, ...] = (),
    ) -> None:
        self.beginResetModel()
        self._states = list(states)
        self.tables, self.referees = tables, referees
        drawn: list[TournamentMatch] = [s.match for s in states]
        self._rows = [self._row(s, pairs, drawn) for s in states]
        self._ids = [s.match.match_id for s in states]
        self.endResetModel()

    @staticmethod
    def _row(s: MatchState, pairs: dict[int, Pair], drawn: list[TournamentMatch]) -> list[str]:
        m = s.match

        def side(pid: int | None, slot: Any) -> str:
            if pid is not None and pid in pairs:
                return texts.pair_text(pairs[pid])
            return texts.slot_text(slot)

        winner = texts.pair_text(pairs.get(s.winner)) if s.winner is not None else ""
        levels = ""
        if s.outcome is not None and s.pair_a is not None and s.pair_b is not None:
            known = dict(s.outcome.levels)
            if s.pair_a in known and s.pair_b in known:
                levels = (
                    f"{texts.level_text(known[s.pair_a])} : {texts.level_text(known[s.pair_b])}"
                )
        return [
            m.match_id,
            texts.round_name(m, drawn),
            m.table,
            m.referee,
            side(s.pair_a, m.slot_a),
            side(s.pair_b, m.slot_b),
            texts.status_name(s.status),
            winner,
            levels,
            texts.decision_name(s.decided_by),
        ]

    def state_at(self, row: int) -> MatchState:
        return self._states[row]

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and index.column() in (self.TABLE, self.REFEREE):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def style(self, row: int, column: int, role: int) -> Any:
        s = self._states[row]
        if role == CHOICES_ROLE:
            if column == self.TABLE:
                return list(self.tables)
            if column == self.REFEREE:
                return list(self.referees)
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            if s.status is Status.HELD:
                return QBrush(HELD_COLOUR)
            if s.decided_by is not None and s.decided_by.is_marked:
                return QBrush(MARKED_COLOUR)
        if role == Qt.ItemDataRole.FontRole and s.status is Status.HELD:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (
            role != Qt.ItemDataRole.EditRole
            or not index.isValid()
            or index.column() not in (self.TABLE, self.REFEREE)
            or self.assign is None
        ):
            return False
        text = str(value or "").strip()
        match_id = self._ids[index.row()]
        table = text if index.column() == self.TABLE else None
        referee = text if index.column() == self.REFEREE else None
        try:
            self.assign(match_id, table, referee)
        except (ValueError, OSError) as error:
            self.last_error = str(error)
            return False
        self._rows[index.row()][index.column()] = text
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole])
        return True


class OrganizerStandingsModel(_RowsModel):
    """One group's standings as the tournament layer ranked them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tied: list[bool] = []
        self.group = ""

    def headers(self) -> list[str]:
        return [self.tr("Place"), self.tr("Pair"), self.tr("Played"), self.tr("Wins"),
                self.tr("Losses"), self.tr("Level difference"), self.tr("Lot"),
                self.tr("Note")]  # fmt: skip

    def set_standings(self, standings: Standings, pairs: dict[int, Pair]) -> None:
        self.beginResetModel()
        self.group = standings.group
        needing = (
            {p for tied in standings.needs_lots for p in tied} if standings.complete else set()
        )
        self._rows = []
        for r in standings.rows:
            note = ""
            if r.pair_id in needing:
                note = self.tr("tied: a drawing of lots is needed")
            elif r.tied:
                note = self.tr("tied")
            self._rows.append(
                [
                    str(r.rank),
                    texts.pair_text(pairs.get(r.pair_id)) or f"#{r.pair_id}",
                    str(r.played),
                    str(r.wins),
                    str(r.losses),
                    f"{r.level_diff:+d}",
                    "" if r.lot is None else str(r.lot),
                    note,
                ]
            )
        self._ids = [r.pair_id for r in standings.rows]
        self._tied = [r.pair_id in needing for r in standings.rows]
        self.endResetModel()

    def style(self, row: int, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and self._tied[row]:
            return QBrush(HELD_COLOUR)
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in (1, 7):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None
