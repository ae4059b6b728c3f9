"""The organizer view in the real main window: a real tournament file made through it,
the sample match records imported, the bracket and standings shown, exports read back."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QDialogButtonBox, QMessageBox

from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.model import Decision, Format, Settings, TournamentInfo
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status
from referee_desk.ui.organizer import OrganizerView
from referee_desk.ui.organizer.bracket import match_boxes
from referee_desk.ui.organizer.dialogs import OrganizerDrawDialog, split_names
from referee_desk.ui.organizer.models import OrganizerMatchesModel

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_events").glob("*.jsonl"))
SAMPLE_PAIRS = ROOT / "docs" / "tournament-demo" / "sample_pairs.csv"

INFO = TournamentInfo(
    "桂林市2026年职工拖拉机锦标赛",
    "2026-11-28",
    "2026-11-29",
    "桂林理工大学体育馆",
    "桂林市总工会",
    tables=("1号桌", "2号桌", "3号桌", "4号桌", "5号桌", "6号桌"),
    referees=("陈建国", "王磊", "李静"),
)
GROUPS = Settings(
    format=Format.GROUPS_KNOCKOUT, group_count=6, advance_per_group=1, third_place=True
)


def ok(dialog: Any) -> None:
    dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()
    QApplication.processEvents()


def sample_openings() -> list[tuple[str, dict]]:
    out = []
    for path in SAMPLES:
        first = json.loads(path.read_text("utf-8").splitlines()[0])
        out.append((first["match_id"], first["payload"]))
    return out


def drawn_match_of_record(view: Any, payload: dict) -> str:
    """The drawn group match whose two pairs sat at the sample's table (names in the record)."""
    t = view.t
    by_names = {(p.player1, p.player2): p.pair_id for p in t.pairs.all()}
    seats = payload["seats"]
    members = {by_names[(seats["N"], seats["S"])], by_names[(seats["E"], seats["W"])]}
    for m in t.draw_table.matches():
        if m.group is not None and {m.slot_a.pair_id, m.slot_b.pair_id} == members:
            return m.match_id
    raise AssertionError(f"no drawn match for {members}")


def record_ko(view: Any, folder: Path, match_id: str, way: str, winner: str = "NS") -> Path:
    """A desk's record of a knockout match (simulated play), written as JSON Lines."""
    events = simulate_match(match_id, view.t.opening_payload(match_id), winner, way, 1)
    path = folder / f"{match_id}-{way}-{winner}.jsonl"
    write_jsonl(events, path)
    return path


@pytest.fixture
def organizer(window: Any) -> Iterator[OrganizerView]:
    view = window.organizer  # the main window installs it beside the match view
    yield view
    view.exports.wait_for_exports()
    QApplication.processEvents()


def _open_tab(window: Any, view: OrganizerView) -> None:
    window.organizer_tabs.setCurrentWidget(view)
    QApplication.processEvents()


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


def _samples_cup(view: OrganizerView, tmp_path: Path) -> None:
    """docs/tournament-api.md demo: sample pairs, six groups of two, records linked on import."""
    view.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    assert view.pairs_actions.import_pairs(SAMPLE_PAIRS) == 12
    view.draw_actions.draw(GROUPS, 2026)
    view.refresh()
    result = view.records_import.import_records(SAMPLES)
    assert result is not None and result.ok
    assert {x.record_id: x.match_id for x in result.linked} == {
        record_id: drawn_match_of_record(view, payload) for record_id, payload in sample_openings()
    }


# ---------------------------------------------------------------- installing


def test_install_adds_a_tab_menus_and_follows_the_window_file(
    window: Any, organizer: OrganizerView, tmp_path: Path
) -> None:
    tabs = window.organizer_tabs
    assert window.centralWidget() is tabs and tabs.count() == 2
    assert tabs.widget(1) is organizer
    # The match view still works in its tab.
    assert tabs.widget(0).findChild(type(window.ui.bidButton), "bidButton") is window.ui.bidButton
    file_menu = [a.menu() for a in window.ui.menuFile.actions() if a.menu() is not None]
    assert organizer.export_menu in file_menu
    assert len(organizer.export_menu.actions()) == 6
    assert organizer.tournament_menu.menuAction() in window.menuBar().actions()
    # The window's test file is a desk file without a tournament: said, and not changed.
    assert organizer.t is None
    assert organizer.ui.titleLabel.text() == "This file holds no tournament"
    assert not organizer.action_draw.isEnabled() and organizer.action_new.isEnabled()
    tables = {
        r[0] for r in window.tf.connection.execute("SELECT name FROM sqlite_master").fetchall()
    }
    assert "tournament_info" not in tables
    # A tournament made in the view is opened in the window too (one file, shared).
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    assert Path(window.tf.path) == tmp_path / "cup.sqlite"
    assert organizer.t is not None and organizer.t.file is window.tf
    assert organizer.ui.titleLabel.text() == INFO.name
    # The window opening another file is followed when the tab is shown.
    window.files.open_tournament(tmp_path / "other.sqlite")
    _open_tab(window, organizer)
    assert organizer.t is None and organizer.ui.titleLabel.text() == "This file holds no tournament"


