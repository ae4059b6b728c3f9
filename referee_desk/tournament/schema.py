"""The tournament layer's own tables, kept in the store beside the events, declared once.

Pairs and table/referee assignments are organizer data and may be edited; the draw
(with the ruleset and settings frozen in it), recorded lots and links are written once,
and the store refuses changes to them, as it does for events. The tables are declared
here once (columns in the SQL both backends take, and the refusals); each backend of
the store writes its own DDL from that (``Tables.ensure_schema``): a tournament file's
triggers, the server's trigger functions in the organizer's schema.
"""

from __future__ import annotations

import json

from referee_desk.store.tables import Extension, Refusal, TableSpec

#: Version of these tables (registered in the store's ``extensions`` table when present).
TOURNAMENT_SCHEMA_VERSION = 2
EXTENSION_NAME = "tournament"
#: The tables that decide results, kept under the file's signed guard (issue 18 item 5):
#: written only through ``Tables.signed_transaction``; a change behind the desk's back is
#: named by ``verify`` and refuses the open. The outcome cache is not among them: it is
#: checked against this computer's own derivation instead (``outcome_cache``). The pairs
#: are among them: their names say who won on every standing and document (issue 18,
#: round three: #6's and #7's names swapped behind the desk made #7's players the winners).
GUARDED_TABLES = (
    "tournament_draw",
    "tournament_links",
    "tournament_lots",
    "tournament_matches",
    "tournament_pairs",
)

TABLES = (
    TableSpec(
        "tournament_info",
        """    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    start_date TEXT NOT NULL DEFAULT '',
    end_date TEXT NOT NULL DEFAULT '',
    venue TEXT NOT NULL DEFAULT '',
    organizer TEXT NOT NULL DEFAULT '',
    tables_json TEXT NOT NULL DEFAULT '[]',
    referees_json TEXT NOT NULL DEFAULT '[]',
    settings_json TEXT NOT NULL,
    ruleset_json TEXT NOT NULL""",
    ),
    TableSpec(
        "tournament_pairs",
        """    pair_id INTEGER PRIMARY KEY CHECK (pair_id > 0),
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    seed INTEGER CHECK (seed IS NULL OR seed > 0)""",
    ),
    TableSpec(
        "tournament_draw",
        """    id INTEGER PRIMARY KEY CHECK (id = 1),
    drawn_at TEXT NOT NULL,
    draw_seed BIGINT NOT NULL,
    ruleset_json TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    groups_json TEXT NOT NULL""",
    ),
    TableSpec(
        "tournament_matches",
        """    match_id TEXT PRIMARY KEY,
    stage TEXT NOT NULL,
    round INTEGER NOT NULL,
    position INTEGER NOT NULL,
    slot_a TEXT NOT NULL,
    slot_b TEXT NOT NULL,
    third_place INTEGER NOT NULL DEFAULT 0,
    table_name TEXT NOT NULL DEFAULT '',
    referee TEXT NOT NULL DEFAULT '',
    ord INTEGER NOT NULL""",
    ),
    TableSpec(
        "tournament_lots",
        """    grp TEXT NOT NULL,
    pair_id INTEGER NOT NULL,
    lot INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (grp, pair_id)""",
    ),
    TableSpec(
        "tournament_outcome_cache",
        """    match_id TEXT PRIMARY KEY,
    head_hash TEXT NOT NULL,
    outcome_json TEXT NOT NULL""",
    ),
    #: Version 2: records kept under a desk's own match id, linked to a drawn match.
    TableSpec(
        "tournament_links",
        """    record_id TEXT PRIMARY KEY,
    match_id TEXT NOT NULL UNIQUE,
    linked_at TEXT NOT NULL,
    linked_by TEXT NOT NULL DEFAULT ''""",
        since=2,
    ),
)

REFUSALS = (
    Refusal(
        "tournament_draw_frozen_update",
        "tournament_draw",
        "UPDATE",
        "the draw is frozen: {op} refused",
    ),
    Refusal(
        "tournament_draw_frozen_delete",
        "tournament_draw",
        "DELETE",
        "the draw is frozen: {op} refused",
    ),
    Refusal(
        "tournament_matches_frozen",
        "tournament_matches",
        "UPDATE",
        "the draw is frozen: only table and referee may change",
        columns=(
            *("match_id", "stage", "round", "position"),
            *("slot_a", "slot_b", "third_place", "ord"),
        ),
    ),
    Refusal(
        "tournament_matches_no_delete",
        "tournament_matches",
        "DELETE",
        "the draw is frozen: {op} refused",
    ),
    Refusal(
        "tournament_lots_once",
        "tournament_lots",
        "UPDATE",
        "a drawing of lots is recorded once: {op} refused",
    ),
    Refusal(
        "tournament_links_once",
        "tournament_links",
        "UPDATE",
        "a link is recorded once: {op} refused",
        since=2,
    ),
)

#: What ``Tournament`` asks the store to hold (``Tables.ensure_schema``).
TOURNAMENT_EXTENSION = Extension(EXTENSION_NAME, TOURNAMENT_SCHEMA_VERSION, TABLES, REFUSALS)


def json_column(data: object) -> str:
    """How a JSON column of these tables is written: sorted keys, Chinese kept as is."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True)
