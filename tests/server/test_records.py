"""``verify URL`` and ``export jsonl URL``: the store's checks on records read from the server."""

from __future__ import annotations

import psycopg

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.interchange import export_events
from referee_desk.store.postgres.sync import sync_file


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_from_the_server_is_byte_identical_to_the_desks(hall, desk_file, tmp_path, capsys):
    path = desk_file("t1", {"R1-T1": 7, "R1-T2": 3})
    sync_file(str(path), hall.desk_urls[0])
    out = tmp_path / "server.jsonl"
    code, said, err = _run(capsys, "export", "jsonl", hall.organizer_url, "-o", str(out))
    assert code == 0 and "exported 10 events" in said, err
    local = tmp_path / "desk.jsonl"
    export_events(path, local)
    assert out.read_bytes() == local.read_bytes()
    code, _, err = _run(
        capsys, "export", "jsonl", hall.organizer_url, "-o", str(out), "--match", "R1-T9"
    )
    assert code == 1 and "no match 'R1-T9'" in err


def test_verify_url_passes_then_names_a_forged_event(hall, desk_file, capsys) -> None:
    path = desk_file("t1", {"R1-T1": 5})
    sync_file(str(path), hall.desk_urls[0])
    code, out, _ = _run(capsys, "verify", hall.organizer_url, "--heads")
    with TournamentFile.open(path) as tf:
        head = tf.head("R1-T1")[1]
    assert code == 0 and out.startswith("OK ") and head in out
    code, out, _ = _run(capsys, "verify", hall.organizer_url, "--against", str(path))
    assert code == 0 and "agrees with" in out
    # The superuser drops the guard and edits a stored event: verify finds it.
    with psycopg.connect(hall.admin_url, autocommit=True) as admin:
        admin.execute("ALTER TABLE referee_desk.events DISABLE TRIGGER events_no_update")
        admin.execute(
            "UPDATE referee_desk.events SET canonical = replace(canonical, '秩序良好', '秩序混乱') "
            "WHERE seq = 4"
        )
    code, _, err = _run(capsys, "verify", hall.organizer_url)
    assert code == 1 and "match R1-T1, event 4" in err and "***" in err


def test_verify_url_of_an_unreachable_server(capsys) -> None:
    code, _, err = _run(capsys, "verify", "postgresql://rd:secret@127.0.0.1:1/cup")
    assert code == 2 and "cannot reach" in err and "secret" not in err
