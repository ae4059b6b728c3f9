"""Sizes and colours for a laptop at a card table: the important things are large.

Every size is scaled to the window (``Look.for_size``): from 1024×700 to a large
screen the desk stays readable at arm's length and never needs more room than the
window has, so nothing ever resizes the window but the user (issue 10, item 7).
The constants below are the sizes at the reference window of 1280×860.
"""

from __future__ import annotations

from dataclasses import dataclass

CLOCK_COLOURS = {"normal": "#1b5e20", "amber": "#e69500", "red": "#d50000"}
#: The window size the point sizes below are chosen for.
REFERENCE_SIZE = (1280, 860)
#: Scales are rounded to this step so small resizes do not restyle the window.
SCALE_STEP = 0.05
SCALE_RANGE = (0.72, 1.4)


def _pt(size: float, scale: float) -> str:
    return f"{max(8.0, size * scale):.1f}pt"


@dataclass(frozen=True, slots=True)
class Look:
    """The desk's style sheets at one scale (1.0 = the reference window)."""

    scale: float = 1.0

    @staticmethod
    def for_size(width: int, height: int) -> Look:
        ref_w, ref_h = REFERENCE_SIZE
        raw = min(width / ref_w, height / ref_h)
        low, high = SCALE_RANGE
        stepped = round(raw / SCALE_STEP) * SCALE_STEP
        return Look(round(max(low, min(high, stepped)), 2))

    def pt(self, size: float) -> str:
        return _pt(size, self.scale)

    @property
    def base(self) -> str:
        pt = self.pt
        return f"""
QMainWindow, QDialog {{ font-size: {pt(14)}; }}
QDialog QLabel, QDialog QLineEdit, QDialog QComboBox, QDialog QSpinBox, QDialog QCheckBox,
QDialog QPlainTextEdit, QDialog QGroupBox {{ font-size: {pt(14)}; }}
QDialog QPushButton {{ font-size: {pt(14)}; min-height: {int(36 * self.scale)}px; }}
QPushButton {{ font-size: {pt(15)}; min-height: {int(46 * self.scale)}px; padding: 2px 6px; }}
QTableView, QHeaderView::section {{ font-size: {pt(12.5)}; }}
QGroupBox {{ font-size: {pt(14)}; font-weight: bold; }}
QMenu, QMenuBar {{ font-size: {pt(13)}; }}
QMessageBox QLabel {{ font-size: {pt(14)}; }}
QTabBar::tab {{ font-size: {pt(12)}; padding: 3px 14px; }}
"""

    @property
    def level(self) -> str:
        return f"font-size: {self.pt(50)}; font-weight: bold;"

    @property
    def role(self) -> str:
        return f"font-size: {self.pt(17)};"

    @property
    def warnings(self) -> str:
        return f"font-size: {self.pt(14)}; color: #b00020;"

    @property
    def seat(self) -> str:
        return f"font-size: {self.pt(16)}; padding: 2px;"

    @property
    def dealer_seat(self) -> str:
        return f"font-size: {self.pt(16)}; padding: 2px; font-weight: bold; background: #ffe082;"

    @property
    def trump(self) -> str:
        return f"font-size: {self.pt(28)}; font-weight: bold;"

    @property
    def hand(self) -> str:
        return f"font-size: {self.pt(17)};"

    @property
    def info(self) -> str:
        return f"font-size: {self.pt(14)};"

    @property
    def think(self) -> str:
        return f"font-size: {self.pt(24)}; font-weight: bold; color: #0b5394;"

    @property
    def think_over(self) -> str:
        return f"font-size: {self.pt(24)}; font-weight: bold; color: #d50000;"

    @property
    def paused(self) -> str:
        return (
            f"font-size: {self.pt(20)}; font-weight: bold; color: white; background: #d50000; "
            "padding: 2px 8px;"
        )

    @property
    def review_banner(self) -> str:
        return (
            f"font-size: {self.pt(17)}; font-weight: bold; background: #fff176; color: #3e2723; "
            "padding: 4px;"
        )

    @property
    def status(self) -> str:
        return f"font-size: {self.pt(17)}; font-weight: bold; color: #0b5394;"

    @property
    def detail(self) -> str:
        return f"font-size: {self.pt(13.5)}; color: #263238; padding: 2px;"

    @property
    def table_center(self) -> str:
        return f"font-size: {self.pt(24)}; color: #9e9e9e;"

    def seat_at(self, points: float, dealer: bool) -> str:
        """A seat label at a fitted point size (``fitting.TextFitter``)."""
        if dealer:
            return (
                f"font-size: {points:.1f}pt; padding: 2px; font-weight: bold; background: #ffe082;"
            )
        return f"font-size: {points:.1f}pt; padding: 2px;"

    @staticmethod
    def level_at(points: float) -> str:
        return f"font-size: {points:.1f}pt; font-weight: bold;"

    @staticmethod
    def button_at(points: float) -> str:
        return f"font-size: {points:.1f}pt;"

    def clock(self, colour: str, paused: bool) -> str:
        weight = f"font-size: {self.pt(48)}; font-weight: bold;"
        if paused:
            return f"{weight} color: #757575;"
        return f"{weight} color: {CLOCK_COLOURS[colour]};"


_REFERENCE = Look()
BASE_STYLE = _REFERENCE.base
SEAT_STYLE = _REFERENCE.seat
DEALER_SEAT_STYLE = _REFERENCE.dealer_seat
