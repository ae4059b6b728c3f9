"""Typed errors of the store: each says what went wrong and where, in one line.

All are ``ValueError`` subclasses (bad input or a bad file) except
``StoreWriteError``, which is an ``OSError``-like failure to save (full disk,
read-only file) that the desk shows while keeping the unsaved entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, Self, TypeVar

from referee_desk.phrasebook import STORE_REFUSALS, PhraseError, render


def _english(key: str, params: Mapping[str, object]) -> str:
    """The English line of a keyed store refusal: the book's (``phrasebook.store_refusals``).

    A key the book lacks, or params its template does not take, is a bug at the raise
    site: a KeyError (not a ValueError, so no refusal handler swallows it).
    """
    if key not in STORE_REFUSALS:
        raise KeyError(f"store refusal {key!r} has no phrase in the book")
    try:
        return render(key, params, "en")
    except PhraseError as error:
        raise KeyError(f"store refusal {key!r} cannot be worded: {error}") from error


class _Keyed(Protocol):
    """A store error that carries a phrasebook key (``StoreError``, ``StoreWriteError``)."""

    key: str | None
    params: dict[str, Any]


def _line(
    error: _Keyed,
    what: str,
    reason: str | None,
    key: str | None,
    params: Mapping[str, object] | None,
) -> str:
    """Both error bases' ``__init__``: set ``error``'s key and params, and return its line
    (``reason``, or the key's English when no reason is given); ``what`` names it in the
    TypeError for neither.

    One helper, not a mixin: ``StoreError`` is a ``ValueError`` and ``StoreWriteError`` an
    ``OSError``, and each must stay a plain subclass of its own builtin.
    """
    if key is not None:
        error.key = key
        error.params = dict(params or {})
    if reason is None:
        if key is None:
            raise TypeError(f"{what} needs a phrasebook key (or a reason)")
        reason = _english(key, error.params)
    return reason


_E = TypeVar("_E", bound=_Keyed)


def _keyed(error: _E, key: str, params: Mapping[str, object]) -> _E:
    """Both error bases' ``keyed``: attach ``key`` and ``params`` to ``error``."""
    error.key = key
    error.params = dict(params)
    return error


class StoreError(ValueError):
    """Base of every error the store raises for a bad file or a refused write.

    ``StoreError(key=..., params=...)``: the English line (``str()``) is the key's English
    phrase, and the desk words the same key in the user's language (as the match layer's
    ``EventRefused``). A plain ``StoreError(reason)`` keeps a line of its own (an error
    not worded for the desk); ``keyed`` attaches a key to one afterwards.
    """

    key: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 - replaced per instance by __init__/keyed()

    def __init__(
        self,
        reason: str | None = None,
        *,
        key: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(_line(self, "a store error", reason, key, params))

    def keyed(self, key: str, /, **params: Any) -> Self:
        """Attach the phrasebook key and its arguments; returns self for ``raise``.

        ``key`` is positional-only so a phrase may take a param named ``key`` (a key's
        fingerprint, ``store.not_the_file_key``).
        """
        return _keyed(self, key, params)

    def __str__(self) -> str:  # always one line (SQLite's reports span several)
        return " ".join(super().__str__().split())


class NotATournamentFile(StoreError):
    """The file is not SQLite, or is SQLite but not a Referee Desk tournament file."""


class UnreadableFile(StoreError):
    """The operating system refuses to let the desk read the file (permissions, I/O)."""


class NewerFileError(StoreError):
    """The file was made by a newer Referee Desk (a schema version this code does not know)."""


class DamagedFile(StoreError):
    """SQLite's integrity check, the hash chain or the write-ahead log shows damage."""


class AppendConflict(StoreError):
    """A stale writer: the match's head moved since the caller last saw it."""

    def __init__(self, match_id: str, expected_seq: int, actual_next: int) -> None:
        self.match_id = match_id
        self.expected_seq = expected_seq
        self.actual_next = actual_next
        super().__init__(
            f"match {match_id}: this desk expected to record event {expected_seq}, but the "
            f"record already holds {actual_next - 1} events (another desk recorded since); "
            "reload the match and enter it again"
        )


class AppendRefused(StoreError):
    """The match layer refused the event (schema or state); nothing was written."""

    def __init__(self, match_id: str, seq: int, reason: str) -> None:
        self.match_id = match_id
        self.seq = seq
        self.reason = reason
        super().__init__(f"match {match_id}, event {seq}: {reason}")


class AccessRefused(StoreError):
    """Who may change what: wrong PIN, not the match's referee, or a locked match."""


class ImportRefused(StoreError):
    """A JSON Lines import refused as a whole, naming the file, the line and the reason."""

    def __init__(
        self,
        file: str,
        line: int | None,
        reason: str,
        *,
        match_id: str | None = None,
        seq: int | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.reason = reason
        self.match_id = match_id
        self.seq = seq
        where = f"{file}:{line}" if line is not None else file
        if match_id is not None:
            reason = f"match {match_id}, event {seq}: {reason}"
        super().__init__(f"{where}: {reason}")


class ImportConflict(ImportRefused):
    """The same match is already recorded differently in the tournament file."""


class StoreWriteError(OSError):
    """Saving failed (disk full, read-only file, I/O error); the file is unchanged.

    The desk keeps the unsaved entry in its dialog and shows ``str(error)``; ``key`` and
    ``params`` name the phrasebook entry, as for ``StoreError``.
    """

    key: str | None = "store.not_saved"
    params: dict[str, Any] = {}  # noqa: RUF012 - replaced per instance by __init__/keyed()

    def __init__(
        self,
        reason: str | None = None,
        *,
        key: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(_line(self, "a write error", reason, key, params))

    def keyed(self, key: str, /, **params: Any) -> Self:
        """Attach the phrasebook key and its arguments (as ``StoreError.keyed``)."""
        return _keyed(self, key, params)

    def __str__(self) -> str:
        return " ".join(super().__str__().split())
