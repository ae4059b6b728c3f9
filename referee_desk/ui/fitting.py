"""Texts that shrink to the room they have, down to a floor, instead of being cut.

Large labels (levels, seats) and the entry buttons keep their size while it fits and
get a smaller point size when the window is narrow or the language is long (English
"Level A" in a narrow panel). A ``TextFitter`` watches its widgets' resizes; the
window calls ``refit`` after changing their texts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QFont, QFontMetrics, Qt, QTextDocumentFragment
from PySide6.QtWidgets import QWidget

#: Point sizes are tried downwards in this step.
STEP = 0.5


def shown_text(text: str) -> str:
    """The text as the label draws it: rich text without its markup (a red ``♥`` span is
    one glyph wide, not thirty characters of HTML)."""
    if Qt.mightBeRichText(text):
        return QTextDocumentFragment.fromHtml(text).toPlainText()
    return text


def fitting_size(text: str, font: QFont, width: int, largest: float, smallest: float) -> float:
    """The largest point size ≤ ``largest`` (≥ ``smallest``) at which every line fits."""
    lines = [line for line in shown_text(text).split("\n") if line] or [""]
    size = largest
    probe = QFont(font)
    while size > smallest:
        probe.setPointSizeF(size)
        metrics = QFontMetrics(probe)
        if max(metrics.horizontalAdvance(line) for line in lines) <= width:
            return size
        size -= STEP
    return smallest


class TextFitter(QObject):
    """Keeps a group of widgets at one common point size that fits all of them.

    ``style`` builds each widget's style sheet from the chosen point size (so a style
    sheet's other rules, colours and padding, stay); ``text`` reads a widget's text.
    """

    def __init__(
        self,
        widgets: Sequence[QWidget],
        text: Callable[[QWidget], str],
        style: Callable[[QWidget, float], str],
        *,
        largest: Callable[[], float],
        smallest: float = 9.0,
        padding: int = 16,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._widgets = list(widgets)
        self._text = text
        self._style = style
        self._largest = largest
        self._smallest = smallest
        self._padding = padding
        self.size: float | None = None
        self._widths: tuple[int, ...] = ()
        # Refitting is deferred and coalesced, so a new point size that changes a
        # height cannot feed back into another refit while the layout settles.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refit)
        for widget in self._widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and not self._timer.isActive():
            self._timer.start()  # only a change of width refits (checked in refit)
        return False

    def refit(self, *, force: bool = False) -> None:
        widths = tuple(w.width() for w in self._widgets)
        if widths == self._widths and not force:
            return
        self._widths = widths
        largest = self._largest()
        sizes = [
            fitting_size(
                self._text(widget),
                widget.font(),
                max(1, widget.width() - self._padding),
                largest,
                self._smallest,
            )
            for widget in self._widgets
        ]
        self.size = min(sizes) if sizes else largest
        size = self.size
        for widget in self._widgets:
            style = self._style(widget, size)
            if widget.styleSheet() != style:
                widget.setStyleSheet(style)
