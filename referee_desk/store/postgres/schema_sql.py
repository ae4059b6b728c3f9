"""The server schema's DDL, version by version (``init`` applies them, in order).

``{organizer}``, ``{desks}`` and ``{db}`` are quoted role and database names filled in
by ``init``; ``{events_check}`` is the chain check, defined once (``EVENTS_CHECK``):
version 1 creates it and version 3 brings older servers to the same text.
"""

from __future__ import annotations

#: The hash-chain check on every insert into ``events``. It parses the canonical text as
#: jsonb, which refuses the escape \u0000: an event whose text holds U+0000 (valid JSON,
#: kept by the desk's file) would be refused for ever, so it is read with \u0000 as
#: U+FFFF (only to compare match_id, seq, prev_hash and type; a match_id holding U+FFFF
#: is refused, so the two cannot be confused); the stored text and its hash are the
#: desk's, byte for byte. SECURITY DEFINER: it reads the previous event whatever
#: row-level security lets the inserting role see.
EVENTS_CHECK = r"""
CREATE OR REPLACE FUNCTION referee_desk.events_check() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
DECLARE
    doc jsonb;
    expected text;
BEGIN
    BEGIN
        doc := replace(NEW.canonical, '\u0000', '\uffff')::jsonb;
    EXCEPTION WHEN others THEN
        RAISE EXCEPTION 'match %, event %: the canonical text is not JSON', NEW.match_id, NEW.seq
            USING ERRCODE = 'P0001';
    END;
    IF jsonb_typeof(doc) <> 'object'
       OR strpos(NEW.match_id, chr(65535)) > 0
       OR doc->>'match_id' IS DISTINCT FROM NEW.match_id
       OR doc->>'seq' IS DISTINCT FROM NEW.seq::text
       OR doc->>'prev_hash' IS DISTINCT FROM NEW.prev_hash
       OR jsonb_typeof(doc->'type') IS DISTINCT FROM 'string' THEN
        RAISE EXCEPTION
            'match %, event %: match_id, seq, prev_hash or type differ from the canonical text',
            NEW.match_id, NEW.seq;
    END IF;
    IF NEW.seq = 1 THEN
        expected := repeat('0', 64);
    ELSE
        SELECT e.hash INTO expected FROM referee_desk.events e
        WHERE e.match_id = NEW.match_id AND e.seq = NEW.seq - 1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'match %, event %: event % is not on the server (no gaps)',
                NEW.match_id, NEW.seq, NEW.seq - 1;
        END IF;
    END IF;
    IF NEW.prev_hash <> expected THEN
        RAISE EXCEPTION 'match %, event %: hash chain broken: prev_hash is not the hash of event %',
            NEW.match_id, NEW.seq, NEW.seq - 1;
    END IF;
    IF NEW.hash <> encode(sha256(convert_to(NEW.prev_hash || NEW.canonical, 'UTF8')), 'hex') THEN
        RAISE EXCEPTION
            'match %, event %: hash chain broken: the hash is not sha256(prev_hash || canonical)',
            NEW.match_id, NEW.seq;
    END IF;
    NEW.type := doc->>'type';
    NEW.pushed_by := session_user;
    NEW.received_at := clock_timestamp();
    RETURN NEW;
END $$;
"""

