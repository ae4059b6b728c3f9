"""``referee-desk sync`` and ``server publish|status`` against the real server."""

from __future__ import annotations

from referee_desk.cli.main import main
from referee_desk.store import TournamentFile
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import sync_file
from referee_desk.store.synthetic import draft, record


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sync_pushes_then_says_nothing_new(hall, desk_file, capsys) -> None:
    path = desk_file("t1", {"R1-T1": 5})
    code, out, _ = _run(capsys, "sync", str(path), hall.desk_urls[0])
    assert code == 0 and "R1-T1: 5 events sent" in out
    code, out, _ = _run(capsys, "sync", str(path), hall.desk_urls[0])
    assert code == 0 and "0 events sent, 1 matches already on the server" in out


def test_sync_names_the_match_and_seq_of_a_fork(hall, desk_file, tmp_path, capsys) -> None:
    path = desk_file("t1", {"R1-T1": 3})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 1)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 3, text="不同的记录"))
    assert _run(capsys, "sync", str(path), hall.desk_urls[0])[0] == 0
    code, _, err = _run(capsys, "sync", str(fork), hall.desk_urls[0])
    assert code == 1 and "match R1-T1, event 4: fork" in err
    code, out, _ = _run(capsys, "server", "status", hall.organizer_url)
    assert code == 1 and "CONFLICT fork match R1-T1, event 4" in out


def test_publish_gives_drawn_matches_and_openings_to_the_tables(hall, tmp_path, capsys) -> None:
    cup = _drawn_cup(tmp_path, capsys)
    code, _, err = _run(capsys, "server", "publish", hall.organizer_url, str(cup))
    assert code == 0, err
    with TournamentServer.open(hall.organizer_url) as organizer:
        published = {a.match_id: a for a in organizer.assignments()}
    from referee_desk.tournament.repository import Tournament

    with Tournament.open(cup, read_only=True) as t:
        tabled = [m for m in t.draw_table.matches() if m.table]
        assert tabled, "the draw put no match on a table"
        assert any(published[m.match_id].opening for m in tabled)
        for match in tabled:
            got = published[match.match_id]
            role = hall.desk_roles[["1号桌", "2号桌", "3号桌"].index(match.table)]
            assert got.desk_role == role
            if got.opening is not None:
                assert got.opening == t.opening_payload(match.match_id)
                with TournamentServer.open(hall.desk_urls[hall.desk_roles.index(role)]) as desk:
                    assert desk.opening(match.match_id) == got.opening


def test_a_desk_opens_its_match_from_the_server_then_pushes(hall, tmp_path, capsys) -> None:
    from referee_desk.store.synthetic import opening_payload

    opening = opening_payload("KO-R1-M001", referee="李静")
    with TournamentServer.open(hall.organizer_url) as organizer:
        organizer.assign("KO-R1-M001", "1号桌", opening)
    path = tmp_path / "table1.sqlite"
    code, out, err = _run(capsys, "sync", str(path), hall.desk_urls[0], "--open", "KO-R1-M001")
    assert code == 0 and "opened from the server's draw" in out, err
    with TournamentFile.open(path) as tf:
        (first,) = tf.events("KO-R1-M001")
    assert (first.type, first.payload, first.referee) == ("match_opened", opening, "李静")
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert organizer.events("KO-R1-M001") == [first]
    code, _, err = _run(capsys, "sync", str(path), hall.desk_urls[1], "--open", "KO-R1-M001")
    assert code == 1 and "no drawn opening of match KO-R1-M001" in err
    # The same table again with a fresh file (a restarted laptop): the record goes on.
    again = tmp_path / "table1-again.sqlite"
    code, out, err = _run(capsys, "sync", str(again), hall.desk_urls[0], "--open", "KO-R1-M001")
    assert code == 0 and "KO-R1-M001: the server's record taken (1 events)" in out, err
    with TournamentFile.open(again) as tf:
        assert tf.events("KO-R1-M001") == [first]
    assert _run(capsys, "sync", str(again), hall.desk_urls[0])[0] == 0  # no fork


def test_watch_stops_after_count_events(hall, desk_file, capsys) -> None:
    import threading

    path = desk_file("t1", {"R1-T1": 8})
    pushing = threading.Timer(1.0, sync_file, (str(path), hall.desk_urls[0]))
    pushing.start()
    code, out, _ = _run(capsys, "server", "watch", hall.organizer_url, "--count", "3")
    pushing.join()
    assert code == 0
    assert out.splitlines() == [f"R1-T1 event {n} from {hall.desk_roles[0]}" for n in (1, 2, 3)]


def test_organizer_gives_a_claimed_match_to_the_other_desk(hall, desk_file, capsys) -> None:
    first = desk_file("t1", {"R1-T5": 2})
    second = desk_file("t2", {"R1-T5": 4})
    assert _run(capsys, "sync", str(first), hall.desk_urls[0])[0] == 0
    code, _, err = _run(capsys, "sync", str(second), hall.desk_urls[1])
    assert code == 1 and "match R1-T5, event 1: the match belongs to desk" in err
    code, out, _ = _run(capsys, "server", "assign", hall.organizer_url, "R1-T5", "2号桌")
    assert code == 0 and hall.desk_roles[1] in out
    code, out, _ = _run(capsys, "sync", str(second), hall.desk_urls[1])
    assert code == 0 and "R1-T5: 2 events sent" in out
    code, _, err = _run(capsys, "server", "assign", hall.desk_urls[1], "R1-T5", "1号桌")
    assert code == 1 and "only the organizer assigns matches" in err


