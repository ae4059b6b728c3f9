"""Seals checked by the server on insert (issue 13: "hash chains and the signatures of the
trust work are checked on insert, not only later"; issue 9: Ed25519 seals).

Real desk files locked with the desk's real key, a real server verifying in PL/Python.
"""

from __future__ import annotations

import dataclasses

import psycopg
import pytest

from referee_desk.store import TournamentFile
from referee_desk.store.keys import signature_ok
from referee_desk.store.postgres import init as init_module
from referee_desk.store.postgres import schema
from referee_desk.store.postgres.errors import ServerRefused, ServerSchemaMismatch
from referee_desk.store.postgres.init import init_server, upgrade_server
from referee_desk.store.postgres.seals import (
    push_seal,
    register_file_signers,
    register_signer,
    seals,
    signers,
)
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import push, sync_state
from referee_desk.store.signatures import seal_message


def _locked_file(desk_file, name: str, matches: dict[str, int]):
    path = desk_file(name, matches)
    with TournamentFile.open(path) as tf:
        for match_id in matches:
            tf.seals.lock(match_id, by="王磊")
    return path


def _register(hall, path) -> None:
    with TournamentServer.open(hall.organizer_url) as organizer, TournamentFile.open(path) as tf:
        assert register_file_signers(organizer, tf)


def test_real_seals_are_taken_and_both_checks_agree(hall, desk_file) -> None:
    path = _locked_file(desk_file, "t1", {"R1-T1": 5, "R1-T2": 3, "R2-T1": 8})
    _register(hall, path)
    with TournamentFile.open(path) as tf, TournamentServer.open(hall.desk_urls[0]) as desk:
        report = push(tf, desk)
        assert report.conflicts == ()
        assert report.seals == 3
        assert push(tf, desk).seals == 0  # idempotent: nothing sent twice
        assert sync_state(tf).status == "synced"
        local = {m: tf.seal_info(m) for m in tf.match_ids()}
    with TournamentServer.open(hall.organizer_url) as organizer:
        held = seals(organizer)
    assert sorted(s.match_id for s in held) == sorted(local)
    for seal in held:  # the trigger took it, Python verifies it, the store says valid
        assert seal.valid
        info = local[seal.match_id]
        assert info is not None and info.valid
        assert (seal.head_seq, seal.head_hash) == (info.head_seq, info.head_hash)
        assert seal.key_fingerprint == info.key_fingerprint


def _one_seal(desk_file, hall, name: str = "t1"):
    path = _locked_file(desk_file, name, {"R1-T1": 4})
    with TournamentFile.open(path) as tf, TournamentServer.open(hall.desk_urls[0]) as desk:
        push(tf, desk)  # the events land; the seal is refused (key not registered yet)
        seal = tf.seals.latest("R1-T1")
        tournament_id = tf.tournament_id
    assert seal is not None
    return path, seal, tournament_id


def test_a_forged_seal_is_refused_on_insert(hall, desk_file) -> None:
    path, seal, tid = _one_seal(desk_file, hall)
    _register(hall, path)
    flipped = seal.signature[:-2] + ("00" if seal.signature[-2:] != "00" else "01")
    forgeries = [
        dataclasses.replace(seal, signature=flipped),  # signature altered
        dataclasses.replace(seal, sealed_by="赵六"),  # the signed text altered
        dataclasses.replace(seal, sealed_at="2020-01-01T00:00:00.000Z"),
    ]
    with TournamentServer.open(hall.desk_urls[0]) as desk, TournamentFile.open(path) as tf:
        public_key = tf.signatures.public_key(seal.key_fingerprint)
        for forged in forgeries:
            message = seal_message(
                tid,
                forged.match_id,
                forged.head_seq,
                forged.head_hash,
                forged.sealed_at,
                forged.sealed_by,
            )
            assert not signature_ok(public_key, message, forged.signature)  # the store: no
            refused = push_seal(desk, tid, forged)  # the server: no, too
            assert not isinstance(refused, bool)
            assert refused.kind == "seal"
            assert "does not verify (forged)" in refused.reason
        assert push_seal(desk, tid, seal) is True  # the genuine one goes through
        assert [s.valid for s in seals(desk)] == [True]


def test_a_seal_by_an_unregistered_key_is_refused_until_the_organizer_registers_it(
    hall, desk_file
) -> None:
    path, seal, _tid = _one_seal(desk_file, hall)
    with TournamentFile.open(path) as tf, TournamentServer.open(hall.desk_urls[0]) as desk:
        state = sync_state(tf)
        assert state.status == "conflict"
        (conflict,) = state.conflicts
        assert conflict.kind == "seal" and conflict.seq == 4
        assert f"key {seal.key_fingerprint} is not registered on the server" in conflict.reason
        assert desk.events("R1-T1") == tf.events("R1-T1")  # the events are there all the same
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert [c.kind for c in organizer.conflicts()] == ["seal"]
        assert seals(organizer) == []
    _register(hall, path)
    with TournamentFile.open(path) as tf, TournamentServer.open(hall.desk_urls[0]) as desk:
        assert push(tf, desk).seals == 1
        assert sync_state(tf).status == "synced"


def test_a_seal_must_lock_the_servers_own_record(hall, desk_file) -> None:
    path, seal, tid = _one_seal(desk_file, hall)
    _register(hall, path)
    with TournamentServer.open(hall.desk_urls[0]) as desk:
        other_head = dataclasses.replace(seal, head_hash="ab" * 32)
        refused = push_seal(desk, tid, other_head)
        assert not isinstance(refused, bool)
        assert "locks another record than the server's" in refused.reason
        beyond = dataclasses.replace(seal, head_seq=9)
        refused = push_seal(desk, tid, beyond)
        assert not isinstance(refused, bool)
        assert "that event is not on the server" in refused.reason


