"""The organizer view's table board section (on a server): each table's laptops, when
last heard, what they hold back, offline, open conflicts and settled ones apart.

Reads ``tournament.table_board`` on the tournament's own server connection (on the
interface thread, as the view's other reads); words from the server phrasebook
(``store.postgres.wording``) in the interface language. Heartbeats send no
notification, so a timer re-reads every few seconds while the section is attached.
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QListWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from referee_desk.store.postgres.wording import say, trouble_words
from referee_desk.tournament.table_board import BoardConflict, TableBoard, TableRow, table_board
from referee_desk.ui.texts import wording_language

#: Seconds between re-reads of the board while it is shown.
REFRESH_SECONDS = 5.0

COLUMNS = (
    "board_table",
    "board_laptops",
    "board_heard",
    "board_waiting",
    "board_state",
    "board_conflicts",
)


def heard_text(row: TableRow, lang: str) -> str:
    ago = row.seconds_ago
    if ago is None:
        return say("board_never", lang)
    if ago < 120:
        return say("board_seconds", lang, n=int(ago))
    return say("board_minutes", lang, n=int(ago // 60))


def state_text(row: TableRow, lang: str) -> str:
    key = "board_offline" if row.offline else ("board_playing" if row.playing else "board_idle")
    parts = [say(key, lang)]
    if row.shared:
        parts.append(say("board_shared", lang, n=len(row.laptops)))
    if row.behind:
        parts.append(say("board_behind", lang, matches=", ".join(row.behind)))
    if row.restored:
        parts.append(say("board_restored", lang, matches=", ".join(row.restored)))
    return ("；" if lang == "zh_CN" else "; ").join(parts)


def conflicts_text(row: TableRow, lang: str) -> str:
    parts = []
    if row.open_conflicts:
        parts.append(say("board_open", lang, n=len(row.open_conflicts)))
    if row.settled_conflicts:
        parts.append(say("board_settled", lang, n=len(row.settled_conflicts)))
    return ("，" if lang == "zh_CN" else ", ").join(parts)


def conflict_line(conflict: BoardConflict, lang: str) -> str:
    return say(
        "board_conflict_line",
        lang,
        kind=say(f"kind_{conflict.kind}", lang),
        match=conflict.match_id,
        seq=conflict.seq,
        desk=conflict.reported_by,
        at=conflict.reported_at,
    )


class TableBoardModel(QAbstractTableModel):
    """One row per table, as the board was last read."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.board: TableBoard | None = None

    def show(self, board: TableBoard | None) -> None:
        self.beginResetModel()
        self.board = board
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.board is None else len(self.board.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return say(COLUMNS[section], wording_language())
        return None

    def cell(self, row: int, column: int) -> str:
        assert self.board is not None
        lang = wording_language()
        table = self.board.rows[row]
        key = COLUMNS[column]
        if key == "board_table":
            return table.table
        if key == "board_laptops":
            return " ".join(k[:8] or "—" for k in table.desk_keys)
        if key == "board_heard":
            return heard_text(table, lang)
        if key == "board_waiting":
            return str(table.waiting) if table.laptops else ""
        if key == "board_state":
            return state_text(table, lang)
        return conflicts_text(table, lang)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        if not index.isValid() or self.board is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.ForegroundRole:
            table = self.board.rows[index.row()]
            if table.offline or table.open_conflicts:
                return QColor("#b71c1c")
            if table.behind or table.restored or table.shared:
                return QColor("#8a5a00")
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[index.column()] == "board_laptops":
            table = self.board.rows[index.row()]
            return "\n".join(f"{lap.desk_key} ({lap.client})" for lap in table.laptops)
        return None


class TableBoardSection(QWidget):
    """The section: a summary line, the tables, the open conflicts, the settled apart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableBoardSection")
        self.server: Any = None
        self.board: TableBoard | None = None
        self.error: str | None = None
        self.summary = QLabel(self)
        self.summary.setObjectName("tableBoardSummary")
        self.model = TableBoardModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("tableBoardTable")
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.open_title = QLabel(self)
        self.open_list = QListWidget(self)
        self.open_list.setObjectName("tableBoardOpen")
        self.settled_title = QLabel(self)
        self.settled_list = QListWidget(self)
        self.settled_list.setObjectName("tableBoardSettled")
        layout = QVBoxLayout(self)
        for widget in (
            self.summary,
            self.table,
            self.open_title,
            self.open_list,
            self.settled_title,
            self.settled_list,
        ):
            layout.addWidget(widget)
        layout.setStretch(1, 3)
        self.timer = QTimer(self)
        self.timer.setInterval(int(REFRESH_SECONDS * 1000))
        self.timer.timeout.connect(self.refresh)

    def show_in(self, sections: QTabWidget) -> None:
        """Add the section to the view's sections (once)."""
        if sections.indexOf(self) < 0:
            sections.addTab(self, say("board_title", wording_language()))

    def leave(self, sections: QTabWidget) -> None:
        self.detach()
        index = sections.indexOf(self)
        if index >= 0:
            sections.removeTab(index)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.paint()
            sections = self.parentWidget()
            while sections is not None and not isinstance(sections, QTabWidget):
                sections = sections.parentWidget()
            if sections is not None and sections.indexOf(self) >= 0:
                sections.setTabText(sections.indexOf(self), say("board_title", wording_language()))
        super().changeEvent(event)

    def attach(self, server: Any) -> None:
        """Read the board from this (organizer's) server connection, now and every few s."""
        self.server = server
        self.refresh()
        self.timer.start()

    def detach(self) -> None:
        self.timer.stop()
        self.server = None

    def refresh(self) -> None:
        if self.server is None:
            return
        try:
            self.board = table_board(self.server)
            self.error = None
        except Exception as error:  # a lost server: keep what was shown, say so
            self.error = " ".join(str(error).split())
            with contextlib.suppress(Exception):  # a closed connection stays closed
                self.server.connection.rollback()
        self.paint()

    def paint(self) -> None:
        lang = wording_language()
        board = self.board
        self.model.show(board)
        self.open_title.setText(say("board_open_title", lang))
        self.settled_title.setText(say("board_settled_title", lang))
        self.open_list.clear()
        self.settled_list.clear()
        trouble = trouble_words(self.error, lang) if self.error else ""
        if board is None:
            self.summary.setText(trouble)
            return
        self.summary.setText(
            (trouble + "\n" if trouble else "")
            + say(
                "board_summary",
                lang,
                tables=len(board.rows),
                offline=len(board.offline),
                open=len(board.open_conflicts),
                settled=len(board.settled_conflicts),
            )
        )
        for conflict in board.open_conflicts:
            self.open_list.addItem(conflict_line(conflict, lang))
        for conflict in board.settled_conflicts:
            self.settled_list.addItem(conflict_line(conflict, lang))
