"""Issue 18 items 9, 10, 12: the hall server's side of trust, attacked with a table's
address and password only (raw SQL as the table's role), as the attacker's suite did.

9.  One table decides another's match: table 1 pushes, under its own id, an opening
    naming table 3's drawn pairs and a forfeit; the organizer's routine
    ``tournament import-records "$ORG"`` must not count it for that match (a drawn
    match is decided only by the record of the table it was given to, or by the
    organizer explicitly), and table 3's genuine sealed record counts.
10. Between ``server init`` and ``tournament create`` a desk writes into the
    predictable ids of the coming draw: claims are closed from ``server init``.
12. The server enforces no PIN or committee rule: a forfeit and a ``committee_ruling``
    by an unregistered name, pushed by raw SQL, must not change the standings before
    the organizer sees them flagged (a desk's record counts up to its registered key's
    seal, or a head the organizer accepted).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import psycopg
import pytest

from referee_desk.cli.main import main
from referee_desk.match.drafting import new_event, seal
from referee_desk.match.envelope import Event
from referee_desk.store import TournamentFile
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.seals import register_file_signers
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import INSERT_SQL, open_or_pull, push
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match

TABLES = ("1号桌", "2号桌", "3号桌")
INFO = TournamentInfo("桂林杯", "2026-11-28", "2026-11-28", "", "", TABLES, ("王磊",))
AT = "2026-11-28T09:00:00.000Z"


def _chain(match_id: str, steps: list[tuple[str, dict]], after: list[Event] = (), by="路人甲"):
    """Events the attacker computes itself (the chain is public knowledge), after ``after``.

    Built as the match layer builds them (clock readings and all): a valid record, so
    only the trust rules can stop it.
    """
    events = list(after)
    for kind, payload in steps:
        at = _later(events[-1].recorded_at) if events else AT
        draft = new_event(events, kind, payload, by, at, match_id=match_id)
        events.append(seal(events, draft))
    return events[len(after) :]


def _later(stamp: str) -> str:
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")) + timedelta(minutes=1)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _raw_insert(url: str, events: list[Event]) -> None:
    """What a table's password allows: claim, then INSERT the rows by hand."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT referee_desk.claim_match(%s)", (events[0].match_id,))
        with conn.transaction():
            for e in events:
                conn.execute(
                    INSERT_SQL,
                    (e.match_id, e.seq, e.prev_hash, e.hash, e.canonical_json().decode()),
                )


def _drawn(hall) -> dict[str, str]:
    """A knockout of 8 pairs on the server, drawn and published: table -> its first match."""
    with Tournament.create(hall.organizer_url, INFO) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, 9)])
        t.draw(draw_seed=3)
        first: dict[str, str] = {}
        for m in t.draw_table.matches():
            if m.round == 1:
                first.setdefault(m.table, m.match_id)
    assert set(first) == set(TABLES), first
    return first


def _desk_url(hall, table: str) -> str:
    return hall.desk_urls[TABLES.index(table)]


def _genuine(hall, tmp_path, table: str, match_id: str, *, lock: bool = True) -> list[Event]:
    """The table's desk plays its drawn match from the published opening, locks it with
    the desk's key (registered by the organizer) and pushes it."""
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(match_id)
    events = simulate_match(match_id, opening, winner="NS")
    path = tmp_path / f"{table}.sqlite"
    record = tmp_path / f"{match_id}.jsonl"
    write_jsonl(events, record)
    with TournamentFile.open(path) as tf:
        tf.import_jsonl([record])
        if lock:
            tf.seals.lock(match_id, by="王磊")
            with TournamentServer.open(hall.organizer_url) as organizer:
                register_file_signers(organizer, tf)
        with TournamentServer.open(_desk_url(hall, table)) as desk:
            report = push(tf, desk)
        assert not report.conflicts, report.conflicts
        return tf.events(match_id)


def _winner(hall, match_id: str) -> tuple[int | None, dict[str, str]]:
    with Tournament.open(hall.organizer_url) as t:
        state = t.state()
        return state.match(match_id).winner, dict(t.outcome_problems)


# -- item 9 -------------------------------------------------------------------------


def _forged_elsewhere(hall, drawn: str, record_id: str) -> list[Event]:
    """Table 1's record under its own id: the drawn opening of another table's match
    and a forfeit by the side that wins at that table (EW forfeits: NS wins there)."""
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(drawn)
    return _chain(
        record_id,
        [("match_opened", opening), ("clock_started", {}), ("forfeit", {"side": "NS"})],
    )