def test_export_actions_are_offered_only_when_there_is_something_to_print(
    organizer: OrganizerView, tmp_path: Path
) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    actions = organizer.export_actions
    assert not actions["bracket"].isEnabled() and not actions["results"].isEnabled()
    assert actions["scoresheet"].isEnabled()
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    organizer.draw_actions.draw(Settings(third_place=True), 1)
    organizer.refresh()
    assert all(a.isEnabled() for a in actions.values())
    assert not organizer.action_add_pair.isEnabled()  # the draw is made (repository)


# ---------------------------------------------------------------- pairs


def test_pairs_added_edited_imported_and_refusals_shown(
    organizer: OrganizerView, qtmodeltester: Any, tmp_path: Path
) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    dialog = organizer.pairs_actions.add_pair_dialog()
    dialog.ui.player1Edit.setText("张伟")
    dialog.ui.player2Edit.setText("王芳")
    dialog.ui.clubEdit.setText("桂林电子")
    dialog.ui.seedSpin.setValue(1)
    ok(dialog)
    assert organizer.active_dialog is None
    # A second pair with the same seed is refused by the tournament layer; the dialog stays.
    dialog = organizer.pairs_actions.add_pair_dialog()
    dialog.ui.player1Edit.setText("陈静")
    dialog.ui.player2Edit.setText("赵敏")
    dialog.ui.seedSpin.setValue(1)
    ok(dialog)
    assert organizer.active_dialog is dialog and "seed 1" in dialog.ui.errorLabel.text()
    dialog.ui.seedSpin.setValue(0)  # "none"
    ok(dialog)
    assert organizer.active_dialog is None
    # A list with the Chinese headers of pairs_io.
    listing = tmp_path / "pairs.csv"
    with open(listing, "w", encoding="utf-8-sig", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["选手1", "选手2", "俱乐部", "种子"])
        w.writerow(["周杰", "徐明", "叠彩水务", "2"])
        w.writerow(["马超", "胡军", "临桂教育", ""])
    assert organizer.pairs_actions.import_pairs(listing) == 2
    model = organizer.pairs_model
    qtmodeltester.check(model)
    assert model.rowCount() == 4
    names = [model.index(r, 1).data() for r in range(4)]
    assert names == ["张伟", "陈静", "周杰", "马超"]
    assert model.index(2, 4).data() == "2" and model.index(3, 4).data() == ""
    # Edit: select the row, change the club.
    organizer.ui.pairsView.selectRow(1)
    dialog = organizer.pairs_actions.edit_pair_dialog()
    assert dialog.ui.player1Edit.text() == "陈静"
    dialog.ui.clubEdit.setText("象山供电")
    ok(dialog)
    assert organizer.t.pair_map()[2].club == "象山供电"
    assert model.index(1, 3).data() == "象山供电"
    # A list that cannot be read: a clear message, nothing registered.
    bad = tmp_path / "bad.csv"
    bad.write_text("name,other\nx,y\n", encoding="utf-8")
    assert organizer.pairs_actions.import_pairs(bad) == 0
    assert "player1" in organizer.last_message and model.rowCount() == 4
    assert organizer.message_box.icon() == QMessageBox.Icon.Warning


def test_pair_list_from_xlsx(organizer: OrganizerView, tmp_path: Path) -> None:
    from openpyxl import Workbook

    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    wb = Workbook()
    ws = wb.active
    ws.append(["player1", "player2", "club", "seed"])
    ws.append(["林峰", "高翔", "桂林理工", 1])
    ws.append(["梁斌", "郑浩", "灵川农信", None])
    wb.save(tmp_path / "pairs.xlsx")
    assert organizer.pairs_actions.import_pairs(tmp_path / "pairs.xlsx") == 2
    assert [p.player1 for p in organizer.t.pairs.all()] == ["林峰", "梁斌"]
    assert organizer.t.pairs.all()[0].seed == 1


