"""Version 1 of the server schema: the record's tables and their guards.

The schema ``referee_desk``: meta, desks, matches (which desk holds which match, by
``claim_match``), events (append-only, chain-checked) and conflicts (``report_conflict``),
and what the desks and the organizer may do with them.
"""

from __future__ import annotations

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
