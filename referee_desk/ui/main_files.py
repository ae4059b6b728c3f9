"""The desk window's open tournament file: opening it, recovering it, closing it.

``DeskFile`` owns the file the window records into (``tf``): it opens one with rolling
backups (every ``backup_every()`` events and on close), and when a file is damaged and
has backups it offers them (``RecoverDialog``) and reopens the restored file. On
failure a message says why and the desk stays as it was. It is given what it needs
(the window as its dialogs' parent, the settings that remember the last file, closing
the open match, the message and dialog functions, the status bar) and never imports
the window. Strings keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from referee_desk.store import (
    DamagedFile,
    NotATournamentFile,
    StoreError,
    StoreWriteError,
    TournamentFile,
    backups,
)
from referee_desk.ui.dialogs.recover import RecoverDialog
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.settings import DeskSettings

#: Opens a dialog window-modal without blocking; the callback gets its result.
RunDialog = Callable[[QDialog, Callable[[int], None] | None], QDialog]
#: Shows a non-blocking message (title, text, icon) and returns its box.
ShowMessage = Callable[..., QMessageBox]


class DeskFile:
    """The tournament file open at the desk (``tf``; None before one is opened)."""

    def __init__(
        self,
        parent: QWidget,
        settings: DeskSettings,
        *,
        backup_every: Callable[[], int],
        close_match: Callable[[], None],
        changed: Callable[[], None],
        run_dialog: RunDialog,
        show_message: ShowMessage,
        note: Callable[[str], None],
        status: Callable[[str], None],
    ) -> None:
        """``changed``: the open file changed (opened, reopened or closed); ``note``
        keeps a text as the window's last message without showing a box."""
        self.parent = parent
        self.settings = settings
        self.backup_every = backup_every
        self.close_match = close_match
        self.changed = changed
        self.run_dialog = run_dialog
        self.show_message = show_message
        self.note = note
        self.status = status
        self.tf: TournamentFile | None = None

    def open_tournament(self, path: str | Path, *, create: bool = True) -> bool:
        """Open a tournament file; on failure a message explains and the desk stays as it was.

        A damaged file with backups opens the recovery dialog instead (``offer_backups``).
        Files are opened with rolling backups (every ``backup_every()`` events and on close).
        """
        try:
            tf = TournamentFile.open(path, create=create, backup_every=self.backup_every())
        except (StoreError, StoreWriteError, OSError) as error:
            if isinstance(error, DamagedFile | NotATournamentFile) and backups(path):
                self.offer_backups(Path(path), str(error))
                return False
            self.show_message(
                QCoreApplication.translate("MainWindow", "Cannot open the file"),
                QCoreApplication.translate("MainWindow", "The file %1 cannot be opened:\n%2")
                .replace("%1", str(path))
                .replace("%2", refusal_message(error)),
            )
            return False
        self.close_tournament()
        self.tf = tf
        self.changed()
        self.settings.last_file = str(path)
        note = str(path)
        if tf.read_only:
            note = QCoreApplication.translate(
                "MainWindow", "%1 (read-only: nothing can be recorded)"
            ).replace("%1", str(path))
        self.status(note)
        return True

    def offer_backups(self, path: Path, damage: str) -> QDialog:
        """Name the damage and offer the newest backups; restoring reopens the file."""
        dialog = RecoverDialog(path, damage, backups(path), self.parent)
        self.note(damage)

        def done(result: int) -> None:
            if result != QDialog.DialogCode.Accepted or dialog.restored is None:
                return
            if self.open_tournament(path, create=False):
                self.show_message(
                    QCoreApplication.translate("MainWindow", "Backup restored"),
                    QCoreApplication.translate(
                        "MainWindow",
                        "%1 was restored from the backup of %2. The damaged file is kept as %3.",
                    )
                    .replace("%1", str(path))
                    .replace("%2", dialog.restored.made_at)
                    .replace("%3", str(dialog.aside)),
                    QMessageBox.Icon.Information,
                )

        return self.run_dialog(dialog, done)

    def close_tournament(self) -> None:
        """Close the open match, then the file (its last backup is made on close)."""
        self.close_match()
        if self.tf is not None:
            self.tf.close()
            self.tf = None
            self.changed()