# ---------------------------------------------------------------- the draw, the bracket


def test_draw_dialog_and_the_bracket_on_screen(
    organizer: OrganizerView, qtmodeltester: Any, tmp_path: Path
) -> None:
    """Single elimination of 12 with a third-place match: 16 lines, 4 byes to the top seeds."""
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    dialog = organizer.draw_actions.draw_dialog()
    assert isinstance(dialog, OrganizerDrawDialog)
    assert "12" in dialog.ui.seedingLabel.text()
    dialog.ui.formatCombo.setCurrentIndex(
        dialog.ui.formatCombo.findData(Format.SINGLE_ELIMINATION.value)
    )
    assert not dialog.ui.groupCountSpin.isEnabled()
    dialog.ui.thirdPlaceCheck.setChecked(True)
    dialog.ui.drawSeedSpin.setValue(2026)
    ok(dialog)
    assert organizer.active_dialog is None, dialog.error
    t = organizer.t
    assert t.drawn and t.draw_seed == 2026 and t.settings.third_place
    assert organizer.ui.sections.currentWidget() is organizer.ui.bracketTab
    boxes = {b.match_id: b for b in match_boxes(organizer.scene)}
    assert set(boxes) == {m.match_id for m in t.draw_table.matches()}
    state = t.state()
    byes = [s for s in state.matches if s.status is Status.BYE]
    assert len(byes) == 4
    pm = t.pair_map()
    for s in byes:
        # The bye goes to a top seed, whose name and seed the box shows.
        assert pm[s.winner].seed in (1, 2, 3, 4)
        assert f"[{pm[s.winner].seed}] {pm[s.winner].name}" in boxes[s.match.match_id].texts()
    final = boxes["KO-R4-M001"]
    assert any("winner of KO-R3-M001" in x for x in final.texts())
    third = boxes["KO-3P"]
    assert third.rect().top() > max(b.rect().bottom() for b in boxes.values() if b is not third)
    # Each later box sits between the two it is fed by.
    r2 = boxes["KO-R2-M001"].rect().center().y()
    assert boxes["KO-R1-M001"].rect().center().y() < r2 < boxes["KO-R1-M002"].rect().center().y()
    qtmodeltester.check(organizer.matches_model)
    # The draw cannot be made twice: the button is off and the layer refuses.
    assert not organizer.ui.drawButton.isEnabled()
    with pytest.raises(ValueError, match="draw"):
        organizer.draw_actions.draw(Settings(), 1)


def test_draw_dialog_tie_break_order_and_refusal(organizer: OrganizerView, tmp_path: Path) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    dialog = organizer.draw_actions.draw_dialog()
    dialog.ui.formatCombo.setCurrentIndex(
        dialog.ui.formatCombo.findData(Format.GROUPS_KNOCKOUT.value)
    )
    dialog.ui.groupCountSpin.setValue(3)
    dialog.ui.advanceSpin.setValue(5)  # more than a group of 4 holds
    dialog.ui.tieBreakList.setCurrentRow(2)  # head-to-head before level difference
    dialog.ui.upButton.click()
    assert dialog.tie_breaks() == ["wins", "head_to_head", "level_diff", "lots"]
    dialog.ui.tieBreakList.setCurrentRow(2)
    dialog.ui.downButton.click()  # level difference below lots
    ok(dialog)
    assert organizer.active_dialog is dialog
    assert "lots must be the last" in dialog.ui.errorLabel.text()
    dialog.ui.tieBreakList.setCurrentRow(3)
    dialog.ui.upButton.click()
    ok(dialog)
    assert organizer.active_dialog is dialog and "cannot advance" in dialog.error
    assert not organizer.t.drawn
    dialog.ui.advanceSpin.setValue(2)
    ok(dialog)
    assert organizer.active_dialog is None
    assert [t.value for t in organizer.t.settings.tie_breaks] == [
        "wins",
        "head_to_head",
        "level_diff",
        "lots",
    ]
    assert organizer.ui.tieBreakLabel.text() == (
        "Tie-break order: 1. match wins > 2. head-to-head > 3. level difference at the end"
        " > 4. drawing of lots"
    )
    assert sorted(organizer.display.standings_models) == ["A", "B", "C"]


# ---------------------------------------------------------------- results from desks