def test_one_table_never_decides_another_tables_match(hall, tmp_path, capsys) -> None:
    """Issue 18 item 9: table 1's record naming table 3's pairs is not linked to table
    3's match by the organizer's routine import-records, and table 3's sealed record
    decides it."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    _raw_insert(_desk_url(hall, "1号桌"), _forged_elsewhere(hall, theirs, "T1-自编号"))
    assert main(["tournament", "import-records", hall.organizer_url]) == 0
    out = capsys.readouterr().out
    assert f"counts for {theirs}" not in out, out
    assert "recorded at 1号桌" in out and "given to 3号桌" in out, out
    winner, _ = _winner(hall, theirs)
    assert winner is None  # nothing decided it yet
    _genuine(hall, tmp_path, "3号桌", theirs)
    assert main(["tournament", "import-records", hall.organizer_url]) == 0
    capsys.readouterr()
    with Tournament.open(hall.organizer_url) as t:
        ns = t.opening_payload(theirs)["pairs"]["NS"]
        assert t.record_links.all() == {}
    winner, problems = _winner(hall, theirs)
    assert winner is not None and f"#{winner}" in ns  # table 3's record: NS won
    assert theirs not in problems


def test_a_link_found_on_import_from_another_table_is_named_and_not_counted(hall, tmp_path) -> None:
    """A link made before this rule (or by an older desk) from the wrong table: named,
    not counted; table 3's own record decides and the two records are named."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    _raw_insert(_desk_url(hall, "1号桌"), _forged_elsewhere(hall, theirs, "T1-自编号"))
    with Tournament.open(hall.organizer_url) as t:
        t.link("T1-自编号", theirs, by="import")
    winner, problems = _winner(hall, theirs)
    assert winner is None and "recorded at 1号桌" in problems[theirs]
    _genuine(hall, tmp_path, "3号桌", theirs)
    with Tournament.open(hall.organizer_url) as t:
        ns = t.opening_payload(theirs)["pairs"]["NS"]
    winner, problems = _winner(hall, theirs)
    assert f"#{winner}" in ns
    assert "two records" in problems[theirs] and "own record counts" in problems[theirs]


def test_a_tables_own_id_record_of_its_own_match_is_still_linked(hall, tmp_path) -> None:
    """The routine still works for the table the match was given to (sealed record)."""
    first = _drawn(hall)
    ours = first["1号桌"]
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(ours)
    events = simulate_match("T1-自编号", opening, winner="EW")
    record = tmp_path / "own.jsonl"
    write_jsonl(events, record)
    with TournamentFile.open(tmp_path / "t1.sqlite") as tf:
        tf.import_jsonl([record])
        tf.seals.lock("T1-自编号", by="王磊")
        with TournamentServer.open(hall.organizer_url) as organizer:
            register_file_signers(organizer, tf)
        with TournamentServer.open(_desk_url(hall, "1号桌")) as desk:
            assert not push(tf, desk).conflicts
    assert main(["tournament", "import-records", hall.organizer_url]) == 0
    winner, problems = _winner(hall, ours)
    assert winner is not None and f"#{winner}" in opening["pairs"]["EW"]
    assert ours not in problems


# -- item 10 ------------------------------------------------------------------------


def _predictable_ids(pairs: int) -> list[str]:
    """The ids the coming draw will give (the attacker drew the same on its own file)."""
    import tempfile
    from pathlib import Path

    with (
        tempfile.TemporaryDirectory() as folder,
        Tournament.create(Path(folder) / "x.sqlite", INFO) as t,
    ):
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, pairs + 1)])
        t.draw(draw_seed=3)
        return [m.match_id for m in t.draw_table.matches()]


def _squat(hall, ids: list[str], urls: list[str] | None = None) -> int:
    """Every desk tries every id by raw SQL; the number of events the server took."""
    taken = 0
    for url in hall.desk_urls if urls is None else urls:
        for match_id in ids:
            try:
                _raw_insert(url, _chain(match_id, [("match_opened", {"pairs": {}})]))
                taken += 1
            except psycopg.errors.InsufficientPrivilege:
                pass
    return taken


def test_claims_are_closed_from_server_init(fresh_hall, tmp_path) -> None:
    """Issue 18 item 10: between server init and tournament create no desk writes into
    the draw's predictable ids; after the draw each table opens its own match."""
    ids = _predictable_ids(8)
    assert _squat(fresh_hall, ids[:3]) == 0
    with TournamentServer.open(fresh_hall.organizer_url) as organizer:
        assert organizer.count() == 0 and not organizer.claims_open()
    first = _drawn(fresh_hall)
    ours = first["1号桌"]
    with (
        TournamentFile.open(tmp_path / "t1.sqlite") as tf,
        TournamentServer.open(_desk_url(fresh_hall, "1号桌")) as desk,
    ):
        opened = open_or_pull(tf, desk, ours)
        assert isinstance(opened, Event) and opened.type == "match_opened"
        assert push(tf, desk).pushed == {ours: 1}


