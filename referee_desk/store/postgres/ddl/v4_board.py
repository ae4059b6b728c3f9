"""Version 4 of the server schema: the table board.

Desks' heartbeats (one row per desk role and key, upserted by a SECURITY DEFINER
function), the organizer's settlements of forks and the archived losing branches.
"""

from __future__ import annotations

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