def test_sample_records_decide_the_groups_and_feed_the_bracket(
    window: Any, organizer: OrganizerView, qtmodeltester: Any, tmp_path: Path
) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    organizer.draw_actions.draw(GROUPS, 2026)
    organizer.refresh()
    result = organizer.records_import.import_records(SAMPLES)
    # The summary shows what came in, and which drawn match each desk's own id counts for.
    events = sum(result.added.values())
    assert f"Added: {events} events in {len(SAMPLES)} matches." in organizer.last_message
    assert "Conflicts: 0." in organizer.last_message
    pm = organizer.t.pair_map()
    for record_id, payload in sample_openings():
        match = organizer.t.draw_table.match(drawn_match_of_record(organizer, payload))
        a, b = match.slot_a.pair_id, match.slot_b.pair_id
        assert (
            f"Record {record_id} counts for {match.match_id} (pairs #{a} and #{b})."
            in organizer.last_message
        )
        assert {pm[a].player1, pm[b].player1} <= set(payload["seats"].values())
    assert organizer.records_import.unlinked_records() == []
    state = organizer.state
    # Every group is decided; each standings table shows the layer's ranking.
    assert len(organizer.display.standings_models) == 6
    for standings in state.standings:
        model = organizer.display.standings_models[standings.group]
        qtmodeltester.check(model)
        assert [model.id_at(r) for r in range(model.rowCount())] == [
            row.pair_id for row in standings.rows
        ]
        winner = standings.rows[0]
        assert model.index(0, 0).data() == "1"
        assert model.index(0, 5).data() == f"{winner.level_diff:+d}"
    # 8.10 / 8.8: the matches list names the way the group matches were decided.
    model = organizer.matches_model
    ways = {model.index(r, 9).data() for r in range(model.rowCount())}
    assert "forfeit (8.10)" in ways and "disqualification (8.8)" in ways
    # The knockout now shows the group winners (by group rank) in its boxes.
    boxes = {b.match_id: b for b in match_boxes(organizer.scene)}
    pm = organizer.t.pair_map()
    for s in state.matches:
        if s.match.stage == "KO" and s.match.round == 1:
            assert pm[s.pair_a].name in " ".join(boxes[s.match.match_id].texts())
    # Importing the same files again changes nothing and says so.
    again = organizer.records_import.import_records(SAMPLES)
    assert not again.added and "Added: 0 events in 0 matches." in organizer.last_message


def test_knockout_marks_forfeit_and_held_matches(organizer: OrganizerView, tmp_path: Path) -> None:
    """8.10: a forfeit win is marked; 8.11: a match with a ruling pending holds its branch."""
    _samples_cup(organizer, tmp_path)
    ready = [s.match.match_id for s in organizer.state.matches if s.status is Status.READY]
    assert len(ready) == 2
    forfeit = record_ko(organizer, tmp_path, ready[0], "forfeit")
    pending = record_ko(organizer, tmp_path, ready[1], "pending")
    result = organizer.records_import.import_records([forfeit, pending])
    assert result.ok and set(result.added) == set(ready)
    boxes = {b.match_id: b for b in match_boxes(organizer.scene)}
    state = organizer.state
    won = state.match(ready[0])
    assert won.decided_by is Decision.FORFEIT
    assert boxes[ready[0]].content.mark == "W/O (forfeit)"
    assert "W/O (forfeit)" in boxes[ready[0]].texts()
    held = state.match(ready[1])
    assert held.status is Status.HELD
    assert boxes[ready[1]].content.held and boxes[ready[1]].status is Status.HELD
    assert "held: ruling pending" in boxes[ready[1]].texts()
    # The next match of the held branch waits for the ruling.
    nxt = next(s for s in state.matches if ready[1] in (s.match.slot_a.ref, s.match.slot_b.ref))
    assert nxt.status is Status.WAITING
    assert any(f"winner of {ready[1]}" in x for x in boxes[nxt.match.match_id].texts())
    row = organizer.matches_model.row_of(ready[1])
    assert organizer.matches_model.index(row, 6).data() == "held: committee ruling pending"
    assert organizer.matches_model.index(row, 6).data(Qt.ItemDataRole.ForegroundRole) is not None


