"""``referee-desk rules``: the JSON Lines rules service, run as a real subprocess."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee_desk.rules.service import RulesService, answer

SCRIPT = Path(sys.executable).parent / "referee-desk"
MODULE_CMD = [sys.executable, "-m", "referee_desk.cli.main", "rules"]
RESULT_KEYS = {"defenders_final", "deal", "levels_up", "declarer_level", "defender_level"}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    return env


def run_service(lines: list[bytes], *, cmd: list[str] | None = None) -> list[dict[str, Any]]:
    """Feed raw lines to the real command; check exit 0, no stderr, one answer per line."""
    data = b"".join(line + b"\n" for line in lines)
    proc = subprocess.run(
        cmd or MODULE_CMD, input=data, capture_output=True, timeout=120, env=_env()
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b"", proc.stderr.decode()
    out = proc.stdout.decode("utf-8").splitlines()
    assert len(out) == len(lines)
    answers = [json.loads(line) for line in out]
    assert all(isinstance(a, dict) for a in answers)
    return answers


def q(**fields: Any) -> bytes:
    return json.dumps(fields, ensure_ascii=False).encode("utf-8")


def card_query(op: str, level: str = "5", trump: str = "H", **fields: Any) -> bytes:
    return q(op=op, level=level, trump=trump, **fields)


def test_section_11_checks_through_the_service() -> None:
    """RULES.md 11 worked checks, asked of the real command."""
    lines = [
        # Level 4, trump ♠: ♥33 ♥55 is not a tractor; ♥55 ♥66 is.
        card_query("unit", "4", "S", cards="H3 H3 H5 H5"),
        card_query("unit", "4", "S", cards="H5 H5 H6 H6"),
        # Level 5, trump ♥: ♥22 ♥AA ♥KK no; ♥AA ♥KK ♥QQ yes; ♥AAA ♥KKK ♥QQQ bulldozer.
        card_query("unit", "5", "H", cards="H2 H2 HA HA HK HK"),
        card_query("unit", "5", "H", cards="HA HA HK HK HQ HQ"),
        card_query("unit", "5", "H", cards="HA HA HA HK HK HK HQ HQ HQ"),
        # BJ BJ LJ LJ is a tractor; LJ LJ + a pair of trump-suit level cards is not.
        card_query("unit", "5", "H", cards="BJ BJ LJ LJ"),
        card_query("unit", "5", "H", cards="LJ LJ H5 H5"),
        # Level 9, trump ♠, lead ♥AA ♥KK: ♥6666 beats it; a trump tractor does not beat
        # the ♥6666, a trump bomb does (6.5).
        card_query("winner", "9", "S", plays=["HA HA HK HK", "H6 H6 H6 H6", "S3 S3 S4 S4"]),
        card_query("winner", "9", "S", plays=["HA HA HK HK", "H6 H6 H6 H6", "S3 S3 S3 S3"]),
        # Lead ♥AA ♥KK, second ♠33 ♠44 (void in ♥), third ♥7777: the ♠ tractor wins.
        card_query("winner", "9", "S", plays=["HA HA HK HK", "S3 S3 S4 S4", "H7 H7 H7 H7"]),
        # Lead ♥888999; the follower holds ♥555666 and ♥JJQQKK: must play ♥555666.
        card_query(
            "follow",
            "3",
            "S",
            lead="H8 H8 H8 H9 H9 H9",
            hand="H5 H5 H5 H6 H6 H6 HJ HJ HQ HQ HK HK S4",
            play="HJ HJ HQ HQ HK HK",
        ),
        card_query(
            "follow",
            "3",
            "S",
            lead="H8 H8 H8 H9 H9 H9",
            hand="H5 H5 H5 H6 H6 H6 HJ HJ HQ HQ HK HK S4",
            play="H5 H5 H5 H6 H6 H6",
        ),
        # Defenders 155, declarers dig 25 in pairs: D = 155 − 25 × 2 = 105 → declarers +2.
        q(
            op="result",
            level="7",
            trump="S",
            defenders_points=155,
            last_trick_points=25,
            last_trick_cards=2,
            last_trick_winner="declarers",
            declarer_level="7",
            defender_level="5",
        ),
    ]
    a = run_service(lines)
    assert a[0] == {"unit": None}
    assert a[1] == {"unit": "tractor", "length": 2, "each": 2, "suit": "H"}
    assert a[2]["unit"] is None
    assert a[3] == {"unit": "tractor", "length": 3, "each": 2, "suit": "trump"}
    assert a[4] == {"unit": "bulldozer", "length": 3, "each": 3, "suit": "trump"}
    assert a[5]["unit"] == "tractor" and a[5]["suit"] == "trump"
    assert a[6]["unit"] is None
    assert a[7]["winner"] == 1
    assert a[8]["winner"] == 2
    assert a[9]["winner"] == 1
    assert a[10]["legal"] is False
    assert a[10]["rule"] == "4.6"
    assert Counter(a[10]["instead"].split()) == Counter(["H5", "H5", "H5", "H6", "H6", "H6"])
    assert a[11]["legal"] is True
    assert "instead" not in a[11]
    assert a[12]["defenders_final"] == 105
    assert a[12]["deal"] == "declarers"
    assert a[12]["levels_up"] == 2
    assert (a[12]["declarer_level"], a[12]["defender_level"]) == ("9", "5")
    assert a[12]["passed_a"] is False
    assert any(s.startswith("7.3:") for s in a[12]["articles"])


GARBAGE: list[tuple[bytes, str]] = [
    (b"not json", "bad JSON"),
    (b"{", "bad JSON"),
    (b"[1, 2]", "not an array"),
    (b"42", "not a number"),
    (b'"unit"', "not a string"),
    (b"null", "not null"),
    (b"", "empty line"),
    (b"   \t ", "empty line"),
    (b"\xff\xfe\xfa", "not UTF-8"),
    (b"[" * 100000 + b"]" * 100000, "JSON"),
    (b'{"op":"result","defenders_points":NaN}', "bad JSON"),
    (b"true", "not true/false"),
    (b"{}", "missing op"),
    (b'{"op":"unit","id":' + b"[" * 5000 + b"]" * 5000 + b"}", "JSON"),
    (b'{"op":"shuffle","level":"5","trump":"H"}', "unknown op 'shuffle'"),
    (b'{"op":7}', "unknown op 7"),
    (b'{"op":"unit","level":"5","trump":"H"}', "missing field cards"),
    (b'{"op":"unit","trump":"H","cards":"H5"}', "missing field level"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"H5","card":"H6"}', "unknown field 'card'"),
    (b'{"op":"unit","level":"2","trump":"H","cards":"H5"}', "2 is never a level"),
    (b'{"op":"unit","level":"5","trump":"X","cards":"H5"}', "bad trump 'X'"),
    (b'{"op":"unit","level":["5"],"trump":"H","cards":"H5"}', "level"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"H5 Z9"}', "card 2"),
    (b'{"op":"unit","level":"5","trump":"H","cards":""}', "no cards"),
    (b'{"op":"unit","level":"5","trump":"H","cards":42}', "card list"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"S7 S7 S7 S7 S7"}', "appears 5 times"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"H5","ruleset":"nope"}', "unknown ruleset"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"H5","params":[1]}', "params must be"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"H5","params":{"x":1}}', "parameter 'x'"),
    (b'{"op":"unit","level":"5","trump":"H","cards":"H5","params":{"stage":[1]}}', "'stage'"),
    (b'{"op":"follow","level":"5","trump":"H","lead":"S3 S5","hand":"S4","play":"S4"}', "lead"),
    (b'{"op":"follow","level":"5","trump":"H","lead":"S3","hand":"S4","play":"S9"}', "S9"),
    (b'{"op":"winner","level":"5","trump":"H","plays":"S3"}', "plays must be"),
    (b'{"op":"winner","level":"5","trump":"H","plays":[]}', "plays must be"),
    (b'{"op":"winner","level":"5","trump":"H","plays":["S3","S4","S6","S7","S8"]}', "four"),
    (b'{"op":"winner","level":"5","trump":"H","plays":["S3","S4 S6"]}', "cards"),
    (
        b'{"op":"result","defenders_points":"155","last_trick_points":25,"last_trick_cards":2,'
        b'"last_trick_winner":"declarers","declarer_level":"7","defender_level":"5"}',
        "defenders_points must be a whole number",
    ),
    (
        b'{"op":"result","defenders_points":155,"last_trick_points":23,"last_trick_cards":2,'
        b'"last_trick_winner":"declarers","declarer_level":"7","defender_level":"5"}',
        "multiple of 5",
    ),
    (
        b'{"op":"result","defenders_points":155,"last_trick_points":25,"last_trick_cards":2,'
        b'"last_trick_winner":"north","declarer_level":"7","defender_level":"5"}',
        "declarers or defenders",
    ),
    (
        b'{"op":"result","defenders_points":155,"last_trick_points":25,"last_trick_cards":2,'
        b'"last_trick_winner":"declarers","declarer_level":"7"}',
        "missing field defender_level",
    ),
]


def test_garbage_gets_one_error_per_line_and_the_stream_goes_on() -> None:
    """Every bad line is answered with an error naming the problem, in order, and the
    good lines around it are answered correctly; exit 0, nothing on stderr."""
    lines: list[bytes] = []
    expected: list[tuple[str, Any]] = []
    for round_ in range(5):
        for i, (garbage, words) in enumerate(GARBAGE):
            lines.append(garbage)
            expected.append(("error", words))
            # A good result query after each bad line; D follows 7.3 by hand.
            points = 5 * ((round_ * 7 + i) % 30)
            winner = "declarers" if i % 2 else "defenders"
            cards = 1 + i % 4
            trick = 5 * (i % 5)
            lines.append(
                q(
                    op="result",
                    id=f"{round_}-{i}",
                    defenders_points=points,
                    last_trick_points=trick,
                    last_trick_cards=cards,
                    last_trick_winner=winner,
                    declarer_level="3",
                    defender_level="3",
                )
            )
            final = points + trick * cards if winner == "defenders" else points - trick * cards
            expected.append(("final", (f"{round_}-{i}", final)))
    answers = run_service(lines)
    for got, (kind, want) in zip(answers, expected, strict=True):
        if kind == "error":
            assert set(got) == {"error"}, got
            assert want in got["error"], (want, got)
            assert "Traceback" not in got["error"]
        else:
            assert "error" not in got, got
            assert (got["id"], got["defenders_final"]) == want
            assert got["deal"] == ("defenders" if want[1] >= 160 else "declarers")


def test_answers_are_flushed_line_by_line() -> None:
    """Each answer arrives before the next query is written (flush per line)."""
    with subprocess.Popen(
        MODULE_CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_env()
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for level, expect in (("4", None), ("6", "tractor"), ("5", None)):
            proc.stdin.write(card_query("unit", level, "S", cards="H3 H3 H5 H5 H4 H4") + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no answer within 60 s: the service does not flush per line"
            got = json.loads(proc.stdout.readline())
            assert got["unit"] == expect
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stdout.read() == b""


def test_last_line_without_newline_and_empty_input() -> None:
    proc = subprocess.run(
        MODULE_CMD,
        input=card_query("unit", cards="S9") + b"\n" + card_query("unit", cards="S9 S9"),
        capture_output=True,
        timeout=60,
        env=_env(),
    )
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [a["unit"] for a in out] == ["single", "pair"]
    empty = subprocess.run(MODULE_CMD, input=b"", capture_output=True, timeout=60, env=_env())
    assert (empty.returncode, empty.stdout, empty.stderr) == (0, b"", b"")


def result_query(**overrides: Any) -> bytes:
    fields: dict[str, Any] = {
        "op": "result",
        "level": "7",
        "trump": "S",
        "defenders_points": 155,
        "last_trick_points": 25,
        "last_trick_cards": 2,
        "last_trick_winner": "declarers",
        "declarer_level": "7",
        "defender_level": "5",
    }
    fields.update(overrides)
    return q(**{k: v for k, v in fields.items() if v is not None})


def test_result_answers_by_parameters_through_the_installed_script() -> None:
    """The console script ``referee-desk`` (what ``uv run referee-desk rules`` runs)."""
    assert SCRIPT.exists(), SCRIPT
    lines = [
        # 7.3: defenders dig 20 in pairs from 150: multiply 150 + 20×2 = 190 (+0);
        # bonus 150 + 20 + 20×2 = 210 (+1).
        result_query(
            defenders_points=150,
            last_trick_points=20,
            last_trick_cards=2,
            last_trick_winner="defenders",
        ),
        result_query(
            defenders_points=150,
            last_trick_points=20,
            last_trick_cards=2,
            last_trick_winner="defenders",
            params={"last_trick": "bonus"},
        ),
        # stage 120 / step 30: D = 105 → b = floor(−15/30) = −1 → declarers +1.
        result_query(params={"stage": 120, "step": 30}),
        # At A: declarers keep the deal → pass A; without must_play_a, K +2 passes too.
        result_query(declarer_level="A", defender_level="Q"),
        result_query(declarer_level="K", params={"must_play_a": False}),
        result_query(declarer_level="K"),
        # Defenders at A take the deal with 300: they stay at A.
        result_query(defenders_points=250, last_trick_winner="defenders", defender_level="A"),
        # Levels given without level/trump: the result op does not need them.
        result_query(level=None, trump=None),
        result_query(params={"must_play_a": "no"}),
    ]
    a = run_service(lines, cmd=[str(SCRIPT), "rules"])
    for got in a[:-1]:
        assert RESULT_KEYS | {"passed_a"} <= set(got), got
    assert (a[0]["defenders_final"], a[0]["deal"], a[0]["levels_up"]) == (190, "defenders", 0)
    assert a[0]["defender_level"] == "5" and a[0]["declarer_level"] == "7"
    assert (a[1]["defenders_final"], a[1]["levels_up"], a[1]["defender_level"]) == (210, 1, "6")
    assert (a[2]["defenders_final"], a[2]["levels_up"], a[2]["declarer_level"]) == (105, 1, "8")
    assert (a[3]["declarer_level"], a[3]["passed_a"]) == ("A", True)
    assert (a[4]["declarer_level"], a[4]["passed_a"]) == ("A", True)
    assert (a[5]["declarer_level"], a[5]["passed_a"]) == ("A", False)
    assert (a[6]["deal"], a[6]["defender_level"], a[6]["passed_a"]) == ("defenders", "A", False)
    assert a[7]["defenders_final"] == 105
    assert "'must_play_a'" in a[8]["error"] and "true or false" in a[8]["error"]


def test_many_mixed_queries_keep_their_order() -> None:
    """2,000 unit queries interleaved with errors: the n-th answer is the n-th query's."""
    ranks = ["3", "4", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    lines: list[bytes] = []
    want: list[Any] = []
    for i in range(2000):
        rank = ranks[i % len(ranks)]
        copies = 1 + i % 4
        if i % 7 == 3:
            lines.append(b'{"op":"unit"')
            want.append("error")
            continue
        lines.append(card_query("unit", "5", "S", cards=" ".join([f"D{rank}"] * copies)))
        want.append(["single", "pair", "triple", "bomb"][copies - 1])
    answers = run_service(lines)
    got = [a.get("unit", "error" if "error" in a else None) for a in answers]
    assert got == want


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    op=st.sampled_from(["unit", "follow", "winner", "result", "x"]),
    extra=st.dictionaries(
        st.sampled_from(
            [
                "cards",
                "lead",
                "hand",
                "play",
                "plays",
                "level",
                "trump",
                "params",
                "ruleset",
                "defenders_points",
                "last_trick_points",
                "last_trick_cards",
                "last_trick_winner",
                "declarer_level",
                "defender_level",
            ]
        ),
        json_values,
    ),
)
def test_answer_never_raises_and_is_always_json(op: str, extra: dict[str, Any]) -> None:
    """In-process fuzz: any object gets a JSON-encodable answer, never an exception."""
    got = answer({"op": op, **extra})
    assert isinstance(got, dict)
    json.dumps(got)
    if "error" not in got:
        assert op != "x"


