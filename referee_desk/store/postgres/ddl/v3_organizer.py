"""Version 3 of the server schema: the organizer's own schema, and hardened guards.

Other layers' tables (the tournament's pairs, draw ...) live in a schema the organizer
owns; the guards' functions resolve names in ``pg_catalog`` only; the claims switch
(``claims``) opens and closes ``claim_match``.
"""

from __future__ import annotations

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
