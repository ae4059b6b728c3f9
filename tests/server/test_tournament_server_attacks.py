"""Issue 13, "the server guards itself": the organizer's schema attacked from every side.

The tournament's tables live in ``referee_desk_organizer``, a schema the organizer owns.
A desk, a role foreign to the tournament and PUBLIC reach nothing in it; the organizer
cannot use it to shadow what the guarded ``referee_desk`` schema runs; and nobody but the
organizer opens the tournament, because what the organizer plants in its own schema
(views, functions, triggers) would run with the rights of whoever reads it.
"""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest
from psycopg import sql

from referee_desk.store.postgres.errors import ServerLoginRefused, ServerRefused
from referee_desk.store.postgres.sync import INSERT_SQL
from referee_desk.store.synthetic import sealed_match
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament

ORG = "referee_desk_organizer"
INFO = TournamentInfo("桂林杯", "2026-11-28", "2026-11-28", "", "", ("1号桌",), ())

#: What a role without the organizer's rights tries on the tournament's tables.
INTRUSIONS = (
    f"SELECT * FROM {ORG}.tournament_info",
    f"SELECT * FROM {ORG}.extensions",
    f"INSERT INTO {ORG}.tournament_pairs VALUES (99, 'x', 'y', '', NULL)",
    f"UPDATE {ORG}.tournament_info SET name = 'hijacked'",
    f"DELETE FROM {ORG}.tournament_pairs",
    f"TRUNCATE {ORG}.tournament_links",
    f"CREATE TABLE {ORG}.intruder (x int)",
    f"CREATE FUNCTION {ORG}.intruder() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    f"SELECT {ORG}.tournament_refuse()",
    f"ALTER TABLE {ORG}.tournament_info ADD COLUMN x int",
    f"DROP TABLE {ORG}.tournament_info",
    f"GRANT USAGE ON SCHEMA {ORG} TO PUBLIC",
)

#: What a desk or a foreign role tries on the guarded match assignments.
MATCHES_WRITES = (
    "INSERT INTO referee_desk.matches (match_id) VALUES ('R9-T9')",
    "UPDATE referee_desk.matches SET desk_role = current_user",
    "DELETE FROM referee_desk.matches",
    "TRUNCATE referee_desk.matches",
)


@pytest.fixture
def cup(hall):
    """A hall whose server holds a drawn tournament (the organizer made it)."""
    with Tournament.create(hall.organizer_url, INFO) as t:
        t.add_pairs([("甲", "乙", "", None), ("丙", "丁", "", None)])
        t.draw(draw_seed=1)
    with psycopg.connect(hall.organizer_url, autocommit=True) as organizer:
        organizer.execute("INSERT INTO referee_desk.matches (match_id) VALUES ('R1-T1')")
    hall.matches_before = _assignments(hall)  # the draw's, kept for their tables, and R1-T1
    return hall


def _assignments(hall) -> list[tuple[str, str | None]]:
    with psycopg.connect(hall.admin_url) as admin:
        return admin.execute(
            "SELECT match_id, desk_role FROM referee_desk.matches ORDER BY match_id"
        ).fetchall()


def _refused_each(url: str, statements) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


def _foreign_url(hall) -> str:
    """A login role the superuser made by hand, in no Referee Desk group."""
    with psycopg.connect(hall.admin_url, autocommit=True) as admin:
        admin.execute("CREATE ROLE rd_stranger LOGIN PASSWORD 'stranger'")
        database = admin.execute("SELECT current_database()").fetchone()[0]
        admin.execute(
            sql.SQL("GRANT CONNECT ON DATABASE {} TO rd_stranger").format(sql.Identifier(database))
        )
    head, _, rest = hall.admin_url.partition("://")
    return f"{head}://rd_stranger:stranger@{rest.split('@', 1)[1]}"


def _organizer_untouched(hall) -> None:
    with Tournament.open(hall.organizer_url) as t:
        assert t.info.name == "桂林杯" and len(t.pairs.all()) == 2 and t.drawn
    assert _assignments(hall) == hall.matches_before
    assert ("R1-T1", None) in hall.matches_before