#: Version 1. ``{organizer}``/``{desks}`` are quoted role names, ``{db}`` the database.
SCHEMA_V1 = r"""
CREATE SCHEMA referee_desk;
REVOKE ALL ON SCHEMA referee_desk FROM PUBLIC;

CREATE TABLE referee_desk.meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE referee_desk.desks (
    role text PRIMARY KEY,
    table_label text NOT NULL UNIQUE
);

CREATE TABLE referee_desk.matches (
    match_id text PRIMARY KEY,
    desk_role text REFERENCES referee_desk.desks (role),
    opening text CHECK (opening IS NULL OR opening::jsonb IS NOT NULL),
    claimed boolean NOT NULL DEFAULT false,
    assigned_by text NOT NULL DEFAULT session_user,
    assigned_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE referee_desk.events (
    id bigserial PRIMARY KEY,
    match_id text NOT NULL,
    seq integer NOT NULL CHECK (seq >= 1),
    type text NOT NULL DEFAULT '',
    prev_hash text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{{64}}$'),
    hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{{64}}$'),
    canonical text NOT NULL,
    pushed_by text NOT NULL DEFAULT session_user,
    received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (match_id, seq)
);

CREATE TABLE referee_desk.conflicts (
    id bigserial PRIMARY KEY,
    match_id text NOT NULL,
    seq integer NOT NULL,
    kind text NOT NULL CHECK (kind IN ('fork', 'claimed', 'refused')),
    server_hash text,
    desk_hash text NOT NULL,
    desk_canonical text NOT NULL,
    detail text NOT NULL,
    reported_by text NOT NULL DEFAULT session_user,
    reported_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (match_id, seq, kind, desk_hash, reported_by)
);

-- The chain, checked on every insert. SECURITY DEFINER: it reads the previous event
-- whatever row-level security lets the inserting role see.
{events_check}

CREATE TRIGGER events_check BEFORE INSERT ON referee_desk.events
    FOR EACH ROW EXECUTE FUNCTION referee_desk.events_check();

CREATE FUNCTION referee_desk.append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%.% is append-only: % refused', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP;
END $$;

CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON referee_desk.events
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON referee_desk.events
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER conflicts_no_update BEFORE UPDATE OR DELETE ON referee_desk.conflicts
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER conflicts_no_truncate BEFORE TRUNCATE ON referee_desk.conflicts
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();

CREATE FUNCTION referee_desk.events_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('referee_desk_events', json_build_object(
        'match_id', NEW.match_id, 'seq', NEW.seq, 'hash', NEW.hash, 'desk', NEW.pushed_by)::text);
    RETURN NULL;
END $$;
CREATE TRIGGER events_notify AFTER INSERT ON referee_desk.events
    FOR EACH ROW EXECUTE FUNCTION referee_desk.events_notify();

CREATE FUNCTION referee_desk.conflicts_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('referee_desk_conflicts', json_build_object(
        'match_id', NEW.match_id, 'seq', NEW.seq, 'kind', NEW.kind, 'desk', NEW.reported_by)::text);
    RETURN NULL;
END $$;
CREATE TRIGGER conflicts_notify AFTER INSERT ON referee_desk.conflicts
    FOR EACH ROW EXECUTE FUNCTION referee_desk.conflicts_notify();

-- A desk records a match nobody holds: it becomes that desk's. Returns the holder.
CREATE FUNCTION referee_desk.claim_match(p_match_id text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
DECLARE
    holder text;
BEGIN
    IF EXISTS (SELECT 1 FROM desks WHERE role = session_user) THEN
        INSERT INTO matches (match_id, desk_role, claimed) VALUES (p_match_id, session_user, true)
            ON CONFLICT (match_id) DO NOTHING;
        UPDATE matches SET desk_role = session_user, claimed = true
            WHERE match_id = p_match_id AND desk_role IS NULL;
    END IF;
    SELECT desk_role INTO holder FROM matches WHERE match_id = p_match_id;
    RETURN holder;
END $$;

-- A desk reports a fork or a refused claim; the server fills in its own hash.
CREATE FUNCTION referee_desk.report_conflict(
    p_match_id text, p_seq integer, p_kind text, p_desk_hash text, p_desk_canonical text,
    p_detail text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
BEGIN
    INSERT INTO conflicts (match_id, seq, kind, server_hash, desk_hash, desk_canonical, detail,
                           reported_by)
    VALUES (p_match_id, p_seq, p_kind,
            (SELECT hash FROM events WHERE match_id = p_match_id AND seq = p_seq),
            p_desk_hash, p_desk_canonical, left(p_detail, 1000), session_user)
    ON CONFLICT DO NOTHING;
END $$;

ALTER TABLE referee_desk.events ENABLE ROW LEVEL SECURITY;
ALTER TABLE referee_desk.matches ENABLE ROW LEVEL SECURITY;

CREATE POLICY desk_reads_own_events ON referee_desk.events FOR SELECT TO {desks}
    USING (EXISTS (SELECT 1 FROM referee_desk.matches m
                   WHERE m.match_id = events.match_id AND m.desk_role = current_user));
CREATE POLICY desk_inserts_own_events ON referee_desk.events FOR INSERT TO {desks}
    WITH CHECK (EXISTS (SELECT 1 FROM referee_desk.matches m
                        WHERE m.match_id = events.match_id AND m.desk_role = current_user));
CREATE POLICY organizer_reads_events ON referee_desk.events FOR SELECT TO {organizer}
    USING (true);
CREATE POLICY organizer_inserts_events ON referee_desk.events FOR INSERT TO {organizer}
    WITH CHECK (true);
CREATE POLICY desk_reads_own_matches ON referee_desk.matches FOR SELECT TO {desks}
    USING (desk_role = current_user);
CREATE POLICY organizer_runs_matches ON referee_desk.matches FOR ALL TO {organizer}
    USING (true) WITH CHECK (true);

REVOKE ALL ON ALL TABLES IN SCHEMA referee_desk FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA referee_desk FROM PUBLIC;
GRANT USAGE ON SCHEMA referee_desk TO {desks}, {organizer};
GRANT SELECT ON referee_desk.meta, referee_desk.desks TO {desks}, {organizer};
GRANT SELECT ON referee_desk.events TO {desks}, {organizer};
GRANT INSERT (match_id, seq, prev_hash, hash, canonical) ON referee_desk.events
    TO {desks}, {organizer};
GRANT USAGE ON SEQUENCE referee_desk.events_id_seq TO {desks}, {organizer};
GRANT SELECT ON referee_desk.matches TO {desks};
GRANT SELECT, INSERT, UPDATE ON referee_desk.matches TO {organizer};
GRANT SELECT ON referee_desk.conflicts TO {organizer};
GRANT EXECUTE ON FUNCTION referee_desk.claim_match(text) TO {desks};
GRANT EXECUTE ON FUNCTION referee_desk.report_conflict(text, integer, text, text, text, text)
    TO {desks}, {organizer};
REVOKE CONNECT, TEMPORARY ON DATABASE {db} FROM PUBLIC;
GRANT CONNECT ON DATABASE {db} TO {desks}, {organizer};
"""


