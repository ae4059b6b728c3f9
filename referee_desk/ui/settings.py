"""The desk's preferences behind one typed accessor (the only place QSettings is read).

Tests and the sample desk pass an INI file so they never touch the user's settings.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from referee_desk.rules.seats import Seat
from referee_desk.ui.server_password import PasswordFile, join_password, split_password

#: Languages the desk ships; the first is the default (Simplified Chinese).
LANGUAGES: tuple[str, ...] = ("zh_CN", "en")

_ORGANIZATION = "referee-desk"
_APPLICATION = "referee-desk"


class DeskSettings:
    """Typed get/set of every preference: language, last file, layout, seat rotation, server."""

    def __init__(self, ini_path: str | Path | None = None) -> None:
        if ini_path is None:
            self._qs = QSettings(_ORGANIZATION, _APPLICATION)
        else:
            self._qs = QSettings(str(ini_path), QSettings.Format.IniFormat)
        # The server password's own file (``<config>/server-passwords.json``, mode 0600).
        self._passwords = PasswordFile()

    def sync(self) -> None:
        self._qs.sync()

    @property
    def language(self) -> str:
        value = str(self._qs.value("ui/language", LANGUAGES[0]))
        return value if value in LANGUAGES else LANGUAGES[0]

    @language.setter
    def language(self, value: str) -> None:
        if value not in LANGUAGES:
            raise ValueError(f"unknown language {value!r}; known: {', '.join(LANGUAGES)}")
        self._qs.setValue("ui/language", value)

    @property
    def last_file(self) -> str | None:
        value = self._qs.value("files/last", "")
        return str(value) or None

    @last_file.setter
    def last_file(self, value: str | None) -> None:
        self._qs.setValue("files/last", value or "")

    @property
    def referee_name(self) -> str:
        return str(self._qs.value("referee/name", ""))

    @referee_name.setter
    def referee_name(self, value: str) -> None:
        self._qs.setValue("referee/name", value)

    @property
    def server_url(self) -> str:
        """The tournament server this desk pushes to (``postgresql://…``); "" for none.

        The settings keep the address without its password; the password is in the
        user-only file of ``server_password``. An older setting that still holds the
        password is moved there on first read.
        """
        stored = str(self._qs.value("sync/server_url", ""))
        split = split_password(stored)
        if split.password is not None:  # written by an older desk: migrate
            self.server_url = stored
            return stored
        return join_password(stored, self._passwords.get(stored)) if stored else ""

    @server_url.setter
    def server_url(self, value: str) -> None:
        """Keep the address; its password (when given) goes to the user-only file.

        An address written without a password keeps the password known for it; ""
        (no server) forgets the password of the address kept so far.
        """
        split = split_password(value.strip())
        if split.address and split.password is not None:
            self._passwords.put(split.address, split.password)
        elif not split.address:
            previous = self.server_address
            if previous:
                self._passwords.put(previous, None)
        self._qs.setValue("sync/server_url", split.address)
        self._qs.sync()

    @property
    def server_address(self) -> str:
        """The server address as the settings keep it: without the password."""
        return split_password(str(self._qs.value("sync/server_url", ""))).address

    @property
    def bottom_seat(self) -> Seat:
        """The seat drawn at the bottom of the table diagram (nearest the referee)."""
        value = str(self._qs.value("table/bottom_seat", Seat.S.value))
        try:
            return Seat(value)
        except ValueError:
            return Seat.S

    @bottom_seat.setter
    def bottom_seat(self, seat: Seat) -> None:
        self._qs.setValue("table/bottom_seat", Seat(seat).value)

    @property
    def window_geometry(self) -> QByteArray | None:
        return self._bytes("window/geometry")

    @window_geometry.setter
    def window_geometry(self, value: QByteArray) -> None:
        self._qs.setValue("window/geometry", value)

    @property
    def window_state(self) -> QByteArray | None:
        return self._bytes("window/state")

    @window_state.setter
    def window_state(self, value: QByteArray) -> None:
        self._qs.setValue("window/state", value)

    def _bytes(self, key: str) -> QByteArray | None:
        value = self._qs.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None