def test_conflicting_records_are_reported_not_guessed(
    organizer: OrganizerView, tmp_path: Path
) -> None:
    _samples_cup(organizer, tmp_path)
    match_id = next(s.match.match_id for s in organizer.state.matches if s.status is Status.READY)
    first = record_ko(organizer, tmp_path, match_id, "passed_a", "NS")
    other = record_ko(organizer, tmp_path, match_id, "passed_a", "EW")
    assert organizer.records_import.import_records([first]).ok
    winner = organizer.state.match(match_id).winner
    result = organizer.records_import.import_records([other])
    assert result is not None and [c.match_id for c in result.conflicts] == [match_id]
    assert "Conflicts: 1." in organizer.last_message
    assert f"Conflict in match {match_id}" in organizer.last_message
    assert organizer.message_box.icon() == QMessageBox.Icon.Warning
    # The first record still counts; the view keeps working.
    assert organizer.state.match(match_id).winner == winner
    organizer.shown.reload()
    assert organizer.state.match(match_id).winner == winner


def test_two_records_of_one_match_are_linked_by_hand(
    organizer: OrganizerView, tmp_path: Path
) -> None:
    """Two desks recorded the same knockout match under their own ids: not guessed; the
    summary says why and the organizer links one with the dialog."""
    _samples_cup(organizer, tmp_path)
    match_id = next(s.match.match_id for s in organizer.state.matches if s.status is Status.READY)
    opening = organizer.t.opening_payload(match_id)
    paths = []
    for record_id, winner in (("DESK-A", "NS"), ("DESK-B", "EW")):
        paths.append(tmp_path / f"{record_id}.jsonl")
        write_jsonl(simulate_match(record_id, opening, winner, "passed_a", 1), paths[-1])
    result = organizer.records_import.import_records(paths)
    assert result is not None and result.ok and not result.linked
    assert "DESK-A (pairs #" in organizer.last_message
    assert f"of {match_id} are also named by record DESK-B" in organizer.last_message
    assert organizer.records_import.unlinked_records() == ["DESK-A", "DESK-B"]
    dialog = organizer.records_import.link_dialog()
    dialog.choose("DESK-B", match_id)
    ok(dialog)
    assert organizer.active_dialog is None, dialog.error
    st = organizer.state.match(match_id)
    assert st.status is Status.DECIDED and st.winner == st.pair_b  # DESK-B: E–W won
    assert organizer.records_import.unlinked_records() == ["DESK-A"]


def test_unreadable_record_file_is_explained(organizer: OrganizerView, tmp_path: Path) -> None:
    _samples_cup(organizer, tmp_path)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("this is not a record\n", encoding="utf-8")
    organizer.records_import.import_records([junk])
    assert organizer.message_box is not None
    assert "junk.jsonl" in organizer.last_message
    assert organizer.state is not None  # still showing the tournament


# ---------------------------------------------------------------- assignment


def test_assignment_to_tables_and_referees(
    organizer: OrganizerView, qtbot: Any, tmp_path: Path
) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    organizer.draw_actions.draw(Settings(third_place=True), 3)
    organizer.refresh()
    organizer.ui.sections.setCurrentWidget(organizer.ui.matchesTab)
    model = organizer.matches_model
    match_id = "KO-R2-M003"
    # Through the table's editor, as the organizer would: double-click, choose, Enter.
    row = model.row_of(match_id)
    view = organizer.ui.matchesView
    index = model.index(row, OrganizerMatchesModel.TABLE)
    assert index.data(CHOICES) == list(INFO.tables)
    view.setCurrentIndex(index)
    view.edit(index)
    editor = view.findChild(QComboBox)
    assert editor is not None and editor.count() == len(INFO.tables)
    editor.setCurrentText("5号桌")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert organizer.t.draw_table.match(match_id).table == "5号桌"
    assert model.index(row, OrganizerMatchesModel.TABLE).data() == "5号桌"
    # The call used by the menu and tests, and the bracket box follows.
    assert organizer.draw_actions.assign(match_id, referee="李静")
    qtbot.waitUntil(
        lambda: any(
            "李静" in x
            for b in match_boxes(organizer.scene)
            if b.match_id == match_id
            for x in b.texts()
        ),
        timeout=2000,
    )
    assert organizer.t.draw_table.match(match_id).referee == "李静"


CHOICES = int(Qt.ItemDataRole.UserRole) + 2


def test_assignment_refused_on_a_read_only_file(
    organizer: OrganizerView, window: Any, tmp_path: Path
) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    organizer.draw_actions.draw(Settings(), 3)
    window.files.close_tournament()
    from referee_desk.store.tournament_file import TournamentFile

    tf = TournamentFile.open(tmp_path / "cup.sqlite", create=False, read_only=True)
    try:
        window.files.tf = tf
        organizer.shown.reload()
        assert not organizer.action_import_records.isEnabled()
        assert not organizer.draw_actions.assign("KO-R1-M002", table="6号桌")
        assert "read-only" in organizer.last_message
        assert organizer.state is not None
    finally:
        window.files.tf = None
        tf.close()


