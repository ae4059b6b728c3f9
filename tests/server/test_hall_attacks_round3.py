"""Issue 18, round three: the hall server attacked again with one table's address and
password only (raw SQL as that table's role), after the defences of items 9-13 landed.

Each test names what it proves. Helpers come from ``test_hall_trust`` (the attacker
computes valid chains itself: only the trust rules can stop them).
"""

from __future__ import annotations

import contextlib
import threading

import psycopg
import pytest

from referee_desk.cli.main import main
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament
from tests.server.test_hall_trust import (
    INFO,
    TABLES,
    _chain,
    _desk_url,
    _drawn,
    _genuine,
    _raw_insert,
    _winner,
)

#: A file-kept tournament with a fourth table the hall server has no desk for (yet).
FOUR = TournamentInfo("桂林杯", "2026-11-28", "2026-11-28", "", "", (*TABLES, "4号桌"), ("王磊",))


def _file_draw(path, info: TournamentInfo = INFO) -> dict[str, str]:
    with Tournament.create(path, info) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, 9)])
        t.draw(draw_seed=3)
        return {m.match_id: m.table for m in t.draw_table.matches()}


def _takes(url: str, match_id: str) -> bool:
    """Whether the table's role could record ``match_id`` (raw SQL)."""
    try:
        _raw_insert(url, _chain(match_id, [("match_opened", {"pairs": {}})]))
    except psycopg.errors.InsufficientPrivilege:
        return False
    return True


def test_a_drawn_match_of_a_table_without_a_desk_is_kept_on_publish(
    fresh_hall, tmp_path, capsys
) -> None:
    """`server publish` of a file whose draw names a table the server has no desk for:
    that table's drawn matches are still kept from every desk's claim (publish reports
    them as without a desk), so no other table records them once claims open."""
    cup = tmp_path / "cup.sqlite"
    drawn = _file_draw(cup, FOUR)
    orphan = next(m for m, table in drawn.items() if table == "4号桌")
    assert main(["server", "publish", fresh_hall.organizer_url, str(cup)]) == 0
    capsys.readouterr()
    assert not _takes(_desk_url(fresh_hall, "1号桌"), orphan)


def test_a_drawn_match_of_another_table_stays_its_own_before_and_after_publish(
    fresh_hall, tmp_path, capsys
) -> None:
    """Table 1 tries table 3's drawn id before `server publish` (claims closed) and after
    (kept for table 3), and every drawn id of table 3 (later rounds included)."""
    cup = tmp_path / "cup.sqlite"
    drawn = _file_draw(cup)
    theirs = [m for m, table in drawn.items() if table == "3号桌"]
    url = _desk_url(fresh_hall, "1号桌")
    assert not any(_takes(url, m) for m in theirs)
    assert main(["server", "publish", fresh_hall.organizer_url, str(cup)]) == 0
    capsys.readouterr()
    assert not any(_takes(url, m) for m in theirs)
    with TournamentServer.open(fresh_hall.organizer_url) as organizer:
        assert organizer.count() == 0


def test_two_tables_racing_for_one_free_id_leave_it_to_one(hall) -> None:
    """Both tables claim and write the same new id at once: one holds it, the other's
    insert is refused; the record holds one chain only."""
    match_id = "抢-001"
    start = threading.Barrier(2)
    results: dict[str, object] = {}

    def race(table: str) -> None:
        url = _desk_url(hall, table)
        events = _chain(match_id, [("match_opened", {"pairs": {}})], by=table)
        start.wait()
        try:
            _raw_insert(url, events)
            results[table] = "took"
        except psycopg.Error as error:
            results[table] = type(error).__name__

    threads = [threading.Thread(target=race, args=(t,)) for t in ("1号桌", "2号桌")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results.values()).count("took") == 1, results
    with TournamentServer.open(hall.organizer_url) as organizer:
        holder = organizer.assignment(match_id).desk_role
        rows = organizer.connection.execute(
            "SELECT DISTINCT pushed_by FROM referee_desk.events WHERE match_id = %s", (match_id,)
        ).fetchall()
    assert rows == [(holder,)]


