"""The tournament layer's own tables, kept in the tournament's SQLite file beside the events.

Pairs and table/referee assignments are organizer data and may be edited; the draw
(with the ruleset and settings frozen in it) and recorded lots are written once,
and triggers refuse changes to them, as the store does for events.
"""

from __future__ import annotations

import sqlite3

#: Version of these tables (registered in the store's ``extensions`` table when present).
TOURNAMENT_SCHEMA_VERSION = 2
EXTENSION_NAME = "tournament"
#: The tables that decide results, kept under the file's signed guard (issue 18 item 5):
#: written only through ``Tables.signed_transaction``; a change behind the desk's back is
#: named by ``verify`` and refuses the open. The outcome cache is not among them: it is
#: checked against this computer's own derivation instead (``outcome_cache``).
GUARDED_TABLES = ("tournament_draw", "tournament_links", "tournament_lots", "tournament_matches")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_info (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    start_date TEXT NOT NULL DEFAULT '',
    end_date TEXT NOT NULL DEFAULT '',
    venue TEXT NOT NULL DEFAULT '',
    organizer TEXT NOT NULL DEFAULT '',
    tables_json TEXT NOT NULL DEFAULT '[]',
    referees_json TEXT NOT NULL DEFAULT '[]',
    settings_json TEXT NOT NULL,
    ruleset_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_pairs (
    pair_id INTEGER PRIMARY KEY CHECK (pair_id > 0),
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    seed INTEGER CHECK (seed IS NULL OR seed > 0)
);
CREATE TABLE IF NOT EXISTS tournament_draw (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    drawn_at TEXT NOT NULL,
    draw_seed INTEGER NOT NULL,
    ruleset_json TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    groups_json TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS tournament_draw_frozen_update BEFORE UPDATE ON tournament_draw
BEGIN SELECT RAISE(ABORT, 'the draw is frozen: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS tournament_draw_frozen_delete BEFORE DELETE ON tournament_draw
BEGIN SELECT RAISE(ABORT, 'the draw is frozen: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS tournament_matches (
    match_id TEXT PRIMARY KEY,
    stage TEXT NOT NULL,
    round INTEGER NOT NULL,
    position INTEGER NOT NULL,
    slot_a TEXT NOT NULL,
    slot_b TEXT NOT NULL,
    third_place INTEGER NOT NULL DEFAULT 0,
    table_name TEXT NOT NULL DEFAULT '',
    referee TEXT NOT NULL DEFAULT '',
    ord INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS tournament_matches_frozen BEFORE UPDATE OF
    match_id, stage, round, position, slot_a, slot_b, third_place, ord ON tournament_matches
BEGIN SELECT RAISE(ABORT, 'the draw is frozen: only table and referee may change'); END;
CREATE TRIGGER IF NOT EXISTS tournament_matches_no_delete BEFORE DELETE ON tournament_matches
BEGIN SELECT RAISE(ABORT, 'the draw is frozen: DELETE refused'); END;
CREATE TABLE IF NOT EXISTS tournament_lots (
    grp TEXT NOT NULL,
    pair_id INTEGER NOT NULL,
    lot INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (grp, pair_id)
);
CREATE TRIGGER IF NOT EXISTS tournament_lots_once BEFORE UPDATE ON tournament_lots
BEGIN SELECT RAISE(ABORT, 'a drawing of lots is recorded once: UPDATE refused'); END;
CREATE TABLE IF NOT EXISTS tournament_outcome_cache (
    match_id TEXT PRIMARY KEY,
    head_hash TEXT NOT NULL,
    outcome_json TEXT NOT NULL
);
"""


#: Version 1 -> 2: records kept under a desk's own match id, linked to a drawn match.
MIGRATE_V1_TO_V2 = """
CREATE TABLE IF NOT EXISTS tournament_links (
    record_id TEXT PRIMARY KEY,
    match_id TEXT NOT NULL UNIQUE,
    linked_at TEXT NOT NULL,
    linked_by TEXT NOT NULL DEFAULT ''
);
CREATE TRIGGER IF NOT EXISTS tournament_links_once BEFORE UPDATE ON tournament_links
BEGIN SELECT RAISE(ABORT, 'a link is recorded once: UPDATE refused'); END;
"""


def _run(conn: sqlite3.Connection, script: str) -> None:
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                conn.execute(buffer.strip())
            buffer = ""


def migrate_schema(conn: sqlite3.Connection, from_version: int) -> None:
    """The store's ``ensure_extension`` hook: bring our tables from ``from_version``."""
    if from_version < 1:
        _run(conn, SCHEMA)
    if from_version < 2:
        _run(conn, MIGRATE_V1_TO_V2)