# ---------------------------------------------------------------- exports


def _export(organizer: OrganizerView, qtbot: Any, kind: str, path: Path, match_id=None) -> str:
    with qtbot.waitSignal(organizer.export_finished, timeout=30000) as blocker:
        job = organizer.exports.export_document(kind, path, match_id)
        assert job is not None
    assert blocker.args == [kind, str(path)]
    return blocker.args[1]


def test_every_document_is_exported_with_progress_and_can_be_opened(
    organizer: OrganizerView, qtbot: Any, tmp_path: Path
) -> None:
    _samples_cup(organizer, tmp_path)
    opened: list[Any] = []
    organizer.exports.open_url = opened.append
    out = tmp_path / "out"
    out.mkdir()
    pm = organizer.t.pair_map()
    # Bracket sheet: one sheet per stage and group, names in the cells.
    _export(organizer, qtbot, "bracket", out / "bracket.xlsx")
    steps = organizer.exports.progress_seen
    assert steps[-1][0] == steps[-1][1] == len(steps)  # one call per sheet, ending at total
    wb = load_workbook(out / "bracket.xlsx")
    assert any("Knockout" in n for n in wb.sheetnames)
    assert "小组 Groups" in wb.sheetnames  # every group on one sheet (issue 11)
    cells = " ".join(
        str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value
    )
    assert all(f"{g}组 Group {g}" in cells for g in "ABCDEF")
    assert INFO.name in cells and all(p.player1 in cells for p in pm.values())
    # The result is offered to open; "Open" hands the file to the desktop.
    assert organizer.last_message == f"Written: {out / 'bracket.xlsx'}"
    organizer.exports.open_button.click()
    assert [u.toLocalFile() for u in opened] == [str(out / "bracket.xlsx")]
    # Results: the tournament, the pairs, the ways the groups were decided (Chinese text).
    _export(organizer, qtbot, "results", out / "results.pdf")
    assert organizer.exports.progress_seen[-1][0] == organizer.exports.progress_seen[-1][1] > 1
    text = _pdf_text(out / "results.pdf")
    assert INFO.name in text and "弃权" in text and "取消资格" in text
    assert all(p.player1 in text for p in pm.values())
    # Match report of the selected match (a record kept under a desk's id, linked).
    target = next(
        s.match.match_id
        for s in organizer.state.matches
        if s.decided_by is Decision.DISQUALIFICATION
    )
    organizer.draw_actions.select_match(target)
    assert organizer.draw_actions.selected_match_id() == target
    _export(
        organizer, qtbot, "match", out / "match.pdf", organizer.draw_actions.selected_match_id()
    )
    text = _pdf_text(out / "match.pdf")
    record = organizer.t.file.events(organizer.t.record_id(target))
    assert record[-1].hash[:16] in text.replace("\n", "")
    assert "8.8" in text
    # Titled by the drawn match with its table, the desk's record id beside (issue 11 item 3).
    drawn = organizer.t.draw_table.match(target)
    assert f"比赛报告 Match report · {target}" in text and drawn.table in text
    assert organizer.t.record_id(target) in text
    # Round pack of round 1 and the player index, from the same menu (issue 11 item 9).
    _export(organizer, qtbot, "round_pack", out / "round1.pdf")
    text = _pdf_text(out / "round1.pdf")
    assert "对阵表" in text and all(p.player1 in text for p in pm.values())
    _export(organizer, qtbot, "players", out / "players.pdf")
    text = _pdf_text(out / "players.pdf")
    assert all(p.player1 in text and p.player2 in text for p in pm.values())
    # Scoresheet: blank to fill by hand, pre-filled with the selected match's header.
    ready = next(s for s in organizer.state.matches if s.status is Status.READY)
    organizer.draw_actions.select_match(ready.match.match_id)
    _export(organizer, qtbot, "scoresheet", out / "sheet.pdf", ready.match.match_id)
    text = _pdf_text(out / "sheet.pdf")
    assert ready.match.match_id in text and pm[ready.pair_a].player1 in text
    assert ready.match.table in text