def test_server_publish_of_a_files_draw_opens_claims_for_other_ids(
    fresh_hall, tmp_path, capsys
) -> None:
    """A hall whose tournament stays in a file: claims open once its draw is published
    (its drawn ids kept for their tables), so desks record their own ids again."""
    cup = tmp_path / "cup.sqlite"
    with Tournament.create(cup, INFO) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, 9)])
        t.draw(draw_seed=3)
        drawn = {m.match_id: m.table for m in t.draw_table.matches()}
    assert main(["server", "publish", fresh_hall.organizer_url, str(cup)]) == 0
    capsys.readouterr()
    with TournamentServer.open(fresh_hall.organizer_url) as organizer:
        assert organizer.claims_open()
        held = {a.match_id: a.desk_role for a in organizer.assignments()}
    assert set(held) >= set(drawn)
    stranger = next(m for m, table in drawn.items() if table == "2号桌")
    others = [_desk_url(fresh_hall, "1号桌"), _desk_url(fresh_hall, "3号桌")]
    assert _squat(fresh_hall, [stranger], others) == 0  # another table's match stays its own
    _raw_insert(fresh_hall.desk_urls[0], _chain("T1-自编号", [("match_opened", {"pairs": {}})]))


def test_a_version_4_server_is_upgraded_to_closed_claims(pg_database, monkeypatch) -> None:
    """v4 → v5 (server upgrade): claims close on a server without a tournament, the
    events kept; the append-only guards stand on the new table too."""
    from referee_desk.store.postgres import init as init_module
    from referee_desk.store.postgres import schema
    from referee_desk.store.postgres.init import init_server, upgrade_server

    with monkeypatch.context() as old:
        old.setattr(schema, "SERVER_SCHEMA_VERSION", 4)
        old.setattr(init_module, "_apply_v5", lambda *args: None)
        report = init_server(pg_database, list(TABLES))
        desk = report.desks[0].url(pg_database)
        _raw_insert(desk, _chain("T1-早", [("match_opened", {"pairs": {}})]))  # v4: open
    assert upgrade_server(pg_database) == 4
    organizer = report.organizer.url(pg_database)
    with TournamentServer.open(organizer) as server:
        assert server.meta()["schema_version"] == "5"
        assert server.count() == 1 and not server.claims_open()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        _raw_insert(desk, _chain("GA-R1-M01", [("match_opened", {"pairs": {}})]))
    with TournamentServer.open(organizer) as server:
        server.accept("T1-早")
    with psycopg.connect(pg_database, autocommit=True) as admin:
        for statement in (
            "UPDATE referee_desk.acceptances SET head_seq = 2",
            "DELETE FROM referee_desk.acceptances",
            "TRUNCATE referee_desk.acceptances",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                admin.execute(statement)


# -- item 12 ------------------------------------------------------------------------


def test_a_forfeit_pushed_by_raw_sql_does_not_count_until_the_organizer_accepts_it(
    hall, tmp_path, capsys
) -> None:
    """Issue 18 item 12: table 3's password, raw SQL: a forfeit by an unregistered name
    ends table 3's live match. It is flagged, not counted; `server accept` counts it."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(theirs)
    live = _chain(theirs, [("match_opened", opening), ("clock_started", {})], by="王磊")
    _raw_insert(_desk_url(hall, "3号桌"), live)
    assert _winner(hall, theirs)[0] is None
    _raw_insert(_desk_url(hall, "3号桌"), _chain(theirs, [("forfeit", {"side": "NS"})], live))
    winner, problems = _winner(hall, theirs)
    assert winner is None, "a forfeit nobody vouched for decided the match"
    assert "not counted" in problems[theirs] and "3号桌" in problems[theirs]
    assert main(["tournament", "standings", hall.organizer_url]) == 0
    assert f"match {theirs}: not counted" in capsys.readouterr().out
    assert main(["server", "accept", _desk_url(hall, "3号桌"), theirs]) == 1  # not a desk's
    assert "only the organizer accepts" in capsys.readouterr().err
    assert main(["server", "accept", hall.organizer_url, theirs]) == 0
    capsys.readouterr()
    winner, problems = _winner(hall, theirs)
    assert winner is not None and f"#{winner}" in opening["pairs"]["EW"]
    assert theirs not in problems


def test_a_committee_ruling_after_the_lock_by_raw_sql_is_flagged_not_counted(
    hall, tmp_path
) -> None:
    """A ruling that sets the levels, pushed by raw SQL after table 3's lock under a
    name no committee registered: the match stays as locked; the ruling is named."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    genuine = _genuine(hall, tmp_path, "3号桌", theirs)
    before, _ = _winner(hall, theirs)
    ruling = _chain(
        theirs,
        [("committee_ruling", {"text": "改判", "level_changes": {"NS": -2, "EW": 2}})],
        genuine,
    )
    _raw_insert(_desk_url(hall, "3号桌"), ruling)
    with Tournament.open(hall.organizer_url) as t:
        outcome = t.outcomes().get(theirs)
        problem = t.outcome_problems[theirs]
    assert outcome is not None, problem
    assert outcome.winner == before and outcome.events == len(genuine)
    assert f"counted as locked at event {len(genuine)}" in problem
    assert f"event {len(genuine) + 1} came from 3号桌" in problem


def test_after_a_lock_the_server_refuses_what_the_file_refuses(hall, tmp_path) -> None:
    """The file takes only notes and committee events after a lock; so does the server."""
    first = _drawn(hall)
    theirs = first["3号桌"]
    genuine = _genuine(hall, tmp_path, "3号桌", theirs)
    forfeit = _chain(theirs, [("forfeit", {"side": "NS"})], genuine)
    with pytest.raises(psycopg.errors.RaiseException, match="the match is locked on the server"):
        _raw_insert(_desk_url(hall, "3号桌"), forfeit)
    note = _chain(theirs, [("note", {"text": "备注"})], genuine, by="王磊")
    _raw_insert(_desk_url(hall, "3号桌"), note)


def test_records_the_organizer_imported_count_without_a_seal(hall, tmp_path) -> None:
    """The organizer's own imports are explicit: they count as before."""
    first = _drawn(hall)
    theirs = first["2号桌"]
    with Tournament.open(hall.organizer_url) as t:
        events = simulate_match(theirs, t.opening_payload(theirs), winner="EW")
        record = tmp_path / "m.jsonl"
        write_jsonl(events, record)
        t.file.import_jsonl([record])
        t.invalidate()
        assert t.state().match(theirs).winner is not None
        assert theirs not in t.outcome_problems


def test_the_archive_holds_no_more_than_counts_on_the_server(hall, tmp_path, capsys) -> None:
    """A file vouches for all it holds: `tournament copy "$ORG" archive.sqlite` must not
    launder what the server does not count (a forged end, a ruling after the lock, a
    link found on import from another table)."""
    first = _drawn(hall)
    forged, ruled, linked = first["3号桌"], first["2号桌"], first["1号桌"]
    with Tournament.open(hall.organizer_url) as t:
        opening = t.opening_payload(forged)
    live = _chain(forged, [("match_opened", opening), ("clock_started", {})], by="王磊")
    _raw_insert(_desk_url(hall, "3号桌"), live)
    _raw_insert(_desk_url(hall, "3号桌"), _chain(forged, [("forfeit", {"side": "NS"})], live))
    genuine = _genuine(hall, tmp_path, "2号桌", ruled)
    ruling = [("committee_ruling", {"text": "改判", "level_changes": {"NS": -2, "EW": 2}})]
    _raw_insert(_desk_url(hall, "2号桌"), _chain(ruled, ruling, genuine))
    _raw_insert(_desk_url(hall, "3号桌"), _forged_elsewhere(hall, linked, "T3-自编号"))
    with Tournament.open(hall.organizer_url) as t:
        t.link("T3-自编号", linked, by="import")
        on_server = {m: t.state().match(m).winner for m in (forged, ruled, linked)}
    archive = tmp_path / "archive.sqlite"
    assert main(["tournament", "copy", hall.organizer_url, str(archive)]) == 1  # named
    out = capsys.readouterr().out
    assert f"match {forged} NOT copied" in out and f"match {ruled}: from event" in out, out
    with Tournament.open(archive) as t:
        assert t.record_links.all() == {}
        assert {m: t.state().match(m).winner for m in on_server} == on_server
        assert len(t.file.events(ruled)) == len(genuine)


def test_collect_into_a_file_holds_back_what_does_not_count_on_the_server(
    hall, tmp_path, capsys
) -> None:
    """A hall whose tournament stays in a file: `server collect` brings in only what counts
    on the server (the file vouches for all it holds): a raw-SQL forfeit stays there."""
    cup = tmp_path / "cup.sqlite"
    with Tournament.create(cup, INFO) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, 9)])
        t.draw(draw_seed=3)
        theirs = next(m for m in t.draw_table.matches() if m.table == "3号桌" and m.round == 1)
        opening = t.opening_payload(theirs.match_id)
    assert main(["server", "publish", hall.organizer_url, str(cup)]) == 0
    live = _chain(theirs.match_id, [("match_opened", opening), ("clock_started", {})], by="王磊")
    _raw_insert(_desk_url(hall, "3号桌"), live)
    forfeit = _chain(theirs.match_id, [("forfeit", {"side": "NS"})], live)
    _raw_insert(_desk_url(hall, "3号桌"), forfeit)
    capsys.readouterr()
    assert main(["server", "collect", hall.organizer_url, str(cup)]) == 1
    out = capsys.readouterr().out
    assert f"HELD BACK on the server: match {theirs.match_id}" in out, out
    with Tournament.open(cup) as t:
        assert t.state().match(theirs.match_id).winner is None
        assert t.file.events(theirs.match_id) == []


