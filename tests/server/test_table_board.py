"""The table board (issue 21, items 2 and 3): heartbeats by desk key, behind and restored
recorded on the server, open and settled conflicts apart, settling a fork."""

from __future__ import annotations

import psycopg
import pytest

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.postgres.pusher import BackgroundPusher
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import sync_file
from referee_desk.store.synthetic import draft, record
from referee_desk.tournament.table_board import table_board


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _row(board, table: str):
    return next(r for r in board.rows if r.table == table)


def _beat(path, url) -> None:
    with BackgroundPusher(path, url, interval=0.2) as pusher:
        assert pusher.wait_until(lambda s: pusher.heartbeats > 0, timeout=30)


def test_two_laptops_on_one_tables_address_are_told_apart_by_desk_key(
    hall, desk_file, tmp_path, monkeypatch, capsys
):
    keys = set()
    for laptop, match_id in (("laptop-a", "R1-T1"), ("laptop-b", "R1-T9")):
        # Each laptop has its own config folder, hence its own desk key.
        monkeypatch.setenv("REFEREE_DESK_CONFIG_DIR", str(tmp_path / laptop / "config"))
        path = desk_file(laptop, {match_id: 3})
        _beat(path, hall.desk_urls[0])
        with TournamentFile.open(path) as tf:
            keys.add(tf.key_fingerprint)
    assert len(keys) == 2 and "" not in keys
    with TournamentServer.open(hall.organizer_url) as server:
        board = table_board(server)
    row = _row(board, "1号桌")
    assert row.shared and set(row.desk_keys) == keys
    assert row.waiting == 0 and row.seconds_ago is not None and row.seconds_ago < 60
    assert _row(board, "2号桌").laptops == ()  # never heard
    code, out, _ = _run(capsys, "server", "status", hall.organizer_url)
    assert code == 0, out
    assert "2 laptops on one address" in out
    for key in keys:
        assert f"desk key {key}" in out


def test_behind_and_restored_from_a_backup_are_recorded_on_the_server(hall, desk_file, tmp_path):
    path = desk_file("t1", {"R1-T1": 3})
    backup = tmp_path / "backup.sqlite"
    backup.write_bytes(path.read_bytes())
    (tmp_path / "backup.sqlite.sync").unlink(missing_ok=True)
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 4)
    assert sync_file(str(path), hall.desk_urls[0]).total_pushed == 7
    # The laptop's disk died: the referee goes on from last night's copy, with its marks.
    path.unlink()
    backup.rename(path)
    # Its sync marks (beside the file, not in the backup) say it pushed 7 events before.
    _beat(path, hall.desk_urls[0])
    with TournamentServer.open(hall.organizer_url) as server:
        (lap,) = _row(table_board(server), "1号桌").laptops
    assert lap.behind == ("R1-T1",)  # the server holds 7, the file 3
    assert lap.restored == ("R1-T1",)  # the file holds less than this desk pushed


def test_status_exits_1_only_while_a_conflict_is_open_and_resolve_keeps_the_server(
    hall, desk_file, tmp_path, capsys
):
    path = desk_file("t1", {"R1-T1": 4})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 2)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 4, text="另一台电脑上的记录"))
        tf.append(draft("R1-T1", 5, text="再一条"))
    assert sync_file(str(path), hall.desk_urls[0]).total_pushed == 6
    (conflict,) = sync_file(str(fork), hall.desk_urls[0]).conflicts
    assert (conflict.kind, conflict.seq) == ("fork", 5)
    code, out, _ = _run(capsys, "server", "status", hall.organizer_url)
    assert code == 1 and "open conflicts:" in out and "CONFLICT fork match R1-T1" in out
    code, out, err = _run(capsys, "server", "resolve", hall.organizer_url, "R1-T1")
    assert code == 1 and "--keep server or --keep desk" in err  # not a terminal: not asked
    assert "fork at event 5" in out
    assert "另一台电脑上的记录" in out and "再一条" in out  # the desk's branch shown
    code, out, err = _run(
        capsys, "server", "resolve", hall.organizer_url, "R1-T1", "--keep", "server"
    )
    assert code == 0, err
    assert "the server's record stands" in out and "2 events of the desk" in out
    code, out, _ = _run(capsys, "server", "status", hall.organizer_url)
    assert code == 0, out  # settled: kept apart, no longer failing
    assert "settled conflicts:" in out and "open conflicts:" not in out
    with TournamentServer.open(hall.organizer_url) as server:
        (settled,) = server.settlements()
        archived = server.archived_events(settled.id)
        assert server.head("R1-T1")[0] == 6
    with TournamentFile.open(fork) as tf:
        assert [e.hash for e in archived] == [e.hash for e in tf.events("R1-T1")[4:]]
    # The losing desk is told, naming the match and what to do.
    (again,) = sync_file(str(fork), hall.desk_urls[0]).conflicts
    assert "the organizer kept the server's record of match R1-T1" in again.reason
    assert "--take-server R1-T1" in again.reason


