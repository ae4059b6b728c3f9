"""甩牌失败 (RULES 12.4): a throw beaten by cards an opponent shows.

The referee types the thrown cards and the cards shown; the rules core says which
components are beaten and which one the thrower must play instead (the forced play,
named by the referee when two are equal); the preview shows the forced play and, in
``three-deck``, 002's 20 points.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.rules.cards import format_cards, parse_cards
from referee_desk.rules.errors import RulesError
from referee_desk.rules.throws import check_throw
from referee_desk.rules.trump import TrumpContext
from referee_desk.ui.card_entry import attach_completer
from referee_desk.ui.dialogs.base import Entries
from referee_desk.ui.dialogs.seat_combos import letters_pick_seats, select
from referee_desk.ui.dialogs.trick import next_leader
from referee_desk.ui.dialogs.violations.base import ViolationDialog
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.texts import wording_language


def card_tokens(text: str) -> list[str]:
    """Typed cards (``SA SK SK`` or ``SASKSK``) as the record's tokens."""
    from referee_desk.ui.dialogs.trick import split_play

    cards, _ = split_play(text.strip().replace(" ", ""))
    return [format_cards([c]) for c in parse_cards(cards)] if cards else []


class ThrowFailedDialog(ViolationDialog):
    ARTICLE = "12.4"
    FIELDS = ("seat", "side", "cards_text", "shown")

    @staticmethod
    def offered(ruleset: Any) -> bool:
        return bool(ruleset.throws)

    @staticmethod
    def title() -> str:
        return QCoreApplication.translate("ThrowFailedDialog", "Failed throw (甩牌失败)")

    def setup_fields(self) -> None:
        letters_pick_seats(self.ui.sideCombo)
        attach_completer(self.ui.cardsTextEdit)
        attach_completer(self.ui.shownEdit)
        self.ui.seatCombo.currentIndexChanged.connect(self.fill_side_combo)
        self.ui.cardsTextEdit.textChanged.connect(self.fill_forced_choices)
        self.ui.shownEdit.textChanged.connect(self.fill_forced_choices)
        leader = next_leader(self.session.state.current_hand)
        if leader is not None:
            select(self.ui.seatCombo, leader.value)

    def paraphrase(self) -> str:
        points = self.session.state.ruleset.throw_fail_points
        text = self.tr(
            "A lead of several units of one suit (甩牌) fails when an opponent holds a unit "
            "of the same shape that beats one of its parts; the opponent shows it. The "
            "thrower plays only the smallest beaten part; the other cards go back to the hand."
        )
        if points:
            text += (" " if wording_language() == "en" else "") + self.tr(
                "Each failed throw costs %1 points (002): taken from the defenders if a "
                "defender threw, given to them if a declarer threw."
            ).replace("%1", str(points))
        return text

    def fill_side_combo(self) -> None:
        """The cards are shown by an opponent of the thrower."""
        self.fill_side_with_opponents()

    def retranslate_fields(self) -> None:
        self.ui.seatLabel.setText(self.tr("Thrower"))
        self.ui.sideLabel.setText(self.tr("Cards shown by"))
        self.ui.cardsTextLabel.setText(self.tr("Cards thrown"))
        self.ui.shownLabel.setText(self.tr("Cards shown"))
        self.ui.choiceLabel.setText(self.tr("Forced play"))
        self.fill_forced_choices()

    def _context(self) -> TrumpContext | None:
        hand = self.session.state.current_hand
        if hand is None or hand.level is None or not hand.trump_decided:
            return None
        return TrumpContext.for_ruleset(hand.level, hand.trump, self.session.state.ruleset)

    def fill_forced_choices(self) -> None:
        """Two beaten parts equal in size and rank: the referee names the one played."""
        choices: tuple[Any, ...] = ()
        context = self._context()
        try:
            thrown = parse_cards(" ".join(card_tokens(self.ui.cardsTextEdit.text())))
            shown = parse_cards(" ".join(card_tokens(self.ui.shownEdit.text())))
            if context is not None and thrown and shown:
                choices = check_throw(thrown, shown, context).choices
        except RulesError:
            choices = ()
        combo = self.ui.choiceCombo
        combo.blockSignals(True)
        current = combo.currentData()
        combo.clear()
        for unit in choices:
            tokens = tuple(format_cards([c]) for c in unit.cards)
            combo.addItem(" ".join(tokens), tokens)
        select(combo, current)
        combo.blockSignals(False)
        self.ui.formLayout.setRowVisible(combo, len(choices) > 1)

    def required_cards(self, label: Any, edit: Any) -> list[str]:
        """The cards typed in a box, refused (naming the box as labelled) when empty."""
        cards = card_tokens(edit.text())
        if not cards:
            raise ValueError(
                self.tr("%1: enter the cards.").replace("%1", label.text().rstrip(":："))
            )
        return cards

    def entries(self) -> Entries:
        ui = self.ui
        payload: dict[str, Any] = {
            "seat": self.seat(),
            "thrown": self.required_cards(ui.cardsTextLabel, ui.cardsTextEdit),
            "shown_by": ui.sideCombo.currentData(),
            "shown": self.required_cards(ui.shownLabel, ui.shownEdit),
        }
        if self.ui.choiceCombo.count() > 1:
            payload["forced"] = list(self.ui.choiceCombo.currentData())
        return [("throw_failed", payload)]

    def update_preview(self) -> None:
        """The consequence, with the forced play the match layer derived."""
        try:
            self.entries()
        except ValueError as error:
            self.ui.consequenceLabel.setText("")
            self.show_hint(refusal_message(error))
            return
        super().update_preview()

    def preview_lead_lines(self, state: Any) -> list[str]:
        hand = state.current_hand
        if hand is None or not hand.throw_failures:
            return []
        forced = format_cards(parse_cards(hand.throw_failures[-1].forced), symbols=True)
        return [self.tr("Forced play: %1").replace("%1", forced)]
