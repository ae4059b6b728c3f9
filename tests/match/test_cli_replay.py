"""``referee-desk replay``: text and JSON output, and one-line errors on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.match import Event

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"
PASS_A = SAMPLES / "01_pass_a_detailed.jsonl"


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_lists_levels_hands_violations_and_articles(capsys):
    code, out, err = _run(capsys, str(SAMPLES / "02_time_out_by_level.jsonl"))
    assert code == 0 and not err
    assert "Levels: NS 5, EW 8" in out
    assert "8.3 A: " in out and "8.2: " in out and "7.3: " in out
    assert "Result: EW win — time_out (recorded)" in out


def test_json_output_is_one_document(capsys):
    code, out, _ = _run(capsys, str(PASS_A), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["end"]["reason"] == "passed_a" and doc["end"]["winner"] == "NS"
    assert doc["levels"]["NS"] == "A"
    assert len(doc["hands"][0]["tricks"]) > 20


def _write(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), "utf-8")
    return path


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.mark.parametrize(
    ("mangle", "needle"),
    [
        (lambda ev: ev.__setitem__(3, {"oops": 1}), "line 4"),
        (lambda ev: ev[5]["payload"].__setitem__("seat", "X"), "hash chain broken"),
    ],
)
def test_bad_files_fail_with_one_line(tmp_path, capsys, mangle, needle):
    events = _lines(SAMPLES / "06_forfeit.jsonl")
    mangle(events)
    code, out, err = _run(capsys, str(_write(tmp_path / "bad.jsonl", events)))
    assert code != 0 and not out
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_refused_event_with_a_valid_chain_is_reported(tmp_path, capsys):
    """A re-sealed record whose penalty choice is made by the offending side (8.3)."""
    events = [Event.from_dict(e) for e in _lines(SAMPLES / "02_time_out_by_level.jsonl")]
    index = next(i for i, e in enumerate(events) if e.type == "penalty_choice")
    events[index] = Event.from_dict(
        {**events[index].to_dict(), "payload": {"seat": "S", "choice": "A"}}
    )
    prev = "0" * 64
    resealed = []
    for e in events:
        e = e.sealed(prev)
        resealed.append(e.to_dict())
        prev = e.hash
    code, _, err = _run(capsys, str(_write(tmp_path / "r.jsonl", resealed)))
    assert code == 1 and "offending side" in err and f"seq {index + 1}" in err


def test_missing_file_and_match_selection(tmp_path, capsys):
    code, _, err = _run(capsys, str(tmp_path / "none.jsonl"))
    assert code != 0 and "no such file" in err
    both = _lines(SAMPLES / "05_conduct_disqualification.jsonl") + _lines(
        SAMPLES / "06_forfeit.jsonl"
    )
    path = _write(tmp_path / "two.jsonl", both)
    code, _, err = _run(capsys, str(path))
    assert code == 1 and "--match" in err
    code, out, _ = _run(capsys, str(path), "--match", both[-1]["match_id"], "--json")
    assert code == 0 and json.loads(out)["end"]["reason"] == "forfeit"
    code, _, err = _run(capsys, str(path), "--match", "nope")
    assert code == 1 and "no match 'nope'" in err


def test_replays_a_tournament_sqlite_file(tmp_path, capsys):
    from referee_desk.store import TournamentFile

    path = tmp_path / "t.sqlite"
    tf = TournamentFile.open(path)
    try:
        tf.import_jsonl([SAMPLES / "06_forfeit.jsonl", PASS_A])
    finally:
        tf.close()
    code, _, err = _run(capsys, str(path))
    assert code == 1 and "--match" in err
    match_id = _lines(PASS_A)[0]["match_id"]
    code, out, _ = _run(capsys, str(path), "--match", match_id, "--json")
    assert code == 0 and json.loads(out)["end"]["winner"] == "NS"


def test_at_reads_the_clock_later(capsys):
    """1.5: the clock is read at --at; a hand in play at time-out is finished first."""
    path = str(SAMPLES / "06_forfeit.jsonl")
    code, out, _ = _run(capsys, path, "--json")
    elapsed = json.loads(out)["clock"]["elapsed_ms"]
    code, out, _ = _run(capsys, path, "--json", "--at", "2026-11-28T09:00:00.000Z")
    doc = json.loads(out)
    assert code == 0 and doc["clock"]["elapsed_ms"] == elapsed  # paused: the clock stands
    code, _, err = _run(capsys, path, "--at", "yesterday")
    assert code == 1 and "bad time" in err


def test_a_preset_record_replays_with_its_kitty_throw_and_no_time_limit(capsys):
    """RULES 12: the preset's rulings are printed with their articles; 12.8 no limit."""
    code, out, err = _run(
        capsys, str(SAMPLES / "presets" / "09_three_deck_detailed_throw_conceal.jsonl")
    )
    assert code == 0 and not err
    assert "ruleset three-deck:" in out and "(no time limit)" in out
    assert "12.4: " in out and "12.5: " in out and "12.8: " in out
    code, out, _ = _run(
        capsys, "--json", str(SAMPLES / "presets" / "07_qq_four_deck_detailed_throw_kitty.jsonl")
    )
    first = json.loads(out)["hands"][0]
    assert first["kitty"]["cards"] and first["throw_failures"][0]["forced"]
    assert first["last_trick"]["multiplier"] >= 2
