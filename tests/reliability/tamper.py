"""Random tampering of match records, with where the first bad event must be named.

Each mutation returns the mutated record and the expected first problem as
(match_id, seq) for a tournament file or (match_id, line) for JSON Lines.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from typing import Any

from referee_desk.match.envelope import Event
from referee_desk.store.rows import INSERT_SQL, to_row

KINDS = ("change", "reorder", "delete", "insert")


def changed_value(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((-1, 1, 40))
    if isinstance(value, str):
        return value + rng.choice(("x", "改", "0"))
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        return {**value, key: changed_value(value[key], rng)}
    if isinstance(value, list) and value:
        at = rng.randrange(len(value))
        return [*value[:at], changed_value(value[at], rng), *value[at + 1 :]]
    return "forged"


def change_payload(event: Event, rng: random.Random) -> Event:
    if event.payload:
        key = rng.choice(sorted(event.payload))
        payload = {**event.payload, key: changed_value(event.payload[key], rng)}
    else:
        payload = {"text": "forged"}
    return replace(event, payload=payload)


def forged_after(event: Event, seq: int) -> Event:
    """A careful forgery: a plausible note linked after ``event`` with a correct hash."""
    note = Event(
        event.match_id,
        seq,
        "note",
        event.recorded_at,
        event.clock_ms,
        event.referee,
        {"text": "补记: 双方同意"},
    )
    return note.sealed(event.hash)


def mutate_lines(events: list[Event], rng: random.Random) -> tuple[list[str], str, tuple]:
    """Mutate a JSON Lines record (matches one after another); expected (match, line)."""
    rows = list(events)
    kind = rng.choice(KINDS)
    by_match: dict[str, list[int]] = {}
    for index, event in enumerate(rows):
        by_match.setdefault(event.match_id, []).append(index)
    match_id = rng.choice(sorted(by_match))
    spots = by_match[match_id]
    lines = [json.dumps(e.to_dict(), ensure_ascii=False) for e in rows]
    if kind == "change":
        at = rng.choice(spots)
        lines[at] = json.dumps(change_payload(rows[at], rng).to_dict(), ensure_ascii=False)
        return lines, kind, (match_id, at + 1)
    if kind == "reorder":
        i, j = sorted(rng.sample(spots, 2))
        lines[i], lines[j] = lines[j], lines[i]
        return lines, kind, (match_id, i + 1)
    if kind == "delete":
        at = rng.choice(spots)
        del lines[at]
        if at == spots[-1]:  # the tail: only the lock (seal) can tell
            return lines, kind, (match_id, None)
        return lines, kind, (match_id, at + 1)
    at = rng.choice([*spots, spots[-1] + 1])  # insert before `at`
    if at == spots[-1] + 1:
        forged = forged_after(rows[spots[-1]], rows[spots[-1]].seq + 1)
        lines.insert(at, json.dumps(forged.to_dict(), ensure_ascii=False))
        return lines, kind, (match_id, None)
    position = spots.index(at)
    before = rows[spots[position - 1]] if position else None
    if before is None:
        forged = Event(match_id, 1, "note", rows[at].recorded_at, None, "x", {"text": "伪造"})
        forged = forged.sealed("0" * 64)
    else:
        forged = forged_after(before, before.seq + 1)
    lines.insert(at, json.dumps(forged.to_dict(), ensure_ascii=False))
    return lines, kind, (match_id, at + 2)  # the displaced original is the first break


def mutate_file(conn: sqlite3.Connection, rng: random.Random) -> tuple[str, tuple]:
    """Mutate a tournament file as a forger with SQL access would; expected (match, seq)."""
    for trigger in ("events_append_only_update", "events_append_only_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    matches = [r[0] for r in conn.execute("SELECT DISTINCT match_id FROM events ORDER BY 1")]
    match_id = rng.choice(matches)
    count = conn.execute("SELECT MAX(seq) FROM events WHERE match_id = ?", (match_id,)).fetchone()[
        0
    ]
    kind = rng.choice(KINDS)
    where = "WHERE match_id = ? AND seq = ?"
    if kind == "change":
        seq = rng.randint(1, count)
        payload = conn.execute(f"SELECT payload FROM events {where}", (match_id, seq)).fetchone()[0]
        data = json.loads(payload)
        if data:
            key = rng.choice(sorted(data))
            data[key] = changed_value(data[key], rng)
        else:
            data = {"text": "forged"}
        new = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        if rng.random() < 0.5:  # a careful forger also rewrites the canonical column
            canonical = conn.execute(f"SELECT canonical FROM events {where}", (match_id, seq))
            doc = json.loads(canonical.fetchone()[0])
            doc["payload"] = data
            conn.execute(
                f"UPDATE events SET canonical = ? {where}",
                (
                    json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
                    match_id,
                    seq,
                ),
            )
        conn.execute(f"UPDATE events SET payload = ? {where}", (new, match_id, seq))
        return kind, (match_id, seq)
    if kind == "reorder":
        i, j = sorted(rng.sample(range(1, count + 1), 2))
        conn.execute(f"UPDATE events SET seq = 1000000 {where}", (match_id, i))
        conn.execute(f"UPDATE events SET seq = ? {where}", (i, match_id, j))
        conn.execute(f"UPDATE events SET seq = ? {where}", (j, match_id, 1000000))
        return kind, (match_id, i)
    if kind == "delete":
        seq = rng.randint(1, count)
        conn.execute(f"DELETE FROM events {where}", (match_id, seq))
        return kind, (match_id, seq + 1 if seq < count else seq)
    seq = rng.randint(1, count + 1)  # the forged event takes this seq
    conn.execute(
        "UPDATE events SET seq = seq + 1000000 WHERE match_id = ? AND seq >= ?", (match_id, seq)
    )
    conn.execute(
        "UPDATE events SET seq = seq - 999999 WHERE match_id = ? AND seq > 1000000", (match_id,)
    )
    before = conn.execute(f"SELECT hash, recorded_at FROM events {where}", (match_id, seq - 1))
    row = before.fetchone()
    prev = row[0] if row else "0" * 64
    forged = Event(
        match_id,
        seq,
        "note",
        row[1] if row else "2026-11-29T09:00:00.000Z",
        None,
        "x",
        {"text": "伪造"},
    ).sealed(prev)
    conn.execute(INSERT_SQL, to_row(forged))
    return kind, (match_id, seq + 1 if seq <= count else seq)
