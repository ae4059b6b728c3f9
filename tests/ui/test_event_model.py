"""The event log model and its violation filter, checked by pytest-qt's model tester."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from referee_desk.match import Recorder, format_time, parse_time
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.ui.dialogs.violations import WrongPlayDialog
from referee_desk.ui.event_model import COLUMNS, EventLogModel, ViolationFilterProxy
from tests.ui.conftest import ok, play_opening_hand, start_clock, summary_hand


def _record_some(desk: Any, qtbot: Any, fake_time: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    dialog = desk.entries.open_violation(WrongPlayDialog)
    dialog.ui.seatCombo.setCurrentIndex(dialog.ui.seatCombo.findData("E"))
    ok(dialog)
    fake_time.advance(60)
    summary_hand(desk, 100)


def test_model_tester_on_a_real_record(
    desk: Any, qtbot: Any, qtmodeltester: Any, fake_time: Any
) -> None:
    _record_some(desk, qtbot, fake_time)
    model = EventLogModel()
    model.set_record(desk.session.events, desk.session.state)
    qtmodeltester.check(model)
    proxy = ViolationFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_only_violations(True)
    qtmodeltester.check(proxy)


def test_rows_newest_last_with_every_column(desk: Any, qtbot: Any, fake_time: Any) -> None:
    _record_some(desk, qtbot, fake_time)
    model = desk.model
    events = desk.session.events
    assert model.rowCount() == len(events) and model.columnCount() == len(COLUMNS) == 7
    assert model.headerData(0, Qt.Orientation.Vertical) == "1"
    last = model.rowCount() - 1
    assert model.index(last, 3).data().startswith("hand result")
    assert "7.2" in model.index(last, 5).data()  # the article that decided the hand
    assert model.index(last, 6).data() == "王磊"
    assert model.index(last, 1).data() == "0:01:00"  # clock reading of the entry
    wrong = next(i for i, e in enumerate(events) if e.type == "wrong_play")
    assert model.index(wrong, 2).data() == "East"
    assert model.index(wrong, 5).data() == "8.2"
    assert model.data(model.index(wrong, 0), Qt.ItemDataRole.ForegroundRole) is not None


def test_filter_keeps_only_violations(desk: Any, qtbot: Any, fake_time: Any) -> None:
    _record_some(desk, qtbot, fake_time)
    proxy = desk.proxy
    desk.review.set_violations_only(True)
    assert proxy.rowCount() == 1
    assert proxy.index(0, 3).data().startswith("wrong play")
    desk.review.set_violations_only(False)
    assert proxy.rowCount() == len(desk.session.events)


def test_bid_cards_are_shown_with_suit_symbols(desk: Any, qtbot: Any) -> None:
    start_clock(desk)
    play_opening_hand(desk, qtbot)
    row = next(i for i, e in enumerate(desk.session.events) if e.type == "bid")
    assert desk.model.index(row, 3).data() == "dark bid LJ ♥3"


def _record_a_throw(throw: list[str]) -> Any:
    """A qq-four-deck match whose first trick is led by N with ``throw``."""
    rec = Recorder("T1-R1-3", "陈裁判")
    clock = [parse_time("2026-11-29T09:00:00.000Z")]

    def ev(type: str, payload: dict[str, Any]) -> None:
        clock[0] += 30_000
        rec.record(type, payload, format_time(clock[0]))

    seats = {"N": "张伟", "E": "李娜", "S": "王芳", "W": "刘洋"}
    ruleset = get_ruleset("qq-four-deck").to_dict()
    ev(
        "match_opened",
        {
            "tournament": "桂林工会杯 2026",
            "round": "1",
            "table": "3",
            "pairs": {"NS": "红队", "EW": "蓝队"},
            "seats": seats,
            "referee": "陈裁判",
            "ruleset": ruleset,
        },
    )
    ev("clock_started", {})
    ev("hand_started", {"dealer": None})
    ev("bid", {"seat": "N", "kind": "dark", "cards": ["H2"]})
    ev("bidding_closed", {"dealer": "N", "trump": "H"})
    n = len(throw)
    others = {"W": ["S3", "S4", "S5"], "S": ["S6", "S7", "S8"], "E": ["S9", "SJ", "SQ"]}
    plays = [{"seat": "N", "cards": throw}]
    plays += [{"seat": s, "cards": others[s][:n]} for s in ("W", "S", "E")]
    ev("trick", {"leader": "N", "plays": plays})
    return rec


def test_a_throw_lead_is_named_in_the_log(qapp: Any, languages: Any) -> None:
    """12.4 (甩牌): the log's 'what' column names a lead of several units a throw, in
    the interface language; a one-unit lead is not named so (issue 19)."""
    what = COLUMNS.index("what")
    rec = _record_a_throw(["SA", "SK"])
    model = EventLogModel()
    model.set_record(rec.events, rec.state())
    row = model.rowCount() - 1
    assert model.index(row, what).data().startswith("trick North throw ♠A ♠K · West")
    languages.apply("zh_CN")
    model.set_record(rec.events, rec.state())
    assert "北 甩牌 ♠A ♠K · 西" in model.index(row, what).data(), model.index(row, what).data()
    languages.apply("en")
    single = _record_a_throw(["SA"])
    model.set_record(single.events, single.state())
    assert "throw" not in model.index(model.rowCount() - 1, what).data()
