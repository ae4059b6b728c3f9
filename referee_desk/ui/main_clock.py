"""The desk's clock face and thinking timer: computed from the record, never counted.

``ClockFace`` owns the clock's monotonic anchor (set from the replayed clock each time
the open match changes: an ended match shows what was left, frozen), the thinking
timer, and the one replay asked for when the time runs out so the match layer can end
the match. ``tick`` repaints both; the window's timer only triggers it. In review the
clock shows the reviewed event's reading. Strings keep the ``MainWindow`` translation
context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer

from referee_desk.ui.clock_display import (
    ClockAnchor,
    anchor_from,
    colour_for,
    format_ms,
    remaining_ms,
)
from referee_desk.ui.think_timer import ThinkTimer

if TYPE_CHECKING:
    from referee_desk.ui.generated.ui_main_window import Ui_MainWindow
    from referee_desk.ui.main_review import Review
    from referee_desk.ui.main_session import MatchController
    from referee_desk.ui.session import MatchSession
    from referee_desk.ui.styles import Look


class ClockFace:
    """The clock and thinking-timer labels of one window.

    Given the form it paints, the open match and the reviewed event it reads, the
    window's current sizes (``look``) and the monotonic clock the anchor runs on."""

    def __init__(
        self,
        ui: Ui_MainWindow,
        *,
        match: MatchController,
        review: Review,
        look: Callable[[], Look],
        monotonic: Callable[[], float],
    ) -> None:
        self.ui = ui
        self.match = match
        self.review = review
        self.look = look
        self.monotonic = monotonic
        self.anchor: ClockAnchor | None = None
        self._timeout_refreshed: ClockAnchor | None = None
        self.think = ThinkTimer(monotonic)

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
        if state.end is not None and state.end.reason == "time_out":  # ended as time ran out
            self.anchor = replace(self.anchor, elapsed_ms=self.anchor.limit_ms)

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
                ui.clockLabel.setStyleSheet(self.look().clock(colour_for(left), True))
            else:
                ui.clockLabel.setText(no_limit_text())
                ui.clockLabel.setStyleSheet(self.look().clock("normal", True))
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
                ui.clockLabel.setStyleSheet(self.look().clock(colour_for(left), paused))
            else:
                # 12.8: no time limit, so no countdown and no time-out to watch for.
                ui.clockLabel.setText(no_limit_text())
                ui.clockLabel.setStyleSheet(self.look().clock("normal", paused))
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
                ui.thinkLabel.setStyleSheet(self.look().think)
            else:
                ui.thinkLabel.setText(
                    QCoreApplication.translate("MainWindow", "Over by %1 s (O records)").replace(
                        "%1", str(self.think.overrun_s())
                    )
                )
                ui.thinkLabel.setStyleSheet(self.look().think_over)
        else:
            ui.thinkLabel.setText("")


def no_limit_text() -> str:
    """What the clock shows in a match without a time limit (12.8: 001/002 set none)."""
    return QCoreApplication.translate("MainWindow", "no time limit")
