"""Issue 17, item 4: a bug in the fold is a failure with its cause, never a refusal.

``Replayer.apply`` used to turn any KeyError, TypeError or ValueError into
``EventRefused`` and drop the cause: a planted ``{}["typo_key"]`` came out as
"note seq 69 refused: 'typo_key'", and ``verify`` called an intact record BROKEN.
The guide: *refused* (input wrong, worded for the user) is a different type from
*failed* (a bug, reported with its cause).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.match import Event, EventRefused, MatchError, ReplayFailed, replay
from referee_desk.match.fold import replayer

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"
PASS_A = SAMPLES / "01_pass_a_detailed.jsonl"


def _events(path: Path) -> list[Event]:
    return [Event.from_dict(json.loads(line)) for line in path.read_text("utf-8").splitlines()]


def _plant(monkeypatch: pytest.MonkeyPatch, event_type: str) -> None:
    def planted(*args: object) -> None:
        {}["typo_key"]  # the planted bug

    monkeypatch.setitem(replayer.HANDLERS, event_type, planted)


@pytest.mark.parametrize("check_schema", [False, True])
def test_a_planted_bug_is_a_failure_with_its_cause(
    monkeypatch: pytest.MonkeyPatch, check_schema: bool
) -> None:
    events = _events(PASS_A)
    _plant(monkeypatch, "trick")
    with pytest.raises(ReplayFailed) as failed:
        replay(events, check_schema=check_schema)
    error = failed.value
    first_trick = next(e for e in events if e.type == "trick")
    assert (error.seq, error.event_type) == (first_trick.seq, "trick")
    assert isinstance(error.__cause__, KeyError) and error.__cause__.args == ("typo_key",)
    assert "KeyError: 'typo_key'" in str(error) and "refused" not in str(error)
    assert isinstance(error, MatchError)
    assert not isinstance(error, (EventRefused, ValueError))  # no refusal handler takes it


def test_a_bug_met_while_a_correction_refolds_is_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = next(p for p in sorted(SAMPLES.rglob("*.jsonl")) if '"correction"' in p.read_text())
    events = _events(path)
    index = next(i for i, e in enumerate(events) if e.type == "correction")
    assert replay(events[: index + 1]) is not None
    folded = {e.type for e in events[:index]} - {"match_opened", "correction"}
    _plant(monkeypatch, sorted(folded)[0])
    with pytest.raises(ReplayFailed):
        replay(events[: index + 1])


def test_a_malformed_payload_without_the_schema_check_is_still_refused() -> None:
    """The fold trusts the shape; what it meets as a KeyError there is the schema's refusal."""
    events = _events(PASS_A)
    i = next(i for i, e in enumerate(events) if e.type == "trick")
    payload = {k: v for k, v in events[i].payload.items() if k != "plays"}
    bad = Event.from_dict({**events[i].to_dict(), "payload": payload, "hash": ""})
    with pytest.raises(EventRefused) as refused:
        replay([*events[:i], bad])
    assert refused.value.seq == bad.seq
    assert "'plays' is a required property" in refused.value.reason


def test_verify_does_not_call_an_intact_record_broken_on_a_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(PASS_A)]) == 0
    capsys.readouterr()
    _plant(monkeypatch, "trick")
    code = main(["verify", str(PASS_A)])
    out, err = capsys.readouterr()
    assert code == 2
    assert "BROKEN" not in out + err
    assert "ReplayFailed" in err and "KeyError: 'typo_key'" in err
