"""Issue 20 item 3: a desk's lock is checked when its file is imported; a match whose
lock does not verify is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.repository import Tournament

from .records import record_for
from .test_results_flow import cup


def _desk(t, tmp_path: Path) -> tuple[Path, str, str]:
    first, second = t.state().matches[0], t.state().matches[1]
    desk = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk, create=True) as tf:
        for m in (first, second):
            for e in record_for(t, m.match.match_id, m.pair_a):
                tf.append(e)
            tf.seals.lock(m.match.match_id, by="王磊")
    return desk, first.match.match_id, second.match.match_id


def test_a_lock_that_verifies_lets_the_match_in(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    desk, one, two = _desk(t, tmp_path)
    res = import_records(t, [desk])
    assert res.ok and set(res.added) == {one, two}


def test_a_forged_lock_refuses_the_desks_file(tmp_path: Path) -> None:
    """A lock changed by hand breaks the desk file's guard (issue 18 item 3): the file is
    refused whole, naming the seal, and nothing of it is written."""
    t = cup(tmp_path, 4)
    desk, one, two = _desk(t, tmp_path)
    conn = sqlite3.connect(desk)
    conn.execute("UPDATE match_seals SET sealed_by = '别人' WHERE match_id = ?", (one,))
    conn.commit()
    conn.close()
    res = import_records(t, [desk])
    assert not res.added
    assert (
        len(res.refused) == 1
        and "a seal's signature, time or signer was changed" in (res.refused[0])
    )
    assert t.file.events(one) == [] and t.file.events(two) == []  # nothing was written


# -- the desk's seal comes along (issue 20 item 3: "Import keeps seals") ---------------


def _other_desk(t, tmp_path: Path, monkeypatch) -> tuple[Path, str, str]:
    """A desk file locked on another computer (its own config folder, so its own key)."""
    with monkeypatch.context() as m:
        m.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "desk-computer"))
        return _desk(t, tmp_path)


def _verify(path: Path, capsys) -> tuple[int, str]:
    from referee_desk.cli.main import main

    capsys.readouterr()
    code = main(["verify", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_import_keeps_the_desks_seal_and_verify_names_it(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    t = cup(tmp_path, 4)
    desk, one, two = _other_desk(t, tmp_path, monkeypatch)
    with TournamentFile.open(desk, create=False, read_only=True) as tf:
        desk_key, desk_id = tf.seals.latest(one).key_fingerprint, tf.tournament_id
    assert desk_id != t.file.tournament_id  # the seal is signed over the desk file's id
    assert desk_key != t.file.key_fingerprint  # and by another computer's key
    res = import_records(t, [desk])
    assert res.ok, res.lines()
    info = t.file.seal_info(one)
    assert info is not None and info.valid, info
    assert info.key_fingerprint == desk_key and desk_id in info.signer
    t.file.close()
    code, text = _verify(tmp_path / "t.sqlite", capsys)
    assert code == 0 and text.startswith("OK"), text
    assert f"key {desk_key}" in text and f"desk file {desk_id}): locked" in text
    assert one in text and two in text
    assert import_records(Tournament.open(tmp_path / "t.sqlite"), [desk]).ok  # again: no-op


def test_the_match_report_from_the_organizers_file_says_sealed(tmp_path: Path, monkeypatch) -> None:
    import subprocess

    from referee_desk.exports.pdf_match_report import export_match_report_pdf
    from referee_desk.exports.seal_status import seal_status

    t = cup(tmp_path, 4)
    desk, one, _ = _other_desk(t, tmp_path, monkeypatch)
    with TournamentFile.open(desk, create=False, read_only=True) as tf:
        desk_key = tf.seals.latest(one).key_fingerprint
    assert desk_key != t.file.key_fingerprint
    assert import_records(t, [desk]).ok
    out = tmp_path / "report.pdf"
    export_match_report_pdf(t.file.events(one), out, seal=seal_status(t.file, one))
    text = subprocess.run(
        ["pdftotext", str(out), "-"], check=True, capture_output=True, text=True
    ).stdout
    flat = "".join(text.split())
    assert "已封存" in text and "未封存" not in text
    assert desk_key in flat


def test_a_seal_changed_in_the_organizers_file_is_named(tmp_path: Path, capsys) -> None:
    t = cup(tmp_path, 4)
    desk, one, _ = _desk(t, tmp_path)
    assert import_records(t, [desk]).ok
    t.file.close()
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    conn.execute("UPDATE match_seals SET sealed_by = '别人' WHERE match_id = ?", (one,))
    conn.commit()
    conn.close()
    code, text = _verify(tmp_path / "t.sqlite", capsys)
    assert code != 0 and f"match {one}" in text and "does not verify" in text, text


def test_a_kept_desk_key_swapped_with_its_guard_is_still_caught(tmp_path: Path, capsys) -> None:
    """Planting a key of one's own for the desk file breaks the organizer file's guard."""
    t = cup(tmp_path, 4)
    desk, one, _ = _desk(t, tmp_path)
    assert import_records(t, [desk]).ok
    t.file.close()
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    conn.execute("DELETE FROM imported_signers")
    conn.commit()
    conn.close()
    code, text = _verify(tmp_path / "t.sqlite", capsys)
    assert code != 0 and one in text and "not kept for desk file" in text, text


def test_a_desk_file_whose_seal_does_not_verify_brings_no_seal(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    desk, one, two = _desk(t, tmp_path)
    conn = sqlite3.connect(desk)
    conn.execute("UPDATE match_seals SET sealed_by = '别人' WHERE match_id = ?", (one,))
    conn.commit()
    conn.close()
    res = import_records(t, [desk])
    assert res.refused and not res.added
    assert t.file.seals.latest(one) is None and t.file.seals.latest(two) is None


def test_a_version_2_file_is_migrated_and_then_keeps_imported_seals(tmp_path: Path) -> None:
    """A file from before imported seals (store schema version 2, a desk lock in it)
    opens through the migration path with its guard intact and takes a desk's seal."""
    t = cup(tmp_path, 4)
    desk, one, _ = _desk(t, tmp_path)
    t.file.close()
    for path in (tmp_path / "t.sqlite", desk):
        conn = sqlite3.connect(path)
        conn.execute("DROP TABLE imported_signers")
        conn.execute("ALTER TABLE match_seals DROP COLUMN origin_tournament")
        conn.execute("PRAGMA user_version = 2")
        conn.commit()
        conn.close()
    t = Tournament.open(tmp_path / "t.sqlite")
    assert t.file.meta()["store_schema_version"] == "3"
    assert t.file.checks.verify() is None
    with TournamentFile.open(desk, create=False) as tf:  # the desk upgrades its own file
        assert tf.checks.verify() is None
    assert import_records(t, [desk]).ok
    assert t.file.seal_info(one).valid and t.file.checks.verify() is None
