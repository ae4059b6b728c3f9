"""Painting the match view: seats, levels, status, enabled actions, clock and thinking timer.

``MatchDisplay`` owns what only the screen needs: the scaled sizes (``Look``) and the
text fitters, the clock's monotonic anchor and the thinking timer. It paints the
replayed state (or the reviewed one) and never computes a rule. Strings keep the
``MainWindow`` translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QSizePolicy, QWidget

from referee_desk.rules.seats import Side
from referee_desk.ui import match_view, styles, texts
from referee_desk.ui.clock_display import (
    ClockAnchor,
    anchor_from,
    colour_for,
    format_ms,
    remaining_ms,
)
from referee_desk.ui.event_model import COLUMNS, local_time
from referee_desk.ui.fitting import TextFitter
from referee_desk.ui.think_timer import ThinkTimer

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QMainWindow

    from referee_desk.ui.event_model import EventLogModel
    from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
    from referee_desk.ui.main_review import Review
    from referee_desk.ui.main_session import MatchChange, MatchController
    from referee_desk.ui.session import MatchSession
    from referee_desk.ui.settings import DeskSettings
    from referee_desk.ui.violation_menu import ViolationMenu

#: Entry actions that stay available once the match is locked: notes (the store refuses
#: anything else but committee rulings, issue 4/5) and the end announcement.
_AFTER_END = ("actionNote", "actionEndMatch")
#: Actions that also work in review mode (they concern the selected event).
_IN_REVIEW = ("actionNote", "actionCorrection")
_ENTRY_ACTIONS = (
    "actionBid",
    "actionHandResult",
    "actionTrick",
    "actionKitty",
    "actionViolation",
    "actionThink",
    "actionOverrun",
    "actionPause",
    "actionNote",
    "actionEndMatch",
    "actionUndo",
    "actionCorrection",
)


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
        self.window = window
        self.ui = ui
        self.settings = settings
        self.model = model
        self.match = match
        self.review = review
        self.violations = violations
        self.undo_stack = undo_stack
        self.monotonic = monotonic
        self.look = styles.Look()
        self.dealer_labels: tuple[QWidget, ...] = ()
        self.anchor: ClockAnchor | None = None
        self._timeout_refreshed: ClockAnchor | None = None
        self.think = ThinkTimer(monotonic)
        self.fitters: tuple[TextFitter, ...] = ()

    # -- layout: sizes follow the window, texts never widen it (issue 10, item 7) ---------

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

        def text(widget: Any) -> str:
            return widget.text()

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

    def resized(self, width: int, height: int) -> None:
        """Scale the desk's sizes to the window the user chose."""
        look = styles.Look.for_size(width, height)
        if look == self.look:
            return
        self.look = look
        self.style_labels()
        self.fit_rows()
        self.refresh()

    # -- the clock ------------------------------------------------------------------------

    def on_change(self, change: MatchChange) -> None:
        """The open match changed: anchor the clock to it and repaint."""
        self.follow_clock(change.session)
        self.refresh()

    def follow_clock(self, session: MatchSession | None) -> None:
        """Anchor the displayed clock to the record (an ended match shows what was left)."""
        if session is None:
            self.anchor = None
            return
        state = session.state
        read_at = session.now()
        # Decided (announced or not yet confirmed): the clock stands at the deciding event,
        # so nothing on screen moves after the end, whatever is recorded later (notes).
        ended = state.end is not None
        if state.end is not None and state.end.reason != "time_out":
            at = next(
                (e.recorded_at for e in session.events if e.seq == state.end.seq),
                state.last_recorded_at,
            )
            if at:
                read_at = datetime.fromisoformat(at.replace("Z", "+00:00"))
        self.anchor = anchor_from(state.clock, read_at, self.monotonic)
        if ended:
            self.anchor = replace(self.anchor, running=False)
        if ended and state.end.reason == "time_out":  # it ended as the time ran out
            self.anchor = replace(self.anchor, elapsed_ms=self.anchor.limit_ms)

    # -- painting -------------------------------------------------------------------------

    def shown_state(self) -> Any:
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
        dealers: list[Any] = []
        for position, seat in positions.items():
            label = labels[position]
            label.setText(match_view.seat_text(state, seat) if state else texts.seat_name(seat))
            dealer = hand is not None and hand.dealer is not None and str(hand.dealer) == seat.value
            if dealer:
                dealers.append(label)
        self.dealer_labels = tuple(dealers)
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
        self.update_enabled()
        self.refit()
        self.tick()

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

    def why_disabled(self, action: QAction) -> str:
        """Why an entry key does nothing now (issue 10, item 8: no key is silent)."""
        state = None if self.match.session is None else self.match.session.state
        if state is None:
            return QCoreApplication.translate(
                "MainWindow", "No match is open: open or start one first (Ctrl+M)."
            )
        if self.review.row is not None:
            return QCoreApplication.translate(
                "MainWindow", "Review mode: Esc returns to the live match."
            )
        if state.end is not None and state.end.recorded:
            return QCoreApplication.translate(
                "MainWindow",
                "The match is over: only notes (N) and, once a committee member signs in, "
                "committee rulings (V 9) can follow.",
            )
        if action is self.ui.actionUndo:
            return QCoreApplication.translate("MainWindow", "Nothing to undo at this desk.")
        return QCoreApplication.translate("MainWindow", "Not available now.")

    def explain_key(self, key: Any) -> str | None:
        """Why a key of a disabled action does nothing now (None: not such a key)."""
        for action in self.window.actions():
            if action.isEnabled() or action.shortcut().isEmpty():
                continue
            if action.shortcut().matches(key) == action.shortcut().SequenceMatch.ExactMatch:
                return self.why_disabled(action)
        return None

    def update_enabled(self) -> None:
        ui = self.ui
        state = None if self.match.session is None else self.match.session.state
        live = state is not None and self.review.row is None
        locked = bool(state is not None and state.end is not None and state.end.recorded)
        for name in _ENTRY_ACTIONS:
            action: QAction = getattr(ui, name)
            enabled = live and (not locked or name in _AFTER_END)
            if name in _IN_REVIEW:
                enabled = state is not None and (not locked or name in _AFTER_END)
            if name == "actionUndo":
                enabled = enabled and self.undo_stack.canUndo()
            action.setEnabled(enabled)
        for button, action in (
            (ui.bidButton, ui.actionBid),
            (ui.resultButton, ui.actionHandResult),
            (ui.trickButton, ui.actionTrick),
            (ui.violationButton, ui.actionViolation),
            (ui.thinkButton, ui.actionThink),
            (ui.overrunButton, ui.actionOverrun),
            (ui.pauseButton, ui.actionPause),
        ):
            button.setEnabled(action.isEnabled())
        # After the end, the committee may still rule (8.11): once signed in at this desk.
        committee = self.match.committee is not None
        for key, action in self.violations.offered.items():
            action.setEnabled(live and (not locked or (key == "9" and committee)))
        if locked and live and committee:
            ui.violationButton.setEnabled(True)
            ui.actionViolation.setEnabled(True)
        self.match.sign_in_action.setEnabled(self.match.can_sign_in())
        ui.actionLeaveReview.setEnabled(self.review.row is not None)
        clock = None if state is None else state.clock
        if clock is None or not clock.started:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Start clock (P)"))
        elif clock.running:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Pause (P)"))
        else:
            ui.pauseButton.setText(QCoreApplication.translate("MainWindow", "Resume (P)"))

    def tick(self) -> None:
        """Repaint the clock and the thinking timer (computed, never counted)."""
        ui = self.ui
        now = self.monotonic()
        if self.review.row is not None and self.match.session is not None:
            event = self.match.session.events[self.review.row]
            clock = self.match.session.state.clock
            left = clock.limit_ms - (event.clock_ms or 0)
            ui.clockCaption.setVisible(clock.has_limit)  # no "time left" without a limit
            if clock.has_limit:
                ui.clockLabel.setText(format_ms(left))
                ui.clockLabel.setStyleSheet(self.look.clock(colour_for(left), True))
            else:
                ui.clockLabel.setText(no_limit_text())
                ui.clockLabel.setStyleSheet(self.look.clock("normal", True))
            ui.pausedLabel.hide()
        elif self.anchor is None:
            ui.clockCaption.setVisible(True)
            ui.clockLabel.setText("—")
            ui.pausedLabel.hide()
        else:
            left = remaining_ms(self.anchor, now)
            paused = self.anchor.started and not self.anchor.running
            ui.clockCaption.setVisible(self.anchor.has_limit)
            if self.anchor.has_limit:
                ui.clockLabel.setText(format_ms(left))
                ui.clockLabel.setStyleSheet(self.look.clock(colour_for(left), paused))
            else:
                # 12.8: no time limit, so no countdown and no time-out to watch for.
                ui.clockLabel.setText(no_limit_text())
                ui.clockLabel.setStyleSheet(self.look.clock("normal", paused))
            ended = self.match.session is not None and self.match.session.state.end is not None
            ui.pausedLabel.setVisible(paused or not self.anchor.started)
            if ended:
                ui.pausedLabel.setText(QCoreApplication.translate("MainWindow", "MATCH OVER"))
            elif not self.anchor.started:
                ui.pausedLabel.setText(QCoreApplication.translate("MainWindow", "NOT STARTED"))
            elif paused:
                reason = self.anchor.paused_reason or ""
                ui.pausedLabel.setText(
                    QCoreApplication.translate("MainWindow", "PAUSED %1")
                    .replace("%1", reason)
                    .strip()
                )
            if (
                self.anchor.running
                and self.anchor.has_limit
                and left <= 0
                and self.match.session is not None
                and self.match.session.state.end is None
                and self._timeout_refreshed is not self.anchor
            ):
                # Time is up: replay once at this moment so the match layer can end it.
                self._timeout_refreshed = self.anchor
                QTimer.singleShot(0, self.match.session.refresh)
        if self.think.running:
            remaining = self.think.remaining_s()
            if remaining > 0:
                ui.thinkLabel.setText(
                    QCoreApplication.translate("MainWindow", "Think %1 s").replace(
                        "%1", f"{remaining:.1f}"
                    )
                )
                ui.thinkLabel.setStyleSheet(self.look.think)
            else:
                ui.thinkLabel.setText(
                    QCoreApplication.translate("MainWindow", "Over by %1 s (O records)").replace(
                        "%1", str(self.think.overrun_s())
                    )
                )
                ui.thinkLabel.setStyleSheet(self.look.think_over)
        else:
            ui.thinkLabel.setText("")


def no_limit_text() -> str:
    """What the clock shows in a match without a time limit (12.8: 001/002 set none)."""
    return QCoreApplication.translate("MainWindow", "no time limit")
