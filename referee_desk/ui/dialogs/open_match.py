"""Open a match of the tournament file or start one, and sign in as its referee.

Starting a match records ``match_opened`` with the table, pairs, seats, referee and
the ruleset (every parameter shown before confirming). When the file has PINs set
up, the referee signs in through the store, which then authorises every append; in a
file without an organizer a new name registers with the PIN entered (``ui.sign_in``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QWidget

from referee_desk.rules.ruleset import GUILIN_2009, PARAMETER_ARTICLES, PRESETS, get_ruleset
from referee_desk.store import TournamentFile
from referee_desk.ui import texts
from referee_desk.ui.dialogs.base import TranslatedDialog, refusal_text
from referee_desk.ui.drawn_matches import DrawnMatch, ready_matches
from referee_desk.ui.generated.ui_open_match_dialog import Ui_OpenMatchDialog
from referee_desk.ui.record import StoreMatchRecord, match_label, start_match
from referee_desk.ui.sign_in import referee_sign_in
from referee_desk.ui.texts import wording_language


def _parameter_names() -> dict[str, str]:
    return {
        "decks": QCoreApplication.translate("Ruleset", "decks"),
        "bridge_level_gap": QCoreApplication.translate("Ruleset", "bridge level gap"),
        "triple_lead_spares_tractors": QCoreApplication.translate(
            "Ruleset", "a triple lead spares tractors"
        ),
        "last_trick": QCoreApplication.translate("Ruleset", "last trick scoring"),
        "stage": QCoreApplication.translate("Ruleset", "points to take the deal"),
        "step": QCoreApplication.translate("Ruleset", "points per level"),
        "must_play_a": QCoreApplication.translate("Ruleset", "A must be played"),
        "rotation": QCoreApplication.translate("Ruleset", "dealer rotation"),
        "no_bid": QCoreApplication.translate("Ruleset", "when nobody bids"),
        "misplay_points_per_card": QCoreApplication.translate(
            "Ruleset", "wrong play: points per card"
        ),
        "revoke_established": QCoreApplication.translate("Ruleset", "revoke established"),
        "think_seconds": QCoreApplication.translate("Ruleset", "thinking time (seconds)"),
        "overrun_counts_as_warning": QCoreApplication.translate(
            "Ruleset", "an overrun counts as a warning"
        ),
        "match_minutes": QCoreApplication.translate("Ruleset", "match time (minutes)"),
        "at_time_out": QCoreApplication.translate("Ruleset", "at time-out"),
        "kitty": QCoreApplication.translate("Ruleset", "kitty cards"),
        "levels": QCoreApplication.translate("Ruleset", "levels played"),
        "fixed_trump_ranks": QCoreApplication.translate("Ruleset", "fixed trump ranks"),
        "twos_fixed_in_three_deck": QCoreApplication.translate(
            "Ruleset", "2s also fixed trumps (three decks)"
        ),
        "bombs_beat_tractors": QCoreApplication.translate("Ruleset", "bombs beat tractors"),
        "trump_tractor_chain": QCoreApplication.translate(
            "Ruleset", "level cards and jokers join trump tractors"
        ),
        "throws": QCoreApplication.translate("Ruleset", "throws allowed"),
        "throw_fail_points": QCoreApplication.translate("Ruleset", "failed throw: points"),
        "kitty_multiplier": QCoreApplication.translate("Ruleset", "kitty multiplier"),
        "shutout_bonus": QCoreApplication.translate("Ruleset", "shutout bonus (levels)"),
        "max_gain": QCoreApplication.translate("Ruleset", "most levels per hand"),
        "table_floor_at_zero": QCoreApplication.translate(
            "Ruleset", "points below 0 count as 0 in the table"
        ),
        "a_needs_dig": QCoreApplication.translate("Ruleset", "passing A needs a kitty dig"),
        "a_fallback": QCoreApplication.translate("Ruleset", "level fallen back to from A"),
        "concealment": QCoreApplication.translate("Ruleset", "concealed card (藏张) rule"),
        "conceal_points": QCoreApplication.translate("Ruleset", "concealed card: points"),
        "race_needs_lj": QCoreApplication.translate("Ruleset", "a bid shows a little joker"),
    }


def _parameter_values() -> dict[str, str]:
    return {
        "True": QCoreApplication.translate("Ruleset", "yes"),
        "False": QCoreApplication.translate("Ruleset", "no"),
        "multiply": QCoreApplication.translate("Ruleset", "points × cards"),
        "bonus": QCoreApplication.translate("Ruleset", "points + points × cards"),
        "partner_or_next": QCoreApplication.translate("Ruleset", "partner, or the next seat"),
        "redeal_first_else_nt": QCoreApplication.translate(
            "Ruleset", "redeal the first hand, else no-trump"
        ),
        "next_trick": QCoreApplication.translate("Ruleset", "once the next trick has begun"),
        "finish_hand": QCoreApplication.translate("Ruleset", "the hand in play is finished"),
        "stop": QCoreApplication.translate("Ruleset", "play stops at once"),
        "kitty": QCoreApplication.translate("Ruleset", "kitty × multiplier to the defenders"),
        "none": QCoreApplication.translate("Ruleset", "none"),
        "None": QCoreApplication.translate("Ruleset", "none"),
        "by_shape": QCoreApplication.translate("Ruleset", "by the last lead's shape"),
        "power_of_cards": QCoreApplication.translate(
            "Ruleset", "2 to the power of the largest unit's cards"
        ),
        "3..A": QCoreApplication.translate("Ruleset", "3 to A"),
        "2..A": QCoreApplication.translate("Ruleset", "2 to A"),
        "10+2": QCoreApplication.translate("Ruleset", "10 and 2"),
    }


def ruleset_text(name: str) -> str:
    """Every parameter of the preset with its article, one per line.

    In English the parameter identifiers are shown as the record stores them; in
    Chinese each is named (an identifier the desk has no name for is kept as is).
    """
    ruleset = get_ruleset(name)
    chinese = wording_language() == "zh_CN"
    # The preset's identifier (guilin-2009) is the record's word: shown in English only.
    title = texts.preset_name(ruleset.name)
    lines = [title if chinese else f"{title} ({ruleset.name})"]
    names, values = _parameter_names(), _parameter_values()
    for key, value in ruleset.parameters().items():
        article = PARAMETER_ARTICLES.get(key, "")
        if chinese:
            shown = values.get(str(value), str(value))
            lines.append(f"  {names.get(key, key)}：{shown}（{article}）")
            continue
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        lines.append(f"  {key} = {shown}   ({article})")
    return "\n".join(lines)


def tournament_preset(tf: TournamentFile) -> str:
    """The preset of the file's tournament, ``guilin-2009`` when it holds none."""
    from referee_desk.tournament.repository import Tournament
    from referee_desk.ui.organizer.showing import has_tournament

    if not has_tournament(tf):
        return GUILIN_2009.name
    return Tournament(tf).ruleset.name


