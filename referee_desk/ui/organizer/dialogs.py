"""The organizer's dialogs: a new tournament, a pair, the seeding and draw, a record link.

Each dialog collects values and hands them to a callback of the view, which calls the
tournament layer; a refusal (the layer's ValueError) is shown in the dialog's error
label and the dialog stays open with what was typed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QDate, QEvent, Qt
from PySide6.QtWidgets import QDialog, QLineEdit, QListWidgetItem, QSpinBox, QWidget

from referee_desk.rules.ruleset import PRESETS
from referee_desk.tournament.model import Format, Pair, Settings, TieBreak, TournamentInfo
from referee_desk.ui.generated.ui_organizer_draw_dialog import Ui_OrganizerDrawDialog
from referee_desk.ui.generated.ui_organizer_link_dialog import Ui_OrganizerLinkDialog
from referee_desk.ui.generated.ui_organizer_lots_dialog import Ui_OrganizerLotsDialog
from referee_desk.ui.generated.ui_organizer_new_dialog import Ui_OrganizerNewDialog
from referee_desk.ui.generated.ui_organizer_pair_dialog import Ui_OrganizerPairDialog
from referee_desk.ui.organizer import texts
from referee_desk.ui.refusals import refusal_message
from referee_desk.ui.texts import preset_name

ERROR_STYLE = "color: #b00020; font-weight: bold;"


def split_names(text: str) -> tuple[str, ...]:
    """``1号桌, 2号桌`` or ``1号桌，2号桌`` (full-width comma) -> names, blanks dropped."""
    return tuple(
        x.strip() for x in text.replace("，", ",").replace("、", ",").split(",") if x.strip()
    )


class _OrganizerDialog(QDialog):
    """Retranslated on a language switch; ``submit`` does the work and may refuse."""

    ui: Any

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error = ""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "ui"):
            self.ui.retranslateUi(self)
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Texts set from code are refreshed here."""

    def submit(self) -> None:
        raise NotImplementedError

    def show_error(self, text: str) -> None:
        self.error = text
        self.ui.errorLabel.setStyleSheet(ERROR_STYLE)
        self.ui.errorLabel.setText(text)

    def accept(self) -> None:
        try:
            self.submit()
        except (ValueError, OSError) as error:
            self.show_error(refusal_message(error))
            return
        super().accept()


