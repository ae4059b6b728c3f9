"""The tournament layer's tables on the tournament server (PostgreSQL DDL).

The same tables, columns and guards as in a tournament file (``schema.SCHEMA`` and its
migration), created in the organizer's own schema of the server by
``ServerTables.ensure_extension``: the draw, recorded lots and links are written once
and triggers refuse changing them, as the file's triggers do. Only the organizer's
role reaches this schema; desks never see pairs or the draw.
"""

from __future__ import annotations

from typing import Any

#: Version 2 at once (the file's version 1 + its links), so both backends say 2.
SERVER_SCHEMA = r"""
CREATE TABLE tournament_info (
    id integer PRIMARY KEY CHECK (id = 1),
    name text NOT NULL,
    start_date text NOT NULL DEFAULT '',
    end_date text NOT NULL DEFAULT '',
    venue text NOT NULL DEFAULT '',
    organizer text NOT NULL DEFAULT '',
    tables_json text NOT NULL DEFAULT '[]',
    referees_json text NOT NULL DEFAULT '[]',
    settings_json text NOT NULL,
    ruleset_json text NOT NULL
);
CREATE TABLE tournament_pairs (
    pair_id integer PRIMARY KEY CHECK (pair_id > 0),
    player1 text NOT NULL,
    player2 text NOT NULL,
    club text NOT NULL DEFAULT '',
    seed integer CHECK (seed IS NULL OR seed > 0)
);
CREATE TABLE tournament_draw (
    id integer PRIMARY KEY CHECK (id = 1),
    drawn_at text NOT NULL,
    draw_seed bigint NOT NULL,
    ruleset_json text NOT NULL,
    settings_json text NOT NULL,
    groups_json text NOT NULL
);
CREATE TABLE tournament_matches (
    match_id text PRIMARY KEY,
    stage text NOT NULL,
    round integer NOT NULL,
    position integer NOT NULL,
    slot_a text NOT NULL,
    slot_b text NOT NULL,
    third_place integer NOT NULL DEFAULT 0,
    table_name text NOT NULL DEFAULT '',
    referee text NOT NULL DEFAULT '',
    ord integer NOT NULL
);
CREATE TABLE tournament_lots (
    grp text NOT NULL,
    pair_id integer NOT NULL,
    lot integer NOT NULL,
    recorded_at text NOT NULL,
    recorded_by text NOT NULL DEFAULT '',
    PRIMARY KEY (grp, pair_id)
);
CREATE TABLE tournament_outcome_cache (
    match_id text PRIMARY KEY,
    head_hash text NOT NULL,
    outcome_json text NOT NULL
);
CREATE TABLE tournament_links (
    record_id text PRIMARY KEY,
    match_id text NOT NULL UNIQUE,
    linked_at text NOT NULL,
    linked_by text NOT NULL DEFAULT ''
);

CREATE FUNCTION tournament_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0];
END $$;

CREATE TRIGGER tournament_draw_frozen BEFORE UPDATE OR DELETE ON tournament_draw
    FOR EACH ROW EXECUTE FUNCTION tournament_refuse('the draw is frozen: UPDATE or DELETE refused');
CREATE TRIGGER tournament_draw_no_truncate BEFORE TRUNCATE ON tournament_draw
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_refuse('the draw is frozen: TRUNCATE refused');
CREATE TRIGGER tournament_matches_frozen BEFORE UPDATE OF
    match_id, stage, round, position, slot_a, slot_b, third_place, ord ON tournament_matches
    FOR EACH ROW EXECUTE FUNCTION
    tournament_refuse('the draw is frozen: only table and referee may change');
CREATE TRIGGER tournament_matches_no_delete BEFORE DELETE ON tournament_matches
    FOR EACH ROW EXECUTE FUNCTION tournament_refuse('the draw is frozen: DELETE refused');
CREATE TRIGGER tournament_matches_no_truncate BEFORE TRUNCATE ON tournament_matches
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_refuse('the draw is frozen: TRUNCATE refused');
CREATE TRIGGER tournament_lots_once BEFORE UPDATE ON tournament_lots
    FOR EACH ROW EXECUTE FUNCTION
    tournament_refuse('a drawing of lots is recorded once: UPDATE refused');
CREATE TRIGGER tournament_links_once BEFORE UPDATE ON tournament_links
    FOR EACH ROW EXECUTE FUNCTION tournament_refuse('a link is recorded once: UPDATE refused');
"""


def migrate_server_schema(writer: Any, from_version: int) -> None:
    """``ServerTables.ensure_extension``'s hook: create the tables (none to migrate yet)."""
    if from_version < 1:
        writer.execute(SERVER_SCHEMA)