#: Version 2 over version 1 (init applies both; a version 1 database is migrated by
#: ``server init`` or ``server upgrade``): registered signing keys and seals, checked on
#: insert. Needs a superuser (PL/Python is an untrusted language).
SCHEMA_V2 = r"""
CREATE EXTENSION IF NOT EXISTS plpython3u;

-- Ed25519 in the server's Python; the trigger below builds the message itself.
CREATE FUNCTION referee_desk.ed25519_ok(public_key text, message bytea, signature text)
RETURNS boolean LANGUAGE plpython3u IMMUTABLE STRICT AS $py$
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
try:
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
    key.verify(bytes.fromhex(signature), bytes(message))
except (InvalidSignature, ValueError, TypeError):
    return False
return True
$py$;

-- The message the store signs when it locks a match (signatures.seal_message).
CREATE FUNCTION referee_desk.seal_message(
    p_tournament_id text, p_match_id text, p_seq integer, p_head_hash text, p_sealed_at text,
    p_sealed_by text) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT convert_to('referee-desk seal v2' || E'\n' || p_tournament_id || E'\n' || p_match_id
        || E'\n' || p_seq::text || E'\n' || p_head_hash || E'\n' || p_sealed_at || E'\n'
        || p_sealed_by, 'UTF8')
$$;

CREATE TABLE referee_desk.signers (
    fingerprint text PRIMARY KEY CHECK (fingerprint ~ '^[0-9a-f]{{32}}$'),
    public_key text NOT NULL UNIQUE CHECK (public_key ~ '^[0-9a-f]{{64}}$'),
    label text NOT NULL DEFAULT '',
    role text NOT NULL DEFAULT '',
    registered_by text NOT NULL DEFAULT session_user,
    registered_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT signers_fingerprint_of_key
        CHECK (fingerprint = left(encode(sha256(decode(public_key, 'hex')), 'hex'), 32))
);

-- A desk offers its public key when a seal of it is refused for want of registration;
-- only the organizer turns an offer into a registered key (server keys --approve).
CREATE TABLE referee_desk.key_offers (
    fingerprint text PRIMARY KEY CHECK (fingerprint ~ '^[0-9a-f]{{32}}$'),
    public_key text NOT NULL CHECK (public_key ~ '^[0-9a-f]{{64}}$'),
    label text NOT NULL DEFAULT '',
    offered_by text NOT NULL DEFAULT session_user,
    offered_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT key_offers_fingerprint_of_key
        CHECK (fingerprint = left(encode(sha256(decode(public_key, 'hex')), 'hex'), 32))
);

CREATE TABLE referee_desk.seals (
    id bigserial PRIMARY KEY,
    match_id text NOT NULL,
    head_seq integer NOT NULL CHECK (head_seq >= 1),
    head_hash text NOT NULL CHECK (head_hash ~ '^[0-9a-f]{{64}}$'),
    tournament_id text NOT NULL,
    sealed_at text NOT NULL,
    sealed_by text NOT NULL,
    key_fingerprint text NOT NULL,
    scheme text NOT NULL DEFAULT 'ed25519',
    signature text NOT NULL CHECK (signature ~ '^[0-9a-f]{{128}}$'),
    pushed_by text NOT NULL DEFAULT session_user,
    received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (match_id, signature)
);

CREATE FUNCTION referee_desk.seals_check() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
DECLARE
    key text;
    held text;
BEGIN
    IF NEW.scheme <> 'ed25519' THEN
        RAISE EXCEPTION 'match %: seal at event % refused: scheme % (only ed25519 seals)',
            NEW.match_id, NEW.head_seq, NEW.scheme;
    END IF;
    SELECT s.public_key INTO key FROM signers s WHERE s.fingerprint = NEW.key_fingerprint;
    IF NOT FOUND THEN
        RAISE EXCEPTION
            'match %: seal at event % refused: key % is not registered on the server '
            '(the organizer runs: referee-desk server keys URL --approve %)',
            NEW.match_id, NEW.head_seq, NEW.key_fingerprint, NEW.key_fingerprint;
    END IF;
    SELECT e.hash INTO held FROM events e
        WHERE e.match_id = NEW.match_id AND e.seq = NEW.head_seq;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match %: seal at event % refused: that event is not on the server',
            NEW.match_id, NEW.head_seq;
    END IF;
    IF held <> NEW.head_hash THEN
        RAISE EXCEPTION
            'match %: seal at event % refused: it locks another record than the server''s',
            NEW.match_id, NEW.head_seq;
    END IF;
    IF NOT ed25519_ok(key, seal_message(NEW.tournament_id, NEW.match_id, NEW.head_seq,
                                        NEW.head_hash, NEW.sealed_at, NEW.sealed_by),
                      NEW.signature) THEN
        RAISE EXCEPTION
            'match %: seal at event % refused: the signature by key % does not verify (forged)',
            NEW.match_id, NEW.head_seq, NEW.key_fingerprint;
    END IF;
    NEW.pushed_by := session_user;
    NEW.received_at := clock_timestamp();
    RETURN NEW;
END $$;

CREATE TRIGGER seals_check BEFORE INSERT ON referee_desk.seals
    FOR EACH ROW EXECUTE FUNCTION referee_desk.seals_check();
CREATE TRIGGER seals_no_update BEFORE UPDATE OR DELETE ON referee_desk.seals
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER seals_no_truncate BEFORE TRUNCATE ON referee_desk.seals
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER signers_no_update BEFORE UPDATE OR DELETE ON referee_desk.signers
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER signers_no_truncate BEFORE TRUNCATE ON referee_desk.signers
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();

ALTER TABLE referee_desk.conflicts DROP CONSTRAINT conflicts_kind_check;
ALTER TABLE referee_desk.conflicts ADD CONSTRAINT conflicts_kind_check
    CHECK (kind IN ('fork', 'claimed', 'refused', 'seal'));

ALTER TABLE referee_desk.seals ENABLE ROW LEVEL SECURITY;
CREATE POLICY desk_reads_own_seals ON referee_desk.seals FOR SELECT TO {desks}
    USING (EXISTS (SELECT 1 FROM referee_desk.matches m
                   WHERE m.match_id = seals.match_id AND m.desk_role = current_user));
CREATE POLICY desk_inserts_own_seals ON referee_desk.seals FOR INSERT TO {desks}
    WITH CHECK (EXISTS (SELECT 1 FROM referee_desk.matches m
                        WHERE m.match_id = seals.match_id AND m.desk_role = current_user));
CREATE POLICY organizer_reads_seals ON referee_desk.seals FOR SELECT TO {organizer}
    USING (true);
CREATE POLICY organizer_inserts_seals ON referee_desk.seals FOR INSERT TO {organizer}
    WITH CHECK (true);

REVOKE ALL ON referee_desk.signers, referee_desk.seals, referee_desk.key_offers FROM PUBLIC;
GRANT SELECT ON referee_desk.key_offers TO {organizer};
GRANT INSERT (fingerprint, public_key, label) ON referee_desk.key_offers TO {desks};
REVOKE ALL ON FUNCTION referee_desk.ed25519_ok(text, bytea, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION referee_desk.seals_check() FROM PUBLIC;
GRANT SELECT ON referee_desk.signers TO {desks}, {organizer};
GRANT INSERT (fingerprint, public_key, label, role) ON referee_desk.signers TO {organizer};
GRANT SELECT ON referee_desk.seals TO {desks}, {organizer};
GRANT INSERT (match_id, head_seq, head_hash, tournament_id, sealed_at, sealed_by,
              key_fingerprint, scheme, signature) ON referee_desk.seals TO {desks}, {organizer};
GRANT USAGE ON SEQUENCE referee_desk.seals_id_seq TO {desks}, {organizer};
"""

