"""Issue 13, "nothing half-written": organizer commands racing on one tournament server.

Real processes started in lockstep (``racing.race``): two organizers drawing at once,
two creating at once (and first-opening a fresh server at once), an import while the
desk pushes the same match. Exactly one of two racing writes holds, the other is refused
with one line, and the tables show no trace of the refused one. The server killed in the
middle of a large import keeps nothing of it (one transaction).
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid

import psycopg
import pytest
from racing import race

from referee_desk.store import TournamentFile
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.init import init_server
from referee_desk.store.synthetic import record
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament

INFO = TournamentInfo(
    "桂林杯", "2026-11-28", "2026-11-28", "", "", ("1号桌", "2号桌"), ("王磊", "李娜")
)
PAIRS = [(f"甲{n}", f"乙{n}", "", None) for n in range(1, 17)]


def _halls(cluster, count: int) -> list[str]:
    """``count`` fresh tournament servers; their organizer's addresses."""
    urls = []
    for _ in range(count):
        name = f"race{uuid.uuid4().hex[:8]}"
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        admin = cluster.url(name)
        urls.append(init_server(admin, ["1号桌", "2号桌"]).organizer.url(admin))
    return urls


def _organizer_rows(url: str, query: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        conn.execute("SET search_path = referee_desk_organizer")
        return conn.execute(query).fetchall()


CLI = (sys.executable, "-m", "referee_desk.cli.main")


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True)


def _one_line(err: str) -> str:
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_two_organizers_drawing_at_once_make_exactly_one_draw(pg_cluster, tmp_path) -> None:
    urls = _halls(pg_cluster, 6)
    for url in urls:
        with Tournament.create(url, INFO) as t:
            t.add_pairs(PAIRS)
    first, second = race(
        tmp_path,
        [
            [["tournament", "draw", url, "--seed", "1"] for url in urls],
            [["tournament", "draw", url, "--seed", "2"] for url in urls],
        ],
    )
    for url, a, b in zip(urls, first, second, strict=True):
        won = [seed for seed, (code, _, _) in ((1, a), (2, b)) if code == 0]
        assert len(won) == 1, (a, b)
        lost = b if won == [1] else a
        assert lost[0] == 1 and lost[1] == ""
        assert "the draw is made: cannot draw again any more" in _one_line(lost[2])
        assert f"drawn: 15 matches (draw seed {won[0]})" in (a if won == [1] else b)[1]
        assert _organizer_rows(url, "SELECT draw_seed FROM tournament_draw") == [(won[0],)]
        # The held draw is whole, and the one the same seed makes in a file.
        twin = tmp_path / f"twin-{uuid.uuid4().hex[:6]}.sqlite"
        with Tournament.create(twin, INFO) as t:
            t.add_pairs(PAIRS)
            t.draw(draw_seed=won[0])
            expected = t.draw_table.matches()
        with Tournament.open(url) as t:
            assert t.draw_table.matches() == expected
        whole = "SELECT count(*), min(ord), max(ord) FROM tournament_matches"
        assert _organizer_rows(url, whole) == [(15, 0, 14)]


def test_two_organizers_creating_at_once_on_a_fresh_server(pg_cluster, tmp_path) -> None:
    """Both also first-open the fresh server (``ensure_extension``) at the same moment; a
    third process only reads meanwhile."""
    urls = _halls(pg_cluster, 5)
    first, second, third = race(
        tmp_path,
        [
            [["tournament", "create", url, "--name", "甲杯"] for url in urls],
            [["tournament", "create", url, "--name", "乙杯"] for url in urls],
            [["tournament", "standings", url] for url in urls],
        ],
    )
    for url, a, b, c in zip(urls, first, second, third, strict=True):
        won = [name for name, (code, _, _) in (("甲杯", a), ("乙杯", b)) if code == 0]
        assert len(won) == 1, (a, b)
        lost = b if won == ["甲杯"] else a
        assert lost[0] == 1 and "already holds" in _one_line(lost[2])
        assert c[0] == 1 and (
            "no tournament here yet" in _one_line(c[2]) or "no draw yet" in _one_line(c[2])
        ), c
        assert _organizer_rows(url, "SELECT name FROM tournament_info") == [(won[0],)]
        assert _organizer_rows(url, "SELECT name, version FROM extensions") == [("tournament", 2)]


