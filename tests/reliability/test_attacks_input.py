"""Issue 18, hostile input: no traceback, nothing echoed raw, nothing read without bound."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.synthetic import record


def test_control_characters_and_long_ids_are_not_echoed_raw(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="cup-18") as tf:
        record(tf, "r1-t1", 3)
        tf.seals.lock("r1-t1")
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM match_seals")  # tamper: verify names the match below
    hostile = "\x1b[2J\r\nOK " + "x" * 900_000
    conn.execute("DROP TRIGGER events_append_only_update")
    conn.execute("UPDATE events SET match_id = ?", (hostile,))
    conn.commit()
    conn.close()
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\r" not in err and err.count("\n") == 1
    assert len(err) < 2000 and "more characters" in err


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_import_into_a_device_is_refused(target: str, capsys, tmp_path: Path) -> None:
    record_path = tmp_path / "rec.jsonl"
    record_path.write_text("", encoding="utf-8")
    assert main(["import", str(record_path), "--into", target]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert not Path(f"{target}-journal").exists() and not Path(f"{target}.heads").exists()


def test_import_from_dev_zero_stops_at_the_limit(tmp_path: Path, capsys, monkeypatch) -> None:
    from referee_desk.store import strict_json

    monkeypatch.setattr(strict_json, "MAX_FILE_BYTES", 4 * 1024 * 1024)
    assert main(["import", "/dev/zero", "--into", str(tmp_path / "cup.sqlite")]) == 1
    assert "larger than 4 MB" in capsys.readouterr().err


def test_a_folder_in_place_of_the_desk_key_is_a_one_line_refusal(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    (tmp_path / "cfg" / "keys" / "desk-ed25519.pem").mkdir(parents=True)
    assert main(["keys", "show"]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_organizer_create_with_the_config_folder_a_file(tmp_path: Path, capsys, monkeypatch):
    (tmp_path / "cfg").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("REFEREE_DESK_PASSPHRASE", "long enough passphrase")
    assert main(["keys", "organizer-create"]) == 1
    assert "cannot store the organizer key" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["/dev/null", "/dev/zero"])
def test_export_refuses_a_device_as_its_target(target: str, capsys, tmp_path: Path) -> None:
    before = Path(target).stat()
    assert main(["export", "scoresheet", "-", "-o", target]) == 1
    assert "not a regular file" in capsys.readouterr().err
    after = Path(target).stat()
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


def test_export_refuses_a_zip_bomb_template(tmp_path: Path, capsys) -> None:
    import zipfile

    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (80 * 1024 * 1024))
    assert bomb.stat().st_size < 1024 * 1024
    out = tmp_path / "bracket.xlsx"
    code = main(
        [
            "export",
            "bracket",
            str(tmp_path / "none.sqlite"),
            "--template",
            str(bomb),
            "-o",
            str(out),
        ]
    )
    assert code == 1
    assert "more than 64 MB" in capsys.readouterr().err and not out.exists()


def test_replay_of_dev_zero_stops_at_the_limit(capsys, monkeypatch) -> None:
    from referee_desk.store import strict_json

    monkeypatch.setattr(strict_json, "MAX_FILE_BYTES", 4 * 1024 * 1024)
    assert main(["replay", "/dev/zero"]) != 0
    err = capsys.readouterr().err
    assert "larger than 4 MB" in err and "Traceback" not in err


@pytest.fixture
def full_disk(tmp_path: Path):
    """A 512 KB tmpfs (needs root; skipped elsewhere) to fill up."""
    import subprocess

    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", str(mount)], check=False)


def _fill(folder: Path) -> None:
    with open(folder / "filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 512)
        except OSError:
            pass


def test_a_disk_full_before_opening(full_disk: Path) -> None:
    """The intact file opens for reading (not called damaged); a new file is not left
    behind as 0 bytes."""
    from referee_desk.store import StoreWriteError

    path = full_disk / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="full-18") as tf:
        record(tf, "m", 3)
    _fill(full_disk)
    with TournamentFile.open(path, create=False) as tf:
        assert tf.read_only and len(tf.events("m")) == 3
    with pytest.raises(StoreWriteError, match="disk is full"):
        TournamentFile.open(full_disk / "new.sqlite")
    assert not any(p.name.startswith("new.sqlite") for p in full_disk.iterdir())
    assert not list(full_disk.glob("*.partial"))


def test_a_write_to_a_file_opened_on_a_full_disk_says_the_disk_is_full(
    full_disk: Path, tmp_path: Path, capsys
) -> None:
    """Issue 18, input: ``import --into`` an intact file on a disk already full said "the
    file is read-only"; it says the disk was full, and the file is unchanged."""
    path = full_disk / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="full-18") as tf:
        record(tf, "m", 3)
    source = tmp_path / "more.sqlite"
    with TournamentFile.open(source, tournament_id="full-18") as tf:
        record(tf, "n", 2)
    assert main(["export", "jsonl", str(source), "-o", str(tmp_path / "n.jsonl")]) == 0
    before = path.read_bytes()
    _fill(full_disk)
    capsys.readouterr()
    assert main(["import", str(tmp_path / "n.jsonl"), "--into", str(path)]) == 1
    err = capsys.readouterr().err
    assert "the disk was full when" in err and "free some space" in err, err
    assert "read-only:" not in err and "damaged" not in err
    assert path.read_bytes() == before
