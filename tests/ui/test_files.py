"""Opening files: a bad file gets a clear message and the desk stays usable; what is
committed survives closing; a failed write keeps the unsaved entry in its dialog."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from referee_desk.rules.seats import Side
from referee_desk.store import TournamentFile
from referee_desk.ui.app import open_desk
from referee_desk.ui.dialogs.violations import WrongPlayDialog
from referee_desk.ui.main_window import MainWindow
from referee_desk.ui.record import StoreMatchRecord, start_match
from referee_desk.ui.session import MatchSession
from tests.ui.conftest import MATCH_PAYLOAD, REFEREE, ok, play_opening_hand, start_clock


def _still_usable(desk: Any, match_id: str) -> None:
    assert desk.session is not None and desk.session.match_id == match_id
    assert desk.ui.actionBid.isEnabled() or desk.session.state.clock.started is False


def test_missing_file_is_created(window: Any, tmp_path: Path) -> None:
    path = tmp_path / "new-cup.sqlite"
    assert window.files.open_tournament(path)
    assert path.exists() and window.tf.match_ids() == []
    assert window.settings.last_file == str(path)


def test_missing_file_without_create_is_explained(desk: Any, tmp_path: Path) -> None:
    match_id = desk.session.match_id
    assert not desk.files.open_tournament(tmp_path / "nowhere.sqlite", create=False)
    assert "nowhere.sqlite" in desk.last_message
    _still_usable(desk, match_id)


def test_not_a_tournament_file(desk: Any, tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("这不是赛事文件\n", encoding="utf-8")
    match_id = desk.session.match_id
    assert not desk.files.open_tournament(bad)
    assert "not a Referee Desk tournament file" in desk.last_message
    _still_usable(desk, match_id)
    assert desk.message_box.isVisible()


def test_newer_schema(desk: Any, tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite"
    TournamentFile.open(newer).close()
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    assert not desk.files.open_tournament(newer)
    assert "newer" in desk.last_message
    assert desk.session is not None


def test_broken_hash_chain(desk: Any, tmp_path: Path, fake_time: Any) -> None:
    broken = tmp_path / "broken.sqlite"
    with TournamentFile.open(broken) as tf:
        record = start_match(tf, dict(MATCH_PAYLOAD), REFEREE, now=fake_time.now())
        session = MatchSession(record, REFEREE, clock=fake_time.now)
        session.submit("clock_started", {})
        session.submit("note", {"text": "原始备注"})
    conn = sqlite3.connect(broken)
    conn.execute("DROP TRIGGER events_append_only_update")  # a tamperer would
    conn.execute("UPDATE events SET payload = ? WHERE seq = 3", ('{"text":"篡改"}',))
    conn.commit()
    conn.close()
    assert not desk.files.open_tournament(broken)
    assert "broken.sqlite" in desk.last_message
    assert desk.session is not None


def test_committed_events_survive_and_the_clock_ran_while_closed(
    qtbot: Any, settings: Any, languages: Any, fake_time: Any, tmp_path: Path
) -> None:
    path = tmp_path / "cup.sqlite"
    first = MainWindow(settings, languages, monotonic=fake_time.monotonic)
    qtbot.addWidget(first)
    assert first.files.open_tournament(path)
    record = start_match(first.tf, dict(MATCH_PAYLOAD), REFEREE, now=fake_time.now())
    first.match.set_session(MatchSession(record, REFEREE, clock=fake_time.now))
    start_clock(first)
    play_opening_hand(first, qtbot)
    count = len(first.session.events)
    match_id = first.session.match_id
    first.close()  # the program goes away; the physical match continues
    fake_time.advance(30 * 60)
    second = MainWindow(settings, languages, monotonic=fake_time.monotonic)
    qtbot.addWidget(second)
    assert second.files.open_tournament(path)
    second.match.set_session(
        MatchSession(StoreMatchRecord(second.tf, match_id), REFEREE, clock=fake_time.now)
    )
    assert len(second.session.events) == count
    assert second.session.state.current_hand.status == "playing"
    second.display.clock.tick()
    assert second.ui.clockLabel.text() == "1:30:00"
    second.close()


def test_failed_write_keeps_the_entry_in_its_dialog(desk: Any, qtbot: Any) -> None:
    """The store refuses to write (read-only file): the dialog stays open with the entry."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    read_only = TournamentFile.open(desk.tf.path, read_only=True)
    try:
        desk.session.record = StoreMatchRecord(read_only, desk.session.match_id)
        dialog = desk.entries.open_violation(WrongPlayDialog)
        dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData("E"))
        dialog.ui.cardsSpin.setValue(3)
        count = len(desk.session.events)
        ok(dialog)
        assert desk.active_dialog is dialog
        assert "Not saved" in dialog.ui.errorLabel.text()
        assert len(desk.session.events) == count
        assert dialog.ui.cardsSpin.value() == 3  # the unsaved entry is still there
        desk.session.record = StoreMatchRecord(desk.tf, desk.session.match_id)
        ok(dialog)  # the file is writable again: the same entry is saved
        assert desk.active_dialog is None
        assert desk.session.state.current_hand.defenders_points == -30
    finally:
        read_only.close()


def test_desk_without_argument_opens_the_sample(window: Any, qtbot: Any) -> None:
    """A newcomer's desk: the sample tournament in a temporary copy, a match open at once
    (or, with no samples yet, the match chooser)."""
    from referee_desk.ui.sample import SAMPLE_DIR, sample_files

    window.files.close_tournament()
    open_desk(window, None)
    assert window.tf is not None
    assert not str(window.tf.path).startswith(str(SAMPLE_DIR))
    if sample_files():
        state = window.session.state
        assert window.session.events and state.end is None
        assert state.clock.running and state.current_hand.status == "playing"
        assert "-live-" in window.session.match_id  # a live copy; the samples stay as they are
        assert window.tf.checks.verify() is None
        assert window.ui.titleLabel.text()
    else:
        assert window.active_dialog is not None
        window.active_dialog.reject()


def test_desk_with_a_file_argument_asks_for_the_match(window: Any, tmp_path: Path) -> None:
    window.files.close_tournament()
    open_desk(window, str(tmp_path / "cup.sqlite"))
    assert window.tf is not None and (tmp_path / "cup.sqlite").exists()
    assert window.active_dialog is not None
    window.active_dialog.reject()
    assert Side.NS  # the desk is still there, with no match open
    assert window.session is None


def test_another_desk_recorded_first(desk: Any, qtbot: Any, fake_time: Any) -> None:
    """A stale desk is refused (AppendConflict), shows the other desk's entry, and the
    same entry then goes through on the second try."""
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    other = MatchSession(
        StoreMatchRecord(TournamentFile.open(desk.tf.path), desk.session.match_id),
        "李裁判",
        clock=fake_time.now,
    )
    try:
        other.submit("note", {"text": "另一台电脑的记录"})
        dialog = desk.entries.open_violation(WrongPlayDialog)
        ok(dialog)
        assert desk.active_dialog is dialog
        assert "another desk" in dialog.ui.errorLabel.text()
        assert desk.session.events[-1].payload == {"text": "另一台电脑的记录"}
        ok(dialog)
        assert desk.active_dialog is None
        assert [e.type for e in desk.tf.events(desk.session.match_id)][-2:] == [
            "note",
            "wrong_play",
        ]
    finally:
        other.record.tf.close()
