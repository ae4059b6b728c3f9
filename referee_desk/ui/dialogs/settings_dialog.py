"""Preferences: the interface language (applied at once), the seat nearest the referee and
the tournament server the desk pushes to."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from referee_desk.rules.seats import Seat
from referee_desk.store.opener import is_server_address
from referee_desk.ui.dialogs.base import TranslatedDialog
from referee_desk.ui.dialogs.seat_combos import fill_seats, select
from referee_desk.ui.generated.ui_settings_dialog import Ui_SettingsDialog
from referee_desk.ui.settings import LANGUAGES, DeskSettings

_LANGUAGE_NAMES = {"zh_CN": "简体中文", "en": "English"}


class SettingsDialog(TranslatedDialog):
    def __init__(self, settings: DeskSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.ui = Ui_SettingsDialog()
        self.ui.setupUi(self)
        self.ui.buttonBox.accepted.connect(self._accept_if_valid)
        self.ui.buttonBox.rejected.connect(self.reject)
        for language in LANGUAGES:
            self.ui.languageCombo.addItem(_LANGUAGE_NAMES[language], language)
        select(self.ui.languageCombo, settings.language)
        self.retranslate()
        select(self.ui.bottomSeatCombo, settings.bottom_seat.value)
        # Shown without its password (kept in its own file); typing one replaces it.
        self.ui.serverUrlEdit.setText(settings.server_address)

    def retranslate(self) -> None:
        fill_seats(self.ui.bottomSeatCombo)

    def _accept_if_valid(self) -> None:
        """A server address must be a postgresql:// URL (or empty: no sync)."""
        url = self.server_url
        if url and not is_server_address(url):
            self.ui.serverUrlError.setText(
                self.tr("Not a server address (postgresql://user:password@host:port/db).")
            )
            self.ui.serverUrlEdit.setFocus()
            return
        self.accept()

    @property
    def server_url(self) -> str:
        return self.ui.serverUrlEdit.text().strip()

    @property
    def language(self) -> str:
        return str(self.ui.languageCombo.currentData())

    @property
    def bottom_seat(self) -> Seat:
        return Seat(self.ui.bottomSeatCombo.currentData())
