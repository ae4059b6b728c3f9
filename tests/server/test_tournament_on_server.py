"""Issue 13, "one address for both": every tournament command and document on a server.

The same tournament is run twice with the same commands, once in a file and once on a
real PostgreSQL server (the organizer's address); the standings, match lists and the
documents must come out the same. The server keeps the tournament's tables in the
organizer's own schema, guarded as the file guards them; desks never reach them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest
from openpyxl import load_workbook
from sealing import lock_for_the_server

from referee_desk.cli.main import main
from referee_desk.store.postgres.errors import ServerRefused
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.repository import Tournament

PAIRS = "\n".join(
    ["player1,player2,club,seed"]
    + [f"甲{n},乙{n},俱乐部{n % 3},{n if n <= 2 else ''}" for n in range(1, 9)]
)
FIXED = ["--fixed-time", "2026-11-28T18:00+08:00"]


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _ok(capsys, *argv: str) -> str:
    code, out, err = _run(capsys, *argv)
    assert code == 0, f"{argv}: {err}"
    return out


def _build(capsys, where: str, pairs: Path, records: Path | None, sim_dir: Path) -> None:
    """Create, register, draw, then import the records (simulated from the file's draw)."""
    _ok(capsys, "tournament", "create", where, "--name", "桂林杯", "--start", "2026-11-28",
        "--tables", "1号桌,2号桌,3号桌", "--referees", "王磊,李娜")  # fmt: skip
    _ok(capsys, "tournament", "import-pairs", where, str(pairs))
    _ok(capsys, "tournament", "draw", where, "--seed", "7")
    if records is None:
        _ok(capsys, "tournament", "simulate", where, "-o", str(sim_dir))
    else:
        _ok(
            capsys,
            "tournament",
            "import-records",
            where,
            *sorted(map(str, records.glob("*.jsonl"))),
        )


def _drawn_on_server(capsys, tmp_path: Path, url: str, seed: int, *create: str) -> Path:
    """Create 桂林杯 at ``url`` (extra ``create`` options), register PAIRS, draw; the list."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    _ok(capsys, "tournament", "create", url, "--name", "桂林杯", *create)
    _ok(capsys, "tournament", "import-pairs", url, str(pairs))
    _ok(capsys, "tournament", "draw", url, "--seed", str(seed))
    return pairs


@pytest.fixture
def twins(hall, tmp_path, capsys):
    """(file, organizer URL): the same tournament in a file and on the server."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    cup = tmp_path / "cup.sqlite"
    sim = tmp_path / "sim"
    _build(capsys, str(cup), pairs, None, sim)
    _build(capsys, hall.organizer_url, pairs, sim, sim)
    return str(cup), hall.organizer_url


def test_standings_and_matches_are_the_same_from_the_file_and_the_server(twins, capsys):
    cup, url = twins
    for action in ("standings", "matches", "pairs"):
        from_file = _ok(capsys, "tournament", action, cup)
        from_server = _ok(capsys, "tournament", action, url)
        assert from_file == from_server, action
    assert "places:" in _ok(capsys, "tournament", "standings", url)
    with Tournament.open(url) as t:
        assert t.on_server and t.drawn and len(t.outcomes()) == 7  # 8 pairs: 7 matches


def _pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def _without_file_key(text: str) -> str:
    """A file names its own signing key; a server has none (each seal names its key)."""
    lines = text.splitlines(keepends=True)
    for n, line in enumerate(lines):
        if "the file's signing key fingerprint" in line:
            del lines[n - 1 : n + 2]  # the line and the blank lines around it
            break
    return "".join(lines)


def _without_draw_time(text: str) -> str:
    """The two draws were made a moment apart, so across a minute's turn their printed
    times differ; every other time on the documents is ``FIXED``."""
    return re.sub(
        r"\d\d-\d\d \d\d:\d\d \+08:00",
        lambda m: m[0] if m[0] == "11-28 18:00 +08:00" else "<draw time>",
        text,
    )


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_documents_are_the_same_from_the_file_and_the_server(twins, tmp_path, capsys):
    cup, url = twins
    with Tournament.open(cup) as t:
        final = t.draw_table.matches()[-1].match_id
    for kind, extra in (
        ("results", [*FIXED]),
        ("match", ["--match", final, *FIXED]),
        ("scoresheet", ["--match", final, *FIXED]),
        ("round-pack", ["--round", "1", *FIXED]),
        ("players", [*FIXED]),
    ):
        a, b = tmp_path / f"{kind}-file.pdf", tmp_path / f"{kind}-server.pdf"
        _ok(capsys, "export", kind, cup, "-o", str(a), *extra)
        _ok(capsys, "export", kind, url, "-o", str(b), *extra)
        text = _pdf_text(b)
        assert _without_draw_time(text) == _without_draw_time(_without_file_key(_pdf_text(a))), kind
        assert "桂林杯" in text, kind
    a, b = tmp_path / "bracket-file.xlsx", tmp_path / "bracket-server.xlsx"
    _ok(capsys, "export", "bracket", cup, "-o", str(a))
    _ok(capsys, "export", "bracket", url, "-o", str(b))
    left, right = load_workbook(a), load_workbook(b)
    assert left.sheetnames == right.sheetnames
    for name in left.sheetnames:
        assert _cells(left[name]) == _cells(right[name]), name


def _cells(sheet) -> list[list[object]]:
    """Every cell's value, but the draw's time (the two draws were made a moment apart)."""
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    return [row for row in rows if row[0] != "抽签 Draw"]


def test_the_password_never_shows_in_what_the_commands_print(hall, capsys) -> None:
    secret = hall.organizer_url.split(":")[2].split("@")[0]
    code, out, err = _run(capsys, "tournament", "create", hall.organizer_url, "--name", "杯")
    assert code == 0 and secret not in out + err
    # No --tables: a tournament made on the server plays at the server's tables.
    assert "tables (the server's desks): 1号桌, 2号桌, 3号桌" in out
    code, out, err = _run(capsys, "tournament", "create", hall.organizer_url, "--name", "杯")
    assert code == 1 and "already holds tournament" in err and secret not in err


def test_a_desk_address_cannot_open_the_tournament_nor_read_its_tables(hall, capsys) -> None:
    _ok(capsys, "tournament", "create", hall.organizer_url, "--name", "桂林杯")
    with pytest.raises(ServerRefused, match="a table's address"):
        Tournament.open(hall.desk_urls[0])
    code, _, err = _run(capsys, "tournament", "standings", hall.desk_urls[0])
    assert code == 1 and "the tournament itself opens with the organizer's address" in err
    with psycopg.connect(hall.desk_urls[0], autocommit=True) as desk:
        for statement in (
            "SELECT * FROM referee_desk_organizer.tournament_pairs",
            "INSERT INTO referee_desk_organizer.tournament_pairs VALUES (99, 'x', 'y', '', NULL)",
            "CREATE TABLE referee_desk_organizer.intruder (x int)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                desk.execute(statement)


def test_the_draw_is_frozen_on_the_server_as_in_the_file(hall, tmp_path, capsys) -> None:
    url = hall.organizer_url
    pairs = _drawn_on_server(capsys, tmp_path, url, 3, "--tables", "1号桌,2号桌")
    with Tournament.open(url) as t:
        with pytest.raises(DrawError, match="the draw is made"):
            t.add_pair("丙", "丁")
        first = t.draw_table.matches()[0].match_id
        t.draw_table.assign(first, table="2号桌", referee="李娜")  # table and referee stay editable
        assert (t.draw_table.match(first).table, t.draw_table.match(first).referee) == (
            "2号桌",
            "李娜",
        )
    with psycopg.connect(url, autocommit=True) as organizer:  # even by hand, as the owner
        organizer.execute("SET search_path = referee_desk_organizer")
        for statement, refusal in (
            ("UPDATE tournament_draw SET draw_seed = 2", "the draw is frozen"),
            ("DELETE FROM tournament_draw", "the draw is frozen"),
            ("UPDATE tournament_matches SET slot_a = '{}'", "only table and referee may change"),
            ("DELETE FROM tournament_matches", "the draw is frozen"),
            ("TRUNCATE tournament_matches", "the draw is frozen"),
        ):
            with pytest.raises(psycopg.errors.RaiseException, match=refusal):
                organizer.execute(statement)
    code, _, err = _run(capsys, "tournament", "import-pairs", url, str(pairs))
    assert code == 1 and "the draw is made: cannot add a pair any more" in err


def test_publish_takes_the_servers_own_tournament(hall, tmp_path, capsys) -> None:
    url = hall.organizer_url
    _drawn_on_server(capsys, tmp_path, url, 5)
    out = _ok(capsys, "server", "publish", url)
    assert "published 4 matches with their openings; 3 assigned" in out
    with Tournament.open(url) as t:
        first = t.draw_table.matches()[0]
        expected = t.opening_payload(first.match_id)
    desk_url = hall.desk_urls[[d.table_label for d in hall.report.desks].index(first.table)]
    with TournamentServer.open(desk_url) as desk:
        assert desk.opening(first.match_id) == expected


def test_records_pushed_under_a_desks_own_id_are_linked_on_the_server(
    hall, tmp_path, capsys
) -> None:
    from referee_desk.store import TournamentFile
    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.tournament.simulate import simulate_match

    url = hall.organizer_url
    _drawn_on_server(capsys, tmp_path, url, 7, "--referees", "王磊")
    with Tournament.open(url) as t:
        drawn_id = t.draw_table.matches()[0].match_id
        opening = t.opening_payload(drawn_id)
    # The desk recorded the match under its own id and pushes it itself.
    record = tmp_path / "own.jsonl"
    write_jsonl(simulate_match("T1-第1场", opening, winner="EW"), record)
    desk_copy = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk_copy) as tf:
        tf.import_jsonl([record])
        lock_for_the_server(tf, url, "T1-第1场")  # counts once locked by a registered key
    _run(capsys, "sync", str(desk_copy), hall.desk_urls[0])
    with Tournament.open(url) as t:
        assert "T1-第1场" in t.file.match_ids() and drawn_id not in t.outcomes()
    out = _ok(capsys, "tournament", "import-records", url)
    assert f"record T1-第1场 counts for {drawn_id}" in out
    with Tournament.open(url) as t:
        assert t.record_links.all() == {drawn_id: "T1-第1场"}
        assert t.state().match(drawn_id).winner == t.state().match(drawn_id).pair_b


def test_bad_addresses_are_one_line_and_write_nothing(hall, pg_cluster, capsys) -> None:
    code, _, err = _run(capsys, "tournament", "standings", hall.organizer_url)
    assert code == 1 and "no tournament here yet (create one first)" in err
    wrong = hall.organizer_url.replace("@", "x@", 1)
    code, _, err = _run(capsys, "tournament", "create", wrong, "--name", "杯")
    assert code == 1 and "wrong password" in err and len(err.strip().splitlines()) == 1
    code, _, err = _run(capsys, "export", "results", pg_cluster.url("postgres"), "-o", "x.pdf")
    assert code == 1 and "not a Referee Desk database" in err
    with TournamentServer.open(hall.organizer_url) as server:
        assert server.count() == 0


def test_standings_follow_reprints_when_a_desks_record_lands(hall, tmp_path, capsys) -> None:
    """Live standings: the organizer's terminal reprints as soon as a desk's match ends."""
    import os
    import sys
    import time

    from referee_desk.store import TournamentFile
    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.store.postgres.sync import sync_file
    from referee_desk.tournament.simulate import simulate_match

    url = hall.organizer_url
    _drawn_on_server(capsys, tmp_path, url, 7, "--referees", "王磊")
    _ok(capsys, "server", "publish", url)
    with Tournament.open(url) as t:
        first = t.draw_table.matches()[0]
        opening = t.opening_payload(first.match_id)
        loser = t.state().match(first.match_id).pair_b
    watcher = subprocess.Popen(
        [sys.executable, "-m", "referee_desk.cli.main", "tournament", "standings", url,
         "--follow", "--count", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert watcher.stdout is not None
        assert watcher.stdout.readline().startswith("places:")  # the first view, nothing yet
        time.sleep(0.5)  # (it listens before printing; this only lets it reach the wait)
        record = tmp_path / "m.jsonl"
        write_jsonl(simulate_match(first.match_id, opening, winner="NS"), record)
        desk_file = tmp_path / "desk.sqlite"
        with TournamentFile.open(desk_file) as tf:
            tf.import_jsonl([record])
            lock_for_the_server(tf, url, first.match_id)
        desk_url = hall.desk_urls[[d.table_label for d in hall.report.desks].index(first.table)]
        sync_file(desk_file, desk_url)
        out, err = watcher.communicate(timeout=60)
    finally:
        watcher.kill()
    assert watcher.returncode == 0, err
    assert out.splitlines()[0].startswith("---")
    assert f"#{loser} " in out.split("places:")[1]  # the loser's place is now known


def test_copy_puts_a_file_tournament_on_the_server_and_archives_it_back(
    hall, tmp_path, capsys
) -> None:
    """Prepared at home in a file, run on the hall's server, archived into a file again."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    cup, sim = tmp_path / "cup.sqlite", tmp_path / "sim"
    _build(capsys, str(cup), pairs, None, sim)
    url = hall.organizer_url
    out = _ok(capsys, "tournament", "copy", str(cup), url)
    assert "copied 8 pairs, 7 drawn matches, 7 records" in out
    archive = tmp_path / "archive.sqlite"
    out = _ok(capsys, "tournament", "copy", url, str(archive))
    assert "copied 8 pairs, 7 drawn matches, 7 records" in out
    for action in ("standings", "matches", "pairs"):
        views = {_ok(capsys, "tournament", action, w) for w in (str(cup), url, str(archive))}
        assert len(views) == 1, action
    with Tournament.open(cup) as a, Tournament.open(archive) as b:
        assert (a.draw_seed, a.drawn_at, a.draw_table.groups()) == (
            b.draw_seed,
            b.drawn_at,
            b.draw_table.groups(),
        )
        assert a.file.heads() == b.file.heads()  # every record, byte for byte (hash chain)
    code, _, err = _run(capsys, "tournament", "copy", str(cup), url)
    assert code == 1 and "already holds tournament" in err
    code, _, err = _run(capsys, "tournament", "copy", url, str(archive))
    assert code == 1 and "already exists" in err


def test_reading_a_server_without_a_tournament_creates_nothing_on_it(hall, capsys) -> None:
    for action in ("standings", "matches", "pairs"):
        code, _, err = _run(capsys, "tournament", action, hall.organizer_url)
        assert code == 1 and "no tournament here yet (create one first)" in err
    with psycopg.connect(hall.organizer_url, autocommit=True) as organizer:
        tables = organizer.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'referee_desk_organizer' ORDER BY 1"
        ).fetchall()
    assert tables == [("extensions",)]


def test_a_desk_pulls_a_record_the_server_already_holds_instead_of_forking_it(
    hall, tmp_path, capsys
) -> None:
    """A match the organizer imported (or another desk began) is continued, not re-opened."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.store.postgres.sync import pull_openings, push
    from referee_desk.tournament.simulate import simulate_match

    url = hall.organizer_url
    _drawn_on_server(capsys, tmp_path, url, 7, "--referees", "王磊")
    _ok(capsys, "server", "publish", url)
    with Tournament.open(url) as t:
        first = t.draw_table.matches()[0]
        record = tmp_path / "m.jsonl"
        write_jsonl(simulate_match(first.match_id, t.opening_payload(first.match_id)), record)
        t.file.import_jsonl([record])
        held = t.file.heads()[first.match_id]
    desk_url = hall.desk_urls[[d.table_label for d in hall.report.desks].index(first.table)]
    journal = tmp_path / "journal.sqlite"
    with TournamentFile.open(journal) as tf, TournamentServer.open(desk_url) as desk:
        assert first.match_id in pull_openings(tf, desk)
        assert tf.head(first.match_id) == held  # the server's record, byte for byte
        report = push(tf, desk)
        assert not report.conflicts and first.match_id in report.unchanged


def test_copy_onto_the_server_takes_the_locked_matches_seals(hall, tmp_path, capsys) -> None:
    """A file's locks go onto the server with the records; the server checks each seal."""
    from referee_desk.store.postgres.seals import seals

    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    cup, sim = tmp_path / "cup.sqlite", tmp_path / "sim"
    _build(capsys, str(cup), pairs, None, sim)
    with Tournament.open(cup) as t:
        final = t.draw_table.matches()[-1].match_id
        t.file.seals.lock(final, by="王磊")
    out = _ok(capsys, "tournament", "copy", str(cup), hall.organizer_url)
    assert "1 seals sent (checked by the server)" in out
    with TournamentServer.open(hall.organizer_url) as server:
        (seal,) = seals(server)
    assert (seal.match_id, seal.valid, seal.sealed_by) == (final, True, "王磊")
    archive = tmp_path / "archive.sqlite"
    out = _ok(capsys, "tournament", "copy", hall.organizer_url, str(archive))
    assert "1 seals not copied" in out
    code, out, _ = _run(capsys, "verify", hall.organizer_url)
    assert code == 0 and f"seal {final}" in out and "valid" in out
    report = tmp_path / "final.pdf"
    _ok(capsys, "export", "match", hall.organizer_url, "--match", final, "-o", str(report))
    text = _pdf_text(report)
    assert "已封存 Sealed" in text and seal.key_fingerprint[:16] in text.replace(" ", "")


def test_one_invalid_event_in_a_desks_match_does_not_block_the_archive(
    hall, tmp_path, capsys
) -> None:
    """Issue 18 item 13: a desk (its table's password, raw SQL) appends an event the store
    refuses to its own match; ``tournament copy "$ORG" archive.sqlite`` copies the other
    records and names that one (exit 1), instead of copying nothing."""
    from referee_desk.match.envelope import Event
    from referee_desk.store.postgres.sync import INSERT_SQL
    from referee_desk.store.synthetic import draft

    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    cup, sim = tmp_path / "cup.sqlite", tmp_path / "sim"
    _build(capsys, str(cup), pairs, None, sim)
    _ok(capsys, "tournament", "copy", str(cup), hall.organizer_url)
    with Tournament.open(hall.organizer_url) as t:
        mine = next(
            m for m in t.draw_table.matches() if m.table == "1号桌" and m.match_id in t.file.heads()
        )
        last = t.file.events(mine.match_id)[-1]
    opening = draft(mine.match_id, 0)  # a second opening, its clock reading made up
    bad = Event(
        mine.match_id, last.seq + 1, opening.type, last.recorded_at, 1, "某人", opening.payload
    ).sealed(last.hash)
    with psycopg.connect(hall.desk_urls[0]) as desk:
        desk.execute(
            INSERT_SQL,
            (bad.match_id, bad.seq, bad.prev_hash, bad.hash, bad.canonical_json().decode()),
        )
    archive = tmp_path / "archive.sqlite"
    code, out, err = _run(capsys, "tournament", "copy", hall.organizer_url, str(archive))
    assert code == 1, err
    assert "copied 8 pairs, 7 drawn matches, 6 records" in out
    assert f"match {mine.match_id} NOT copied (the rest is): event {bad.seq}:" in out
    with Tournament.open(archive) as copy, Tournament.open(cup) as home:
        held = copy.file.heads()
        assert mine.match_id not in held
        assert held == {m: h for m, h in home.file.heads().items() if m != mine.match_id}
