"""``referee-desk keys``: the organizer's key made, adopted and endorsing a second desk."""

from __future__ import annotations

from pathlib import Path

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.keys import desk_signer
from referee_desk.store.synthetic import record


def test_organizer_key_workflow_from_the_command_line(tmp_path: Path, monkeypatch, capsys):
    organizer_home, desk_home = tmp_path / "organizer", tmp_path / "desk2"
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(organizer_home))
    monkeypatch.setenv("REFEREE_DESK_PASSPHRASE", "correct horse battery")
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="cli-cup") as tf:
        record(tf, "m1", 3)
        tf.seals.lock("m1")
    assert main(["keys", "organizer-create"]) == 0
    assert main(["keys", "organizer-create"]) == 1  # never overwritten by accident
    assert main(["keys", "adopt", str(path)]) == 0
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(desk_home))
    assert main(["keys", "register", str(path)]) == 0
    second = desk_signer().fingerprint
    with TournamentFile.open(path, create=False) as tf:
        record(tf, "m2", 3)
        tf.seals.lock("m2")
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    assert second in capsys.readouterr().err
    monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(organizer_home))
    monkeypatch.setenv("REFEREE_DESK_PASSPHRASE", "wrong horse battery")
    assert main(["keys", "endorse", str(path), second]) == 1
    assert "wrong passphrase" in capsys.readouterr().err
    monkeypatch.setenv("REFEREE_DESK_PASSPHRASE", "correct horse battery")
    assert main(["keys", "endorse", str(path), second]) == 0
    assert main(["verify", str(path)]) == 0
    assert main(["keys", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert second in out and "NOT trusted" not in out