def test_a_desk_reaches_nothing_of_the_tournament_and_cannot_change_the_assignments(cup) -> None:
    _refused_each(cup.desk_urls[0], INTRUSIONS + MATCHES_WRITES)
    with psycopg.connect(cup.desk_urls[0], autocommit=True) as desk:
        for statement in (
            f"SET ROLE {cup.report.organizer.role}",
            "CREATE SCHEMA intruder",
            "CREATE TABLE public.intruder (x int)",
            "CREATE TEMP TABLE intruder (x int)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                desk.execute(statement)
        # Setting the path to the schema shows nothing either.
        desk.execute(f"SET search_path = {ORG}")
        with pytest.raises(psycopg.errors.UndefinedTable):
            desk.execute("SELECT * FROM tournament_info")
    with pytest.raises(ServerRefused, match="a table's address"):
        Tournament.open(cup.desk_urls[0])
    _organizer_untouched(cup)


def test_a_foreign_role_and_public_reach_nothing(cup) -> None:
    stranger = _foreign_url(cup)
    _refused_each(stranger, INTRUSIONS + MATCHES_WRITES)
    with pytest.raises(ServerLoginRefused, match="none of this tournament's roles"):
        Tournament.open(stranger)  # one line, not psycopg's traceback (as before)
    with psycopg.connect(cup.admin_url) as admin:
        granted_to_public = admin.execute(
            "SELECT c.relname FROM pg_class c, aclexplode(c.relacl) a "
            "WHERE c.relnamespace = %s::regnamespace AND a.grantee = 0 "
            "UNION SELECT n.nspname FROM pg_namespace n, aclexplode(n.nspacl) a "
            "WHERE n.nspname IN (%s, 'referee_desk') AND a.grantee = 0 "
            "UNION SELECT a.privilege_type FROM pg_database d, aclexplode(d.datacl) a "
            "WHERE d.datname = current_database() AND a.grantee = 0 "
            "UNION SELECT 'CREATE on public' FROM pg_namespace n, aclexplode(n.nspacl) a "
            "WHERE n.nspname = 'public' AND a.grantee = 0 AND a.privilege_type = 'CREATE'",
            (ORG, ORG),
        ).fetchall()
    assert granted_to_public == []  # no schema, table, database right, nor CREATE in public
    _organizer_untouched(cup)


def test_a_superusers_address_does_not_run_what_the_organizer_planted(cup) -> None:
    """The organizer swaps a table for a view calling its function: the admin must not run it.

    Before, ``tournament pairs ADMIN_URL`` read the view as the superuser and the function
    made the organizer a superuser.
    """
    organizer_role = cup.report.organizer.role
    with psycopg.connect(cup.organizer_url, autocommit=True) as organizer:
        organizer.execute(f"SET search_path = {ORG}")
        organizer.execute("ALTER TABLE tournament_info RENAME TO tournament_info_real")
        organizer.execute(
            sql.SQL(
                "CREATE FUNCTION grab() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN "
                "IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN "
                "EXECUTE 'ALTER ROLE ' || quote_ident({}) || ' SUPERUSER'; END IF; "
                "RETURN true; END $$"
            ).format(sql.Literal(organizer_role))
        )
        organizer.execute(
            "CREATE VIEW tournament_info AS SELECT * FROM tournament_info_real WHERE grab()"
        )
    done = subprocess.run(
        [sys.executable, "-m", "referee_desk.cli.main", "tournament", "standings", cup.admin_url],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "only the organizer's address opens the tournament" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    with psycopg.connect(cup.admin_url) as admin:
        became = admin.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = %s", (organizer_role,)
        ).fetchone()
    assert became == (False,)


def test_the_organizer_cannot_shadow_what_the_guarded_schema_runs(cup) -> None:
    """Lookalikes of pg_catalog's operators and functions in the organizer's schema, first
    on its search path, change nothing in the chain check (its own fixed path)."""
    first = sealed_match("R1-T1", 1)[0]
    forged = (first.match_id, first.seq, first.prev_hash, "f" * 64, first.canonical_json().decode())
    with psycopg.connect(cup.organizer_url, autocommit=True) as organizer:
        organizer.execute(f"SET search_path = {ORG}")
        organizer.execute(
            "CREATE FUNCTION never(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT false'"
        )
        organizer.execute("CREATE OPERATOR <> (leftarg = text, rightarg = text, function = never)")
        organizer.execute(
            "CREATE FUNCTION sha256(bytea) RETURNS bytea LANGUAGE sql "
            "AS $$ SELECT decode(repeat('ff', 32), 'hex') $$"
        )
        organizer.execute(
            "CREATE FUNCTION encode(bytea, text) RETURNS text LANGUAGE sql "
            "AS $$ SELECT repeat('f', 64) $$"
        )
        organizer.execute(f"SET search_path = {ORG}, pg_catalog")  # ours first, explicitly
        assert organizer.execute("SELECT 'a'::text <> 'b'::text").fetchone() == (False,)
        with pytest.raises(psycopg.errors.RaiseException, match="hash chain broken"):
            organizer.execute(INSERT_SQL, forged)
        for statement in (
            "CREATE TABLE referee_desk.intruder (x int)",
            "CREATE FUNCTION referee_desk.claim_match(text, int) RETURNS text "
            "LANGUAGE sql AS 'SELECT null'",
            f"CREATE TRIGGER intruder BEFORE INSERT ON referee_desk.events FOR EACH ROW "
            f"EXECUTE FUNCTION {ORG}.tournament_refuse('x')",
            "ALTER FUNCTION referee_desk.events_check() SET search_path = referee_desk_organizer",
            "ALTER SCHEMA referee_desk_organizer RENAME TO pg_temp_9",
            "CREATE SCHEMA pg_temp_9",
            "CREATE TABLE public.intruder (x int)",
            "UPDATE referee_desk.meta SET value = '9' WHERE key = 'schema_version'",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                organizer.execute(statement)
    with psycopg.connect(cup.desk_urls[0], autocommit=True) as desk:
        desk.execute("SELECT referee_desk.claim_match('R2-T1')")  # the real function
        event = sealed_match("R2-T1", 1)[0]
        desk.execute(
            INSERT_SQL,
            (event.match_id, 1, event.prev_hash, event.hash, event.canonical_json().decode()),
        )
        assert desk.execute(
            "SELECT desk_role FROM referee_desk.matches WHERE match_id = 'R2-T1'"
        ).fetchone() == (cup.desk_roles[0],)


def test_a_desk_notifying_by_hand_neither_fakes_nor_stops_the_live_view(cup) -> None:
    """Any role may ``NOTIFY`` on the events channel (PostgreSQL has no privilege for it).

    Before, a malformed payload raised in the organizer's listener (``server watch``
    died; the view's thread reconnected) and a well-formed one showed an event that
    never landed."""
    from referee_desk.store.postgres.listener import EventListener

    with EventListener(cup.organizer_url) as listener:
        with psycopg.connect(cup.desk_urls[0], autocommit=True) as desk:
            for payload in (
                "not json",
                "[1, 2]",
                '{"match_id": "R1-T1"}',
                '{"match_id": "R1-T1", "seq": "1", "hash": "x", "desk": "y"}',
                '{"match_id": "R1-T1", "seq": 7, "hash": "' + "a" * 64 + '", "desk": "rd_t01"}',
            ):
                desk.execute("SELECT pg_notify('referee_desk_events', %s)", (payload,))
            desk.execute("SELECT referee_desk.claim_match('R3-T1')")
            event = sealed_match("R3-T1", 1)[0]
            desk.execute(
                INSERT_SQL,
                (event.match_id, 1, event.prev_hash, event.hash, event.canonical_json().decode()),
            )
        heard = []
        for _ in range(20):
            heard += listener.wait(timeout=0.2)
            if heard:
                break
        heard += listener.wait(timeout=0.2)
    assert [(h.match_id, h.seq, h.hash, h.desk) for h in heard] == [
        ("R3-T1", 1, event.hash, cup.desk_roles[0])
    ]


def test_a_desks_function_in_schema_public_never_runs_as_the_organizer(
    pg_database, desk_file, monkeypatch
) -> None:
    """PostgreSQL 14's default (every role may create in public), a version 2 server, a
    desk planting a closer match of json_build_object there: before, the organizer's push
    ran it as the organizer (events_notify resolved names on the pusher's path)."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres import init as init_module
    from referee_desk.store.postgres import schema
    from referee_desk.store.postgres.init import init_server, upgrade_server
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import push

    with psycopg.connect(pg_database, autocommit=True) as admin:
        admin.execute("GRANT CREATE ON SCHEMA public TO PUBLIC")
    with monkeypatch.context() as old:
        old.setattr(schema, "SERVER_SCHEMA_VERSION", 2)
        old.setattr(init_module, "_apply_v3", lambda *args: None)
        old.setattr(init_module, "_apply_v4", lambda *args: None)
        old.setattr(init_module, "_apply_v5", lambda *args: None)
        report = init_server(pg_database, ["1号桌"])
    desk_url, organizer_url = report.desks[0].url(pg_database), report.organizer.url(pg_database)
    plant = (
        "CREATE FUNCTION public.json_build_object(text, text, text, integer, text, text, "
        "text, text) RETURNS json LANGUAGE plpgsql AS $$ BEGIN "
        "INSERT INTO public.loot SELECT current_user; RETURN '{}'::json; END $$"
    )
    with psycopg.connect(desk_url, autocommit=True) as desk:
        desk.execute("CREATE TABLE public.loot (who text)")
        desk.execute("GRANT INSERT ON public.loot TO PUBLIC")
        desk.execute(plant)
    assert upgrade_server(pg_database) == 2
    with (
        psycopg.connect(desk_url, autocommit=True) as desk,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        desk.execute("CREATE TABLE public.more_loot (who text)")
    path = desk_file("t9", {"R1-T9": 3})
    with TournamentFile.open(path) as tf, TournamentServer.open(organizer_url) as organizer:
        assert push(tf, organizer).total_pushed == 3
    with psycopg.connect(pg_database) as admin:
        assert admin.execute("SELECT who FROM public.loot").fetchall() == []


def test_a_desk_cannot_record_another_tables_drawn_match_before_it_is_published(
    hall, tmp_path
) -> None:
    from referee_desk.store import TournamentFile
    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import push
    from referee_desk.tournament.publishing import publish
    from referee_desk.tournament.simulate import simulate_match

    info = TournamentInfo("桂林杯", "", "", "", "", ("1号桌", "2号桌"), ("王磊",))
    with Tournament.create(hall.organizer_url, info) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(4)])
        t.draw(draw_seed=1)
        theirs = next(m for m in t.draw_table.matches() if m.table == "2号桌").match_id
        opening = t.opening_payload(theirs)
    write_jsonl(simulate_match(theirs, opening, winner="EW"), tmp_path / "fake.jsonl")
    with TournamentFile.open(tmp_path / "rogue.sqlite") as tf:
        tf.import_jsonl([tmp_path / "fake.jsonl"])
        with TournamentServer.open(hall.desk_urls[0]) as rogue:  # table 1's desk
            push(tf, rogue)
    with (
        Tournament.open(hall.organizer_url) as t,
        TournamentServer.open(hall.organizer_url) as server,
    ):
        publish(t, server)
        t.invalidate()
        assert t.state().match(theirs).winner is None
    with TournamentServer.open(hall.desk_urls[0]) as rogue:  # refused, and said so
        assert push(TournamentFile.open(tmp_path / "rogue.sqlite"), rogue).conflicts


def test_before_the_draw_no_desk_may_claim_any_match_after_it_its_own_ids(hall, tmp_path) -> None:
    """The drawn ids are predictable: claims are closed from create until the draw."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import push
    from referee_desk.store.synthetic import record

    info = TournamentInfo("桂林杯", "", "", "", "", ("1号桌", "2号桌"), ("王磊",))
    with Tournament.create(hall.organizer_url, info) as t:
        t.add_pairs([(f"甲{n}", f"乙{n}", "", None) for n in range(4)])
    early = tmp_path / "early.sqlite"
    with TournamentFile.open(early) as tf:
        record(tf, "KO-R1-M001", 3)
        with TournamentServer.open(hall.desk_urls[0]) as desk:
            (conflict,) = push(tf, desk).conflicts
            assert (
                conflict.kind == "claimed" and "has not given match KO-R1-M001" in conflict.reason
            )
            assert desk.count() == 0
    with Tournament.open(hall.organizer_url) as t:
        t.draw(draw_seed=1)
        ours = next(m for m in t.draw_table.matches() if m.table == "1号桌").match_id
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert organizer.count() == 0 and organizer.claims_open()
        held = {a.match_id: a.desk_role for a in organizer.assignments()}
    assert held[ours] == hall.desk_roles[0] and set(held) >= {"KO-R1-M001", "KO-R1-M002"}
    own = tmp_path / "own.sqlite"
    with TournamentFile.open(own) as tf:
        record(tf, "T1-自编号", 2)  # a desk's own id: claimable once the draw is made
        with TournamentServer.open(hall.desk_urls[0]) as desk:
            assert push(tf, desk).total_pushed == 2


def test_a_desk_cannot_fill_the_servers_disk_through_the_guarded_tables(hall) -> None:
    """An event's text at most 1 MiB; a conflict report's desk text cut; no large objects."""
    import hashlib

    with psycopg.connect(hall.desk_urls[0], autocommit=True) as desk:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            desk.execute("SELECT lo_from_bytea(0, 'x'::bytea)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            desk.execute("SELECT lo_create(0)")
        desk.execute("SELECT referee_desk.claim_match('R1-T9')")
        body = '{"match_id":"R1-T9","seq":1,"prev_hash":"' + "0" * 64 + '","type":"note","x":"'
        canonical = body + "x" * (1024 * 1024) + '"}'
        digest = hashlib.sha256(("0" * 64 + canonical).encode()).hexdigest()
        with pytest.raises(psycopg.errors.CheckViolation, match="events_canonical_size"):
            desk.execute(
                "INSERT INTO referee_desk.events (match_id, seq, prev_hash, hash, canonical) "
                "VALUES ('R1-T9', 1, %s, %s, %s)",
                ("0" * 64, digest, canonical),
            )
        desk.execute(
            "SELECT referee_desk.report_conflict('R1-T9', 1, 'fork', %s, %s, 'big')",
            ("a" * 64, "y" * 5_000_000),
        )
    with psycopg.connect(hall.organizer_url, autocommit=True) as organizer:
        (size,) = organizer.execute(
            "SELECT octet_length(desk_canonical) FROM referee_desk.conflicts"
        ).fetchone()
    assert size == 16384
