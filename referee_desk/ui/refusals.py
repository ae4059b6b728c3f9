"""Why an entry was refused, in the interface language (issue 10, item 2).

The match layer's ``EventRefused`` is worded by its key (``match.refusal_wording``), a
store error by its ``key`` when it has one (both from :mod:`referee_desk.phrasebook`),
else by its class (Qt translations); card notation errors of the rules core by their
class, naming the token typed. The English line of an
error is shown only in the English interface: the Chinese desk never shows it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from referee_desk.match.errors import EventRefused
from referee_desk.match.refusal_wording import word_refusal
from referee_desk.phrasebook import STORE_REFUSALS, render
from referee_desk.rules.errors import CardNotationError, RulesError
from referee_desk.store import (
    AccessRefused,
    AppendConflict,
    AppendRefused,
    DamagedFile,
    ImportRefused,
    NewerFileError,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
    UnreadableFile,
)
from referee_desk.store.postgres.errors import (
    BadServerAddress,
    NotARefereeDeskServer,
    ServerError,
    ServerLoginRefused,
    ServerRefused,
    ServerSchemaMismatch,
    ServerUnreachable,
)
from referee_desk.tournament.errors import (
    DrawError,
    OutcomeError,
    PairError,
    TournamentError,
)
from referee_desk.ui.texts import wording_language


def _by_class(error: BaseException) -> str:
    """A store or write error without a known key, worded by what kind it is."""
    if isinstance(error, StoreWriteError | OSError):
        return QCoreApplication.translate(
            "Refusals", "the file could not be written (full disk, or read-only)"
        )
    if isinstance(error, AppendConflict):
        return QCoreApplication.translate(
            "Refusals", "another desk recorded in this match since: its entries are now shown"
        )
    if isinstance(error, AccessRefused):
        return QCoreApplication.translate(
            "Refusals",
            "not allowed: wrong name or PIN, not this match's referee, or the match is locked",
        )
    if isinstance(error, DamagedFile):
        return QCoreApplication.translate("Refusals", "the tournament file is damaged")
    if isinstance(error, NotATournamentFile):
        return QCoreApplication.translate("Refusals", "this is not a tournament file")
    if isinstance(error, UnreadableFile):
        return QCoreApplication.translate(
            "Refusals", "the file cannot be read (permissions or disk)"
        )
    if isinstance(error, NewerFileError):
        return QCoreApplication.translate("Refusals", "the file was made by a newer Referee Desk")
    if isinstance(error, ImportRefused):
        return QCoreApplication.translate(
            "Refusals", "the import was refused as a whole: nothing was imported"
        )
    if isinstance(error, AppendRefused):
        return QCoreApplication.translate(
            "Refusals", "the match layer refused the entry: nothing was written"
        )
    return QCoreApplication.translate("Refusals", "the tournament file refused the entry")


def _server_by_class(error: ServerError) -> str:
    """A tournament server's refusal by kind, with the address (never its password)."""
    if isinstance(error, ServerUnreachable):
        text = QCoreApplication.translate(
            "Refusals", "cannot reach the server (is it running? right address and port?)"
        )
    elif isinstance(error, ServerLoginRefused):
        text = QCoreApplication.translate(
            "Refusals", "the server refused the login (user name, password or database wrong)"
        )
    elif isinstance(error, BadServerAddress):
        text = QCoreApplication.translate(
            "Refusals", "not a server address: write postgresql://user:password@host:port/database"
        )
    elif isinstance(error, NotARefereeDeskServer):
        text = QCoreApplication.translate(
            "Refusals", "this database is not a Referee Desk server (run referee-desk server init)"
        )
    elif isinstance(error, ServerSchemaMismatch):
        text = QCoreApplication.translate(
            "Refusals", "the server was set up by another version of Referee Desk"
        )
    elif isinstance(error, ServerRefused):
        text = QCoreApplication.translate("Refusals", "the server refused this")
    else:
        text = QCoreApplication.translate("Refusals", "the tournament server answered an error")
    found = re.match(r"^(\S+://\S+): ", str(error))
    return f"{text}（{found.group(1)}）" if found else text


def _tournament_by_class(error: TournamentError) -> str:
    """The tournament layer's refusals (unkeyed) by kind, with the names they quote."""
    if isinstance(error, PairError):
        text = QCoreApplication.translate("Refusals", "the pair cannot be accepted")
    elif isinstance(error, DrawError):
        text = QCoreApplication.translate("Refusals", "the draw cannot be made or changed so")
    elif isinstance(error, OutcomeError):
        text = QCoreApplication.translate("Refusals", "the result does not fit its match")
    else:
        text = QCoreApplication.translate("Refusals", "the tournament refused this")
    numbers = re.findall(r"\d+", str(error))
    quoted = re.findall(r"'([^']*)'", str(error))
    detail = "、".join(dict.fromkeys([*quoted, *numbers]))
    return f"{text}（{detail}）" if detail else text


def _store_phrase(key: object, params: Mapping[str, object], language: str) -> str | None:
    """A keyed store refusal from the phrasebook; None for a key or params it lacks."""
    if not isinstance(key, str) or key not in STORE_REFUSALS:
        return None
    try:
        return render(key, params, language)
    except (KeyError, IndexError, ValueError):
        return None


def _token(error: BaseException) -> str:
    found = re.search(r"'([^']*)'", str(error))
    return found.group(1) if found else ""


def refusal_message(error: BaseException) -> str:
    """One line saying why, in the interface language."""
    language = wording_language()
    english = language == "en"
    if isinstance(error, EventRefused):
        return word_refusal(error, language)
    if isinstance(error, StoreError | StoreWriteError):
        worded = _store_phrase(getattr(error, "key", None), getattr(error, "params", {}), language)
        if worded is not None:
            return worded
        if english:
            return str(error)
        if isinstance(error, ServerError):
            return _server_by_class(error)
        return _by_class(error)
    if isinstance(error, CardNotationError):
        if english:
            return str(error)
        return QCoreApplication.translate(
            "Refusals", "“%1” is not a card: write a suit S H D C and a rank (H10, SK), or LJ / BJ"
        ).replace("%1", _token(error))
    if isinstance(error, RulesError):
        if english:
            return str(error)
        return QCoreApplication.translate("Refusals", "these cards do not make a valid play")
    if isinstance(error, TournamentError):
        return str(error) if english else _tournament_by_class(error)
    if isinstance(error, OSError):
        return str(error) if english else _by_class(error)
    # The desk's own checks (number fields, required fields) are already translated.
    return str(error)
