"""Issue 5, hostile input: the JSON Lines importer under random bytes, random JSON and
near-valid events never crashes, always names the line and the reason, and writes
nothing on refusal."""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_desk.cli.main import main
from referee_desk.match.envelope import Event
from referee_desk.store import ImportRefused, TournamentFile
from referee_desk.store.interchange import import_jsonl, verify_path
from referee_desk.store.synthetic import record, sealed_match

VALID = sealed_match("r9-t1", 6)
FIELDS = sorted(VALID[0].to_dict())

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))


class Target:
    """One tournament file reused across examples; its record must never change on refusal."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="rd-fuzz-"))
        self.path = self.folder / "cup.sqlite"
        with TournamentFile.open(self.path) as tf:
            record(tf, "r9-t0", 4)

    def attempt(self, content: bytes) -> None:
        source = self.folder / "in.jsonl"
        source.write_bytes(content)
        with TournamentFile.open(self.path, create=False) as tf:
            before = tf.all_events()
            try:
                report = import_jsonl(tf, [source])
            except ImportRefused as error:
                assert error.reason and "\n" not in str(error)
                assert error.line is None or 1 <= error.line <= content.count(b"\n") + 1
                assert tf.all_events() == before  # nothing written
                problem = verify_path(source)
                assert problem is not None  # verify refuses what import refused
                return
            # Accepted: then it was a valid record, and re-importing is a no-op.
            assert report.total_added >= 0
            assert import_jsonl(tf, [source]).total_added == 0
            assert tf.checks.verify() is None


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    made = Target()
    yield made
    shutil.rmtree(made.folder, ignore_errors=True)


def near_valid(data: st.DataObject) -> bytes:
    events = [e.to_dict() for e in VALID]
    index = data.draw(st.integers(0, len(events) - 1))
    action = data.draw(st.sampled_from(["set", "drop", "payload", "reseal", "dup", "cut"]))
    row = dict(events[index])
    if action == "set":
        row[data.draw(st.sampled_from(FIELDS))] = data.draw(json_values)
    elif action == "drop":
        row.pop(data.draw(st.sampled_from(FIELDS)))
    elif action == "payload":
        row["payload"] = data.draw(st.dictionaries(st.text(max_size=8), json_values, max_size=4))
    elif action == "reseal":  # a forger's valid hash over a changed payload
        key = data.draw(st.text(max_size=6))
        changed = Event.from_dict(row)
        payload = {**changed.payload, key: data.draw(json_values)}
        prev = events[index - 1]["hash"] if index else "0" * 64
        with contextlib.suppress(TypeError, ValueError):
            row = Event(**{**row, "payload": payload}).sealed(prev).to_dict()
    elif action == "dup":
        events.insert(index, dict(row))
    events[index] = row
    lines = []
    for item in events:
        try:
            lines.append(json.dumps(item, ensure_ascii=False))
        except (TypeError, ValueError):
            lines.append(str(item))
    text = "\n".join(lines)
    if action == "cut":
        text = text[: data.draw(st.integers(0, len(text)))]
    return text.encode("utf-8", "surrogatepass")


@FAST
@given(content=st.binary(max_size=400))
def test_random_bytes(target: Target, content: bytes) -> None:
    target.attempt(content)


@FAST
@given(values=st.lists(json_values, min_size=1, max_size=4))
def test_random_json_lines(target: Target, values: list) -> None:
    target.attempt("\n".join(json.dumps(v) for v in values).encode())


@FAST
@given(data=st.data())
def test_near_valid_events(target: Target, data: st.DataObject) -> None:
    target.attempt(near_valid(data))


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_near_valid_events_long(target: Target, data: st.DataObject) -> None:
    target.attempt(near_valid(data))


@pytest.mark.slow
@LONG
@given(content=st.binary(max_size=2000))
def test_random_bytes_long(target: Target, content: bytes) -> None:
    target.attempt(content)


def test_cli_never_shows_a_traceback(tmp_path: Path, capsys) -> None:
    for number, content in enumerate([b"\xff\xfe\x00", b"[1,2]\n", b'{"seq": 1e999}', b"{" * 5000]):
        source = tmp_path / f"bad{number}.jsonl"
        source.write_bytes(content)
        assert main(["import", str(source), "--into", str(tmp_path / "t.sqlite")]) == 1
        assert main(["verify", str(source)]) == 1
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 2
