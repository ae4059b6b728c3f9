"""A number field that records exactly what was typed (issue 10, item 1).

``QSpinBox`` silently clamps and drops keystrokes: with the cursor before a "0",
typing 135 gave 130 and 127 gave 120. ``NumberField`` is a line edit with the spin
box's small API (``value``/``setValue``/``valueChanged``, minimum, maximum, step,
special value text) that selects its content when focused, keeps any integer typed,
and refuses on ``checked_value`` — with a message naming the field — a value out of
range or not a multiple of the step. Up/Down still step.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRect, QRegularExpression, Qt, Signal
from PySide6.QtGui import (
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QRegularExpressionValidator,
)
from PySide6.QtWidgets import QLineEdit, QStyle, QStyleOptionFrame, QWidget

_MINUS = "−"


class NumberField(QLineEdit):
    """An integer field; ``checked_value`` is what entries record."""

    valueChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._minimum = 0
        self._maximum = 99
        self._step = 1
        self._special = ""
        self._select_on_release = False
        self.setValidator(QRegularExpressionValidator(QRegularExpression(r"[-−]?\d{0,5}"), self))
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.textChanged.connect(self._emit_value)

    # -- the QSpinBox API the forms and dialogs use -----------------------------------

    def setMinimum(self, value: int) -> None:
        self._minimum = value

    def setMaximum(self, value: int) -> None:
        self._maximum = value

    def setRange(self, low: int, high: int) -> None:
        self._minimum, self._maximum = low, high

    def setSingleStep(self, step: int) -> None:
        self._step = max(1, step)

    def setSpecialValueText(self, text: str) -> None:
        """Shown (and read as the minimum) when the field holds no number: "no change".

        Drawn by ``paintEvent``, not as Qt's placeholder: right-aligned, Qt's placeholder
        ends where the text cursor stands, which then covered its last character (不变).
        """
        self._special = text
        self.update()
        if self.value() == self._minimum:
            self.clear()  # the minimum is shown as the special text

    def placeholderText(self) -> str:  # type: ignore[override]
        """The special value text (the field's example), for the dialogs' checks."""
        return self._special or super().placeholderText()

    def minimum(self) -> int:
        return self._minimum

    def maximum(self) -> int:
        return self._maximum

    def singleStep(self) -> int:
        return self._step

    def setValue(self, value: int) -> None:
        if self._special and value == self._minimum:
            self.clear()
        else:
            self.setText(str(value).replace("-", _MINUS))

    def value(self) -> int | None:
        """The integer typed (not clamped), the minimum for a special value, else None."""
        text = self.text().strip().replace(_MINUS, "-")
        if text in ("", "-"):
            return self._minimum if self._special else None
        return int(text)

    def checked_value(self, name: str) -> int:
        """The typed value, or ValueError naming ``name`` when empty, out of range or off-step."""
        value = self.value()
        if value is None:
            raise ValueError(
                QCoreApplication.translate("NumberField", "%1: type a number.").replace("%1", name)
            )
        if self._special and value == self._minimum:
            return value
        if not self._minimum <= value <= self._maximum:
            raise ValueError(
                QCoreApplication.translate("NumberField", "%1: %2 is not between %3 and %4.")
                .replace("%1", name)
                .replace("%2", _signed(value))
                .replace("%3", _signed(self._minimum))
                .replace("%4", _signed(self._maximum))
            )
        if value % self._step:
            raise ValueError(
                QCoreApplication.translate("NumberField", "%1: %2 is not a multiple of %3.")
                .replace("%1", name)
                .replace("%2", _signed(value))
                .replace("%3", str(self._step))
            )
        return value

    # -- behaviour --------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        """The special value text while empty, as Qt draws a placeholder, but ending a
        few pixels before the text cursor at the right edge."""
        super().paintEvent(event)
        if not self._special or self.text():
            return
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        style = self.style()
        rect = style.subElementRect(QStyle.SubElement.SE_LineEditContents, option, self)
        rect = rect.marginsRemoved(self.textMargins())
        metrics = self.fontMetrics()
        cursor = max(1, style.pixelMetric(QStyle.PixelMetric.PM_TextCursorWidth, option, self))
        top = rect.y() + (rect.height() - metrics.height() + 1) // 2
        # QLineEdit's own 2 px margin each side, then room for the cursor and a gap.
        line = QRect(rect.x() + 2, top, rect.width() - 4 - cursor - 3, metrics.height())
        painter = QPainter(self)
        painter.setClipRect(rect)
        painter.setPen(self.palette().placeholderText().color())
        text = metrics.elidedText(self._special, Qt.TextElideMode.ElideRight, line.width())
        painter.drawText(line, int(self.alignment()), text)
        painter.end()

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Select the content, so typing replaces it (after a click too, on release)."""
        super().focusInEvent(event)
        self.selectAll()
        self._select_on_release = event.reason() == Qt.FocusReason.MouseFocusReason

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if self._select_on_release and not self.hasSelectedText():
            self.selectAll()
        self._select_on_release = False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step = {Qt.Key.Key_Up: 1, Qt.Key.Key_Down: -1}.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        current = self.value()
        base = self._minimum if current is None else current
        self.setValue(max(self._minimum, min(self._maximum, base + step * self._step)))
        self.selectAll()

    def _emit_value(self, _text: str) -> None:
        value = self.value()
        if value is not None:
            self.valueChanged.emit(value)


def _signed(value: int) -> str:
    return str(value).replace("-", _MINUS)
