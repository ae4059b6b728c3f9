"""Translated names of things the desk shows: seats, sides, event kinds, levels, trumps.

Presentation only: every string is an English source that goes through Qt's
translation (context ``Texts``), so the zh_CN catalogue carries the glossary terms.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale

from referee_desk.phrasebook import Language
from referee_desk.rules.cards import Rank, Suit
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.wording import describe


def wording_language() -> Language:
    """The language consequences are worded in: the interface's (LanguageManager sets
    the default locale: Chinese → ``zh_CN``, anything else → ``en``)."""
    return "zh_CN" if QLocale().language() == QLocale.Language.Chinese else "en"


def consequence_text(consequence: Any) -> str:
    """A consequence (or a MatchEnd) worded in the interface language, without article."""
    return describe(consequence, wording_language())


def consequence_line(consequence: Any) -> str:
    """``"article: text"`` worded in the interface language (the article as printed)."""
    return f"{article_text(consequence.article)}: {consequence_text(consequence)}"


def article_text(article: str) -> str:
    """An article as printed ("7.2"); the few that are not numbers are worded."""
    names = {
        "record": QCoreApplication.translate("Texts", "record"),
        "no_bid": QCoreApplication.translate("Texts", "nobody bid"),
    }
    return names.get(article, article)


def seat_name(seat: Seat | str) -> str:
    names = {
        "N": QCoreApplication.translate("Texts", "North"),
        "E": QCoreApplication.translate("Texts", "East"),
        "S": QCoreApplication.translate("Texts", "South"),
        "W": QCoreApplication.translate("Texts", "West"),
    }
    return names.get(str(seat), str(seat))


def side_name(side: Side | str) -> str:
    names = {
        "NS": QCoreApplication.translate("Texts", "N–S"),
        "EW": QCoreApplication.translate("Texts", "E–W"),
    }
    return names.get(str(side), str(side))


def role_name(is_declarers: bool) -> str:
    if is_declarers:
        return QCoreApplication.translate("Texts", "declarers")
    return QCoreApplication.translate("Texts", "defenders")


def level_label(rank: Rank | None) -> str:
    return "—" if rank is None else rank.label


def trump_text(suit: Suit | None) -> str:
    """``♥`` or the no-trump word (无主)."""
    if suit is None:
        return QCoreApplication.translate("Texts", "no-trump")
    return suit.symbol


def event_kind_name(kind: str) -> str:
    """The log's name for an event type (unknown types show as themselves)."""
    names = {
        "match_opened": QCoreApplication.translate("Texts", "match opened"),
        "clock_started": QCoreApplication.translate("Texts", "clock started"),
        "clock_paused": QCoreApplication.translate("Texts", "clock paused"),
        "clock_resumed": QCoreApplication.translate("Texts", "clock resumed"),
        "hand_started": QCoreApplication.translate("Texts", "hand started"),
        "bid": QCoreApplication.translate("Texts", "bid"),
        "open_bid": QCoreApplication.translate("Texts", "open bid"),
        "false_bid": QCoreApplication.translate("Texts", "false bid"),
        "false_bid_trump": QCoreApplication.translate("Texts", "trump named after a false bid"),
        "bidding_closed": QCoreApplication.translate("Texts", "bidding closed"),
        "redeal": QCoreApplication.translate("Texts", "redeal"),
        "trick": QCoreApplication.translate("Texts", "trick"),
        "hand_summary": QCoreApplication.translate("Texts", "hand result"),
        "wrong_play": QCoreApplication.translate("Texts", "wrong play"),
        "revoke": QCoreApplication.translate("Texts", "revoke"),
        "penalty_choice": QCoreApplication.translate("Texts", "penalty choice"),
        "wrong_dealer": QCoreApplication.translate("Texts", "wrong dealer"),
        "conduct_warning": QCoreApplication.translate("Texts", "warning"),
        "committee_decision": QCoreApplication.translate("Texts", "committee decision"),
        "think_overrun": QCoreApplication.translate("Texts", "thinking-time overrun"),
        "forfeit": QCoreApplication.translate("Texts", "forfeit"),
        "committee_ruling": QCoreApplication.translate("Texts", "committee ruling"),
        "correction": QCoreApplication.translate("Texts", "correction"),
        "note": QCoreApplication.translate("Texts", "note"),
        "match_ended": QCoreApplication.translate("Texts", "match ended"),
        "kitty_buried": QCoreApplication.translate("Texts", "kitty buried"),
        "throw_failed": QCoreApplication.translate("Texts", "failed throw"),
        "concealment": QCoreApplication.translate("Texts", "concealed card"),
    }
    return names.get(kind, kind)


def preset_name(name: str) -> str:
    """The worded name of a ruleset preset (RULES 12); an unknown name shows as itself."""
    names = {
        "guilin-2009": QCoreApplication.translate("Texts", "Guilin 2009 (four decks)"),
        "qq-four-deck": QCoreApplication.translate("Texts", "QQ four decks"),
        "three-deck": QCoreApplication.translate("Texts", "three decks"),
    }
    return names.get(name, name)


def bid_kind_name(kind: str, ruleset: Any = None) -> str:
    """The bid kind's name; in the presets (12.3) a first bid shows level cards openly."""
    if kind == "dark" and ruleset is not None and not ruleset.race_needs_lj:
        return QCoreApplication.translate("Texts", "bid (level cards shown)")
    names = {
        "dark": QCoreApplication.translate("Texts", "dark bid"),
        "counter": QCoreApplication.translate("Texts", "counter"),
        "reinforce": QCoreApplication.translate("Texts", "reinforce"),
        "pass": QCoreApplication.translate("Texts", "pass"),
    }
    return names.get(kind, kind)


def end_reason_name(reason: str) -> str:
    names = {
        "passed_a": QCoreApplication.translate("Texts", "passed A"),
        "time_out": QCoreApplication.translate("Texts", "time-out"),
        "forfeit": QCoreApplication.translate("Texts", "forfeit"),
        "disqualification": QCoreApplication.translate("Texts", "disqualification"),
    }
    return names.get(reason, reason)


#: Event types the log's violation filter keeps (chapter 8 and committee entries).
VIOLATION_TYPES = frozenset(
    {
        "open_bid",
        "false_bid",
        "false_bid_trump",
        "wrong_play",
        "revoke",
        "penalty_choice",
        "wrong_dealer",
        "conduct_warning",
        "committee_decision",
        "think_overrun",
        "forfeit",
        "committee_ruling",
        "throw_failed",
        "concealment",
    }
)