def test_sync_follow_pushes_as_the_file_grows_until_interrupted(hall, desk_file) -> None:
    import select
    import signal
    import subprocess
    import sys
    import time

    path = desk_file("t1", {"R1-T1": 2})
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_desk.cli.main", "sync", str(path), hall.desk_urls[0],
         "--follow", "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        with TournamentFile.open(path) as tf, TournamentServer.open(hall.organizer_url) as srv:
            record(tf, "R1-T1", 5)
            deadline = time.monotonic() + 30
            while srv.head("R1-T1")[0] < 7 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert srv.events("R1-T1") == tf.events("R1-T1")
        # Wait for the state line itself (not a fixed sleep): it follows the push.
        assert proc.stdout is not None
        seen: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                line = proc.stdout.readline()
                seen.append(line)
                if "sync: synced" in line or not line:
                    break
        assert any("sync: synced" in line for line in seen), seen
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err


def _drawn_cup(tmp_path, capsys):
    cup = tmp_path / "cup.sqlite"
    assert _run(
        capsys, "tournament", "create", str(cup), "--name", "桂林杯",
        "--tables", "1号桌,2号桌,3号桌", "--referees", "王磊",
    )[0] == 0  # fmt: skip
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(
        "player1,player2,club,seed\n张伟,王芳,,\n李娜,刘洋,,\n陈静,杨帆,,\n赵磊,周敏,,\n",
        encoding="utf-8",
    )
    assert _run(capsys, "tournament", "import-pairs", str(cup), str(pairs))[0] == 0
    assert _run(capsys, "tournament", "draw", str(cup), "--seed", "7")[0] == 0
    return cup


def test_a_drawn_match_played_at_a_desk_counts_in_the_standings(hall, tmp_path, capsys):
    """The hall's whole loop: publish, the desk pulls the opening, plays, syncs; collect."""
    from datetime import UTC, datetime, timedelta

    from referee_desk.tournament.repository import Tournament
    from referee_desk.tournament.simulate import simulate_match

    cup = _drawn_cup(tmp_path, capsys)
    assert _run(capsys, "server", "publish", hall.organizer_url, str(cup))[0] == 0
    with Tournament.open(cup, read_only=True) as t:
        match = next(
            m for m in t.draw_table.matches() if m.table and t.state().match(m.match_id).pair_a
        )
        opening = t.opening_payload(match.match_id)
    desk_url = hall.desk_urls[["1号桌", "2号桌", "3号桌"].index(match.table)]
    table = tmp_path / "table.sqlite"
    assert _run(capsys, "sync", str(table), desk_url, "--open", match.match_id)[0] == 0
    later = datetime.now(UTC) + timedelta(seconds=1)  # after the pulled opening
    played = simulate_match(match.match_id, opening, winner="EW", start=later)
    with TournamentFile.open(table) as tf:
        assert tf.events(match.match_id)[0].payload == played[0].payload
        for event in played[1:]:
            tf.append(event, lock=event.type == "match_ended")
    code, _, err = _run(capsys, "sync", str(table), desk_url)
    assert code == 1 and "is not registered on the server" in err  # the lock waits for its key
    code, out, _ = _run(capsys, "server", "keys", hall.organizer_url)
    assert "not registered: 1" in out  # the desk offered its key with the refused lock
    from referee_desk.store import keys

    fingerprint = keys.desk_signer().fingerprint
    assert fingerprint in out  # the fingerprint the desk's `keys show` prints
    assert _run(capsys, "server", "keys", hall.organizer_url, "--approve", fingerprint)[0] == 0
    assert _run(capsys, "sync", str(table), desk_url)[0] == 0
    code, out, err = _run(capsys, "server", "collect", hall.organizer_url, str(cup))
    assert code == 0, err
    assert f"added {len(played)} events in 1 matches" in out
    with Tournament.open(cup, read_only=True) as t:
        state = t.state().match(match.match_id)
        assert state.status == "decided" and state.winner == state.pair_b
    code, out, _ = _run(capsys, "server", "collect", hall.organizer_url, str(cup))
    assert code == 0 and "added 0 events" in out  # again: nothing changes


def test_collect_follow_brings_records_in_as_they_land(hall, desk_file, tmp_path, capsys):
    """Each burst is waited for by the line collect prints for it, never by the clock.

    (The file's head alone is not enough: the import commits before its line is printed,
    so a Ctrl+C sent on seeing the head could stop collect before it says so.)
    """
    import queue
    import signal
    import subprocess
    import sys
    import threading
    import time

    cup = _drawn_cup(tmp_path, capsys)
    path = desk_file("t1", {"GL-R1-T1": 3})
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_desk.cli.main", "server", "collect",
         hall.organizer_url, str(cup), "--follow"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []
    reader = threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True)
    reader.start()

    def wait_for(text: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                seen.append(lines.get(timeout=0.5))
            except queue.Empty:
                if proc.poll() is not None:
                    break
                continue
            if text in seen[-1]:
                return
        raise AssertionError(f"collect never printed {text!r}; printed {seen}")

    try:
        for more, added in ((0, 3), (4, 4)):
            with TournamentFile.open(path) as tf:
                record(tf, "GL-R1-T1", more)
            sync_file(str(path), hall.desk_urls[0])
            # Before or after collect began listening, each burst has its line.
            wait_for(f"added {added} events in 1 matches")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        reader.join(timeout=5)
    assert proc.returncode == 0, err
    with TournamentFile.open(cup, read_only=True) as t:
        assert t.head("GL-R1-T1")[0] == 7
