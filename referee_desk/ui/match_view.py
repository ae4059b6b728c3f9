"""Showing a replayed MatchState in the main window's labels (display only).

Every value comes from the state; this module only chooses words, symbols and
where each seat is drawn (the seat nearest the referee at the bottom).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication

from referee_desk.match.state import MatchState
from referee_desk.rules.cards import Suit
from referee_desk.rules.seats import Seat, Side
from referee_desk.ui import texts


def table_positions(bottom: Seat) -> dict[str, Seat]:
    """Seat per position; play goes counter-clockwise, so bottom → right → top → left."""
    right = bottom.next_in_play
    top = right.next_in_play
    left = top.next_in_play
    return {"bottom": bottom, "right": right, "top": top, "left": left}


def seat_text(state: MatchState, seat: Seat) -> str:
    """``北 N`` over ``张三`` over ``（庄）``: compass name and letter, player, dealer mark."""
    player = state.info.seats.get(seat, "") if state.info is not None else ""
    hand = state.current_hand
    marks = []
    if hand is not None and hand.dealer is seat:
        marks.append(QCoreApplication.translate("MatchView", "(dealer)"))
    elif hand is None and state.next_dealer is seat and state.end is None:
        marks.append(QCoreApplication.translate("MatchView", "(deals next)"))
    where = f"{texts.seat_name(seat)} {seat.value}"
    # The mark takes its own line: beside a long name in a side column it made all
    # four seats shrink to about 11 px (issue 19, item 6).
    return "\n".join(x for x in (where, str(player), *marks) if x)


def side_role(state: MatchState, side: Side) -> str:
    hand = state.current_hand
    holder = hand.declarers if hand is not None and hand.declarers else state.deal_holder
    if holder is None:
        return ""
    return texts.role_name(holder is side)


def side_warnings(state: MatchState, side: Side) -> str:
    warnings = state.warnings.get(side, 0)
    overruns = state.overruns.get(side, 0)
    text = QCoreApplication.translate("MatchView", "Warnings %1").replace("%1", str(warnings))
    if overruns:
        text += " · " + QCoreApplication.translate("MatchView", "Overruns %1").replace(
            "%1", str(overruns)
        )
    if side in state.referred:
        text += " · " + QCoreApplication.translate("MatchView", "referred to the committee")
    return text


def hand_text(state: MatchState) -> str:
    hand = state.current_hand
    if hand is None:
        count = len(state.hands)
        return (
            QCoreApplication.translate("MatchView", "Hand %1 finished").replace("%1", str(count))
            if count
            else QCoreApplication.translate("MatchView", "No hand yet")
        )
    status = {
        "bidding": QCoreApplication.translate("MatchView", "bidding"),
        "playing": QCoreApplication.translate("MatchView", "playing"),
        "revoked": QCoreApplication.translate("MatchView", "revoke: awaiting choice"),
        "finished": QCoreApplication.translate("MatchView", "finished"),
        "voided": QCoreApplication.translate("MatchView", "voided"),
    }.get(hand.status, hand.status)
    return (
        QCoreApplication.translate("MatchView", "Hand %1 · %2")
        .replace("%1", str(hand.number))
        .replace("%2", status)
    )


def trump_text(state: MatchState) -> str:
    hand = state.current_hand
    if hand is None or hand.level is None:
        return ""
    level = texts.level_label(hand.level)
    if hand.trump_decided and hand.trump is None:  # 无主 · 打 5, not 主 无主
        return QCoreApplication.translate("MatchView", "No trump · playing %1").replace("%1", level)
    trump = texts.trump_text(hand.trump) if hand.trump_decided else "?"
    if hand.trump_decided and hand.trump is not None and hand.trump.value in "HD":
        trump = f"<span style='color:#c00000'>{trump}</span>"  # red suits in red

    return (
        QCoreApplication.translate("MatchView", "Trump %1 · playing %2")
        .replace("%1", trump)
        .replace("%2", level)
    )


def points_text(state: MatchState) -> str:
    hand = state.current_hand
    if hand is None or not hand.tricks:
        return ""
    return (
        QCoreApplication.translate("MatchView", "Defenders' points %1 after %2 tricks")
        .replace("%1", str(hand.defenders_points))
        .replace("%2", str(len(hand.tricks)))
    )


def next_hand_text(state: MatchState) -> str:
    """Who shuffles, cuts and deals next: known once a hand is over (2.3, 7)."""
    hand = state.current_hand
    if hand is not None and hand.status in ("bidding", "playing", "revoked"):
        return ""
    if state.end is not None:
        return ""  # the match is over: nobody shuffles or deals again (issue 10, item 10)
    parts = []
    shuffler = state.shuffler
    cutter = state.cutter
    if shuffler is not None:
        parts.append(
            QCoreApplication.translate("MatchView", "%1 shuffles").replace(
                "%1", texts.seat_name(shuffler)
            )
        )
    if cutter is not None:
        parts.append(
            QCoreApplication.translate("MatchView", "%1 cuts").replace(
                "%1", texts.seat_name(cutter)
            )
        )
    next_dealer = state.next_dealer
    if next_dealer is not None:
        parts.append(
            QCoreApplication.translate("MatchView", "%1 deals").replace(
                "%1", texts.seat_name(next_dealer)
            )
        )
    else:
        parts.append(QCoreApplication.translate("MatchView", "dealer by bidding race"))
    if not parts:
        return ""
    return QCoreApplication.translate("MatchView", "Next hand: %1").replace("%1", " · ".join(parts))


def title_text(state: MatchState, referee: str) -> str:
    info = state.info
    parts = []
    if info is not None:
        # A plain number is worded ("第 2 轮"); a label the organizer gave is shown as is.
        if info.round:
            round_text = str(info.round)
            if round_text.isdigit():
                round_text = QCoreApplication.translate("MatchView", "Round %1").replace(
                    "%1", round_text
                )
            parts.append(round_text)
        if info.table:
            table_text = str(info.table)
            if table_text.isdigit():
                table_text = QCoreApplication.translate("MatchView", "Table %1").replace(
                    "%1", table_text
                )
            parts.append(table_text)
    if referee:
        parts.append(QCoreApplication.translate("MatchView", "Referee %1").replace("%1", referee))
    parts.append(preset_text(state))
    return " · ".join(parts)


def preset_text(state: MatchState) -> str:
    """The match's preset, on screen at all times (issue 12: rulesets differ in play)."""
    return QCoreApplication.translate("MatchView", "Rules: %1").replace(
        "%1", texts.preset_name(state.ruleset.name)
    )