def test_a_table_cannot_accept_vouch_or_register_by_raw_sql(hall, tmp_path) -> None:
    """What makes a record count (acceptances, signers, the vouched heads) is the
    organizer's: a table's role can neither write nor call it, nor settle a fork."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(theirs)
    live = _chain(theirs, [("match_opened", opening), ("clock_started", {})])
    _raw_insert(_desk_url(hall, "3号桌"), live)
    _raw_insert(_desk_url(hall, "3号桌"), _chain(theirs, [("forfeit", {"side": "NS"})], live))
    head = live[-1]
    with psycopg.connect(_desk_url(hall, "3号桌"), autocommit=True) as conn:
        for sql, params in (
            (
                "INSERT INTO referee_desk.acceptances (match_id, head_seq, head_hash) "
                "VALUES (%s, %s, %s)",
                (theirs, head.seq + 1, "0" * 64),
            ),
            (
                "INSERT INTO referee_desk.signers (fingerprint, public_key, label, role) "
                "VALUES (%s, %s, 'x', 'desk')",
                ("0" * 32, "0" * 64),
            ),
            ("SELECT * FROM referee_desk.vouched_heads()", ()),
            ("SELECT referee_desk.settle_fork(%s, 'x', 'y')", (theirs,)),
            ("UPDATE referee_desk.claims SET open = false", ()),
            ("UPDATE referee_desk.matches SET desk_role = current_user", ()),
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql, params)
    assert _winner(hall, theirs)[0] is None


def test_a_forged_or_replayed_seal_row_is_refused(hall, tmp_path) -> None:
    """Table 3's genuine seal (its key registered) copied by table 1 onto table 1's own
    forged record, and a seal row with a random signature by that key: both refused by
    the server's check, so table 1's forfeit never counts."""
    first = _drawn(hall)
    genuine = _genuine(hall, tmp_path, "3号桌", first["3号桌"])
    with psycopg.connect(hall.organizer_url) as organizer:
        seal = organizer.execute(
            "SELECT match_id, head_seq, head_hash, tournament_id, sealed_at, sealed_by, "
            "key_fingerprint, scheme, signature FROM referee_desk.seals WHERE match_id = %s",
            (first["3号桌"],),
        ).fetchone()
    assert seal is not None and seal[1] == len(genuine)
    ours = first["1号桌"]
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(ours)
    forged = _chain(
        ours, [("match_opened", opening), ("clock_started", {}), ("forfeit", {"side": "NS"})]
    )
    _raw_insert(_desk_url(hall, "1号桌"), forged)
    head = forged[-1]
    columns = (
        "INSERT INTO referee_desk.seals (match_id, head_seq, head_hash, tournament_id, "
        "sealed_at, sealed_by, key_fingerprint, scheme, signature) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
    )
    attempts = [
        (ours, head.seq, head.hash, *seal[3:]),  # table 3's signature on table 1's head
        (ours, head.seq, head.hash, seal[3], seal[4], "王磊", seal[6], "ed25519", "ab" * 64),
        (ours, head.seq, head.hash, seal[3], seal[4], "王磊", seal[6], "hmac", seal[8]),
    ]
    with psycopg.connect(_desk_url(hall, "1号桌"), autocommit=True) as conn:
        for row in attempts:
            with pytest.raises(psycopg.errors.RaiseException, match="refused"):
                conn.execute(columns, row)
    winner, problems = _winner(hall, ours)
    assert winner is None and "not counted" in problems[ours]


def test_a_ruling_by_a_real_referees_name_after_the_lock_is_not_counted(hall, tmp_path) -> None:
    """Raw SQL after table 3's lock: a committee ruling whose author names the
    tournament's real referee/committee member (王磊). The name proves nothing on the
    server (no PIN was checked there): the match stays as locked and the ruling is named."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    genuine = _genuine(hall, tmp_path, "3号桌", theirs)
    before, _ = _winner(hall, theirs)
    ruling = _chain(
        theirs,
        [("committee_ruling", {"text": "改判", "level_changes": {"NS": -12, "EW": 12}})],
        genuine,
        by="王磊",
    )
    _raw_insert(_desk_url(hall, "3号桌"), ruling)
    with Tournament.open(hall.organizer_url) as t:
        outcome = t.outcomes().get(theirs)
        problem = t.outcome_problems[theirs]
    assert outcome is not None and outcome.winner == before, problem
    assert f"counted as locked at event {len(genuine)}" in problem


def test_a_tables_words_reach_the_organizers_terminal_escaped(hall, capsys) -> None:
    """What a table's role writes by raw SQL into what `server status` prints (a
    conflict's detail, a laptop's client and the matches it says it holds back): its
    control characters (ESC[2J clears the organizer's screen, CR rewrites a line) are
    never printed raw, as `verify` escapes them."""
    url = _desk_url(hall, "1号桌")
    nasty = "\x1b[2J\x1b[31mOK\rall matches settled\n  fake line"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "SELECT referee_desk.report_conflict(%s, 1, 'fork', %s, '{}', %s)",
            ("T1-x", "0" * 64, nasty),
        )
        conn.execute(
            "SELECT referee_desk.heartbeat(%s, 0, %s, %s, %s)",
            ("ab" * 16, [nasty], [nasty], nasty),
        )
    # a record under an id of the table's own choosing, if the server takes it
    with contextlib.suppress(psycopg.Error):
        _raw_insert(url, _chain("T1-\x1b[2J\r", [("match_opened", {"pairs": {}})]))
    main(["server", "status", hall.organizer_url])
    out = capsys.readouterr().out
    assert "all matches settled" in out  # the words are shown …
    assert "\x1b" not in out and "\r" not in out, repr(out)  # … never as terminal commands
    assert "\n  fake line" not in out, repr(out)


@pytest.mark.parametrize(
    "form",
    ["query", "query-wrong", "pgpassword-wrong", "symlinked-pass-file"],
)
def test_a_password_in_other_forms_is_never_printed(hall, tmp_path, form) -> None:
    """Variations the first tests did not try: the password as ``?password=`` (right and
    wrong), a wrong ``PGPASSWORD``, and a pass file that is a symlink to a file others
    can read (refused with the fix, as the plain file is). No output holds it."""
    import os
    from urllib.parse import quote

    from tests.server.test_passwords import _cli, _env, _password, _without_password

    url = hall.desk_urls[0]
    secret = _password(url)
    bare = _without_password(url)
    env = _env(tmp_path)
    argv = ["server", "status", bare]
    if form == "query":
        argv[2] = f"{bare}?password={quote(secret, safe='')}"
    elif form == "query-wrong":
        secret = "Wr0ng%Pass@word:x"
        argv[2] = f"{bare}?password={quote(secret, safe='')}"
    elif form == "pgpassword-wrong":
        secret = "Wr0ngPassw0rd-y"
        env["PGPASSWORD"] = secret
    else:
        target = tmp_path / "shared-pgpass"
        target.write_text(f"*:*:*:*:{secret}\n")
        target.chmod(0o644)
        os.symlink(target, tmp_path / "pgpass")
    done = _cli(env, *argv)
    out = done.stdout + done.stderr
    assert secret not in out, out
    if form == "symlinked-pass-file":
        assert done.returncode != 0 and "chmod 600" in out, out
