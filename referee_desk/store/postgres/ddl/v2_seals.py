"""Version 2 of the server schema: signing keys and seals, checked by the server.

The server verifies each seal's Ed25519 signature in PL/Python on insert; init checks
that verifier with RFC 8032's first test vector first.
"""

from __future__ import annotations

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
