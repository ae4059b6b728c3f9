"""Painting the match view: seats, levels, titles, status and the selected event.

``MatchDisplay`` paints the replayed state (or the reviewed one) and never computes a
rule; it holds the parts that own the rest of the screen, each given what it needs:
``layout`` (``main_layout.DeskLayout``: sizes that follow the window, text fitters),
``clock`` (``main_clock.ClockFace``: the clock's anchor and the thinking timer) and
``enabling`` (``main_enabled.EntryEnabling``: which entry actions are offered, and why
a key does nothing). Callers use the parts directly (``display.clock.tick()``). Strings
keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from referee_desk.rules.seats import Side
from referee_desk.ui import match_view, texts
from referee_desk.ui.event_model import COLUMNS, local_time
from referee_desk.ui.main_clock import ClockFace
from referee_desk.ui.main_enabled import EntryEnabling
from referee_desk.ui.main_layout import DeskLayout

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QLabel, QMainWindow

    from referee_desk.match.state import MatchState
    from referee_desk.ui.event_model import EventLogModel
    from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
    from referee_desk.ui.main_review import Review
    from referee_desk.ui.main_session import MatchChange, MatchController
    from referee_desk.ui.settings import DeskSettings
    from referee_desk.ui.violation_menu import ViolationMenu


class MatchDisplay:
    """Paints one window's match view from the replayed state.

    It is given the widgets it paints (the window and its form), what it shows (the
    open match, the reviewed event, the event log's model, the violation menu, the
    settings' bottom seat) and the undo stack it reads; it changes none of them."""

    def __init__(
        self,
        window: QMainWindow,
        ui: Ui_MainWindow,
        *,
        settings: DeskSettings,
        model: EventLogModel,
        match: MatchController,
        review: Review,
        violations: ViolationMenu,
        undo_stack: QUndoStack,
        monotonic: Callable[[], float],
    ) -> None:
        self.ui = ui
        self.settings = settings
        self.model = model
        self.match = match
        self.review = review
        self.layout = DeskLayout(window, ui, violations)
        self.clock = ClockFace(
            ui, match=match, review=review, look=lambda: self.layout.look, monotonic=monotonic
        )
        self.enabling = EntryEnabling(
            window, ui, match=match, review=review, violations=violations, undo_stack=undo_stack
        )

    def resized(self, width: int, height: int) -> None:
        """Scale the desk's sizes to the window the user chose, and repaint in them."""
        if self.layout.resized(width, height):
            self.refresh()

    def on_change(self, change: MatchChange) -> None:
        """The open match changed: anchor the clock to it and repaint."""
        self.clock.follow_clock(change.session)
        self.refresh()

    # -- painting -------------------------------------------------------------------------

    def shown_state(self) -> MatchState | None:
        if self.match.session is None:
            return None
        if self.review.row is not None:
            return self.match.session.state_at(self.review.row)
        return self.match.session.state

    def refresh(self) -> None:
        ui = self.ui
        state = self.shown_state()
        bottom = self.settings.bottom_seat
        positions = match_view.table_positions(bottom)
        labels = {
            "top": ui.seatTop,
            "bottom": ui.seatBottom,
            "left": ui.seatLeft,
            "right": ui.seatRight,
        }
        hand = None if state is None else state.current_hand
        dealers: list[QLabel] = []
        for position, seat in positions.items():
            label = labels[position]
            label.setText(match_view.seat_text(state, seat) if state else texts.seat_name(seat))
            dealer = hand is not None and hand.dealer is not None and str(hand.dealer) == seat.value
            if dealer:
                dealers.append(label)
        self.layout.dealer_labels = tuple(dealers)
        ui.tableCenter.setText("↺")
        referee = "" if self.match.session is None else self.match.session.referee
        ui.titleLabel.setText(
            match_view.title_text(state, referee)
            if state
            else QCoreApplication.translate("MainWindow", "No match open (Ctrl+M)")
        )
        for side, level_label, role_label, warn_label, group in (
            (Side.NS, ui.nsLevelLabel, ui.nsRoleLabel, ui.nsWarningsLabel, ui.nsGroup),
            (Side.EW, ui.ewLevelLabel, ui.ewRoleLabel, ui.ewWarningsLabel, ui.ewGroup),
        ):
            level = None if state is None else state.levels.get(side)
            level_label.setText(
                QCoreApplication.translate("MainWindow", "Level %1").replace(
                    "%1", texts.level_label(level)
                )
                if state
                else "—"
            )
            role_label.setText(match_view.side_role(state, side) if state else "")
            warn_label.setText(match_view.side_warnings(state, side) if state else "")
            pair = "" if state is None or state.info is None else state.info.pairs.get(side, "")
            group.setTitle(f"{texts.side_name(side)} {pair or ''}".strip())
        ui.handLabel.setText(match_view.hand_text(state) if state else "")
        ui.trumpLabel.setText(match_view.trump_text(state) if state else "")
        ui.pointsLabel.setText(match_view.points_text(state) if state else "")
        ui.nextHandLabel.setText(match_view.next_hand_text(state) if state else "")
        status = [match_view.end_text(state), match_view.flags_text(state)] if state else []
        ui.statusLine.setText("\n".join(p for p in status if p))
        if self.review.row is not None and self.match.session is not None:
            event = self.match.session.events[self.review.row]
            ui.reviewBanner.setText(
                QCoreApplication.translate(
                    "MainWindow", "Review %1 (event %2) — ←/→ to step, Esc to leave"
                )
                .replace("%1", local_time(event.recorded_at))
                .replace("%2", str(event.seq))
            )
            ui.reviewBanner.show()
        else:
            ui.reviewBanner.hide()
        ui.eventDetailLabel.setText(self.event_detail())
        self.enabling.update_enabled()
        self.layout.refit()
        self.clock.tick()

    def event_detail(self) -> str:
        """The selected event (else the last) in full: what, consequence, article —
        readable without the mouse however narrow the log's columns are."""
        if self.match.session is None or not self.match.session.events:
            return ""
        row = len(self.match.session.events) - 1 if self.review.row is None else self.review.row
        model = self.model
        if row >= model.rowCount():
            return ""

        def cell(name: str) -> str:
            return str(model.index(row, COLUMNS.index(name)).data() or "")

        head = " ".join(p for p in (f"#{self.match.session.events[row].seq}", cell("time")) if p)
        what = " ".join(p for p in (cell("seat"), cell("what")) if p)
        text = f"{head} · {what}"
        if cell("consequence"):
            text += f" → {cell('consequence')}"
        if cell("article"):
            text += f" ({cell('article')})"
        return text
