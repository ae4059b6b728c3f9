"""Bid entry (RULES.md section 2): seat, cards in notation, Enter; bidding closed with trump.

The kind is inferred from the bids recorded so far (issue 10, item 3): no standing
bid → a bid, a standing bid by another seat → a counter, one's own → a reinforcement;
the referee may override it in the kind box. The seat may also be typed as the first
token of the cards ("W LJ D3 D3"). The dialog stays open between bids so a whole
bidding sequence is typed in one go; every refusal (2.1, 2.2) comes from the match
layer and is shown in place. Arrow keys and the wheel never change the dealer or
trump boxes (they are chosen by typing or from their popup).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QWidget

from referee_desk.rules.cards import format_cards, parse_cards
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog, refusal_text
from referee_desk.ui.dialogs.seat_combos import fill_seats, fill_trumps, letters_pick_seats, select
from referee_desk.ui.generated.ui_bid_dialog import Ui_BidDialog
from referee_desk.ui.session import MatchSession

BID_KINDS = ("dark", "counter", "reinforce", "pass")
#: The kind box's first entry: take the kind from the standing bid.
AUTO = "auto"
_SEAT_LETTERS = ("N", "E", "S", "W")
_STEPPING_KEYS = (
    Qt.Key.Key_Up,
    Qt.Key.Key_Down,
    Qt.Key.Key_PageUp,
    Qt.Key.Key_PageDown,
    Qt.Key.Key_Home,
    Qt.Key.Key_End,
)


def standing_bid(state: Any) -> Any:
    """The standing bid of the hand in progress (the last bid that is not a pass)."""
    hand = state.current_hand
    if hand is None or hand.status != "bidding":
        return None
    return next((b for b in reversed(hand.bids) if b.kind != "pass"), None)


def inferred_kind(state: Any, seat: str | None) -> str:
    """No standing bid → dark bid; another seat's → counter; one's own → reinforce."""
    standing = standing_bid(state)
    if standing is None:
        return "dark"
    return "reinforce" if str(standing.seat) == seat else "counter"


class NoSteppingFilter(QObject):
    """Keeps arrow keys and the wheel from silently changing a combo box's choice."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Wheel:
            return True
        if kind == QEvent.Type.KeyPress and isinstance(watched, QComboBox):
            alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
            return event.key() in _STEPPING_KEYS and not alt
        return False


def hand_start_entries(state: Any) -> Entries:
    """A ``hand_started`` entry when no hand is in progress (dealer from the replay)."""
    hand = state.current_hand
    if hand is not None and hand.status in ("bidding", "playing", "revoked"):
        return []
    dealer = state.next_dealer
    return [("hand_started", {"dealer": None if dealer is None else str(dealer)})]


class SpaceGoesToCards(QObject):
    """Space or Enter in the seat box moves on to the cards (never opens the drop-down,
    never swallows the bid): "W", Space, "H7", Enter records West's bid."""

    def __init__(self, cards: QWidget, parent: QObject) -> None:
        super().__init__(parent)
        self._cards = cards

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        plain = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
        moves_on = (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)
        key_press = event.type() == QEvent.Type.KeyPress
        if key_press and event.modifiers() in plain and event.key() in moves_on:
            self._cards.setFocus()
            return True
        return False


class SeatThenTab(QObject):
    """In the cards box, a lone seat letter then Tab names the seat (DESK.md's "seat
    letter, Tab, cards"): the letter goes to the seat box and the cards box stays."""

    def __init__(self, seat: QComboBox, parent: QObject) -> None:
        super().__init__(parent)
        self._seat = seat

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and event.key() == Qt.Key.Key_Tab
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            letter = watched.text().strip().upper()  # type: ignore[attr-defined]
            if letter in _SEAT_LETTERS:
                select(self._seat, letter)
                watched.clear()  # type: ignore[attr-defined]
                return True
        return False


def example_cards(state: Any) -> str:
    """The placeholder's example: a joker with level cards (Guilin 2.1), level cards
    shown alone in the presets (12.3), at the level being played."""
    hand = state.current_hand
    level = hand.level if hand is not None and hand.level is not None else None
    if level is None and state.deal_holder is not None:
        level = state.levels.get(state.deal_holder)
    if level is None and len(set(state.levels.values())) == 1:  # the first hand
        level = next(iter(state.levels.values()))
    label = "3" if level is None else texts.level_label(level)
    cards = f"H{label} H{label}"
    return f"LJ {cards}" if state.ruleset.race_needs_lj else cards


