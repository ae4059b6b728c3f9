"""Words the organizer view shows for the tournament layer's values, through Qt's catalogue.

The tournament layer names its values (statuses, ways a match was decided, tie-break
criteria); this module only puts them into the interface language. Every string is a
literal in a ``QCoreApplication.translate("OrganizerTexts", …)`` call so lupdate finds it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from referee_desk.tournament.elimination import round_count
from referee_desk.tournament.model import (
    LEVEL_NAMES,
    Decision,
    Format,
    Pair,
    Slot,
    TieBreak,
    TournamentMatch,
    level_name,
)
from referee_desk.tournament.state import Status


def status_name(status: Status) -> str:
    names = {
        Status.WAITING: QCoreApplication.translate("OrganizerTexts", "waiting"),
        Status.READY: QCoreApplication.translate("OrganizerTexts", "ready"),
        Status.PLAYING: QCoreApplication.translate("OrganizerTexts", "playing"),
        Status.HELD: QCoreApplication.translate("OrganizerTexts", "held: committee ruling pending"),
        Status.DECIDED: QCoreApplication.translate("OrganizerTexts", "decided"),
        Status.BYE: QCoreApplication.translate("OrganizerTexts", "bye"),
        Status.VOID: "—",
    }
    return names[status]


def decision_name(decision: Decision | None) -> str:
    """The way a match was decided, with its article (RULES.md 1.5, 8.8, 8.10, 8.11)."""
    if decision is None:
        return ""
    names = {
        Decision.PASSED_A: QCoreApplication.translate("OrganizerTexts", "passed A"),
        Decision.TIME_OUT_LEVEL: QCoreApplication.translate(
            "OrganizerTexts", "time-out, higher level"
        ),
        Decision.TIME_OUT_DEAL: QCoreApplication.translate(
            "OrganizerTexts", "time-out, equal level, holding the deal"
        ),
        Decision.FORFEIT: QCoreApplication.translate("OrganizerTexts", "forfeit"),
        Decision.DISQUALIFICATION: QCoreApplication.translate("OrganizerTexts", "disqualification"),
        Decision.COMMITTEE: QCoreApplication.translate("OrganizerTexts", "committee ruling"),
        Decision.BYE: QCoreApplication.translate("OrganizerTexts", "bye"),
    }
    article = f" ({decision.article})" if decision.article else ""
    return names[decision] + article


def decision_mark(decision: Decision | None) -> str:
    """The short mark the bracket shows for a win not at the table (issue 6)."""
    if decision is None or not decision.is_marked:
        return ""
    marks = {
        Decision.FORFEIT: QCoreApplication.translate("OrganizerTexts", "W/O (forfeit)"),
        Decision.DISQUALIFICATION: QCoreApplication.translate(
            "OrganizerTexts", "DQ (disqualification)"
        ),
        Decision.COMMITTEE: QCoreApplication.translate("OrganizerTexts", "committee"),
    }
    return marks[decision]


def format_name(fmt: Format) -> str:
    names = {
        Format.SINGLE_ELIMINATION: QCoreApplication.translate(
            "OrganizerTexts", "Single elimination"
        ),
        Format.GROUPS_KNOCKOUT: QCoreApplication.translate(
            "OrganizerTexts", "Round-robin groups, then a knockout"
        ),
    }
    return names[fmt]


def tie_break_name(criterion: TieBreak) -> str:
    names = {
        TieBreak.WINS: QCoreApplication.translate("OrganizerTexts", "match wins"),
        TieBreak.LEVEL_DIFF: QCoreApplication.translate(
            "OrganizerTexts", "level difference at the end"
        ),
        TieBreak.HEAD_TO_HEAD: QCoreApplication.translate("OrganizerTexts", "head-to-head"),
        TieBreak.LOTS: QCoreApplication.translate("OrganizerTexts", "drawing of lots"),
    }
    return names[criterion]


def tie_break_order(order: tuple[TieBreak, ...]) -> str:
    return QCoreApplication.translate("OrganizerTexts", "Tie-break order: %1").replace(
        "%1", " > ".join(f"{i}. {tie_break_name(t)}" for i, t in enumerate(order, start=1))
    )


def level_text(index: int) -> str:
    """-1 = level 2 (the presets, RULES 12.1), 0 = level 3 … 11 = A; 12 = passed A."""
    if index >= len(LEVEL_NAMES):
        return QCoreApplication.translate("OrganizerTexts", "passed A")
    return level_name(index)


def slot_text(slot: Slot) -> str:
    """Where a side still unknown comes from (winner of …, group A place 1, bye)."""
    if slot.kind == "winner":
        return QCoreApplication.translate("OrganizerTexts", "winner of %1").replace("%1", slot.ref)
    if slot.kind == "loser":
        return QCoreApplication.translate("OrganizerTexts", "loser of %1").replace("%1", slot.ref)
    if slot.kind == "group":
        return (
            QCoreApplication.translate("OrganizerTexts", "group %1, place %2")
            .replace("%1", slot.ref)
            .replace("%2", str(slot.rank))
        )
    if slot.kind == "bye":
        return QCoreApplication.translate("OrganizerTexts", "bye")
    return ""


def pair_text(pair: Pair | None, with_seed: bool = True) -> str:
    if pair is None:
        return ""
    seed = f"[{pair.seed}] " if with_seed and pair.seed else ""
    return f"{seed}{pair.name}"


def round_name(match: TournamentMatch, all_matches: list[TournamentMatch]) -> str:
    if match.group is not None:
        return (
            QCoreApplication.translate("OrganizerTexts", "group %1, round %2")
            .replace("%1", match.group)
            .replace("%2", str(match.round))
        )
    if match.third_place:
        return QCoreApplication.translate("OrganizerTexts", "third place")
    left = round_count(all_matches) - match.round
    if left == 0:
        return QCoreApplication.translate("OrganizerTexts", "final")
    if left == 1:
        return QCoreApplication.translate("OrganizerTexts", "semifinal")
    if left == 2:
        return QCoreApplication.translate("OrganizerTexts", "quarterfinal")
    return QCoreApplication.translate("OrganizerTexts", "round %1").replace("%1", str(match.round))
