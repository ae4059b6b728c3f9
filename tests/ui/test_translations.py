"""Every visible string has a Simplified Chinese translation, and switching needs no restart."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLibraryInfo, Qt
from PySide6.QtWidgets import QLabel, QPushButton

from referee_desk.ui import build_forms
from referee_desk.ui.dialogs.bid import BidDialog
from referee_desk.ui.dialogs.violations import VIOLATION_MENU
from tests.ui.conftest import trigger

_HAN = re.compile(r"[\u4e00-\u9fff]")


def _messages() -> list[tuple[str, str, ET.Element]]:
    tree = ET.parse(build_forms.TS_FILE)
    out = []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            out.append((name, message.findtext("source") or "", message))
    return out


def test_every_message_in_the_ts_is_translated() -> None:
    messages = _messages()
    assert len(messages) > 200
    missing = []
    for context, source, message in messages:
        translation = message.find("translation")
        assert translation is not None
        kind = translation.get("type")
        if kind in ("unfinished", "vanished", "obsolete") or not (translation.text or "").strip():
            missing.append(f"{context}: {source!r}")
    assert not missing, "untranslated: " + "; ".join(missing)


def _lupdated_copy(tmp_path: Path) -> Path:
    """A copy of the committed .ts updated by lupdate as ``build_forms`` runs it."""
    ts = tmp_path / "check.ts"
    shutil.copy(build_forms.TS_FILE, ts)
    sources = [str(p) for p in build_forms.translation_sources()]
    lupdate = build_forms._tool("pyside6-lupdate")
    subprocess.run(
        [lupdate, "-no-obsolete", "-locations", "none", *sources, "-ts", str(ts)],
        check=True,
        capture_output=True,
    )
    return ts


def test_ts_covers_every_string_in_the_sources(tmp_path: Path) -> None:
    """lupdate over the current sources finds nothing the committed .ts lacks."""
    tree = ET.parse(_lupdated_copy(tmp_path))
    unfinished = [
        m.findtext("source")
        for m in tree.getroot().iter("message")
        if m.find("translation") is not None and m.find("translation").get("type") == "unfinished"
    ]
    assert not unfinished, f"new strings without translation: {unfinished}"


def test_lupdate_keeps_every_message_of_the_ts(tmp_path: Path) -> None:
    """A rebuild of the .ts drops no message: lupdate still finds every source text.

    A string it cannot see (passed through a wrapper such as ``_tr(text)`` instead of
    a literal ``QCoreApplication.translate(context, "...")``) would be removed as
    obsolete on the next ``build_forms`` run and shown untranslated from then on."""
    committed = {(c, s) for c, s, _m in _messages()}
    updated = set()
    for context in ET.parse(_lupdated_copy(tmp_path)).getroot().iter("context"):
        name = context.findtext("name") or ""
        updated |= {(name, m.findtext("source") or "") for m in context.iter("message")}
    vanished = sorted(committed - updated)
    assert not vanished, f"lupdate would drop: {vanished}"


#: Translations whose source is not a literal, each marked where its text is written
#: (``QT_TRANSLATE_NOOP`` in organizer/on_server.py): module → the argument's code.
_MARKED_ELSEWHERE = {"organizer/showing.py": "shown.server_note[0]"}


def test_every_translate_call_names_literal_context_and_source() -> None:
    """lupdate reads only literal arguments: a context or source held in a variable (a
    wrapper such as ``_tr(text)``) is invisible to it."""
    hidden = []
    for path in sorted(build_forms.UI_PACKAGE.rglob("*.py")):
        if build_forms.GENERATED_DIR in path.parents:
            continue
        module = path.relative_to(build_forms.UI_PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            wanted = {"translate": 2, "QT_TRANSLATE_NOOP": 2, "tr": 1, "QT_TR_NOOP": 1}.get(name)
            if wanted is None:
                continue
            args = node.args[:wanted]
            for arg in args:
                literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                if not literal and _MARKED_ELSEWHERE.get(module) != ast.unparse(arg):
                    hidden.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
            if len(args) < wanted:
                hidden.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
    assert not hidden, "translations lupdate cannot see: " + "; ".join(hidden)


def test_glossary_terms_in_the_catalogue() -> None:
    """RULES.md 13: one Chinese name per idea."""
    translations = {src: m.findtext("translation") for _c, src, m in _messages()}
    assert translations["declarers"] == "庄家方"
    assert translations["defenders"] == "防守方"
    assert translations["no-trump"] == "无主"
    assert translations["Wrong play"] == "出错牌"
    assert translations["Open bid"] == "明叫"
    assert translations["False bid"] == "诈叫"
    assert translations["Wrong dealer"] == "坐庄顺序错误"
    assert translations["Forfeit"] == "弃权"
    assert translations["passed A"] == "打过A"
    assert "劳改" in translations["Revoke (劳改)"]
    assert translations["%1 shuffles"].endswith("洗牌")
    assert translations["%1 cuts"].endswith("过牌")


def test_qm_is_built_and_qtbase_is_found() -> None:
    assert build_forms.QM_FILE.exists() and build_forms.QM_FILE.stat().st_size > 1000
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    assert (Path(qt_dir) / "qtbase_zh_CN.qm").exists()


#: Labels whose text comes from the match layer's record (consequences, refusals).
_RECORD_TEXT = {"consequenceLabel", "errorLabel", "previewLabel"}


def _visible_texts(widget: Any) -> list[str]:
    texts = [
        w.text()
        for w in widget.findChildren(QLabel)
        if w.text() and w.objectName() not in _RECORD_TEXT
    ]
    texts += [w.text() for w in widget.findChildren(QPushButton) if w.text()]
    return texts


def test_live_window_is_chinese_and_switches_back_without_restart(
    desk: Any, languages: Any
) -> None:
    languages.apply("zh_CN")
    ui = desk.ui
    assert ui.bidButton.text() == "叫牌 B"
    assert ui.menuMatch.title() == "比赛(&M)"
    assert _HAN.search(ui.clockCaption.text())
    assert _HAN.search(ui.nsRoleLabel.text() + ui.nsLevelLabel.text())
    assert desk.model.headerData(0, Qt.Orientation.Horizontal) == "时间"
    desk.prefs.set_language("en")
    assert ui.bidButton.text() == "Bid (B)"
    assert ui.clockCaption.text() == "Time left"
    assert desk.model.headerData(0, Qt.Orientation.Horizontal) == "Time"
    assert desk.settings.language == "en"
    desk.prefs.set_language("zh_CN")
    assert ui.bidButton.text() == "叫牌 B"


def test_dialogs_show_chinese(desk: Any, languages: Any) -> None:
    languages.apply("zh_CN")
    dialog = trigger(desk, "actionBid")
    assert isinstance(dialog, BidDialog)
    assert dialog.windowTitle() == "叫牌"
    assert dialog.ui.kindCombo.itemText(1) == "暗叫"
    dialog.reject()
    for _key, cls in VIOLATION_MENU:
        violation = cls(desk.session, desk)
        english = [
            t
            for t in _visible_texts(violation)
            if t and not _HAN.search(t) and re.search(r"[A-Za-z]{4,}", t)
        ]
        assert _HAN.search(violation.ui.paraphraseLabel.text()), cls.__name__
        assert not english, f"{cls.__name__}: {english}"
        violation.deleteLater()
