"""The organizer view's collaborators, each on its own state: the display owns the derived
state and the standings' tables, the records import its last result, the exports their
jobs and progress; the pair and draw actions work through the tournament layer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtWidgets import QApplication

from referee_desk.tournament.model import Settings
from referee_desk.ui.organizer import OrganizerView
from tests.ui.test_organizer import GROUPS, INFO, SAMPLE_PAIRS, SAMPLES


@pytest.fixture
def alone(qtbot: Any, tmp_path: Path) -> Iterator[OrganizerView]:
    """The view without a main window, on a tournament file of its own with 12 pairs."""
    view = OrganizerView()
    qtbot.addWidget(view)
    view.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    assert view.pairs_actions.import_pairs(SAMPLE_PAIRS) == 12
    yield view
    view.exports.wait_for_exports()
    QApplication.processEvents()
    view.shown.close_file()


def test_the_display_owns_the_state_and_the_standings_tables(alone: OrganizerView) -> None:
    display = alone.display
    assert display.state is None and display.standings_models == {}  # not drawn yet
    alone.draw_actions.draw(GROUPS, 2026)
    display.refresh()
    assert display.state is not None and alone.state is display.state
    assert sorted(display.standings_models) == list("ABCDEF")
    assert alone.display.standings_models is display.standings_models
    assert set(display.standings_views) == set(display.standings_models)
    assert alone.ui.groupsLayout.count() == 6
    display.show_standings(None, {})  # nothing to show: the tables go
    assert display.standings_models == {} and alone.ui.groupsLayout.count() == 0


def test_pair_actions_register_select_and_remove_pairs(alone: OrganizerView) -> None:
    actions = alone.pairs_actions
    assert alone.pairs_model.rowCount() == 12
    assert actions.selected_pair() is None  # nothing selected
    alone.ui.pairsView.selectRow(2)
    chosen = actions.selected_pair()
    assert chosen is not None and chosen.pair_id == alone.pairs_model.id_at(2)
    assert actions.remove_pair(chosen.pair_id)
    assert alone.t is not None and chosen.pair_id not in alone.t.pair_map()
    assert alone.pairs_model.rowCount() == 11


def test_draw_actions_follow_the_chosen_match_and_assign_it(alone: OrganizerView) -> None:
    actions = alone.draw_actions
    actions.draw(Settings(), 1)
    alone.refresh()
    assert actions.selected_match_id() is None
    match_id = alone.matches_model.id_at(1)
    actions.select_match(match_id)
    assert actions.selected_match_id() == match_id
    assert actions.assign(match_id, table="3号桌", referee="王磊")
    QApplication.processEvents()  # the table repaints on the next turn of the loop
    assert alone.t is not None
    assert (
        alone.t.draw_table.match(match_id).table,
        alone.t.draw_table.match(match_id).referee,
    ) == ("3号桌", "王磊")
    assert actions.groups_needing_lots() == {}  # a knockout has no groups


def test_the_records_import_keeps_its_last_result(alone: OrganizerView) -> None:
    records = alone.records_import
    assert records.last_import is None
    alone.draw_actions.draw(GROUPS, 2026)
    alone.refresh()
    result = records.import_records(SAMPLES)
    assert result is not None and result.ok and records.last_import is result
    assert len(result.linked) == len(SAMPLES) and records.unlinked_records() == []


def test_the_exports_own_their_jobs_progress_and_opener(
    alone: OrganizerView, qtbot: Any, tmp_path: Path
) -> None:
    exports = alone.exports
    opened: list[QUrl] = []
    exports.open_url = opened.append
    assert exports.default_export_name("scoresheet") == f"{INFO.name}-scoresheet.pdf"
    out = tmp_path / "sheet.pdf"
    with qtbot.waitSignal(alone.export_finished, timeout=30000) as blocker:
        job = exports.export_document("scoresheet", out)
        assert job is not None and exports.jobs == [job]
    assert blocker.args == ["scoresheet", str(out)] and out.stat().st_size > 0
    assert exports.jobs == [] and exports.progress_dialog is None
    assert exports.progress_seen == [(0, 1, "scoresheet"), (1, 1, "scoresheet")]
    assert exports.open_button is not None
    exports.open_button.click()
    assert [u.toLocalFile() for u in opened] == [str(out)]
    # Before the draw there is nothing else to print: refused, nothing started.
    assert exports.export_document("results", tmp_path / "r.pdf") is None
    assert exports.jobs == [] and not (tmp_path / "r.pdf").exists()


def test_the_sections_change_by_keyboard_from_anywhere_in_the_view(
    qtbot: Any, alone: OrganizerView
) -> None:
    """Ctrl+PgDown / Ctrl+PgUp step through pairs, bracket, standings, matches (wrapping)."""
    from PySide6.QtCore import Qt

    alone.show()
    alone.activateWindow()
    qtbot.waitActive(alone)  # shortcuts go to the active window
    alone.ui.pairsView.setFocus()
    sections = alone.ui.sections
    assert sections.currentIndex() == 0
    window = alone.windowHandle()  # as typed: through the window, so shortcuts apply
    qtbot.keyClick(window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert sections.currentIndex() == 1
    qtbot.keyClick(window, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert sections.currentIndex() == sections.count() - 1


class _Changes(QObject):
    changed = Signal()


def test_the_parts_work_without_any_view(qtbot: Any, tmp_path: Path) -> None:
    """Issue 17 item 1: each part is given what it needs (the tournament shown, the form's
    widgets, the models, message and dialog functions, a change signal), never the view:
    here none exists, and the parts register pairs, draw, show and assign on their own."""
    from PySide6.QtWidgets import QGraphicsScene, QMessageBox, QWidget

    from referee_desk.tournament.repository import Tournament
    from referee_desk.ui.generated.ui_organizer_view import Ui_OrganizerView
    from referee_desk.ui.organizer.draw_actions import DrawActions
    from referee_desk.ui.organizer.models import OrganizerMatchesModel, OrganizerPairsModel
    from referee_desk.ui.organizer.pairs_actions import PairActions
    from referee_desk.ui.organizer.showing import OrganizerDisplay
    from referee_desk.ui.organizer.shown import ShownTournament

    form = QWidget()
    qtbot.addWidget(form)
    ui = Ui_OrganizerView()
    ui.setupUi(form)
    said: list[str] = []

    def say(title: str, text: str, icon: Any = None) -> QMessageBox:
        said.append(text)
        return QMessageBox()

    def no_dialog(dialog: Any, on_accept: Any = None) -> Any:
        raise AssertionError("no dialog here")

    shown = ShownTournament(None, say)
    pairs, matches, scene = OrganizerPairsModel(form), OrganizerMatchesModel(form), QGraphicsScene()
    ui.pairsView.setModel(pairs)
    ui.matchesView.setModel(matches)
    changes = _Changes()
    heard: list[bool] = []
    changes.changed.connect(lambda: heard.append(True))
    display = OrganizerDisplay(ui, shown, pairs, matches, scene, changes.changed, form)
    shown.repaint.connect(display.refresh)
    statuses: list[str] = []
    common: dict[str, Any] = {
        "need": lambda: shown.t,
        "refresh": display.refresh,
        "run_dialog": no_dialog,
        "show_message": say,
        "status": statuses.append,
    }
    pair_actions = PairActions(
        form, shown, pairs, ui.pairsView, show_box=lambda box: box,
        ask_before_closing_match=lambda proceed: proceed(), **common,
    )  # fmt: skip
    draw_actions = DrawActions(
        form, shown, matches, ui.matchesView, scene, state=lambda: display.state,
        show_bracket=lambda: None, **common,
    )  # fmt: skip
    matches.assign = draw_actions.record_assignment
    try:
        pair_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
        assert isinstance(shown.t, Tournament) and ui.titleLabel.text() == INFO.name
        assert pair_actions.import_pairs(SAMPLE_PAIRS) == 12 and pairs.rowCount() == 12
        draw_actions.draw(GROUPS, 2026)
        display.refresh()
        assert display.state is not None and sorted(display.standings_models) == list("ABCDEF")
        match_id = matches.id_at(0)
        assert draw_actions.assign(match_id, table="3号桌")
        QApplication.processEvents()
        assert shown.t.draw_table.match(match_id).table == "3号桌"
        assert heard and statuses and said == []
        assert not shown.open_file(tmp_path / "absent.sqlite")  # refused, worded, kept
        assert said and shown.t is not None
    finally:
        shown.close_file()
    assert shown.t is None and ui.titleLabel.text() == "No tournament file open"


def test_no_part_sees_the_view_through_a_host_interface() -> None:
    """The host interface the parts saw the view through had 34 members, then 7 for the
    records import alone; now the records import is given what it needs too, and the
    interface is gone: no part of the view imports the view's module or a host."""
    from referee_desk.ui import organizer

    folder = Path(organizer.__file__).parent
    assert not (folder / "host.py").exists()
    parts = ("showing", "pairs_actions", "draw_actions", "export_actions", "records_import")
    for name in parts:
        text = (folder / f"{name}.py").read_text(encoding="utf-8")
        assert "organizer.host" not in text and "organizer.view" not in text, name


