"""Bid entry (RULES.md section 8): seat, kind, cards in notation; bidding closed with trump.

The dialog stays open between bids so a whole bidding sequence is typed in one go;
every refusal (2.1, 2.2) comes from the match layer and is shown in place.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialogButtonBox, QWidget

from referee_desk.rules.cards import format_cards, parse_cards
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries, EntryDialog, refusal_text
from referee_desk.ui.dialogs.seat_combos import fill_seats, fill_trumps, select
from referee_desk.ui.generated.ui_bid_dialog import Ui_BidDialog
from referee_desk.ui.session import MatchSession

BID_KINDS = ("dark", "counter", "reinforce", "pass")


def hand_start_entries(state: Any) -> Entries:
    """A ``hand_started`` entry when no hand is in progress (dealer from the replay)."""
    hand = state.current_hand
    if hand is not None and hand.status in ("bidding", "playing", "revoked"):
        return []
    dealer = state.next_dealer
    return [("hand_started", {"dealer": None if dealer is None else str(dealer)})]


class BidDialog(EntryDialog):
    def __init__(self, session: MatchSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.ui = Ui_BidDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.ui.closeBiddingButton.clicked.connect(self.close_bidding)
        QShortcut(QKeySequence("Ctrl+Return"), self, activated=self.close_bidding)
        self._closing = False
        # Keyboard order of DESK.md: seat letter, then the cards, Enter.
        self.setTabOrder(self.ui.seatCombo, self.ui.cardsEdit)
        self.setTabOrder(self.ui.cardsEdit, self.ui.kindCombo)
        self.ui.seatCombo.setFocus()
        self.retranslate()
        self.session.changed.connect(self.show_standing)
        self.show_standing()

    def retranslate(self) -> None:
        fill_seats(self.ui.seatCombo)
        fill_seats(self.ui.dealerCombo)
        fill_trumps(self.ui.trumpCombo)
        current = self.ui.kindCombo.currentData()
        self.ui.kindCombo.clear()
        for kind in BID_KINDS:
            self.ui.kindCombo.addItem(texts.bid_kind_name(kind), kind)
        select(self.ui.kindCombo, current)
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Record bid"))
        self.show_standing()

    def show_standing(self) -> None:
        """The bids of this hand so far, as the replay holds them."""
        state = self.session.state
        hand = state.current_hand
        if hand is None or not hand.bids:
            self.ui.standingLabel.setText(self.tr("No bid yet in this hand."))
            dealer = state.next_dealer if hand is None else hand.dealer
            if dealer is not None:
                select(self.ui.dealerCombo, str(dealer))
            return
        lines = [
            f"{texts.seat_name(b.seat)}: {texts.bid_kind_name(b.kind)} "
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
        kind = self.ui.kindCombo.currentData()
        cards = (
            []
            if kind == "pass"
            else [format_cards([c]) for c in parse_cards(self.ui.cardsEdit.text())]
        )
        payload = {"seat": self.ui.seatCombo.currentData(), "kind": kind, "cards": cards}
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
        self.ui.cardsEdit.clear()
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
