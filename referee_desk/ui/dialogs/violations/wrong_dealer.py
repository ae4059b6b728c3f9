"""8.5 坐庄顺序错误: the hand is replayed and the dealer decided again by bidding race."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.violations.base import ViolationDialog


class WrongDealerDialog(ViolationDialog):
    ARTICLE = "8.5"
    FIELDS = ("seat",)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("WrongDealerDialog", "Wrong dealer")

    def paraphrase(self) -> str:
        return self.tr(
            "The wrong player dealt: the hand is replayed, the dealer is decided again by "
            "bidding race and rotation restarts from that dealer. Levels do not change."
        )

    def retranslate_fields(self) -> None:
        self.ui.seatLabel.setText(self.tr("Seat that dealt"))

    def entries(self) -> Entries:
        """The wrong dealer; first, if needed, corrections that say who really dealt.

        The desk records a later hand as dealt by the rotation dealer. 8.5 applies only
        when another seat dealt (the match layer refuses it otherwise), so when the
        referee names a seat other than the recorded dealer, the record is corrected
        first: this hand's play entries (bidding_closed, tricks, wrong plays; the hand
        is replayed anyway, 8.5) are voided, latest first, and its ``hand_started``
        is replaced by one naming the seat that dealt.
        """
        seat = self.seat()
        state = self.session.state
        hand = state.current_hand
        entries: Entries = []
        recorded = None if hand is None or hand.race else hand.dealer
        if hand is not None and recorded is not None and str(recorded) != seat:
            reason = self.tr("8.5: %1 dealt this hand, not %2")
            reason = reason.replace("%1", texts.seat_name(seat))
            reason = reason.replace("%2", texts.seat_name(recorded))
            voided = getattr(state, "voided_seqs", frozenset())
            later = [
                e
                for e in self.session.events
                if e.seq > hand.seq and e.type in _PLAY_TYPES and e.seq not in voided
            ]
            for event in reversed(later):
                entries.append(
                    (
                        "correction",
                        {"target_seq": event.seq, "action": "void", "reason": reason},
                    )
                )
            entries.append(
                (
                    "correction",
                    {
                        "target_seq": hand.seq,
                        "action": "replace",
                        "reason": reason,
                        "payload": {"dealer": seat},
                    },
                )
            )
        entries.append(("wrong_dealer", {"seat": seat}))
        return entries


#: Entries of a hand's play that a wrong dealer's correction voids (8.5: replayed).
_PLAY_TYPES = frozenset({"bidding_closed", "trick", "wrong_play"})