def test_an_import_while_the_desk_pushes_the_same_match_is_neither_doubled_nor_half_written(
    hall, tmp_path
) -> None:
    with Tournament.create(hall.organizer_url, INFO) as t:
        t.add_pairs(PAIRS[:4])
        t.draw(draw_seed=1)
    rounds = 4
    desks, sources = [], []
    for n in range(rounds):
        path = tmp_path / f"desk{n}.sqlite"
        with TournamentFile.open(path, tournament_id="cup-2026") as tf:
            events = record(tf, f"R9-T{n}", 300)
        write_jsonl(events, tmp_path / f"R9-T{n}.jsonl")
        desks.append(path)
        sources.append(tmp_path / f"R9-T{n}.jsonl")
    pushed, imported = race(
        tmp_path,
        [
            [["sync", str(path), hall.desk_urls[0]] for path in desks],
            [["tournament", "import-records", hall.organizer_url, str(s)] for s in sources],
        ],
    )
    for n, (push, load) in enumerate(zip(pushed, imported, strict=True)):
        assert push[0] == 0, push  # the desk finds its events there, or puts them there
        if load[0] != 0:
            assert (
                "the same match grew meanwhile (a desk's push or another import); nothing imported"
                in _one_line(load[2])
            )
        else:
            assert "matches unchanged" in load[1]
        with psycopg.connect(hall.organizer_url) as conn:
            seqs = conn.execute(
                "SELECT seq FROM referee_desk.events WHERE match_id = %s ORDER BY seq",
                (f"R9-T{n}",),
            ).fetchall()
        assert [s for (s,) in seqs] == list(range(1, 301))
        with TournamentFile.open(desks[n], create=False, read_only=True) as tf:
            mine = [e.hash for e in tf.events(f"R9-T{n}")]
        with Tournament.open(hall.organizer_url) as t:
            assert [e.hash for e in t.file.events(f"R9-T{n}")] == mine
    # Imported again: everything there already, nothing added.
    done = _cli("tournament", "import-records", hall.organizer_url, *map(str, sources))
    assert done.returncode == 0 and f"added 0 events in 0 matches; {rounds} matches" in done.stdout


@pytest.fixture
def own_cluster(pg_cluster):
    """A cluster of its own (this test stops it); ``pg_cluster`` first, for its skip/fail."""
    from pg_cluster import find_bin_dir, start_cluster

    cluster = start_cluster(find_bin_dir())
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        cluster.remove()