class OrganizerNewDialog(_OrganizerDialog):
    """Name, dates, venue, organizer, tables and referees of a new tournament."""

    def __init__(
        self, create: Callable[[TournamentInfo], None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ui = Ui_OrganizerNewDialog()
        self.ui.setupUi(self)
        self._create = create
        # Dates are typed as text (a date box's Tab walked through its day/month/year
        # parts, so what was typed next landed in the wrong field; issue 10, item 9).
        today = QDate.currentDate().toString("yyyy-MM-dd")
        self.ui.startDate.setText(today)
        self.ui.endDate.setText(today)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        # The preset is chosen when the tournament is made (issue 12); Guilin first.
        for name in sorted(PRESETS, key=lambda n: (n != "guilin-2009", n)):
            self.ui.rulesetCombo.addItem(preset_name(name), name)

    def ruleset_name(self) -> str:
        """The preset chosen for the tournament (``guilin-2009`` by default)."""
        return str(self.ui.rulesetCombo.currentData())

    def info(self) -> TournamentInfo:
        name = self.ui.nameEdit.text().strip()
        if not name:
            raise ValueError(self.tr("The tournament needs a name."))
        start = self._date(self.ui.startDate, self.ui.startLabel.text())
        end = self._date(self.ui.endDate, self.ui.endLabel.text())
        if end < start:
            raise ValueError(self.tr("The last day is before the first day."))
        return TournamentInfo(
            name,
            start.toString("yyyy-MM-dd"),
            end.toString("yyyy-MM-dd"),
            self.ui.venueEdit.text().strip(),
            self.ui.organizerEdit.text().strip(),
            tables=split_names(self.ui.tablesEdit.text()),
            referees=split_names(self.ui.refereesEdit.text()),
        )

    def _date(self, edit: QLineEdit, name: str) -> QDate:
        text = edit.text().strip()
        date = QDate.fromString(text, "yyyy-MM-dd")
        if not date.isValid():
            raise ValueError(
                self.tr("%1: “%2” is not a date like 2026-11-29.")
                .replace("%1", name.rstrip(":："))
                .replace("%2", text)
            )
        return date

    def submit(self) -> None:
        self._create(self.info())


class OrganizerPairDialog(_OrganizerDialog):
    """Add or edit a pair; the seed is left alone (greyed) once the draw is made."""

    def __init__(
        self,
        save: Callable[[str, str, str, int | None], None],
        pair: Pair | None = None,
        seed_editable: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ui = Ui_OrganizerPairDialog()
        self.ui.setupUi(self)
        self._save = save
        self.pair = pair
        if pair is not None:
            self.ui.player1Edit.setText(pair.player1)
            self.ui.player2Edit.setText(pair.player2)
            self.ui.clubEdit.setText(pair.club)
            self.ui.seedSpin.setValue(pair.seed or 0)
        self.ui.seedSpin.setEnabled(seed_editable)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Add pair") if self.pair is None else self.tr("Edit pair"))

    def submit(self) -> None:
        seed = self.ui.seedSpin.value() or None
        self._save(
            self.ui.player1Edit.text().strip(),
            self.ui.player2Edit.text().strip(),
            self.ui.clubEdit.text().strip(),
            seed,
        )


class OrganizerDrawDialog(_OrganizerDialog):
    """Format, third place, groups, tie-break order and the draw number, then the draw."""

    def __init__(
        self,
        draw: Callable[[Settings, int | None], None],
        settings: Settings,
        pairs: Sequence[Pair],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ui = Ui_OrganizerDrawDialog()
        self.ui.setupUi(self)
        self._draw = draw
        self._pairs = list(pairs)
        self._settings = settings
        for fmt in Format:
            self.ui.formatCombo.addItem("", fmt.value)
        self.ui.formatCombo.setCurrentIndex(self.ui.formatCombo.findData(settings.format.value))
        self.ui.thirdPlaceCheck.setChecked(settings.third_place)
        self.ui.groupCountSpin.setValue(max(settings.group_count, 1))
        self.ui.advanceSpin.setValue(settings.advance_per_group)
        for criterion in settings.tie_breaks:
            item = QListWidgetItem("")
            item.setData(Qt.ItemDataRole.UserRole, criterion.value)
            self.ui.tieBreakList.addItem(item)
        self.ui.tieBreakList.setCurrentRow(0)
        self.ui.tieBreakList.setMaximumHeight(130)
        self.ui.tieBreakList.setStyleSheet("font-size: 12pt;")
        self.ui.formatCombo.currentIndexChanged.connect(self._format_changed)
        self.ui.upButton.clicked.connect(lambda: self.move(-1))
        self.ui.downButton.clicked.connect(lambda: self.move(1))
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.retranslate()
        self._format_changed()

    def retranslate(self) -> None:
        for i in range(self.ui.formatCombo.count()):
            fmt = Format(self.ui.formatCombo.itemData(i))
            self.ui.formatCombo.setItemText(i, texts.format_name(fmt))
        for i in range(self.ui.tieBreakList.count()):
            item = self.ui.tieBreakList.item(i)
            item.setText(texts.tie_break_name(TieBreak(item.data(Qt.ItemDataRole.UserRole))))
        seeded = sorted((p for p in self._pairs if p.seed), key=lambda p: p.seed or 0)
        self.ui.seedingLabel.setText(
            self.tr(
                "%1 pairs, %2 seeded. Seeds take the standard bracket positions (byes go to "
                "the top seeds); the other pairs are placed by lot from the draw number."
            )
            .replace("%1", str(len(self._pairs)))
            .replace("%2", str(len(seeded)))
        )

    def _format_changed(self) -> None:
        groups = self.ui.formatCombo.currentData() == Format.GROUPS_KNOCKOUT.value
        for w in (
            self.ui.groupCountSpin,
            self.ui.advanceSpin,
            self.ui.tieBreakList,
            self.ui.upButton,
            self.ui.downButton,
        ):
            w.setEnabled(groups)

    def move(self, delta: int) -> None:
        """Move the selected criterion; the drawing of lots stays last (parse_tie_breaks)."""
        lst = self.ui.tieBreakList
        row = lst.currentRow()
        target = row + delta
        if row < 0 or not (0 <= target < lst.count()):
            return
        item = lst.takeItem(row)
        lst.insertItem(target, item)
        lst.setCurrentRow(target)

    def tie_breaks(self) -> list[str]:
        lst = self.ui.tieBreakList
        return [lst.item(i).data(Qt.ItemDataRole.UserRole) for i in range(lst.count())]

    def settings(self) -> Settings:
        from referee_desk.tournament.model import parse_tie_breaks

        fmt = Format(self.ui.formatCombo.currentData())
        return Settings(
            format=fmt,
            third_place=self.ui.thirdPlaceCheck.isChecked(),
            group_count=self.ui.groupCountSpin.value() if fmt is Format.GROUPS_KNOCKOUT else 0,
            advance_per_group=self.ui.advanceSpin.value(),
            tie_breaks=parse_tie_breaks(self.tie_breaks()),
        )

    def draw_seed(self) -> int | None:
        return self.ui.drawSeedSpin.value() or None

    def submit(self) -> None:
        self._draw(self.settings(), self.draw_seed())


class OrganizerLinkDialog(_OrganizerDialog):
    """Count a record kept under a desk's own id as the result of a drawn match."""

    def __init__(
        self,
        link: Callable[[str, str], None],
        records: Sequence[str],
        matches: Sequence[tuple[str, str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ui = Ui_OrganizerLinkDialog()
        self.ui.setupUi(self)
        self._link = link
        for record in records:
            self.ui.recordCombo.addItem(record, record)
        for match_id, label in matches:
            self.ui.matchCombo.addItem(f"{match_id}  {label}", match_id)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)

    def choose(self, record_id: str, match_id: str) -> None:
        self.ui.recordCombo.setCurrentIndex(self.ui.recordCombo.findData(record_id))
        self.ui.matchCombo.setCurrentIndex(self.ui.matchCombo.findData(match_id))

    def submit(self) -> None:
        record = self.ui.recordCombo.currentData()
        match_id = self.ui.matchCombo.currentData()
        if not record or not match_id:
            raise ValueError(self.tr("Choose a record and a drawn match."))
        self._link(record, match_id)


class OrganizerLotsDialog(_OrganizerDialog):
    """The lots drawn for the tied pairs of a group (a lower lot ranks higher)."""

    def __init__(
        self,
        record: Callable[[str, dict[int, int]], None],
        group: str,
        tied: Sequence[Pair],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ui = Ui_OrganizerLotsDialog()
        self.ui.setupUi(self)
        self._record = record
        self.group = group
        self.spins: dict[int, QSpinBox] = {}
        for k, pair in enumerate(tied, start=1):
            spin = QSpinBox(self)
            spin.setRange(1, max(len(tied), 1))
            spin.setValue(k)
            self.ui.lotsLayout.addRow(texts.pair_text(pair), spin)
            self.spins[pair.pair_id] = spin
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.retranslate()

    def retranslate(self) -> None:
        self.ui.explainLabel.setText(
            self.tr(
                "Group %1: these pairs are still tied after the other criteria. Enter the "
                "lot each pair drew (1 ranks highest). The drawing is recorded once."
            ).replace("%1", self.group)
        )

    def lots(self) -> dict[int, int]:
        values = {pid: spin.value() for pid, spin in self.spins.items()}
        if len(set(values.values())) != len(values):
            raise ValueError(self.tr("Each pair needs a different lot."))
        return values

    def submit(self) -> None:
        self._record(self.group, self.lots())