class OpenMatchDialog(TranslatedDialog):
    """On acceptance ``record`` is the opened match and ``referee`` the signed-in name."""

    def __init__(self, tf: TournamentFile, referee: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.tf = tf
        self.record: StoreMatchRecord | None = None
        self.referee = ""
        self.ui = Ui_OpenMatchDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        for name in sorted(PRESETS):
            self.ui.rulesetCombo.addItem(texts.preset_name(name), name)
        # A new match defaults to the tournament's preset (issue 12).
        self.ui.rulesetCombo.setCurrentIndex(
            max(0, self.ui.rulesetCombo.findData(tournament_preset(tf)))
        )
        self.ui.rulesetCombo.currentIndexChanged.connect(self.show_ruleset)
        self.ui.matchCombo.currentIndexChanged.connect(self.update_enabled)
        self.ui.refereeNameEdit.setText(referee)
        # Tab goes from the ruleset to the referee's name (the ruleset text is read, not typed).
        self.ui.rulesetView.setTabChangesFocus(True)
        self.ui.rulesetView.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.retranslate()
        self.show_ruleset()

    def _load_matches(self) -> None:
        """The file's matches, read once (the file may be closed while this dialog lives).

        Item data: None (a new match), a recorded match id, or a DrawnMatch of the
        tournament's draw (its pairs, seats and table fill the new-match fields).
        """
        self.ui.matchCombo.addItem("", None)
        for drawn in ready_matches(self.tf):
            self.ui.matchCombo.addItem("▶ " + drawn.label, drawn)
        in_progress: list[tuple[str, str]] = []
        for match_id in self.tf.match_ids():
            self.ui.matchCombo.addItem(match_label(self.tf, match_id), match_id)
            events = self.tf.events(match_id)
            if events and self.tf.seals.latest(match_id) is None:
                in_progress.append((events[-1].recorded_at, match_id))
        # A reopened file lands on the match in progress (the one recorded in last).
        if in_progress:
            latest = max(in_progress)[1]
            self.ui.matchCombo.setCurrentIndex(self.ui.matchCombo.findData(latest))

    def retranslate(self) -> None:
        if self.ui.matchCombo.count() == 0:
            self._load_matches()
        self.ui.matchCombo.setItemText(0, self.tr("— start a new match —"))
        self.update_enabled()

    def update_enabled(self) -> None:
        data = self.ui.matchCombo.currentData()
        self.ui.newGroup.setEnabled(data is None or isinstance(data, DrawnMatch))
        if isinstance(data, DrawnMatch):
            self.fill_from(data.payload)

    def fill_from(self, payload: dict[str, Any]) -> None:
        """Pre-fill the new-match fields from the draw (the referee may change seats)."""
        ui = self.ui
        ui.roundEdit.setText(str(payload.get("round", "")))
        ui.tableEdit.setText(str(payload.get("table", "")))
        ui.pairNsCombo.setEditText(payload["pairs"]["NS"])
        ui.pairEwCombo.setEditText(payload["pairs"]["EW"])
        seats = payload["seats"]
        for edit, seat in (
            (ui.seatNEdit, "N"),
            (ui.seatEEdit, "E"),
            (ui.seatSEdit, "S"),
            (ui.seatWEdit, "W"),
        ):
            edit.setText(seats[seat])
        if payload.get("referee") and not ui.refereeNameEdit.text():
            ui.refereeNameEdit.setText(payload["referee"])

    def show_ruleset(self) -> None:
        self.ui.rulesetView.setPlainText(ruleset_text(self.ui.rulesetCombo.currentData()))

    def show_error(self, text: str) -> None:
        from referee_desk.ui.dialogs.base import ERROR_STYLE

        self.ui.errorLabel.setStyleSheet(ERROR_STYLE)
        self.ui.errorLabel.setText(text)

    def _sign_in(self) -> Any:
        name = self.ui.refereeNameEdit.text().strip()
        if not name:
            raise ValueError(self.tr("Enter the referee's name."))
        self.referee = name
        return referee_sign_in(self.tf, name, self.ui.refereePinEdit.text())

    def new_match_payload(self) -> dict[str, Any]:
        ui = self.ui
        fields = {
            "round": ui.roundEdit.text().strip(),
            "table": ui.tableEdit.text().strip(),
        }
        pairs = {
            "NS": ui.pairNsCombo.currentText().strip(),
            "EW": ui.pairEwCombo.currentText().strip(),
        }
        seats = {
            "N": ui.seatNEdit.text().strip(),
            "E": ui.seatEEdit.text().strip(),
            "S": ui.seatSEdit.text().strip(),
            "W": ui.seatWEdit.text().strip(),
        }
        names = {
            "round": self.tr("round"),
            "table": self.tr("table"),
            **{side: self.tr("pair %1").replace("%1", texts.side_name(side)) for side in pairs},
            **{seat: self.tr("player %1").replace("%1", texts.seat_name(seat)) for seat in seats},
        }
        missing = [names[k] for k, v in {**fields, **pairs, **seats}.items() if not v]
        if missing:
            raise ValueError(self.tr("Fill in: %1").replace("%1", self.tr(", ").join(missing)))
        tournament = self.tf.meta().get("name") or self.tf.tournament_id or "tournament"
        return {
            "tournament": str(tournament),
            **fields,
            "pairs": pairs,
            "seats": seats,
            "referee": self.referee,
            "ruleset": get_ruleset(self.ui.rulesetCombo.currentData()).to_dict(),
        }

    def accept(self) -> None:
        try:
            signed_in = self._sign_in()
            data = self.ui.matchCombo.currentData()
            if isinstance(data, str):
                self.record = StoreMatchRecord(self.tf, data, signed_in)
            else:
                payload = self.new_match_payload()
                match_id = None
                if isinstance(data, DrawnMatch):
                    match_id = data.match_id
                    payload["tournament"] = data.payload["tournament"]
                    payload["ruleset"] = data.payload["ruleset"]  # frozen at the draw
                self.record = start_match(
                    self.tf, payload, self.referee, signed_in, match_id=match_id
                )
        except (ValueError, OSError) as error:
            self.show_error(refusal_text(error))
            return
        super().accept()