def end_text(state: MatchState) -> str:
    end = state.end
    if end is None:
        return ""
    text = QCoreApplication.translate("MatchView", "Match over: %1 wins (%2, %3)").replace(
        "%1", texts.side_name(end.winner)
    )
    text = text.replace("%2", texts.end_reason_name(str(end.reason))).replace("%3", end.article)
    if not end.recorded:
        text += " — " + QCoreApplication.translate("MatchView", "confirm with End of match")
    return text


_VOID = re.compile(r"^([NESW]) plays ([SHDC]|trump) in trick (\d+) after showing void in it$")
_COUNT = re.compile(r"^([NESW]) played (\d+) cards in hand (\d+), not (\d+)$")
_FOLLOW = re.compile(r"^([NESW]) in trick (\d+): ")


def flag_text(flag: Any) -> str:
    """A flag of the record (what the later plays prove, not a ruling) in the UI's
    language; the match layer words flags in English only."""
    text = str(flag.text)
    if m := _VOID.match(text):
        seat, suit, trick = m.groups()
        suit_name = (
            QCoreApplication.translate("MatchView", "trump")
            if suit == "trump"
            else Suit(suit).symbol
        )
        line = (
            QCoreApplication.translate(
                "MatchView", "%1 plays %2 in trick %3 after showing void in it"
            )
            .replace("%1", texts.seat_name(Seat(seat)))
            .replace("%2", suit_name)
            .replace("%3", trick)
        )
    elif m := _COUNT.match(text):
        seat, played, hand, due = m.groups()
        line = (
            QCoreApplication.translate("MatchView", "%1 played %2 cards in hand %3, not %4")
            .replace("%1", texts.seat_name(Seat(seat)))
            .replace("%2", played)
            .replace("%3", hand)
            .replace("%4", due)
        )
    elif m := _FOLLOW.match(text):
        seat, trick = m.groups()
        line = (
            QCoreApplication.translate(
                "MatchView", "%1 did not follow as the cards held required in trick %2"
            )
            .replace("%1", texts.seat_name(Seat(seat)))
            .replace("%2", trick)
        )
    else:
        line = QCoreApplication.translate("MatchView", "the record shows a possible violation")
    return f"⚑ {flag.article} " + line


def flags_text(state: MatchState) -> str:
    """The flags of the hand shown (live or reviewed): for the referee to look at."""
    hand = state.current_hand
    number = hand.number if hand is not None else (state.hands[-1].number if state.hands else None)
    flags = [f for f in state.flags if f.hand == number]
    if not flags:
        return ""
    head = QCoreApplication.translate("MatchView", "The record proves (check, then rule):")
    return head + " " + " · ".join(flag_text(f) for f in flags)
