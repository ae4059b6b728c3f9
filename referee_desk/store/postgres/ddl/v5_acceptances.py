"""Version 5 of the server schema: what the file enforces, the server enforces or flags.

Claims closed until the draw, only notes and committee events after a lock, and the
organizer's acceptances of a desk's head (issue 18).
"""

from __future__ import annotations

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
