"""Loading and switching the interface language without a restart.

The desk's own catalogue (``translations/referee_desk_zh_CN.qm``) and Qt's
``qtbase_zh_CN.qm`` (standard buttons, dialogs) are installed together; switching
removes them and Qt sends every widget a LanguageChange event, on which each window
re-runs ``retranslateUi``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QEvent,
    QLibraryInfo,
    QLocale,
    QTranslator,
)

TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: Qt 6 strings its own qtbase_zh_CN.qm lacks (Qt 6 added an accelerator to them, the
#: catalogue still has the old source). Named here so lupdate puts them in the desk's
#: catalogue under Qt's context; Qt asks every installed translator, so they show.
QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)


class LanguageManager:
    """Owns the installed translators of the running application."""

    def __init__(self) -> None:
        self._installed: list[QTranslator] = []
        self.current = "en"

    def apply(self, language: str) -> bool:
        """Install the catalogues of ``language`` (``zh_CN`` or ``en``); True if loaded."""
        app = QCoreApplication.instance()
        if app is None:
            raise RuntimeError("no QApplication: create it before choosing a language")
        for translator in self._installed:
            app.removeTranslator(translator)
        self._installed.clear()
        self.current = language
        if language == "en":
            QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
            self._deliver()
            return True
        QLocale.setDefault(QLocale(language))
        ok = True
        own = QTranslator(app)
        if own.load(f"referee_desk_{language}", str(TRANSLATIONS_DIR)):
            app.installTranslator(own)
            self._installed.append(own)
        else:
            ok = False
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        qtbase = QTranslator(app)
        if qtbase.load(f"qtbase_{language}", qt_dir):
            app.installTranslator(qtbase)
            self._installed.append(qtbase)
        self._deliver()
        return ok

    @staticmethod
    def _deliver() -> None:
        """Deliver the LanguageChange events now, so the switch is complete on return."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
