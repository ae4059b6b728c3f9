"""Another layer's tables under the file's signed guard (issue 18 item 5).

A layer whose tables decide results (the tournament's draw, lots, links and pairs) names them
once (``Trust.guard_tables``); the names are kept in ``meta.guarded_tables`` and from
then on the guard's snapshot holds every row of those tables, so a row changed, added
or deleted behind the store's back is named by ``verify`` and refuses the open, as a
swapped PIN is. ``meta`` is guarded itself, so the list cannot be shortened unnoticed.
A guard signed before a file had the list reads as before (no ``tables`` in it).
Such a layer writes those tables only inside ``Trust.signed_change``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

META_KEY = "guarded_tables"
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name))


#: The one shape of every trigger the store and its layers make (``store.schema``,
#: ``Tables.ensure_schema``): it only refuses. A trigger that does anything else runs
#: inside the desk's own signed changes, so its writes would be signed with the desk's key.
_REFUSING_TRIGGER = re.compile(
    r"CREATE\s+TRIGGER\s+\w+\s+BEFORE\s+(?:UPDATE|DELETE|INSERT)(?:\s+OF\s+\w+(?:\s*,\s*\w+)*)?"
    r"\s+ON\s+\w+\s+BEGIN\s+SELECT\s+RAISE\s*\(\s*ABORT\s*,\s*'(?:[^']|'')*'\s*\)\s*;"
    r"\s*END",
    re.IGNORECASE,
)


def foreign_trigger(conn: sqlite3.Connection) -> str | None:
    """A trigger in the file that does more than refuse, in words (None: there is none).

    The guard covers rows, not the schema: a trigger planted beside them would run in
    the desk's next signed change and have its writes signed (issue 18, round three).
    """
    for name, table, sql in conn.execute(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
    ):
        if not _REFUSING_TRIGGER.fullmatch((sql or "").strip()):
            return (
                f"trigger {name!r} on table {table} was added or changed behind the store's "
                "back (it would run inside the desk's own signed changes)"
            )
    return None


def guarded_names(conn: sqlite3.Connection) -> list[str]:
    """The tables named in ``meta`` (a malformed list is named by the meta comparison)."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchone()
    if row is None:
        return []
    try:
        names = json.loads(row[0])
    except ValueError:
        return []
    if not isinstance(names, list):
        return []
    return sorted({n for n in names if isinstance(n, str) and valid_name(n)})


def _rows(conn: sqlite3.Connection, name: str) -> list[list[Any]] | None:
    """Every row of ``name`` in a fixed order (None: the table is gone)."""
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    if found is None:
        return None
    width = len(conn.execute(f'PRAGMA table_info("{name}")').fetchall())
    order = ", ".join(str(i) for i in range(1, width + 1))
    return [list(r) for r in conn.execute(f'SELECT * FROM "{name}" ORDER BY {order}')]


def tables_snapshot(conn: sqlite3.Connection) -> dict[str, Any]:
    """The guarded tables' rows (absent while no layer named any)."""
    names = guarded_names(conn)
    return {"tables": {n: _rows(conn, n) for n in names}} if names else {}


def table_differences(signed: dict[str, Any], now: dict[str, Any]) -> str | None:
    """The first guarded table whose rows differ from the signed ones, in words."""
    before, after = signed.get("tables") or {}, now.get("tables") or {}
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        if name not in after:
            return (
                f"table {name} was taken off the guarded tables (meta.{META_KEY}) "
                "behind the store's back"
            )
        if new is None:
            return f"table {name} was removed behind the store's back"
        old_rows = {json.dumps(r, ensure_ascii=False) for r in old or []}
        new_rows = {json.dumps(r, ensure_ascii=False) for r in new}
        added = sorted(new_rows - old_rows)
        removed = sorted(old_rows - new_rows)
        if removed and added:
            return f"table {name}: row {_short(removed[0])} was changed behind the store's back"
        if removed:
            return f"table {name}: row {_short(removed[0])} was removed behind the store's back"
        if added:
            return f"table {name}: row {_short(added[0])} was added behind the store's back"
        return f"table {name} was changed behind the store's back"
    return None


def _short(row_json: str) -> str:
    """A row named by its first two values (the keys of the guarded tables)."""
    return json.dumps(json.loads(row_json)[:2], ensure_ascii=False)