# -- the slow suite: the attacks at full counts -------------------------------------------


def _knockout(hall, pairs: int) -> list:
    with Tournament.create(hall.organizer_url, INFO) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(1, pairs + 1)])
        t.draw(draw_seed=3)
        return [m for m in t.draw_table.matches() if m.round == 1]


@pytest.mark.slow
def test_slow_every_predictable_id_of_a_64_pair_draw_from_every_desk(fresh_hall) -> None:
    """Item 10 at full count: all 63 ids of a 64-pair knockout, from each of 3 desks."""
    ids = _predictable_ids(64)
    assert len(ids) == 63
    assert _squat(fresh_hall, ids) == 0
    with TournamentServer.open(fresh_hall.organizer_url) as organizer:
        assert organizer.count() == 0


@pytest.mark.slow
def test_slow_every_table_forges_every_other_tables_match(hall, tmp_path, capsys) -> None:
    """Item 9 at full count: 16 pairs, each table forges each round-1 match of the two
    other tables under its own id; none is linked, each genuine sealed record counts."""
    first = _knockout(hall, 16)
    forged = 0
    for attacker in TABLES:
        for m in first:
            if m.table == attacker:
                continue
            record_id = f"{attacker}-{m.match_id}"
            _raw_insert(_desk_url(hall, attacker), _forged_elsewhere(hall, m.match_id, record_id))
            forged += 1
    assert forged == 2 * len(first) == 16
    assert main(["tournament", "import-records", hall.organizer_url]) == 0
    out = capsys.readouterr().out
    assert "counts for" not in out and out.count("was given to") == forged, out
    for m in first:
        (tmp_path / m.match_id).mkdir()
        _genuine(hall, tmp_path / m.match_id, m.table, m.match_id)
    assert main(["tournament", "import-records", hall.organizer_url]) == 0
    capsys.readouterr()
    with Tournament.open(hall.organizer_url) as t:
        assert t.record_links.all() == {}
        state = t.state()
        for m in first:
            assert (
                f"#{state.match(m.match_id).winner}" in t.opening_payload(m.match_id)["pairs"]["NS"]
            )
            assert m.match_id not in t.outcome_problems


