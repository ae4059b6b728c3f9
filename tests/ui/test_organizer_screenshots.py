"""Render the organizer view and its dialogs to PNG (zh and en) under screenshots/, and
check the Chinese interface really is Chinese (every visible string has a translation)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from referee_desk.tournament.model import Settings
from referee_desk.tournament.state import Status
from referee_desk.ui.organizer.dialogs import (
    OrganizerDrawDialog,
    OrganizerLinkDialog,
    OrganizerLotsDialog,
    OrganizerNewDialog,
    OrganizerPairDialog,
)
from tests.ui.test_organizer import _samples_cup, record_ko

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _save(widget: QWidget, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    widget.show()
    QApplication.processEvents()
    image = widget.grab().toImage()
    path = SHOTS / f"{name}.png"
    assert image.save(str(path))
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 3, f"{name} rendered blank"
    return path


def _english_left(widget: QWidget) -> list[str]:
    """Visible label and button texts with English words (data such as ids excluded)."""
    found = []
    for w in widget.findChildren(QLabel) + widget.findChildren(QPushButton):
        text = w.text()
        english = text and re.search(r"[A-Za-z]{4,}", text) and not _HAN.search(text)
        if w.isVisibleTo(widget) and english:
            found.append(f"{w.objectName()}: {text}")
    return found


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_render_the_organizer(window: Any, languages: Any, tmp_path: Path, language: str) -> None:
    languages.apply(language)
    view = window.organizer
    window.resize(1500, 900)
    _samples_cup(view, tmp_path)
    ready = [s.match.match_id for s in view.state.matches if s.status is Status.READY]
    view.records_import.import_records(
        [
            record_ko(view, tmp_path, ready[0], "forfeit"),
            record_ko(view, tmp_path, ready[1], "pending"),
        ]
    )
    view.message_box.close()
    window.organizer_tabs.setCurrentWidget(view)
    zh = language == "zh_CN"
    shots = []
    for tab, name in (
        (view.ui.bracketTab, "bracket"),
        (view.ui.groupsTab, "groups"),
        (view.ui.matchesTab, "matches"),
        (view.ui.pairsTab, "pairs"),
    ):
        view.ui.sections.setCurrentWidget(tab)
        shots.append(_save(window, f"{language}-organizer-{name}"))
        if zh:
            assert _HAN.search(view.ui.sections.tabText(view.ui.sections.indexOf(tab)))
    if zh:
        assert window.organizer_tabs.tabText(1) == "赛事"
        assert _HAN.search(view.ui.legendLabel.text()) and _HAN.search(view.ui.infoLabel.text())
        assert _HAN.search(view.export_menu.title())
        assert all(_HAN.search(a.text()) for a in view.export_actions.values())
        assert not _english_left(view), _english_left(view)
        assert _HAN.search(" ".join(view.matches_model.headers()))
        boxes = " ".join(" ".join(b.texts()) for b in view.scene.items() if hasattr(b, "texts"))
        assert "弃权" in boxes and "仲裁" in boxes
    # File menu (with Export) and the export menu itself.
    for menu, name in ((window.ui.menuFile, "file-menu"), (view.export_menu, "export-menu")):
        menu.popup(window.mapToGlobal(window.rect().topLeft()))
        shots.append(_save(menu, f"{language}-organizer-{name}"))
        menu.close()
    # The dialogs, over the window.
    t = view.t
    dialogs = [
        ("new", OrganizerNewDialog(lambda _i: None, window)),
        ("pair", OrganizerPairDialog(lambda *_a: None, t.pairs.all()[0], False, window)),
        ("draw", OrganizerDrawDialog(lambda *_a: None, Settings(), t.pairs.all(), window)),
        (
            "link",
            OrganizerLinkDialog(lambda *_a: None, ["GL2026-R9-T1"], [(ready[1], "")], window),
        ),
    ]
    dialogs.append(("lots", OrganizerLotsDialog(lambda *_a: None, "A", t.pairs.all()[:3], window)))
    for name, dialog in dialogs:
        shots.append(_save(dialog, f"{language}-organizer-dialog-{name}"))
        if zh:
            assert _HAN.search(dialog.windowTitle()), name
            assert not _english_left(dialog), (name, _english_left(dialog))
        dialog.close()
        dialog.deleteLater()
    view.records_import.import_records([record_ko(view, tmp_path, ready[0], "passed_a", "EW")])
    shots.append(_save(view.message_box, f"{language}-organizer-import-summary"))
    if zh:
        assert _HAN.search(view.last_message)
    view.message_box.close()
    assert all(p.stat().st_size > 2000 for p in shots)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
