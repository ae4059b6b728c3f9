"""Sizes and colours for a laptop at a card table: the important things are large."""

from __future__ import annotations

CLOCK_COLOURS = {"normal": "#1b5e20", "amber": "#e69500", "red": "#d50000"}

BASE_STYLE = """
QMainWindow, QDialog { font-size: 14pt; }
QDialog QLabel, QDialog QLineEdit, QDialog QComboBox, QDialog QSpinBox, QDialog QCheckBox,
QDialog QPlainTextEdit, QDialog QGroupBox { font-size: 13pt; }
QDialog QPushButton { font-size: 14pt; min-height: 40px; }
QPushButton { font-size: 15pt; min-height: 52px; padding: 4px 12px; }
QTableView { font-size: 12pt; }
QGroupBox { font-size: 14pt; font-weight: bold; }
"""

LEVEL_STYLE = "font-size: 54pt; font-weight: bold;"
ROLE_STYLE = "font-size: 18pt;"
WARNINGS_STYLE = "font-size: 14pt; color: #b00020;"
SEAT_STYLE = "font-size: 17pt; padding: 6px;"
DEALER_SEAT_STYLE = "font-size: 17pt; padding: 6px; font-weight: bold; background: #ffe082;"
TRUMP_STYLE = "font-size: 30pt; font-weight: bold;"
HAND_STYLE = "font-size: 18pt;"
INFO_STYLE = "font-size: 14pt;"
THINK_STYLE = "font-size: 26pt; font-weight: bold; color: #0b5394;"
THINK_OVER_STYLE = "font-size: 26pt; font-weight: bold; color: #d50000;"
PAUSED_STYLE = (
    "font-size: 22pt; font-weight: bold; color: white; background: #d50000; padding: 4px 10px;"
)
REVIEW_BANNER_STYLE = (
    "font-size: 18pt; font-weight: bold; background: #fff176; color: #3e2723; padding: 6px;"
)
STATUS_STYLE = "font-size: 15pt; font-weight: bold; color: #0b5394;"


def clock_style(colour: str, paused: bool) -> str:
    weight = "font-size: 52pt; font-weight: bold;"
    if paused:
        return f"{weight} color: #757575;"
    return f"{weight} color: {CLOCK_COLOURS[colour]};"
