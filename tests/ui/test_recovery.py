"""Issue 5, damaged files and full disks at the desk: a damaged tournament file is
refused with the damage named, and the desk offers its newest rolling backups; the
chosen backup replaces the file (the damaged one is kept aside) and the match is back
with every event up to the backup. A failed write keeps the unsaved entry in its dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from referee_desk.store import TournamentFile, backups
from referee_desk.ui import main_window
from referee_desk.ui.dialogs.reason import ReasonDialog
from referee_desk.ui.dialogs.recover import RecoverDialog
from referee_desk.ui.record import StoreMatchRecord
from referee_desk.ui.session import MatchSession
from tests.ui.conftest import REFEREE, ok, play_opening_hand, start_clock, trigger


def note(desk: Any, text: str) -> Any:
    dialog = trigger(desk, "actionNote")
    assert isinstance(dialog, ReasonDialog)
    dialog.ui.reasonCombo.setEditText(text)
    ok(dialog)
    return dialog


def restore(dialog: RecoverDialog) -> None:
    dialog.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()


def events_in(path: Path, match_id: str) -> list[Any]:
    with TournamentFile.open(path, create=False, read_only=True) as tf:
        return tf.events(match_id)


@pytest.fixture
def recorded(desk: Any, qtbot: Any, fake_time: Any, monkeypatch: Any) -> tuple[Path, str, list]:
    """A match recorded at the desk with rolling backups every 4 events, then closed
    (which makes the last backup); returns (file, match id, events on disk)."""
    monkeypatch.setattr(main_window, "BACKUP_EVERY", 4)
    path, match_id = desk.tf.path, desk.session.match_id
    desk.files.close_tournament()
    assert desk.files.open_tournament(path)
    assert desk.tf.backups.every == 4
    desk.match.set_session(
        MatchSession(StoreMatchRecord(desk.tf, match_id), REFEREE, clock=fake_time.now)
    )
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    for number in range(5):
        fake_time.advance(30)
        note(desk, f"第{number + 1}条记录")
        assert desk.active_dialog is None
    events = desk.tf.events(match_id)
    assert len(events) >= 9
    desk.files.close_tournament()
    return path, match_id, events


def truncate(path: Path) -> None:
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_damaged_file_offers_the_backups_and_restores_the_match(
    desk: Any, recorded: tuple[Path, str, list]
) -> None:
    path, match_id, events = recorded
    offered = backups(path)
    assert len(offered) >= 2  # rolling backups during the match, and one on close
    assert len(events_in(offered[0].path, match_id)) == len(events)
    assert len(events_in(offered[-1].path, match_id)) < len(events)
    truncate(path)
    assert not desk.files.open_tournament(path, create=False)
    dialog = desk.active_dialog
    assert isinstance(dialog, RecoverDialog)
    assert f"{path}: damaged" in dialog.damageLabel.text()  # the damage is named
    assert dialog.backupList.count() == min(len(offered), 5)
    assert f"— {len(events)} " in dialog.backupList.item(0).text()
    restore(dialog)
    assert desk.active_dialog is not dialog
    assert desk.tf is not None and desk.tf.path == path
    assert desk.tf.events(match_id) == events  # every event up to the backup is back
    assert desk.tf.checks.verify() is None
    kept = list(path.parent.glob(f"{path.name}.damaged-*"))
    assert len(kept) == 1 and kept[0].stat().st_size > 0  # the damaged file is kept aside
    assert "restored" in desk.last_message and kept[0].name in desk.last_message
    # The referee goes on recording in the restored file.
    desk.match.set_session(MatchSession(StoreMatchRecord(desk.tf, match_id), REFEREE))
    note(desk, "已从备份恢复")
    assert desk.tf.events(match_id)[-1].payload == {"text": "已从备份恢复"}


def test_an_older_backup_brings_back_the_events_up_to_it(
    desk: Any, recorded: tuple[Path, str, list]
) -> None:
    """The newest backup is damaged too: the store refuses it in the dialog, and the
    referee takes the one before (every event up to that backup, none invented)."""
    path, match_id, events = recorded
    newest, older = backups(path)[:2]
    truncate(newest.path)
    truncate(path)
    assert not desk.files.open_tournament(path, create=False)
    dialog = desk.active_dialog
    restore(dialog)
    assert desk.active_dialog is dialog
    assert f"{newest.path.name}: damaged" in dialog.errorLabel.text()  # the backup is refused
    assert desk.tf is None
    dialog.backupList.setCurrentRow(1)
    assert dialog.chosen() == older
    restore(dialog)
    restored = desk.tf.events(match_id)
    assert 0 < len(restored) < len(events) and restored == events[: len(restored)]
    assert restored == events_in(older.path, match_id)


def test_cancel_leaves_the_damaged_file_untouched(
    desk: Any, recorded: tuple[Path, str, list]
) -> None:
    path, _match_id, _events = recorded
    truncate(path)
    damaged = path.read_bytes()
    assert not desk.files.open_tournament(path, create=False)
    desk.active_dialog.reject()
    assert desk.tf is None and path.read_bytes() == damaged
    assert not list(path.parent.glob(f"{path.name}.damaged-*"))


def test_failed_write_keeps_the_note_in_its_dialog(desk: Any) -> None:
    """Full disk / read-only file: the note is not saved, the dialog stays open with
    the text and the message; once writable, the same note is saved."""
    start_clock(desk)
    read_only = TournamentFile.open(desk.tf.path, read_only=True)
    try:
        desk.session.record = StoreMatchRecord(read_only, desk.session.match_id)
        count = len(desk.session.events)
        dialog = note(desk, "场外观众喧哗")
        assert desk.active_dialog is dialog
        assert "Not saved" in dialog.ui.errorLabel.text()
        assert "read-only" in dialog.ui.errorLabel.text()
        assert dialog.ui.reasonCombo.currentText() == "场外观众喧哗"
        assert len(desk.tf.events(desk.session.match_id)) == count
        desk.session.record = StoreMatchRecord(desk.tf, desk.session.match_id)
        ok(dialog)
        assert desk.active_dialog is None
        assert desk.tf.events(desk.session.match_id)[-1].payload == {"text": "场外观众喧哗"}
        assert desk.tf.checks.verify() is None
    finally:
        read_only.close()
