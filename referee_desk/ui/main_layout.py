"""The desk window's sizes: they follow the window, and texts never widen it.

``DeskLayout`` owns what only the screen's geometry needs: the scaled sizes (``Look``,
recomputed when the user resizes the window), the text fitters that shrink levels,
seats and buttons to their room, and which seat labels show the dealer (the painting
says, the seat fitter reads). Issue 10 item 7: labels and buttons take the room the
layout gives them, so only the user resizes the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QPushButton, QSizePolicy, QWidget

from referee_desk.ui import styles
from referee_desk.ui.fitting import TextFitter

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
    from referee_desk.ui.violation_menu import ViolationMenu


class DeskLayout:
    """The window's scaled sizes and text fitters; given the window, its form and the
    violation menu (styled at the same size)."""

    def __init__(self, window: QMainWindow, ui: Ui_MainWindow, violations: ViolationMenu) -> None:
        self.window = window
        self.ui = ui
        self.violations = violations
        self.look = styles.Look()
        #: The seat labels showing the dealer now (set by the painting, read when fitting).
        self.dealer_labels: tuple[QWidget, ...] = ()
        self.fitters: tuple[TextFitter, ...] = ()

    def setup(self) -> None:
        self.never_grow()
        self.make_fitters()
        self.style_labels()
        self.fit_rows()

    def never_grow(self) -> None:
        """Texts never widen the window: labels and buttons take the room the layout
        gives them (long texts wrap or shrink), so only the user resizes it."""
        ui = self.ui
        ignored, preferred = QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        for widget in (
            ui.titleLabel,
            ui.seatTop,
            ui.seatBottom,
            ui.seatLeft,
            ui.seatRight,
            ui.nsLevelLabel,
            ui.ewLevelLabel,
            ui.nsRoleLabel,
            ui.ewRoleLabel,
            ui.nsWarningsLabel,
            ui.ewWarningsLabel,
            ui.handLabel,
            ui.trumpLabel,
            ui.pointsLabel,
            ui.nextHandLabel,
            ui.statusLine,
            ui.reviewBanner,
            ui.eventDetailLabel,
            ui.tableFrame,
            ui.nsGroup,
            ui.ewGroup,
            ui.handGroup,
        ):
            widget.setSizePolicy(ignored, widget.sizePolicy().verticalPolicy())
        for label in (
            ui.titleLabel,  # "… Rules: Guilin 2009 (four decks)" was cut at 1024 in English
            ui.nsWarningsLabel,
            ui.ewWarningsLabel,
            ui.handLabel,
            ui.pointsLabel,
            ui.nextHandLabel,
            ui.statusLine,
            ui.eventDetailLabel,
        ):
            label.setWordWrap(True)
        for button in self.window.findChildren(QPushButton):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setSizePolicy(ignored, preferred)
        header = ui.headerLayout
        header.setStretch(header.indexOf(ui.titleLabel), 1)
        # North and South take the table's whole width; East and West the sides.
        table = ui.tableLayout
        table.addWidget(ui.seatTop, 0, 0, 1, 3)
        table.addWidget(ui.seatBottom, 2, 0, 1, 3)
        for column, stretch in enumerate((2, 1, 2)):
            table.setColumnStretch(column, stretch)
        ui.eventView.setMinimumSize(0, 0)

    def make_fitters(self) -> None:
        """Levels, seats and entry buttons shrink to their room instead of being cut."""
        ui = self.ui

        def text(widget: QWidget) -> str:
            # The fitted widgets are labels and buttons, which both have a text.
            return widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else ""

        self.fitters = (
            TextFitter(
                (ui.nsLevelLabel, ui.ewLevelLabel),
                text,
                lambda _w, size: self.look.level_at(size),
                largest=lambda: 50 * self.look.scale,
                smallest=16,
                parent=self.window,
            ),
            TextFitter(
                (ui.seatTop, ui.seatBottom, ui.seatLeft, ui.seatRight),
                text,
                lambda w, size: self.look.seat_at(size, w in self.dealer_labels),
                largest=lambda: 16 * self.look.scale,
                smallest=9,
                padding=12,
                parent=self.window,
            ),
            TextFitter(
                (ui.trumpLabel,),
                text,
                lambda _w, size: self.look.level_at(size),
                largest=lambda: 28 * self.look.scale,
                smallest=12,
                parent=self.window,
            ),
            TextFitter(
                tuple(self.window.findChildren(QPushButton)),
                text,
                lambda _w, size: self.look.button_at(size),
                largest=lambda: 15 * self.look.scale,
                smallest=8,
                padding=18,
                parent=self.window,
            ),
        )

    def refit(self) -> None:
        for fitter in self.fitters:
            fitter.size = None
            fitter.refit(force=True)

    def style_labels(self) -> None:
        ui = self.ui
        look = self.look
        self.window.setStyleSheet(look.base)
        for label in (ui.nsRoleLabel, ui.ewRoleLabel):
            label.setStyleSheet(look.role)
        for label in (ui.nsWarningsLabel, ui.ewWarningsLabel):
            label.setStyleSheet(look.warnings)
        ui.handLabel.setStyleSheet(look.hand)
        ui.pointsLabel.setStyleSheet(look.info)
        ui.nextHandLabel.setStyleSheet(look.info)
        ui.pausedLabel.setStyleSheet(look.paused)
        ui.reviewBanner.setStyleSheet(look.review_banner)
        ui.statusLine.setStyleSheet(look.status)
        ui.titleLabel.setStyleSheet(look.hand)
        ui.clockCaption.setStyleSheet(look.info)
        ui.tableCenter.setStyleSheet(look.table_center)
        ui.eventDetailLabel.setStyleSheet(look.detail)
        self.violations.style(look.pt(15))
        self.refit()

    def fit_rows(self) -> None:
        """Log rows as tall as their text needs (more rows fit on a small screen)."""
        view = self.ui.eventView
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)

    def resized(self, width: int, height: int) -> bool:
        """Scale the desk's sizes to the window the user chose (True: they changed, and
        the caller repaints)."""
        look = styles.Look.for_size(width, height)
        if look == self.look:
            return False
        self.look = look
        self.style_labels()
        self.fit_rows()
        return True
