"""Card entry widgets: a completer for the last token of a notation line, and a picker.

Both only produce notation text; the rules core parses it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent
from PySide6.QtWidgets import (
    QCompleter,
    QGridLayout,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from referee_desk.rules.cards import DECK, Rank, Suit, format_card

#: Every card token in canonical notation (54 distinct cards).
CARD_TOKENS: tuple[str, ...] = tuple(format_card(c) for c in DECK)
_SUIT_COLOURS = {Suit.S: "#000000", Suit.H: "#c00000", Suit.D: "#c00000", Suit.C: "#000000"}


class CardTokenCompleter(QCompleter):
    """Completes the token being typed at the end of a space-separated card list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tokens = QStringListModel(list(CARD_TOKENS), self)
        self.setModel(self._tokens)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter records what was typed: the popup closes and the Enter goes on to the
        line (and so to the dialog), instead of being eaten by the completion."""
        if (
            event.type() == QEvent.Type.KeyPress
            and watched is self.popup()
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.popup().isVisible()
        ):
            self.popup().hide()
            widget = self.widget()
            if widget is not None:
                QCoreApplication.sendEvent(
                    widget, QKeyEvent(QEvent.Type.KeyPress, event.key(), event.modifiers())
                )
            return True
        return super().eventFilter(watched, event)

    def splitPath(self, path: str) -> list[str]:
        token = path.replace(",", " ").split(" ")[-1]
        return [token.upper()]

    def pathFromIndex(self, index) -> str:
        completion = super().pathFromIndex(index)
        widget = self.widget()
        text = widget.text() if isinstance(widget, QLineEdit) else ""
        head, _sep, _tail = text.replace(",", " ").rpartition(" ")
        return f"{head} {completion}".strip() if head else completion


def attach_completer(edit: QLineEdit) -> CardTokenCompleter:
    completer = CardTokenCompleter(edit)
    edit.setCompleter(completer)
    return completer


class CardPicker(QWidget):
    """A grid of card buttons (four suits and the jokers); a click emits its notation."""

    picked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setSpacing(2)
        ranks = [r for r in Rank if not r.is_joker]
        for row, suit in enumerate(Suit):
            for column, rank in enumerate(ranks):
                token = f"{suit.value}{rank.label}"
                self._add(
                    grid, f"{suit.symbol}{rank.label}", token, row, column, _SUIT_COLOURS[suit]
                )
        self._add(grid, "LJ", "LJ", 4, 0, "#000000")
        self._add(grid, "BJ", "BJ", 4, 1, "#c00000")

    def _add(
        self, grid: QGridLayout, label: str, token: str, row: int, column: int, colour: str
    ) -> None:
        button = QPushButton(label, self)
        button.setObjectName(f"card_{token}")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # Five rows fit a 700 px screen with the preview. The height is fixed from the
        # font so the rows never overlap and J/Q are never cut to I/O (issue 19).
        font = QFont(button.font())
        font.setPointSizeF(12)
        height = max(24, QFontMetrics(font).height() + 8)
        button.setStyleSheet(
            f"color: {colour}; font-size: 12pt; padding: 0; margin: 0; "
            f"min-height: {height}px; max-height: {height}px;"
        )
        button.setMinimumWidth(40)
        button.setFixedHeight(height)  # known to the layout before the style is polished
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.clicked.connect(_emitter(self.picked.emit, token))
        grid.addWidget(button, row, column)


def _emitter(emit: Callable[[str], None], token: str) -> Callable[[], None]:
    return lambda: emit(token)
