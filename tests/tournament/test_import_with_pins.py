"""The organizer's import into a tournament file with PINs needs the organizer signed in
(issue 18 item 6: who may append what is the store's rule, for every path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.store.errors import AccessRefused
from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.importing import import_records

from .records import record_for
from .test_results_flow import cup


def _with_organizer(tmp_path: Path):
    t = cup(tmp_path, 4)
    t.file.people.add_person("主办方", "organizer", "2468")
    first = t.state().matches[0]
    path = tmp_path / "r1.jsonl"
    write_jsonl(record_for(t, first.match.match_id, first.pair_a), path)
    return t, first.match.match_id, path


def test_an_import_without_a_sign_in_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    t, match_id, path = _with_organizer(tmp_path)
    with pytest.raises(AccessRefused):
        import_records(t, [path])
    assert t.file.events(match_id) == []


def test_the_organizer_signed_in_imports(tmp_path: Path) -> None:
    t, match_id, path = _with_organizer(tmp_path)
    by = t.file.people.login("主办方", "2468")
    result = import_records(t, [path], by)
    assert result.ok and match_id in result.added


def test_tournament_import_records_as_the_organizer(tmp_path: Path, monkeypatch, capsys) -> None:
    t, match_id, path = _with_organizer(tmp_path)
    file = str(t.path)
    t.close()
    monkeypatch.setenv("REFEREE_DESK_PIN", "2468")
    code = main(["tournament", "import-records", file, str(path), "--as", "主办方"])
    assert code == 0, capsys.readouterr()
    assert "in 1 matches" in capsys.readouterr().out
    from referee_desk.tournament.repository import Tournament

    with Tournament.open(file, read_only=True) as again:
        assert again.file.events(match_id)