def test_only_the_organizer_registers_keys_and_seals_are_append_only(hall, desk_file) -> None:
    path, seal, _tid = _one_seal(desk_file, hall)
    with TournamentFile.open(path) as tf:
        public_key = tf.signatures.public_key(seal.key_fingerprint)
    refusal = "only the organizer registers signing keys"
    with (
        TournamentServer.open(hall.desk_urls[0]) as desk,
        pytest.raises(ServerRefused, match=refusal),
    ):
        register_signer(desk, public_key, "desk", "desk")
    with TournamentServer.open(hall.organizer_url) as organizer:
        assert register_signer(organizer, public_key, "desk", "desk") is True
        assert register_signer(organizer, public_key, "desk", "desk") is False
        with pytest.raises(ServerRefused, match="not a public key"):
            register_signer(organizer, "zz" * 32, "bad", "desk")
        assert [s.fingerprint for s in signers(organizer)] == [seal.key_fingerprint]
    with TournamentFile.open(path) as tf, TournamentServer.open(hall.desk_urls[0]) as desk:
        assert push(tf, desk).seals == 1
    with psycopg.connect(hall.admin_url, autocommit=True) as admin:  # not even the owner
        for statement in (
            "DELETE FROM referee_desk.seals",
            "UPDATE referee_desk.seals SET sealed_by = 'x'",
            "DELETE FROM referee_desk.signers",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                admin.execute(statement)


def test_a_version_1_server_is_migrated_with_its_events(pg_database, desk_file, monkeypatch):
    # A real version 1 database: version 1's schema only (as the previous release made it).
    with monkeypatch.context() as old:
        old.setattr(schema, "SERVER_SCHEMA_VERSION", 1)
        old.setattr(init_module, "_apply_v2", lambda *args: None)
        old.setattr(init_module, "_apply_v3", lambda *args: None)
        old.setattr(init_module, "_apply_v4", lambda *args: None)
        old.setattr(init_module, "_apply_v5", lambda *args: None)
        report = init_server(pg_database, ["1号桌"])
        desk_url = report.desks[0].url(pg_database)
        path = desk_file("t1", {"R1-T1": 6})
        with TournamentFile.open(path) as tf, TournamentServer.open(desk_url) as desk:
            assert push(tf, desk).total_pushed == 6
    with pytest.raises(ServerSchemaMismatch, match="server schema version 1; this one needs 5"):
        TournamentServer.open(desk_url)
    assert upgrade_server(pg_database) == 1
    assert upgrade_server(pg_database) == 5  # again: nothing to do
    with TournamentFile.open(path) as tf:
        tf.seals.lock("R1-T1", by="王磊")
        with TournamentServer.open(report.organizer.url(pg_database)) as organizer:
            assert organizer.meta()["schema_version"] == "5"
            assert len(organizer.events("R1-T1")) == 6
            register_file_signers(organizer, tf)
        with TournamentServer.open(desk_url) as desk:
            assert push(tf, desk).seals == 1
            assert [s.valid for s in seals(desk)] == [True]


def test_cli_registers_keys_pushes_seals_and_verify_reports_them(hall, desk_file, capsys):
    from referee_desk.cli.main import main

    path = _locked_file(desk_file, "t1", {"R1-T1": 5})
    assert main(["sync", str(path), hall.desk_urls[0]]) == 1  # the seal: key not registered
    assert "is not registered on the server" in capsys.readouterr().err
    assert main(["server", "keys", hall.organizer_url, str(path)]) == 0
    out = capsys.readouterr().out
    assert "registered key" in out and "1 signing keys registered" in out
    assert main(["sync", str(path), hall.desk_urls[0]]) == 0
    assert "1 seals sent (checked by the server)" in capsys.readouterr().out
    assert main(["verify", hall.organizer_url]) == 0
    out = capsys.readouterr().out
    with TournamentFile.open(path) as tf:
        fingerprint = tf.seals.latest("R1-T1").key_fingerprint
    assert f"seal R1-T1: event 5 signed by key {fingerprint}" in out
    assert "locked by 王磊: valid" in out
    assert main(["server", "keys", hall.desk_urls[0], "--key", "ab" * 32]) == 1
    assert "only the organizer registers signing keys" in capsys.readouterr().err


def test_cli_upgrade_says_when_there_is_nothing_to_do(hall, capsys) -> None:
    from referee_desk.cli.main import main

    assert main(["server", "upgrade", hall.admin_url]) == 0
    assert "already at version 5" in capsys.readouterr().out


def test_a_refused_seal_offers_the_desks_key_and_the_organizer_approves_it(hall, desk_file):
    from referee_desk.store.postgres.seals import approve_offers, key_offers

    path, seal, _tid = _one_seal(desk_file, hall)  # refused: the desk offered its key
    with TournamentServer.open(hall.organizer_url) as organizer:
        (offer,) = key_offers(organizer)
        assert offer.fingerprint == seal.key_fingerprint
        assert offer.offered_by == hall.desk_roles[0]
        assert signers(organizer) == []  # an offer is not a registration
        with pytest.raises(ServerRefused, match="no key offered with fingerprint 00"):
            approve_offers(organizer, ["00" * 16])
        assert approve_offers(organizer, [offer.fingerprint]) == [offer]
        assert key_offers(organizer) == []
    with TournamentFile.open(path) as tf, TournamentServer.open(hall.desk_urls[0]) as desk:
        assert push(tf, desk).seals == 1
        assert sync_state(tf).status == "synced"