def test_resolve_keep_desk_puts_the_desks_branch_in_place(hall, desk_file, tmp_path, capsys):
    path = desk_file("t1", {"R1-T1": 4})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 2)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 4, text="裁判长认定的记录"))
    sync_file(str(path), hall.desk_urls[0])
    sync_file(str(fork), hall.desk_urls[0])
    code, out, err = _run(
        capsys, "server", "resolve", hall.organizer_url, "R1-T1", "--keep", "desk"
    )
    assert code == 0, err
    assert "2 events of the server's branch from event 5 archived" in out
    with TournamentServer.open(hall.organizer_url) as server, TournamentFile.open(fork) as tf:
        assert server.hashes("R1-T1") == [e.hash for e in tf.events("R1-T1")]
        (settled,) = server.settlements()
        assert len(server.archived_events(settled.id)) == 2
    report = sync_file(str(fork), hall.desk_urls[0])
    assert report.conflicts == ()  # the desk's record is the server's now
    assert _run(capsys, "server", "status", hall.organizer_url)[0] == 0
    # The laptop whose events were archived is told it lost, and the fork stays settled.
    (lost,) = sync_file(str(path), hall.desk_urls[0]).conflicts
    assert lost.reason.startswith("settled:") and "--take-server R1-T1" in lost.reason
    assert _run(capsys, "server", "status", hall.organizer_url)[0] == 0
    code, _, err = _run(capsys, "sync", str(path), hall.desk_urls[0], "--take-server", "R1-T1")
    assert code == 0, err
    assert sync_file(str(path), hall.desk_urls[0]).conflicts == ()


def test_resolve_asks_which_record_stands_at_a_terminal(
    hall, desk_file, tmp_path, capsys, monkeypatch
):
    import io

    path = desk_file("t1", {"R1-T1": 2})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 1)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 2, text="终端里选"))
    sync_file(str(path), hall.desk_urls[0])
    sync_file(str(fork), hall.desk_urls[0])

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("desk\n"))
    code, out, err = _run(capsys, "server", "resolve", hall.organizer_url, "R1-T1")
    assert code == 0, err
    assert "keep which record? [server/desk]" in out and "desk " in out
    assert "(desk " + hall.desk_roles[0] + "'s)" in out
    with TournamentServer.open(hall.organizer_url) as server, TournamentFile.open(fork) as tf:
        assert server.hashes("R1-T1") == [e.hash for e in tf.events("R1-T1")]


def test_the_archived_server_events_cannot_be_removed_by_hand(hall, desk_file):
    """The one way events leave the table is settle_fork; a DELETE by the owner is refused."""
    path = desk_file("t1", {"R1-T1": 3})
    sync_file(str(path), hall.desk_urls[0])
    with psycopg.connect(hall.admin_url, autocommit=True) as admin:
        admin.execute("SELECT set_config('referee_desk.settling', 'R1-T1', false)")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            admin.execute("DELETE FROM referee_desk.events WHERE match_id = 'R1-T1'")
    with psycopg.connect(hall.desk_urls[0], autocommit=True) as desk:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            desk.execute("SELECT * FROM referee_desk.heartbeats")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            desk.execute("SELECT referee_desk.settle_fork('R1-T1', 'desk', current_user)")


