"""Issue 9, item 6: hostile input gets a one-line reason and a non-zero exit.

Each case ran into a traceback or a blow-up before: a 100,000-deep JSON line, a lone
surrogate, duplicate keys (the visible value differs from the hashed one), a
200,000-character CSV field, a corrupt xlsx, a seed of 1e999, control characters and
10,000-character names, and a 100 MB line to the rules service.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.interchange import export_events
from referee_desk.store.strict_json import MAX_DEPTH, MAX_LINE_BYTES, StrictJSONError, loads
from referee_desk.store.synthetic import record

ROOT = Path(__file__).resolve().parents[2]


def one_line_failure(capsys, argv: list[str], *words: str) -> str:
    status = main(argv)
    captured = capsys.readouterr()
    assert status != 0
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "levels deep"),
        ('{"match_id": "\\ud800", "seq": 1}', "lone surrogate"),
        ('{"match_id": "a", "seq": 1, "match_id": "b"}', "duplicate key 'match_id'"),
        ('{"x": NaN}', "NaN"),
    ],
)
def test_replay_and_verify_refuse_hostile_lines(tmp_path, capsys, text, reason) -> None:
    path = tmp_path / "hostile.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    one_line_failure(capsys, ["replay", str(path)], "line 1", reason)
    one_line_failure(capsys, ["verify", str(path)], reason)


def test_a_duplicate_key_cannot_hide_a_changed_value(tmp_path, capsys) -> None:
    """The visible (last) value differs from the hashed (first) one: refused."""
    source = tmp_path / "cup.sqlite"
    with TournamentFile.open(source) as tf:
        record(tf, "m", 3)
    log = tmp_path / "m.jsonl"
    export_events(source, log)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[1].endswith("}")
    lines[1] = lines[1][:-1] + ', "referee": "冒名"}'
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one_line_failure(capsys, ["verify", str(log)], "duplicate key 'referee'")
    one_line_failure(
        capsys, ["import", str(log), "--into", str(tmp_path / "x.sqlite")], "m.jsonl:2"
    )


def test_strict_json_limits() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(StrictJSONError, match="limit"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert loads('{"a": "[[[[[[[[[["}') == {"a": "[[[[[[[[[["}  # brackets in strings
    with pytest.raises(StrictJSONError, match="longer than the limit"):
        loads(json.dumps({"t": "x" * MAX_LINE_BYTES}))


def test_rules_service_answers_an_over_long_line_and_goes_on() -> None:
    """Before, a 100 MB line took 3.6 GB; now it is read in chunks and refused."""
    query = b'{"op":"unit","level":"5","trump":"H","cards":"H6 H6 H7 H7"}\n'
    big = b'{"op":"unit","cards":"' + b"H6 " * (MAX_LINE_BYTES // 2) + b'"}\n'
    dup = b'{"op":"unit","op":"result"}\n'
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "referee_desk.cli.main", "rules"],
        input=big + query + dup,
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3
    assert "longer than" in answers[0]["error"]
    assert "error" not in answers[1]
    assert "duplicate key" in answers[2]["error"]


@pytest.fixture
def tournament(tmp_path: Path) -> Path:
    path = tmp_path / "t.sqlite"
    assert main(["tournament", "create", str(path), "--name", "杯", "--tables", "4"]) == 0
    return path


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("big.csv", "player1,player2\n" + "x" * 200_000 + ",y\n", "field larger than"),
        ("bad.xlsx", b"PK\x03\x04" + b"garbage" * 40, "not a readable xlsx"),
        ("ctl.csv", "player1,player2\na\x07b,c\n", "control character"),
        ("long.csv", "player1,player2\n" + "名" * 10_000 + ",y\n", "at most 60"),
        ("seed.csv", "player1,player2,seed\na,b,1e999\n", "not a number"),
    ],
)
def test_import_pairs_refuses_hostile_lists(tournament, tmp_path, capsys, name, content, reason):
    source = tmp_path / name
    if isinstance(content, bytes):
        source.write_bytes(content)
    else:
        source.write_text(content, encoding="utf-8")
    capsys.readouterr()
    one_line_failure(capsys, ["tournament", "import-pairs", str(tournament), str(source)], reason)


def test_add_pair_and_draw_refuse_hostile_values(tournament, capsys) -> None:
    capsys.readouterr()
    one_line_failure(
        capsys, ["tournament", "add-pair", str(tournament), "甲\x1b[31m", "乙"], "control"
    )
    with pytest.raises(SystemExit) as exited:  # argparse: one usage line and the reason
        main(["tournament", "draw", str(tournament), "--seed", "1e999"])
    assert exited.value.code == 2
    assert "invalid int value: '1e999'" in capsys.readouterr().err


def test_an_oversized_record_file_is_refused_before_reading(tmp_path, capsys, monkeypatch):
    from referee_desk.store import strict_json

    monkeypatch.setattr(strict_json, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.jsonl"
    path.write_text('{"a": 1}\n' * 200, encoding="utf-8")
    one_line_failure(capsys, ["verify", str(path)], "larger than")
    one_line_failure(capsys, ["replay", str(path)], "larger than")