#: What raw SQL appends to a table's live match: each ends it, none through a sign-in.
FORGED_ENDS = (
    ("forfeit", {"side": "NS"}),
    ("forfeit", {"side": "EW"}),
    ("committee_decision", {"side": "NS", "decision": "disqualification", "text": "取消资格"}),
    ("committee_decision", {"side": "EW", "decision": "disqualification", "text": "取消资格"}),
)


@pytest.mark.slow
def test_slow_every_forged_end_on_every_live_match_is_flagged(hall, tmp_path) -> None:
    """Item 12 at full count: 16 pairs, each round-1 match live at its table; raw SQL
    with that table's password ends each in each forged way (one way per match, every
    way on two matches): no standing changes, each is named."""
    first = _knockout(hall, 16)
    with Tournament.open(hall.organizer_url) as t:
        openings = {m.match_id: t.opening_payload(m.match_id) for m in first}
    for n, m in enumerate(first):
        url = _desk_url(hall, m.table)
        live = _chain(m.match_id, [("match_opened", openings[m.match_id]), ("clock_started", {})])
        _raw_insert(url, live)
        kind, payload = FORGED_ENDS[n % len(FORGED_ENDS)]
        _raw_insert(url, _chain(m.match_id, [(kind, payload)], live))
    with Tournament.open(hall.organizer_url) as t:
        state = t.state()
        for m in first:
            assert state.match(m.match_id).winner is None, m.match_id
            assert t.outcome_problems[m.match_id].startswith("not counted"), m.match_id
        assert not [s for s in state.matches if s.match.round == 2 and s.pair_a is not None]