class BidDialog(EntryDialog):
    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_BidDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.request_close)
        self.ui.closeBiddingButton.clicked.connect(self.close_bidding)
        QShortcut(QKeySequence("Ctrl+Return"), self, activated=self.close_bidding)
        self._closing = False
        # Keyboard order of DESK.md: seat letter, then the cards, Enter.
        self.setTabOrder(self.ui.seatCombo, self.ui.cardsEdit)
        self.setTabOrder(self.ui.cardsEdit, self.ui.kindCombo)
        self.setTabOrder(self.ui.kindCombo, self.ui.dealerCombo)
        self.setTabOrder(self.ui.dealerCombo, self.ui.trumpCombo)
        self._no_stepping = NoSteppingFilter(self)
        for combo in (self.ui.dealerCombo, self.ui.trumpCombo):
            combo.installEventFilter(self._no_stepping)
        for combo in (self.ui.seatCombo, self.ui.dealerCombo):
            letters_pick_seats(combo)
        # The one-field form "W H7" Enter works from the moment the dialog opens: the
        # cards box has the focus and a leading seat letter names the seat (issue 19).
        self.ui.seatCombo.installEventFilter(SpaceGoesToCards(self.ui.cardsEdit, self))
        self.ui.cardsEdit.installEventFilter(SeatThenTab(self.ui.seatCombo, self))
        self.setFocusProxy(self.ui.cardsEdit)
        self.ui.cardsEdit.setFocus()
        self.retranslate()
        self.ui.seatCombo.currentIndexChanged.connect(self.show_kind)
        self.ui.kindCombo.currentIndexChanged.connect(self.show_kind)
        self.ui.cardsEdit.textChanged.connect(self.show_kind)
        self.ui.cardsEdit.textEdited.connect(self.clear_error)  # a refusal is of the last try
        self.ui.cardsEdit.textEdited.connect(self.show_typed_seat)
        self.session.changed.connect(self.show_standing)
        self.show_standing()

    def retranslate(self) -> None:
        fill_seats(self.ui.seatCombo)
        fill_seats(self.ui.dealerCombo)
        fill_trumps(self.ui.trumpCombo)
        current = self.ui.kindCombo.currentData()
        self.ui.kindCombo.blockSignals(True)
        self.ui.kindCombo.clear()
        self.ui.kindCombo.addItem(self.tr("automatic"), AUTO)
        for kind in BID_KINDS:
            self.ui.kindCombo.addItem(self.kind_name(kind), kind)
        select(self.ui.kindCombo, current)
        self.ui.kindCombo.blockSignals(False)
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Record bid"))
        example = example_cards(self.session.state)
        self.ui.cardsEdit.setPlaceholderText(
            self.tr("e.g. W %1 (seat, then the cards)").replace("%1", example)
        )
        self.show_standing()

    def seat_and_cards(self) -> tuple[str | None, str]:
        """The seat (a leading seat letter in the cards overrides the seat box) and cards."""
        text = self.ui.cardsEdit.text().strip()
        first, _space, rest = text.partition(" ")
        if first.upper() in _SEAT_LETTERS:
            return first.upper(), rest
        return self.ui.seatCombo.currentData(), text

    def show_typed_seat(self) -> None:
        """A seat letter typed first shows in the seat box at once."""
        seat, _cards = self.seat_and_cards()
        if seat is not None and seat != self.ui.seatCombo.currentData():
            select(self.ui.seatCombo, seat)

    def kind(self) -> str:
        """The kind chosen, or inferred from the standing bid when the box says automatic."""
        chosen = self.ui.kindCombo.currentData()
        if chosen not in (AUTO, None):
            return str(chosen)
        return inferred_kind(self.session.state, self.seat_and_cards()[0])

    def show_kind(self) -> None:
        """Name the kind Enter will record, so an inferred kind is never a surprise."""
        seat, _cards = self.seat_and_cards()
        self.ui.kindHintLabel.setText(
            self.tr("Enter records: %1 %2")
            .replace("%1", texts.seat_name(seat) if seat else "")
            .replace("%2", self.kind_name(self.kind()))
        )

    def kind_name(self, kind: str) -> str:
        """The presets bid openly with level cards (12.3): no dark bid there."""
        return texts.bid_kind_name(kind, self.session.state.ruleset)

    def show_standing(self) -> None:
        """The bids of this hand so far, as the replay holds them."""
        self.show_kind()
        state = self.session.state
        hand = state.current_hand
        if hand is None or not hand.bids:
            self.ui.standingLabel.setText(self.tr("No bid yet in this hand."))
            dealer = state.next_dealer if hand is None else hand.dealer
            if dealer is not None:
                select(self.ui.dealerCombo, str(dealer))
            select(self.ui.trumpCombo, "NT")  # nobody bid: no-trump unless a bid follows
            return
        lines = [
            f"{texts.seat_name(b.seat)}: {self.kind_name(b.kind)} "
            f"{format_cards(parse_cards(b.cards), symbols=True)}"
            for b in hand.bids
        ]
        self.ui.standingLabel.setText("\n".join(lines))
        last = next((b for b in reversed(hand.bids) if b.suit is not None), None)
        if last is not None:
            select(self.ui.dealerCombo, str(hand.dealer or last.seat))
            select(self.ui.trumpCombo, last.suit.value)
        elif hand.dealer is not None:
            select(self.ui.dealerCombo, str(hand.dealer))

    def entries(self) -> Entries:
        if self._closing:
            return [
                *hand_start_entries(self.session.state),
                (
                    "bidding_closed",
                    {
                        "dealer": self.ui.dealerCombo.currentData(),
                        "trump": self.ui.trumpCombo.currentData(),
                    },
                ),
            ]
        kind = self.kind()
        seat, text = self.seat_and_cards()
        cards = [] if kind == "pass" else [format_cards([c]) for c in parse_cards(text)]
        if kind != "pass" and not cards:
            raise ValueError(self.tr("Type the cards shown, or choose “pass” as the kind."))
        payload = {"seat": seat, "kind": kind, "cards": cards}
        return [*hand_start_entries(self.session.state), ("bid", payload)]

    def accept(self) -> None:
        """Record the bid and stay open for the next one."""
        self._closing = False
        try:
            self.recorded += self.session.submit_many(self.entries())
        except (ValueError, OSError) as error:
            self.show_error(refusal_text(error))
            return
        self.clear_error()
        seat, _cards = self.seat_and_cards()
        select(self.ui.seatCombo, seat)
        self.ui.cardsEdit.clear()
        select(self.ui.kindCombo, AUTO)
        self.ui.cardsEdit.setFocus()

    def close_bidding(self) -> None:
        """Record ``bidding_closed`` (dealer and trump) and close the dialog."""
        self._closing = True
        try:
            self.recorded += self.session.submit_many(self.entries())
        except (ValueError, OSError) as error:
            self.show_error(refusal_text(error))
            return
        finally:
            self._closing = False
        self.clear_error()
        self.done(self.DialogCode.Accepted)