def test_export_failures_are_explained_and_the_view_stays_usable(
    organizer: OrganizerView, qtbot: Any, tmp_path: Path
) -> None:
    _samples_cup(organizer, tmp_path)
    # A match without a record: refused at once with the reason.
    waiting = next(s.match.match_id for s in organizer.state.matches if s.status is Status.READY)
    assert organizer.exports.export_document("match", tmp_path / "m.pdf", waiting) is None
    assert f"Match {waiting} has no record" in organizer.last_message
    # A folder that does not exist: the worker's failure comes back as a message.
    with qtbot.waitSignal(organizer.export_failed, timeout=30000) as blocker:
        organizer.exports.export_document("results", tmp_path / "missing" / "r.pdf")
    assert blocker.args[0] == "results"
    assert "could not be written" in organizer.last_message
    assert organizer.exports.progress_dialog is None
    assert not (tmp_path / "missing").exists()
    # Still usable: the next export works.
    _export(organizer, qtbot, "bracket", tmp_path / "b.xlsx")
    assert (tmp_path / "b.xlsx").stat().st_size > 0


def test_split_names_accepts_chinese_commas() -> None:
    assert split_names("1号桌，2号桌、3号桌, ,4号桌") == ("1号桌", "2号桌", "3号桌", "4号桌")


def test_new_tournament_dialog_refuses_without_a_name(
    organizer: OrganizerView, tmp_path: Path
) -> None:
    from referee_desk.ui.organizer.dialogs import OrganizerNewDialog

    made: list[Any] = []
    dialog = OrganizerNewDialog(made.append, organizer)
    dialog.ui.tablesEdit.setText("1号桌，2号桌")
    dialog.accept()
    assert "needs a name" in dialog.error and not made
    dialog.ui.nameEdit.setText("桂林杯")
    dialog.accept()
    assert made[0].name == "桂林杯" and made[0].tables == ("1号桌", "2号桌")
    dialog.deleteLater()


# ---------------------------------------------------------------- language, standalone


def test_language_switch_needs_no_restart(
    window: Any, organizer: OrganizerView, languages: Any, tmp_path: Path
) -> None:
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    organizer.draw_actions.draw(Settings(third_place=True), 5)
    organizer.refresh()
    header = Qt.Orientation.Horizontal
    assert window.organizer_tabs.tabText(1) == "Tournament"
    languages.apply("zh_CN")
    assert window.organizer_tabs.tabText(0) == "比赛"
    assert window.organizer_tabs.tabText(1) == "赛事"
    assert organizer.export_actions["bracket"].text().startswith("对阵表")
    assert organizer.ui.drawButton.text() == "种子与抽签…"
    assert organizer.matches_model.headerData(2, header) == "桌"
    assert organizer.pairs_model.headerData(4, header) == "种子"
    boxes = {b.match_id: b for b in match_boxes(organizer.scene)}
    assert any("胜者" in x for x in boxes["KO-R4-M001"].texts())
    languages.apply("en")
    assert organizer.ui.drawButton.text() == "Seeding and draw…"
    assert organizer.matches_model.headerData(2, header) == "Table"
    assert any("winner of" in x for x in boxes_texts(organizer, "KO-R4-M001"))


def boxes_texts(view: OrganizerView, match_id: str) -> list[str]:
    return next(b for b in match_boxes(view.scene) if b.match_id == match_id).texts()


