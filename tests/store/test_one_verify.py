"""Issue 17 items 1 and 7: the store's parts are public owners (no facade), verification
is one module with one report and one open, and import streams."""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
import tracemalloc
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.match.envelope import verify_chain
from referee_desk.store import AccessRefused, TournamentFile
from referee_desk.store.synthetic import record, sealed_match


def _file(path: Path) -> Path:
    with TournamentFile.open(path, tournament_id="cup-17") as tf:
        record(tf, "r1-t1", 5)
        record(tf, "r1-t2", 3)
        lock = getattr(tf, "lock_match", None) or tf.seals.lock  # (before issue 17: a forward)
        lock("r1-t1", "王裁判")
    return path


def test_verify_opens_the_file_once(tmp_path: Path, monkeypatch, capsys) -> None:
    """Item 7: ``referee-desk verify --heads`` opened the file 3 times (verify, the
    signing summary, the heads); one open now gives all three (``VerifyReport``)."""
    path = _file(tmp_path / "cup.sqlite")
    opened: list[Path] = []
    real = TournamentFile.open.__func__

    def counting(cls, file, **options):
        opened.append(Path(file))
        return real(cls, file, **options)

    monkeypatch.setattr(TournamentFile, "open", classmethod(counting))
    assert main(["verify", str(path), "--heads"]) == 0
    out = capsys.readouterr().out
    assert "r1-t1: 5 events" in out and "(locked)" in out and "file key" in out
    assert opened == [path]


def test_the_report_carries_problem_signing_and_heads(tmp_path: Path) -> None:
    from referee_desk.store.verify import verify_report

    path = _file(tmp_path / "cup.sqlite")
    report = verify_report(path)
    assert report.intact and report.problem is None
    assert [h[:2] for h in report.heads] == [("r1-t1", 5), ("r1-t2", 3)]
    assert report.heads[0][3] is True and report.heads[1][3] is False
    assert report.signing[0].startswith("file key ")


def test_the_one_chain_checker_checks_the_match_id() -> None:
    """Item 7: ``envelope.verify_chain`` (the PDF report, ``replay``) did not check the
    match id: an event of another match, well linked, passed."""
    events = sealed_match("r1-t1", 3)
    stranger = sealed_match("r9-t9", 3)[2]
    linked = stranger.__class__(**{**stranger.to_dict(), "prev_hash": events[1].hash}).sealed(
        events[1].hash
    )
    assert verify_chain([*events[:2], linked]) == 2
    assert verify_chain(events) is None


def _one_line_forwards(cls: type) -> list[str]:
    """Methods of ``cls`` whose whole body (after a docstring) returns/does
    ``self.<part>.<same-ish call>(...)``: a facade's forward."""
    found = []
    for name, member in vars(cls).items():
        func = member.fget if isinstance(member, property) else member
        if not inspect.isfunction(func):
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
        body = tree.body[0].body  # type: ignore[attr-defined]
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        if len(body) != 1:
            continue
        value = getattr(body[0], "value", None)
        target = value.func if isinstance(value, ast.Call) else value
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Attribute)
            and isinstance(target.value.value, ast.Name)
            and target.value.value.id == "self"
        ):
            found.append(name)
    return found


def test_tournament_file_forwards_only_a_handful() -> None:
    """Item 1: 39 of 47 methods were one-line forwards; the parts are public now
    (``tf.people.login``, ``tf.seals.lock``, ``tf.checks.verify``)."""
    forwards = _one_line_forwards(TournamentFile)
    assert len(forwards) <= 5, forwards
    assert {"login", "lock_match", "verify", "add_person", "seals"}.isdisjoint(vars(TournamentFile))


def test_the_public_parts_skip_no_check(tmp_path: Path) -> None:
    """Item 1 (issue 18 item 7): a public part must not let a caller skip a check: a lock
    through ``tf.seals`` needs a sign-in as ``lock_match`` did; events are written only by
    ``append`` and ``import_jsonl`` (the event log reads; a seal is signed by ``lock``)."""
    with TournamentFile.open(tmp_path / "club.sqlite", tournament_id="club-17") as tf:
        record(tf, "r1-t1", 3)
        tf.people.add_person("王裁判", "referee", "739155")
        tf.people.assign_referee("r1-t1", "王裁判")
        with pytest.raises(AccessRefused):
            tf.seals.lock("r1-t1", "王裁判")
        assert tf.seals.latest("r1-t1") is None
        assert not hasattr(tf, "insert") and not hasattr(tf.seals, "insert")
        session = tf.people.login("王裁判", "739155")
        assert tf.seals.lock("r1-t1", session=session).sealed_by == "王裁判"


def _write_record(path: Path, matches: int, per_match: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for m in range(matches):
            for event in sealed_match(f"r1-t{m}", per_match):
                out.write(json.dumps(event.to_dict(), ensure_ascii=False) + "\n")


def test_import_streams(tmp_path: Path) -> None:
    """Performance (import 10^6 events: peak 1,290 MB, all held at once): the import
    holds one match's state and a batch of rows, not the record (tracemalloc's peak; it
    was 268 MB here: a 256 MB read buffer, then every line's event at once)."""
    source = tmp_path / "big.jsonl"
    _write_record(source, 12, 500)
    with TournamentFile.open(tmp_path / "cup.sqlite") as tf:
        tracemalloc.start()
        try:
            report = tf.import_jsonl([source])
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert report.total_added == 6000 and tf.count() == 6000
    assert peak < 32 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB"
