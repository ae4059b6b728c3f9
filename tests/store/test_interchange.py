"""JSON Lines export/import (all or nothing, idempotent) and ``referee-desk verify``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.match.envelope import Event
from referee_desk.store import ImportConflict, ImportRefused, TournamentFile
from referee_desk.store.interchange import export_events, import_jsonl, verify_path
from referee_desk.store.jsonl import read_jsonl, write_jsonl
from referee_desk.store.synthetic import record, sealed_match


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path) as tf:
        record(tf, "r1-t1", 6)
        record(tf, "r1-t2", 4)
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_export_whole_tournament_and_one_match(cup: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    assert export_events(cup, out) == 10
    rows = [json.loads(line) for line in lines_of(out)]
    assert [(r["match_id"], r["seq"]) for r in rows][:2] == [("r1-t1", 1), ("r1-t1", 2)]
    assert "漓江队" in out.read_text(encoding="utf-8")  # UTF-8, not \\u escapes
    one = tmp_path / "one.jsonl"
    assert export_events(cup, one, "r1-t2") == 4
    with TournamentFile.open(cup) as tf:
        assert [Event.from_dict(json.loads(x)) for x in lines_of(one)] == tf.events("r1-t2")


def test_import_round_trip_is_identical_and_idempotent(cup: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    export_events(cup, out)
    target = tmp_path / "copy.sqlite"
    with TournamentFile.open(target) as tf:
        report = import_jsonl(tf, [out])
        assert report.added == {"r1-t1": 6, "r1-t2": 4}
        again = import_jsonl(tf, [out])
        assert again.total_added == 0 and set(again.unchanged) == {"r1-t1", "r1-t2"}
        with TournamentFile.open(cup) as original:
            assert tf.all_events() == original.all_events()
        assert tf.checks.verify() is None


def test_import_extends_a_match_already_partly_present(tmp_path: Path) -> None:
    full = sealed_match("m", 8)
    part, whole = tmp_path / "part.jsonl", tmp_path / "whole.jsonl"
    write_jsonl(full[:5], part)
    write_jsonl(full, whole)
    with TournamentFile.open(tmp_path / "t.sqlite") as tf:
        import_jsonl(tf, [part])
        assert import_jsonl(tf, [whole]).added == {"m": 3}
        assert tf.events("m") == full


def test_same_match_recorded_differently_is_a_conflict(tmp_path: Path) -> None:
    mine = sealed_match("m", 5)
    theirs = sealed_match("m", 5, referee="李裁判")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(mine, a)
    write_jsonl(theirs, b)
    with TournamentFile.open(tmp_path / "t.sqlite") as tf:
        import_jsonl(tf, [a])
        with pytest.raises(ImportConflict, match=r"b\.jsonl:1: .*differently"):
            import_jsonl(tf, [b])
        assert tf.events("m") == mine


def _import_refusal(tmp_path: Path, text: str) -> ImportRefused:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text, encoding="utf-8")
    target = tmp_path / "t.sqlite"
    with TournamentFile.open(target) as tf:
        record(tf, "other", 3)
        before = tf.all_events()
        with pytest.raises(ImportRefused) as caught:
            import_jsonl(tf, [bad])
        assert tf.all_events() == before  # nothing written
    return caught.value


def _good_lines(n: int = 5) -> list[str]:
    return [json.dumps(e.to_dict(), ensure_ascii=False) for e in sealed_match("m", n)]


def test_malformed_line_is_refused_with_file_and_line(tmp_path: Path) -> None:
    lines = _good_lines()
    lines[2] = lines[2][:-5]
    error = _import_refusal(tmp_path, "\n".join(lines) + "\n")
    assert (Path(error.file).name, error.line) == ("bad.jsonl", 3)
    assert "not JSON" in error.reason


def test_broken_chain_is_refused_naming_the_line(tmp_path: Path) -> None:
    lines = _good_lines()
    lines[1], lines[2] = lines[2], lines[1]  # reorder two events
    error = _import_refusal(tmp_path, "\n".join(lines))
    assert error.line == 2 and "sequence broken" in error.reason
    lines = _good_lines()
    row = json.loads(lines[3])
    row["payload"]["text"] = "篡改"
    lines[3] = json.dumps(row, ensure_ascii=False)
    error = _import_refusal(tmp_path, "\n".join(lines))
    assert error.line == 4 and "hash" in error.reason


def test_wrong_field_types_and_newer_versions_are_refused(tmp_path: Path) -> None:
    for change, needle in [
        ({"seq": "1"}, "wrong type"),
        ({"extra": 1}, "unknown field"),
        ({"schema_version": 9}, "newer Referee Desk"),
        ({"hash": "xyz"}, "SHA-256"),
    ]:
        row = json.loads(_good_lines(1)[0])
        row.update(change)
        error = _import_refusal(tmp_path, json.dumps(row))
        assert error.line == 1 and needle in error.reason


def test_unknown_type_and_unacceptable_event_are_refused(tmp_path: Path) -> None:
    events = sealed_match("m", 4)
    bogus = Event(**{**events[3].to_dict(), "type": "no_such_event"}).sealed(events[2].hash)
    error = _import_refusal(
        tmp_path, "\n".join(json.dumps(e.to_dict()) for e in [*events[:3], bogus])
    )
    assert error.line == 4
    # clock_started twice in a row: a state the match cannot accept.
    again = Event(**{**events[1].to_dict(), "seq": 3}).sealed(events[1].hash)
    lines = [json.dumps(e.to_dict()) for e in [*events[:2], again]]
    error = _import_refusal(tmp_path, "\n".join(lines))
    assert error.line == 3


def test_verify_cli_ok_and_broken(cup: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["verify", str(cup)]) == 0
    assert capsys.readouterr().out.startswith("OK")
    out = tmp_path / "all.jsonl"
    assert main(["export", "jsonl", str(cup), "-o", str(out)]) == 0
    assert main(["verify", str(out)]) == 0
    lines = lines_of(out)
    del lines[6]  # delete the first event of r1-t2
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "all.jsonl:7" in err and "match r1-t2" in err


def test_verify_refuses_files_that_are_not_records(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"\x00\x01 not a database")
    assert main(["verify", str(junk)]) == 1
    assert "neither a Referee Desk tournament file" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.jsonl")]) == 1


def test_import_cli_all_or_nothing(cup: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "all.jsonl"
    export_events(cup, out)
    target = tmp_path / "new.sqlite"
    assert main(["import", str(out), "--into", str(target)]) == 0
    assert main(["import", str(out), "--into", str(target)]) == 0
    assert "already present" in capsys.readouterr().out
    broken = tmp_path / "broken.jsonl"
    broken.write_text(out.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite"
    assert main(["import", str(broken), "--into", str(fresh)]) == 1
    err = capsys.readouterr().err
    assert "broken.jsonl:11" in err and "Traceback" not in err
    assert not fresh.exists()


def test_export_of_unknown_match_is_a_clear_error(cup: Path, tmp_path: Path, capsys) -> None:
    assert (
        main(["export", "jsonl", str(cup), "-o", str(tmp_path / "x.jsonl"), "--match", "zz"]) == 1
    )
    assert "no match 'zz'" in capsys.readouterr().err


def test_read_jsonl_skips_blank_lines_and_keeps_numbers(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("\n" + "\n\n".join(_good_lines(2)) + "\n", encoding="utf-8")
    assert [i.line for i in read_jsonl(path)] == [2, 4]
    assert verify_path(path) is None


SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_events").glob("*.jsonl"))


@pytest.mark.skipif(not SAMPLES, reason="sample_events/ not generated yet")
def test_sample_matches_verify_import_and_export_unchanged(tmp_path: Path, capsys) -> None:
    cup = tmp_path / "samples.sqlite"
    assert main(["import", *map(str, SAMPLES), "--into", str(cup)]) == 0
    for sample in SAMPLES:
        assert main(["verify", str(sample)]) == 0
        match_id = read_jsonl(sample)[0].event.match_id
        out = tmp_path / sample.name
        assert main(["export", "jsonl", str(cup), "-o", str(out), "--match", match_id]) == 0
        exported = [i.event for i in read_jsonl(out)]
        assert exported == [i.event for i in read_jsonl(sample)]
    assert main(["verify", str(cup), "--heads"]) == 0
    heads = capsys.readouterr().out
    assert heads.count(" events, head ") == len(SAMPLES)