def test_the_desk_that_lost_takes_the_servers_record_with_one_command(
    hall, desk_file, tmp_path, capsys
):
    path = desk_file("t1", {"R1-T1": 4, "R1-T7": 3})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 2)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 4, text="输掉的一支"))
        before = [e.hash for e in tf.all_events()]
    sync_file(str(path), hall.desk_urls[0])
    sync_file(str(fork), hall.desk_urls[0])
    assert (
        _run(capsys, "server", "resolve", hall.organizer_url, "R1-T1", "--keep", "server")[0] == 0
    )
    code, out, err = _run(capsys, "sync", str(fork), hall.desk_urls[0], "--take-server", "R1-T1")
    assert code == 0, err
    assert "比赛 R1-T1：已取回服务器上的记录（6 条）" in out
    (kept,) = tmp_path.glob("fork.forked-R1-T1-*.sqlite")
    with TournamentFile.open(kept, read_only=True) as old:  # nothing lost
        assert [e.hash for e in old.all_events()] == before
    with TournamentFile.open(fork) as tf, TournamentServer.open(hall.organizer_url) as server:
        assert [e.hash for e in tf.events("R1-T1")] == server.hashes("R1-T1")
        assert len(tf.events("R1-T7")) == 3
        assert tf.checks.verify() is None
    report = sync_file(str(fork), hall.desk_urls[0])
    assert report.conflicts == ()


def test_the_match_report_names_the_settled_fork_and_the_archived_branch(
    hall, desk_file, tmp_path, capsys
):
    import subprocess

    from referee_desk.tournament.model import Settings, TournamentInfo
    from referee_desk.tournament.repository import Tournament

    info = TournamentInfo(name="桂林杯", start_date="2026-11-28", tables=("1号桌",))
    with Tournament.create(hall.organizer_url, info, Settings()):
        pass
    with TournamentServer.open(hall.organizer_url) as server:
        server.set_claims(True)  # a desk's own record id, beside the (empty) draw
    path = desk_file("t1", {"R1-T1": 4})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 2)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 4, text="输掉的一支"))
    sync_file(str(path), hall.desk_urls[0])
    sync_file(str(fork), hall.desk_urls[0])
    settle = ("server", "resolve", hall.organizer_url, "R1-T1", "--keep", "server")
    assert _run(capsys, *settle)[0] == 0
    out = tmp_path / "report.pdf"
    code, _, err = _run(
        capsys, "export", "match", hall.organizer_url, "--match", "R1-T1", "-o", str(out)
    )
    assert code == 0, err
    text = subprocess.run(
        ["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True
    ).stdout
    squashed = " ".join(text.split())
    assert "分叉已裁定 Fork settled" in squashed
    assert f"desk {hall.desk_roles[0]}'s branch" in squashed
    assert "1 条 events from #5" in squashed


def test_a_refused_claim_is_settled_once_the_match_is_given_to_that_desk(hall, desk_file, capsys):
    with TournamentServer.open(hall.organizer_url) as organizer:
        organizer.assign("R1-T2", "2号桌", None)
    path = desk_file("t1", {"R1-T2": 3})
    (conflict,) = sync_file(str(path), hall.desk_urls[0]).conflicts
    assert conflict.kind == "claimed"
    assert _run(capsys, "server", "status", hall.organizer_url)[0] == 1
    assert _run(capsys, "server", "assign", hall.organizer_url, "R1-T2", "1号桌")[0] == 0
    code, out, _ = _run(capsys, "server", "status", hall.organizer_url)
    assert code == 0 and "settled claimed match R1-T2" in out
    assert sync_file(str(path), hall.desk_urls[0]).total_pushed == 3


def test_a_desk_cannot_fill_the_board_with_a_huge_heartbeat(hall):
    huge = "SELECT referee_desk.heartbeat('ab', 0, ARRAY[repeat('x', 50000)], '{}', '')"
    with (
        psycopg.connect(hall.desk_urls[0], autocommit=True) as desk,
        pytest.raises(psycopg.errors.CheckViolation),
    ):
        desk.execute(huge)
    with (
        psycopg.connect(hall.organizer_url, autocommit=True) as organizer,
        pytest.raises(psycopg.errors.InsufficientPrivilege),  # a desk's own report
    ):
        organizer.execute("SELECT referee_desk.heartbeat('ab', 0, '{}', '{}', '')")