def test_the_view_alone_opens_its_own_file(qtbot: Any, languages: Any, tmp_path: Path) -> None:
    view = OrganizerView()
    qtbot.addWidget(view)
    assert view.ui.titleLabel.text() == "No tournament file open"
    view.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    try:
        assert view.t is not None and view.ui.titleLabel.text() == INFO.name
        assert view.pairs_actions.import_pairs(SAMPLE_PAIRS) == 12
        # Not a tournament file: explained, the open one stays.
        (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
        assert not view.shown.open_file(tmp_path / "notes.txt")
        assert "not a Referee Desk tournament file" in view.last_message
        assert view.t is not None and len(view.t.pairs.all()) == 12
    finally:
        view.shown.close_file()
    assert view.t is None


def test_a_three_way_tie_asks_for_the_drawing_of_lots(
    organizer: OrganizerView, tmp_path: Path
) -> None:
    """Issue 6: standings by match wins, then the level difference at the end, then
    head-to-head, then a recorded drawing of lots. A cycle (1 beats 2, 2 beats 3, 3 beats 1)
    with equal margins leaves all three tied until the lots are recorded."""
    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    for p1, p2 in (("张伟", "王芳"), ("陈静", "赵敏"), ("周杰", "徐明")):
        organizer.t.add_pair(p1, p2)
    organizer.draw_actions.draw(
        Settings(format=Format.GROUPS_KNOCKOUT, group_count=1, advance_per_group=2), 9
    )
    organizer.refresh()
    assert not organizer.action_lots.isEnabled()
    beats = {(1, 2), (2, 3), (3, 1)}
    files = []
    for m in organizer.t.draw_table.matches():
        if m.group is None:
            continue
        a, b = m.slot_a.pair_id, m.slot_b.pair_id
        side = "NS" if (a, b) in beats else "EW"
        files.append(record_ko(organizer, tmp_path, m.match_id, "passed_a", side))
    assert organizer.records_import.import_records(files).ok
    model = organizer.display.standings_models["A"]
    notes = {model.index(r, 7).data() for r in range(model.rowCount())}
    assert notes == {"tied: a drawing of lots is needed"}
    assert organizer.action_lots.isEnabled() and organizer.ui.lotsButton.isEnabled()
    assert "tied" in organizer.ui.problemsLabel.text()
    final = next(s for s in organizer.state.matches if s.match.stage == "KO")
    assert final.status is Status.WAITING
    dialog = organizer.draw_actions.lots_dialog()
    assert sorted(dialog.spins) == [1, 2, 3]
    dialog.spins[1].setValue(2)  # two pairs with lot 2: refused in place
    ok(dialog)
    assert organizer.active_dialog is dialog and "different lot" in dialog.error
    dialog.spins[3].setValue(1)
    dialog.spins[1].setValue(3)
    dialog.spins[2].setValue(2)
    ok(dialog)
    assert organizer.active_dialog is None, dialog.error
    model = organizer.display.standings_models["A"]
    assert [model.id_at(r) for r in range(model.rowCount())] == [3, 2, 1]
    assert [model.index(r, 6).data() for r in range(3)] == ["1", "2", "3"]
    assert not organizer.action_lots.isEnabled()
    final = next(s for s in organizer.state.matches if s.match.stage == "KO")
    assert final.status is Status.READY and {final.pair_a, final.pair_b} == {3, 2}


def test_results_recorded_in_the_match_tab_show_at_once(
    window: Any, organizer: OrganizerView, tmp_path: Path
) -> None:
    """The bracket follows the referee's entries in the same file (live results)."""
    from referee_desk.ui.record import start_match
    from referee_desk.ui.session import MatchSession

    organizer.pairs_actions.create_tournament(tmp_path / "cup.sqlite", INFO)
    organizer.pairs_actions.import_pairs(SAMPLE_PAIRS)
    organizer.draw_actions.draw(Settings(), 4)
    organizer.refresh()
    match_id = next(s.match.match_id for s in organizer.state.matches if s.status is Status.READY)
    payload = organizer.t.opening_payload(match_id)
    record = start_match(window.tf, payload, payload["referee"] or "王磊", match_id=match_id)
    window.match.set_session(MatchSession(record, "王磊"))
    _open_tab(window, organizer)  # showing the tab reads the records again
    assert organizer.state.match(match_id).status is Status.PLAYING
    window.organizer_tabs.setCurrentIndex(0)
    window.ui.actionPause.trigger()  # the clock starts: an entry through the undo stack
    assert window.session.state.clock.running
    _open_tab(window, organizer)
    # Visible organizer: an entry refreshes it without switching tabs.
    before = organizer.state
    events = window.session.submit_many([("note", {"text": "比赛开始"})])
    window.entries.push_entry(events, "Note")
    assert organizer.state is not before
    row = organizer.matches_model.row_of(match_id)
    assert organizer.matches_model.index(row, 6).data() == "playing"


def test_level_two_of_the_presets_is_shown_as_two() -> None:
    """RULES 12.1: the presets start at level 2; the organizer's screens must not show 3."""
    from referee_desk.ui.organizer.texts import level_text

    assert level_text(-1) == "2"
    assert level_text(0) == "3"
    assert level_text(11) == "A"


def test_the_organizer_buttons_share_the_row_on_a_small_screen(qtbot, window) -> None:
    """Their widths are ignored so long texts never widen the window (1024×700), yet each
    button still gets its share of the row: none is squeezed to nothing."""
    window.resize(1024, 700)
    window.organizer_tabs.setCurrentWidget(window.organizer)
    QApplication.processEvents()
    ui = window.organizer.ui
    for button in (ui.newButton, ui.addPairButton, ui.drawButton, ui.linkButton):
        assert button.isVisible() and button.width() > 60, button.objectName()
    assert window.width() <= 1024
