"""The chain check every inserted event passes, defined once, and filling a template.

Version 1 creates the check and version 3 brings older servers to the same text, so
both take it from here (``{events_check}`` in their templates).
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


def ddl(template: str, **names: str) -> str:
    """A version's DDL with its names filled in (and the one chain check)."""
    return template.format(events_check=EVENTS_CHECK.strip(), **names)