def test_the_records_import_works_without_any_view(qtbot: Any, tmp_path: Path) -> None:
    """The records import is given the tournament shown, the state, the message and
    dialog functions: here no view exists, and it imports and links on its own."""
    from PySide6.QtWidgets import QMessageBox, QWidget

    from referee_desk.ui.organizer.records_import import RecordsImport
    from referee_desk.ui.organizer.shown import ShownTournament

    form = QWidget()
    qtbot.addWidget(form)
    said: list[str] = []

    def say(title: str, text: str, icon: Any = None) -> QMessageBox:
        said.append(text)
        return QMessageBox()

    def no_dialog(dialog: Any, on_accept: Any = None) -> Any:
        raise AssertionError("no dialog here")

    shown = ShownTournament(None, say)
    refreshed: list[bool] = []
    records = RecordsImport(
        form, shown, state=lambda: None, need=lambda: shown.t,
        refresh=lambda: refreshed.append(True), run_dialog=no_dialog, show_message=say,
    )  # fmt: skip
    try:
        assert records.import_records(SAMPLES) is None and said == []  # nothing shown
        shown.open_created(_drawn_cup(tmp_path))
        result = records.import_records(SAMPLES)
        assert result is not None and result.ok and records.last_import is result
        assert refreshed and said and records.unlinked_records() == []
        assert records.link_dialog() is None  # no state given: nothing to link to
    finally:
        shown.close_file()


def _drawn_cup(tmp_path: Path) -> Path:
    """A tournament file with the sample pairs, drawn in groups."""
    from referee_desk.tournament.pairs_io import read_pairs
    from referee_desk.tournament.repository import Tournament

    path = tmp_path / "cup.sqlite"
    t = Tournament.create(path, INFO, GROUPS)
    try:
        for row in read_pairs(SAMPLE_PAIRS):
            t.add_pair(*row)
        t.draw(draw_seed=2026)
    finally:
        t.close()
    return path
