"""The server guards itself, whoever connects: chain checked on insert, append-only, RLS."""

from __future__ import annotations

import json

import psycopg
import pytest

from referee_desk.match.envelope import GENESIS_HASH
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import INSERT_SQL
from referee_desk.store.synthetic import sealed_match


def _row(event, canonical: str | None = None, hash_: str | None = None):
    text = event.canonical_json().decode("utf-8") if canonical is None else canonical
    return (event.match_id, event.seq, event.prev_hash, hash_ or event.hash, text)


def _claim(conn, match_id: str) -> None:
    conn.execute("SELECT referee_desk.claim_match(%s)", (match_id,))


@pytest.fixture
def desk(hall):
    with psycopg.connect(hall.desk_urls[0], autocommit=True) as conn:
        _claim(conn, "R1-T1")
        yield conn


def test_a_hash_that_is_not_sha256_of_prev_and_text_is_refused(desk) -> None:
    first = sealed_match("R1-T1", 1)[0]
    with pytest.raises(psycopg.errors.RaiseException, match="hash chain broken"):
        desk.execute(INSERT_SQL, _row(first, hash_="f" * 64))


def test_an_edited_text_under_the_old_hash_is_refused(desk) -> None:
    first = sealed_match("R1-T1", 1)[0]
    text = first.canonical_json().decode("utf-8").replace("漓江队", "伪造队")
    with pytest.raises(psycopg.errors.RaiseException, match="hash chain broken"):
        desk.execute(INSERT_SQL, _row(first, canonical=text))


def test_a_gap_or_a_wrong_link_is_refused(desk) -> None:
    events = sealed_match("R1-T1", 3)
    with pytest.raises(psycopg.errors.RaiseException, match="not on the server"):
        desk.execute(INSERT_SQL, _row(events[1]))
    desk.execute(INSERT_SQL, _row(events[0]))
    other = sealed_match("R1-T1", 2, referee="李裁判")[1]  # links to another first event
    with pytest.raises(psycopg.errors.RaiseException, match="prev_hash is not the hash"):
        desk.execute(INSERT_SQL, _row(other))
    desk.execute(INSERT_SQL, _row(events[1]))


def test_fields_must_agree_with_the_canonical_text(desk) -> None:
    first = sealed_match("R1-T1", 1)[0]
    row = list(_row(first))
    row[1] = 2  # seq column says 2, the text says 1
    with pytest.raises(psycopg.errors.RaiseException, match="differ from the canonical"):
        desk.execute(INSERT_SQL, tuple(row))
    with pytest.raises(psycopg.errors.RaiseException, match="not JSON"):
        desk.execute(INSERT_SQL, ("R1-T1", 1, GENESIS_HASH, "a" * 64, "{not json"))


def test_same_seq_twice_is_refused_by_the_unique_key(desk) -> None:
    first = sealed_match("R1-T1", 1)[0]
    desk.execute(INSERT_SQL, _row(first))
    with pytest.raises(psycopg.errors.UniqueViolation):
        desk.execute(INSERT_SQL, _row(first))


def test_even_the_owner_cannot_update_delete_or_truncate_events(hall, desk) -> None:
    desk.execute(INSERT_SQL, _row(sealed_match("R1-T1", 1)[0]))
    with psycopg.connect(hall.admin_url, autocommit=True) as admin:
        for statement in (
            "UPDATE referee_desk.events SET type = 'note'",
            "DELETE FROM referee_desk.events",
            "TRUNCATE referee_desk.events",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                admin.execute(statement)
        assert admin.execute("SELECT COUNT(*) FROM referee_desk.events").fetchone()[0] == 1


def test_row_level_security_keeps_other_desks_matches_out(hall, desk) -> None:
    desk.execute(INSERT_SQL, _row(sealed_match("R1-T1", 1)[0]))
    event = sealed_match("R1-T1", 2)[1]
    with psycopg.connect(hall.desk_urls[1], autocommit=True) as other:
        assert other.execute("SELECT COUNT(*) FROM referee_desk.events").fetchone()[0] == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            other.execute(INSERT_SQL, _row(event))
        # Claiming a held match does not take it over.
        held = other.execute("SELECT referee_desk.claim_match('R1-T1')").fetchone()[0]
        assert held == hall.desk_roles[0]
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            other.execute("UPDATE referee_desk.matches SET desk_role = current_user")


def test_every_inserted_event_is_notified_on_commit(hall, desk) -> None:
    with psycopg.connect(hall.organizer_url, autocommit=True) as listener:
        listener.execute("LISTEN referee_desk_events")
        for event in sealed_match("R1-T1", 3):
            desk.execute(INSERT_SQL, _row(event))
        got = [json.loads(n.payload) for n in listener.notifies(timeout=5, stop_after=3)]
    assert [(g["match_id"], g["seq"], g["desk"]) for g in got] == [
        ("R1-T1", s, hall.desk_roles[0]) for s in (1, 2, 3)
    ]


def test_the_organizer_sees_every_match(hall, desk) -> None:
    desk.execute(INSERT_SQL, _row(sealed_match("R1-T1", 1)[0]))
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert organizer.match_ids() == ["R1-T1"]
        assert not organizer.is_desk