#: RFC 8032 test vector 1 (empty message): init checks the server's Ed25519 with it.
RFC8032_PUBLIC_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
RFC8032_SIGNATURE = (
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
    "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)


#: Version 3 over version 2: a schema the organizer owns for other layers' tables (the
#: tournament's pairs, draw …) and its register of them (``extensions``, as a file has).
#: Separate from ``referee_desk`` so the organizer creates nothing beside the guarded
#: tables; desks get no access to it.
SCHEMA_V3 = r"""
CREATE SCHEMA referee_desk_organizer AUTHORIZATION {organizer};
REVOKE ALL ON SCHEMA referee_desk_organizer FROM PUBLIC;
CREATE TABLE referee_desk_organizer.extensions (
    name text PRIMARY KEY,
    version integer NOT NULL CHECK (version >= 1),
    installed_by text NOT NULL DEFAULT session_user,
    installed_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE referee_desk_organizer.extensions OWNER TO {organizer};
REVOKE ALL ON referee_desk_organizer.extensions FROM PUBLIC;

-- PostgreSQL 14 and older let every role create in schema public, which every session's
-- default search path holds: a desk's function there, a better match than pg_catalog's
-- (json_build_object's variadic "any"), ran as the organizer inside events_notify, an
-- invoker's trigger. Nobody creates in public any more, and the guards' own functions
-- resolve names in pg_catalog only.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
ALTER FUNCTION referee_desk.events_notify() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION referee_desk.conflicts_notify() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION referee_desk.append_only() SET search_path = pg_catalog, pg_temp;

-- Room: no desk fills the server's disk through the guarded tables. An event's canonical
-- text is at most 1 MiB (the store's own limit for a line of a record), a conflict
-- report keeps at most 64 KiB of the desk's text, and nobody but the superuser makes
-- large objects.
ALTER TABLE referee_desk.events ADD CONSTRAINT events_canonical_size
    CHECK (octet_length(canonical) <= 1048576);
ALTER TABLE referee_desk.conflicts ADD CONSTRAINT conflicts_canonical_size
    CHECK (octet_length(desk_canonical) <= 65536);
CREATE OR REPLACE FUNCTION referee_desk.report_conflict(
    p_match_id text, p_seq integer, p_kind text, p_desk_hash text, p_desk_canonical text,
    p_detail text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
BEGIN
    INSERT INTO conflicts (match_id, seq, kind, server_hash, desk_hash, desk_canonical, detail,
                           reported_by)
    VALUES (left(p_match_id, 200), p_seq, p_kind,
            (SELECT hash FROM events WHERE match_id = p_match_id AND seq = p_seq),
            left(p_desk_hash, 64), left(p_desk_canonical, 16384), left(p_detail, 1000),
            session_user)
    ON CONFLICT DO NOTHING;
END $$;
REVOKE EXECUTE ON FUNCTION pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer),
    pg_catalog.lo_from_bytea(oid, bytea), pg_catalog.lo_import(text),
    pg_catalog.lo_import(text, oid) FROM PUBLIC;

-- Claims. A desk takes a match nobody holds by recording it (a desk's own id, or a hall
-- whose tournament stays in the organizer's file). Once the tournament itself is on the
-- server the organizer closes claims until the draw, and the draw keeps every drawn match
-- for its table (a row without a desk yet is kept too): a desk can no longer record
-- another table's drawn match before it is published, nor any drawn id before the draw.
CREATE TABLE referee_desk.claims (
    id integer PRIMARY KEY CHECK (id = 1),
    open boolean NOT NULL,
    changed_by text NOT NULL DEFAULT session_user,
    changed_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON referee_desk.claims FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE ON referee_desk.claims TO {organizer};

CREATE OR REPLACE FUNCTION referee_desk.claim_match(p_match_id text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
DECLARE
    holder text;
BEGIN
    IF EXISTS (SELECT 1 FROM desks WHERE role = session_user)
       AND NOT EXISTS (SELECT 1 FROM claims WHERE id = 1 AND NOT open) THEN
        INSERT INTO matches (match_id, desk_role, claimed) VALUES (p_match_id, session_user, true)
            ON CONFLICT (match_id) DO NOTHING;
    END IF;
    SELECT desk_role INTO holder FROM matches WHERE match_id = p_match_id;
    RETURN holder;
END $$;

-- The chain check as version 1 now makes it (``EVENTS_CHECK``: it reads a text
-- holding \u0000, which jsonb refuses).
{events_check}
"""


def ddl(template: str, **names: str) -> str:
    """A version's DDL with its names filled in (and the one chain check)."""
    return template.format(events_check=EVENTS_CHECK.strip(), **names)


#: Version 4 over version 3: the table board. Each desk reports a heartbeat (who it is by
#: its key, what it still holds back, where it is behind the server or was restored from
#: a backup); the organizer settles forks, the losing branch archived on the server.
#: Heartbeats are a desk's current state (one row per desk role and desk key, upserted
#: by ``heartbeat``, a SECURITY DEFINER function: desks hold no privilege on the table);
#: settlements and archived branches are append-only.
SCHEMA_V4 = r"""
CREATE TABLE referee_desk.heartbeats (
    desk_role text NOT NULL,
    desk_key text NOT NULL CHECK (desk_key ~ '^[0-9a-f]{{0,64}}$'),
    waiting integer NOT NULL DEFAULT 0 CHECK (waiting >= 0),
    behind text[] NOT NULL DEFAULT '{{}}',
    restored text[] NOT NULL DEFAULT '{{}}',
    client text NOT NULL DEFAULT '',
    first_heard timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_heard timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (desk_role, desk_key),
    CHECK (octet_length(array_to_string(behind, ',') || array_to_string(restored, ',')) <= 40000)
);
REVOKE ALL ON referee_desk.heartbeats FROM PUBLIC;
GRANT SELECT ON referee_desk.heartbeats TO {organizer};

-- A desk says it is alive: its key's fingerprint, the events it holds that the server
-- lacks, the matches where the server holds more than its file (behind) and those where
-- its file holds less than it pushed itself before (restored from a backup).
CREATE FUNCTION referee_desk.heartbeat(
    p_desk_key text, p_waiting integer, p_behind text[], p_restored text[], p_client text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM desks WHERE role = session_user) THEN
        RAISE EXCEPTION 'only a table''s desk reports a heartbeat (not %)', session_user;
    END IF;
    IF (SELECT COUNT(*) FROM heartbeats WHERE desk_role = session_user) >= 16
       AND NOT EXISTS (SELECT 1 FROM heartbeats
                       WHERE desk_role = session_user AND desk_key = lower(p_desk_key)) THEN
        DELETE FROM heartbeats WHERE (desk_role, desk_key) IN (
            SELECT desk_role, desk_key FROM heartbeats WHERE desk_role = session_user
            ORDER BY last_heard LIMIT 1);
    END IF;
    INSERT INTO heartbeats AS h (desk_role, desk_key, waiting, behind, restored, client)
    VALUES (session_user, lower(left(p_desk_key, 64)), greatest(p_waiting, 0),
            coalesce(p_behind[1:200], '{{}}'), coalesce(p_restored[1:200], '{{}}'),
            left(coalesce(p_client, ''), 200))
    ON CONFLICT (desk_role, desk_key) DO UPDATE SET
        waiting = EXCLUDED.waiting, behind = EXCLUDED.behind, restored = EXCLUDED.restored,
        client = EXCLUDED.client, last_heard = clock_timestamp();
END $$;
REVOKE ALL ON FUNCTION referee_desk.heartbeat(text, integer, text[], text[], text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referee_desk.heartbeat(text, integer, text[], text[], text)
    TO {desks};

-- What the organizer settled: a match's conflicts up to now are closed.
CREATE TABLE referee_desk.settlements (
    id bigserial PRIMARY KEY,
    match_id text NOT NULL,
    kept text NOT NULL CHECK (kept IN ('server', 'desk')),
    fork_seq integer NOT NULL CHECK (fork_seq >= 1),
    desk_role text NOT NULL DEFAULT '',
    archived integer NOT NULL DEFAULT 0,
    settled_by text NOT NULL DEFAULT session_user,
    settled_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- The branch not kept, event by event (canonical text and hash as recorded).
CREATE TABLE referee_desk.archived_events (
    id bigserial PRIMARY KEY,
    settlement_id bigint NOT NULL REFERENCES referee_desk.settlements (id),
    match_id text NOT NULL,
    seq integer NOT NULL,
    hash text NOT NULL,
    canonical text NOT NULL,
    branch text NOT NULL CHECK (branch IN ('server', 'desk')),
    recorded_by text NOT NULL
);
CREATE TRIGGER settlements_no_update BEFORE UPDATE OR DELETE ON referee_desk.settlements
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER settlements_no_truncate BEFORE TRUNCATE ON referee_desk.settlements
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER archived_no_update BEFORE UPDATE OR DELETE ON referee_desk.archived_events
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER archived_no_truncate BEFORE TRUNCATE ON referee_desk.archived_events
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();
REVOKE ALL ON referee_desk.settlements, referee_desk.archived_events FROM PUBLIC;
GRANT SELECT ON referee_desk.settlements, referee_desk.archived_events TO {organizer};
GRANT SELECT ON referee_desk.settlements TO {desks};  -- a desk learns how its fork was settled

-- The events trigger lets one thing through: settle_fork removing the server's branch it
-- has just archived (a transaction-local mark only this function sets; no role but the
-- owner holds DELETE on events at all).
CREATE FUNCTION referee_desk.events_append_only() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF current_setting('referee_desk.settling', true) = OLD.match_id
           AND EXISTS (SELECT 1 FROM referee_desk.archived_events a
                       WHERE a.match_id = OLD.match_id AND a.seq = OLD.seq
                         AND a.hash = OLD.hash AND a.branch = 'server') THEN
            RETURN OLD;
        END IF;
    END IF;
    RAISE EXCEPTION '%.% is append-only: % refused', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP;
END $$;
REVOKE ALL ON FUNCTION referee_desk.events_append_only() FROM PUBLIC;
DROP TRIGGER events_no_update ON referee_desk.events;
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON referee_desk.events
    FOR EACH ROW EXECUTE FUNCTION referee_desk.events_append_only();

-- A desk that finds a fork sends its branch (its events from the fork on), so the
-- organizer sees both side by side; the latest report per match and desk counts.
CREATE TABLE referee_desk.fork_branches (
    id bigserial PRIMARY KEY,
    match_id text NOT NULL,
    fork_seq integer NOT NULL CHECK (fork_seq >= 1),
    desk_role text NOT NULL DEFAULT session_user,
    hashes text[] NOT NULL,
    texts text[] NOT NULL,
    reported_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (cardinality(hashes) = cardinality(texts) AND cardinality(texts) <= 2000),
    CHECK (octet_length(array_to_string(texts, '')) <= 8388608)
);
REVOKE ALL ON referee_desk.fork_branches FROM PUBLIC;
GRANT SELECT ON referee_desk.fork_branches TO {organizer};
GRANT USAGE ON SEQUENCE referee_desk.fork_branches_id_seq TO {desks};

CREATE FUNCTION referee_desk.report_branch(
    p_match_id text, p_fork_seq integer, p_hashes text[], p_texts text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM desks WHERE role = session_user) THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM fork_branches WHERE match_id = p_match_id
               AND desk_role = session_user AND fork_seq = p_fork_seq
               AND hashes = p_hashes) THEN
        RETURN;
    END IF;
    DELETE FROM fork_branches WHERE match_id = p_match_id AND desk_role = session_user;
    INSERT INTO fork_branches (match_id, fork_seq, desk_role, hashes, texts)
    VALUES (left(p_match_id, 200), p_fork_seq, session_user, p_hashes, p_texts);
END $$;
REVOKE ALL ON FUNCTION referee_desk.report_branch(text, integer, text[], text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referee_desk.report_branch(text, integer, text[], text[]) TO {desks};

-- The organizer settles the fork of p_match_id that desk p_desk_role reported. Keeping
-- the server's record, the desk's branch is archived. Keeping the desk's, the server's
-- events from the fork on are archived and removed and the desk's branch put in their
-- place (checked by the chain trigger like any push); the match is that desk's.
-- Either way every conflict of the match reported before counts as settled.
CREATE FUNCTION referee_desk.settle_fork(p_match_id text, p_kept text, p_desk_role text)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
DECLARE
    branch fork_branches%ROWTYPE;
    settled bigint;
    n integer;
BEGIN
    IF p_kept NOT IN ('server', 'desk') THEN
        RAISE EXCEPTION 'keep server or desk, not %', p_kept;
    END IF;
    SELECT * INTO branch FROM fork_branches
        WHERE match_id = p_match_id AND desk_role = p_desk_role ORDER BY id DESC LIMIT 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match %: desk % reported no fork of it', p_match_id, p_desk_role;
    END IF;
    IF p_kept = 'desk' AND EXISTS (SELECT 1 FROM seals WHERE match_id = p_match_id
                                   AND head_seq >= branch.fork_seq) THEN
        RAISE EXCEPTION 'match %: the server''s record is locked from event % on; it stands',
            p_match_id, branch.fork_seq;
    END IF;
    IF p_kept = 'desk' THEN
        SELECT COUNT(*) INTO n FROM events
            WHERE match_id = p_match_id AND seq >= branch.fork_seq;
    ELSE
        n := cardinality(branch.texts);
    END IF;
    INSERT INTO settlements (match_id, kept, fork_seq, desk_role, archived, settled_by)
    VALUES (p_match_id, p_kept, branch.fork_seq, p_desk_role, n, session_user)
    RETURNING id INTO settled;
    IF p_kept = 'desk' THEN
        INSERT INTO archived_events (settlement_id, match_id, seq, hash, canonical, branch,
                                     recorded_by)
        SELECT settled, match_id, seq, hash, canonical, 'server', pushed_by FROM events
        WHERE match_id = p_match_id AND seq >= branch.fork_seq ORDER BY seq;
        PERFORM set_config('referee_desk.settling', p_match_id, true);
        DELETE FROM events WHERE match_id = p_match_id AND seq >= branch.fork_seq;
        PERFORM set_config('referee_desk.settling', '', true);
        INSERT INTO events (match_id, seq, prev_hash, hash, canonical)
        SELECT p_match_id, branch.fork_seq + i - 1,
               (branch.texts[i]::jsonb)->>'prev_hash', branch.hashes[i], branch.texts[i]
        FROM generate_subscripts(branch.texts, 1) AS i ORDER BY i;
        UPDATE matches SET desk_role = p_desk_role WHERE match_id = p_match_id;
    ELSE
        INSERT INTO archived_events (settlement_id, match_id, seq, hash, canonical, branch,
                                     recorded_by)
        SELECT settled, p_match_id, branch.fork_seq + i - 1, branch.hashes[i], branch.texts[i],
               'desk', p_desk_role
        FROM generate_subscripts(branch.texts, 1) AS i;
    END IF;
    RETURN settled;
END $$;
REVOKE ALL ON FUNCTION referee_desk.settle_fork(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referee_desk.settle_fork(text, text, text) TO {organizer};
"""


#: The hall page's read-only role (``<db>_hall``, no login): the organizer's web app
#: (``referee-desk hall serve``) connects with the organizer's address and reads with
#: ``SET ROLE <db>_hall``, so whatever the page does it can read only names, matches and
#: results, and write nothing. It sees the records (the events: the open match record),
#: the tables' labels and the tournament's own tables (pairs, the draw, lots, links: no
#: secret is kept there, and tables the organizer adds later are granted by default);
#: never the conflicts, keys, key offers, seals, claims, the desks' match holdings or
#: any password (PostgreSQL's catalogs keep those from every non-superuser). Added by
#: ``server init`` and, on a server made before it, by ``server upgrade`` (idempotent:
#: ``meta.hall_role`` says it is there), without a schema version of its own.
HALL_ROLE = r"""
GRANT {hall} TO {organizer};
GRANT CONNECT ON DATABASE {db} TO {hall};
GRANT USAGE ON SCHEMA referee_desk TO {hall};
GRANT SELECT ON referee_desk.meta, referee_desk.desks, referee_desk.events TO {hall};
CREATE POLICY hall_reads_events ON referee_desk.events FOR SELECT TO {hall} USING (true);
GRANT USAGE ON SCHEMA referee_desk_organizer TO {hall};
GRANT SELECT ON ALL TABLES IN SCHEMA referee_desk_organizer TO {hall};
ALTER DEFAULT PRIVILEGES FOR ROLE {organizer} IN SCHEMA referee_desk_organizer
    GRANT SELECT ON TABLES TO {hall};
"""


#: Version 5 over version 4 (issue 18: what the file enforces, the server enforces or
#: flags). Claims are closed from ``server init`` (a desk records nothing before the
#: organizer's draw or ``server publish``: the drawn ids are predictable); after a lock
#: on the server only notes and committee events follow (``store.access.AFTER_LOCK_TYPES``,
#: as the file refuses the rest); and the organizer's acceptances: a desk's record counts
#: for the tournament only up to a seal by a registered key (the desk's sign-in rules
#: held when it was signed) or a head the organizer accepted by name (``server accept``).
SCHEMA_V5 = r"""
INSERT INTO referee_desk.claims (id, open, changed_by) VALUES (1, false, session_user)
    ON CONFLICT (id) DO NOTHING;

CREATE FUNCTION referee_desk.events_after_lock() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
BEGIN
    IF NEW.type NOT IN ('note', 'committee_ruling', 'committee_decision')
       AND EXISTS (SELECT 1 FROM seals s WHERE s.match_id = NEW.match_id
                   AND s.head_seq < NEW.seq) THEN
        RAISE EXCEPTION
            'match %, event %: the match is locked on the server; only notes and committee '
            'rulings can follow, not %', NEW.match_id, NEW.seq, NEW.type;
    END IF;
    RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION referee_desk.events_after_lock() FROM PUBLIC;
-- BEFORE triggers run in name order: events_check (which sets NEW.type) comes first.
CREATE TRIGGER events_locked BEFORE INSERT ON referee_desk.events
    FOR EACH ROW EXECUTE FUNCTION referee_desk.events_after_lock();

CREATE TABLE referee_desk.acceptances (
    id bigserial PRIMARY KEY,
    match_id text NOT NULL,
    head_seq integer NOT NULL CHECK (head_seq >= 1),
    head_hash text NOT NULL CHECK (head_hash ~ '^[0-9a-f]{{64}}$'),
    accepted_by text NOT NULL DEFAULT session_user,
    accepted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (match_id, head_seq)
);
CREATE FUNCTION referee_desk.acceptances_check() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM events e WHERE e.match_id = NEW.match_id
                   AND e.seq = NEW.head_seq AND e.hash = NEW.head_hash) THEN
        RAISE EXCEPTION 'match %: event % with that hash is not on the server; nothing accepted',
            NEW.match_id, NEW.head_seq;
    END IF;
    NEW.accepted_by := session_user;
    NEW.accepted_at := clock_timestamp();
    RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION referee_desk.acceptances_check() FROM PUBLIC;
CREATE TRIGGER acceptances_check BEFORE INSERT ON referee_desk.acceptances
    FOR EACH ROW EXECUTE FUNCTION referee_desk.acceptances_check();
CREATE TRIGGER acceptances_no_update BEFORE UPDATE OR DELETE ON referee_desk.acceptances
    FOR EACH ROW EXECUTE FUNCTION referee_desk.append_only();
CREATE TRIGGER acceptances_no_truncate BEFORE TRUNCATE ON referee_desk.acceptances
    FOR EACH STATEMENT EXECUTE FUNCTION referee_desk.append_only();
REVOKE ALL ON referee_desk.acceptances FROM PUBLIC;
GRANT SELECT ON referee_desk.acceptances TO {organizer};
GRANT INSERT (match_id, head_seq, head_hash) ON referee_desk.acceptances TO {organizer};
GRANT USAGE ON SEQUENCE referee_desk.acceptances_id_seq TO {organizer};

-- How far each match's record is vouched for: its furthest seal (each checked on insert:
-- a registered key, the server's head, a valid signature) or accepted head. For the
-- organizer and the hall page, which see neither seals nor acceptances themselves.
CREATE FUNCTION referee_desk.vouched_heads() RETURNS TABLE (match_id text, head_seq integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = referee_desk, pg_temp AS $$
    SELECT v.match_id, max(v.head_seq) FROM (
        SELECT s.match_id, s.head_seq FROM seals s
        UNION ALL SELECT a.match_id, a.head_seq FROM acceptances a) v
    GROUP BY v.match_id
$$;
REVOKE ALL ON FUNCTION referee_desk.vouched_heads() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referee_desk.vouched_heads() TO {organizer};

-- A seal or an acceptance changes what counts: the live views hear it as the landing of
-- the head it covers (the listener checks the event is the server's, desk included).
CREATE FUNCTION referee_desk.head_vouched_notify() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM pg_notify('referee_desk_events', json_build_object(
        'match_id', e.match_id, 'seq', e.seq, 'hash', e.hash, 'desk', e.pushed_by)::text)
    FROM referee_desk.events e
    WHERE e.match_id = NEW.match_id AND e.seq = NEW.head_seq;
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION referee_desk.head_vouched_notify() FROM PUBLIC;
CREATE TRIGGER seals_notify AFTER INSERT ON referee_desk.seals
    FOR EACH ROW EXECUTE FUNCTION referee_desk.head_vouched_notify();
CREATE TRIGGER acceptances_notify AFTER INSERT ON referee_desk.acceptances
    FOR EACH ROW EXECUTE FUNCTION referee_desk.head_vouched_notify();
"""


#: (version 5) What the hall page needs to count results as the organizer does.
HALL_ROLE_V5 = r"""
GRANT EXECUTE ON FUNCTION referee_desk.vouched_heads() TO {hall};
"""
