"""A damaged tournament file: the desk names the damage and offers the newest backups.

Restoring moves the damaged file aside (``<file>.damaged-<time>``, never deleted) and
puts the chosen backup in its place; the store checks the backup before using it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_desk.store import Backup, StoreError, TournamentFile, restore_backup
from referee_desk.ui.dialogs.base import ERROR_STYLE, refusal_text

#: How many of the newest backups the dialog offers.
OFFERED = 5


def local_stamp(made_at: str) -> str:
    """``2026-11-29 14:03:40`` in the computer's time zone."""
    try:
        return datetime.fromisoformat(made_at).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return made_at


def backup_events(backup: Backup) -> int | None:
    """How many events the backup holds (None when it cannot be read)."""
    try:
        with TournamentFile.open(backup.path, create=False, read_only=True) as tf:
            return tf.count()
    except (StoreError, OSError):
        return None


class RecoverDialog(QDialog):
    """Shows the damage; on acceptance the chosen backup replaced the file (``aside`` is
    where the damaged file was moved)."""

    def __init__(
        self, path: Path, damage: str, offered: list[Backup], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.aside: Path | None = None
        self.restored: Backup | None = None
        self.setWindowTitle(self.tr("Damaged tournament file"))
        intro = QLabel(
            self.tr(
                "The file %1 cannot be opened:\n%2\n\nRestore one of its automatic backups? "
                "The damaged file is kept beside it."
            )
            .replace("%1", str(self.path))
            .replace("%2", damage),
            self,
        )
        intro.setWordWrap(True)
        intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.damageLabel = intro
        self.backupList = QListWidget(self)
        for backup in offered[:OFFERED]:
            count = backup_events(backup)
            shown = "?" if count is None else str(count)
            item = QListWidgetItem(
                self.tr("%1 — %2 events — %3")
                .replace("%1", local_stamp(backup.made_at))
                .replace("%2", shown)
                .replace("%3", backup.path.name)
            )
            item.setData(Qt.ItemDataRole.UserRole, backup)
            self.backupList.addItem(item)
        self.backupList.setCurrentRow(0)
        self.errorLabel = QLabel(self)
        self.errorLabel.setWordWrap(True)
        self.errorLabel.setStyleSheet(ERROR_STYLE)
        self.buttonBox = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setText(
            self.tr("Restore this backup")
        )
        self.buttonBox.accepted.connect(self.accept)
        self.buttonBox.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.backupList)
        layout.addWidget(self.errorLabel)
        layout.addWidget(self.buttonBox)
        self.resize(640, 360)

    def chosen(self) -> Backup | None:
        item = self.backupList.currentItem()
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def accept(self) -> None:
        backup = self.chosen()
        if backup is None:
            self.errorLabel.setText(self.tr("Choose a backup."))
            return
        try:
            self.aside = restore_backup(backup, self.path)
        except (ValueError, OSError) as error:
            self.errorLabel.setText(refusal_text(error))
            return
        self.restored = backup
        super().accept()