def test_service_lines_in_process_match_the_subprocess() -> None:
    service = RulesService()
    line = card_query("unit", "4", "S", cards="H5 H5 H6 H6")
    assert service.answer_line(line) == run_service([line])[0]


@pytest.mark.parametrize("bad", [b"\xef\xbb\xbf" + card_query("unit", cards="S9")])
def test_utf8_bom_is_tolerated(bad: bytes) -> None:
    assert run_service([bad])[0] == {"unit": "single", "length": 1, "each": 1, "suit": "S"}


def test_cached_rulesets_do_not_leak_between_queries() -> None:
    """A query's params apply to that query only: bonus, then default, then bonus."""
    dig = {
        "defenders_points": 150,
        "last_trick_points": 20,
        "last_trick_cards": 2,
        "last_trick_winner": "defenders",
    }
    bonus = {"params": {"last_trick": "bonus"}}
    lines = [result_query(**dig, **bonus), result_query(**dig), result_query(**dig, **bonus)]
    finals = [a["defenders_final"] for a in run_service(lines)]
    assert finals == [150 + 20 + 40, 150 + 40, 150 + 20 + 40]


def test_crlf_line_endings() -> None:
    lines = [card_query("unit", cards="D9 D9") + b"\r", card_query("unit", cards="D9") + b"\r"]
    assert [a["unit"] for a in run_service(lines)] == ["pair", "single"]