@pytest.mark.slow
def test_the_server_stopped_in_the_middle_of_a_large_import_keeps_nothing_of_it(
    own_cluster, tmp_path
) -> None:
    (url,) = _halls(own_cluster, 1)
    secret = url.split(":")[2].split("@")[0]
    with Tournament.create(url, INFO) as t:
        t.add_pairs(PAIRS[:4])
        t.draw(draw_seed=1)
    big = tmp_path / "big.jsonl"
    with TournamentFile.open(tmp_path / "desk.sqlite", tournament_id="cup-2026") as tf:
        events = [e for n in range(40) for e in record(tf, f"R9-T{n}", 250)]
    write_jsonl(events, big)
    importing = subprocess.Popen(
        [*CLI, "tournament", "import-records", url, str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watcher = psycopg.connect(own_cluster.url(), autocommit=True)
    deadline = time.monotonic() + 120
    inserting = False
    while time.monotonic() < deadline and importing.poll() is None:
        inserting = watcher.execute(
            "SELECT count(*) > 0 FROM pg_stat_activity WHERE state = 'active' "
            "AND query LIKE 'INSERT INTO referee_desk.events%'"
        ).fetchone()[0]
        if inserting:
            break
        time.sleep(0.005)
    watcher.close()
    assert inserting, "the import never reached the server's insert"
    time.sleep(0.2)  # well inside the 10 000 inserts
    own_cluster.stop("immediate")
    out, err = importing.communicate(timeout=60)
    assert importing.returncode == 1, (out, err)
    assert "Traceback" not in err and secret not in out + err
    assert "lost the server during the import; nothing imported" in _one_line(err)
    own_cluster.start()
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM referee_desk.events").fetchone() == (0,)
    done = _cli("tournament", "import-records", url, str(big))
    assert done.returncode == 0, done.stderr
    assert "added 10000 events in 40 matches" in done.stdout


STALE_HEADS = """
import sys
from referee_desk.cli.main import main
from referee_desk.store.postgres.server import TournamentServer

TournamentServer.heads = lambda self: {}  # read before the desk's push landed
sys.exit(main(sys.argv[1:]))
"""


def test_an_import_overtaken_by_the_desks_push_is_refused_in_one_line(hall, tmp_path) -> None:
    """Deterministically the race's losing side: the import read the server before the
    desk's push landed. Before, psycopg's own warning about the aborted batch printed a
    second, raw line (naming host, user and database) beside the refusal."""
    with Tournament.create(hall.organizer_url, INFO) as t:
        t.add_pairs(PAIRS[:4])
        t.draw(draw_seed=1)
    desk = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk, tournament_id="cup-2026") as tf:
        write_jsonl(record(tf, "R9-T1", 40), tmp_path / "R9-T1.jsonl")
    pushed = _cli("sync", str(desk), hall.desk_urls[0])
    assert pushed.returncode == 0, pushed.stderr
    source = str(tmp_path / "R9-T1.jsonl")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            STALE_HEADS,
            "tournament",
            "import-records",
            hall.organizer_url,
            source,
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert (
        "the same match grew meanwhile (a desk's push or another import); nothing imported"
        in _one_line(done.stderr)
    )
    with psycopg.connect(hall.organizer_url) as conn:
        assert conn.execute("SELECT count(*) FROM referee_desk.events").fetchone() == (40,)


def test_two_organizers_linking_records_to_one_match_at_once_make_one_link(hall, tmp_path) -> None:
    """Two records a desk kept under its own ids for the same drawn match (a restart),
    linked by two organizers at the same moment: one link holds, the other is refused."""
    from referee_desk.tournament.simulate import simulate_match

    with Tournament.create(hall.organizer_url, INFO) as t:
        t.add_pairs(PAIRS)
        t.draw(draw_seed=1)
        first_round = [m.match_id for m in t.draw_table.matches() if m.round == 1]
        sources = []
        for n, match_id in enumerate(first_round):
            for side in ("NS", "EW"):
                events = simulate_match(f"T{n}-{side}", t.opening_payload(match_id), winner=side)
                sources.append(tmp_path / f"T{n}-{side}.jsonl")
                write_jsonl(events, sources[-1])
        t.file.import_jsonl(sources)  # in the store, not yet linked
    url = hall.organizer_url
    ns, ew = race(
        tmp_path,
        [
            [["tournament", "link", url, f"T{n}-NS", m] for n, m in enumerate(first_round)],
            [["tournament", "link", url, f"T{n}-EW", m] for n, m in enumerate(first_round)],
        ],
    )
    for a, b in zip(ns, ew, strict=True):
        assert sorted((a[0], b[0])) == [0, 1], (a, b)
        lost = a if a[0] else b
        assert "already linked to match" in _one_line(lost[2]), lost
    with Tournament.open(url) as t:
        links = t.record_links.all()
    assert sorted(links) == sorted(first_round)
    held = _organizer_rows(url, "SELECT match_id, count(*) FROM tournament_links GROUP BY 1")
    assert all(count == 1 for _, count in held) and len(held) == len(first_round)


def test_pairs_registered_while_another_organizer_draws_are_in_the_draw_or_refused(
    pg_cluster, tmp_path
) -> None:
    """A late registration racing the draw: never a pair registered but left out of it."""
    urls = _halls(pg_cluster, 6)
    late = tmp_path / "late.csv"
    late.write_text("player1,player2\n迟1,到1\n迟2,到2\n", encoding="utf-8")
    for url in urls:
        with Tournament.create(url, INFO) as t:
            t.add_pairs(PAIRS)
    draws, registrations = race(
        tmp_path,
        [
            [["tournament", "draw", url, "--seed", "1"] for url in urls],
            [["tournament", "import-pairs", url, str(late)] for url in urls],
        ],
    )
    for url, drew, registered in zip(urls, draws, registrations, strict=True):
        for code, _, err in (drew, registered):
            if code:
                _one_line(err)
        with Tournament.open(url) as t:
            pairs = {p.pair_id for p in t.pairs.all()}
            if t.drawn:
                slots = {
                    s.pair_id
                    for m in t.draw_table.matches()
                    for s in (m.slot_a, m.slot_b)
                    if s.kind == "pair"
                }
                assert slots == pairs, (drew, registered)
        assert len(pairs) == (18 if registered[0] == 0 else 16)


def test_two_organizers_registering_pairs_at_once_lose_none_and_number_them_once(
    pg_cluster, tmp_path
) -> None:
    urls = _halls(pg_cluster, 5)
    lists = []
    for who in ("东", "西"):
        path = tmp_path / f"{who}.csv"
        path.write_text(f"player1,player2\n{who}1,{who}2\n{who}3,{who}4\n", encoding="utf-8")
        lists.append(path)
    for url in urls:
        Tournament.create(url, INFO).close()
    east, west = race(
        tmp_path,
        [[["tournament", "import-pairs", url, str(path)] for url in urls] for path in lists],
    )
    for url, a, b in zip(urls, east, west, strict=True):
        for code, out, err in (a, b):
            assert code == 0 or (
                "another organizer registered pairs meanwhile: nothing added" in _one_line(err)
            ), (out, err)
        with Tournament.open(url) as t:
            pairs = t.pairs.all()
        assert [p.pair_id for p in pairs] == list(range(1, len(pairs) + 1))
        assert len(pairs) == 2 * [a[0], b[0]].count(0)
