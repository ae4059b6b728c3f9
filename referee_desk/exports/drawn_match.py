"""The drawn match a record counts for: what the match report's title names.

A desk keeps a record under its own id (``GL2026-R1-T1``); the draw calls the match
``GE-R1-M01`` with its table, round, pairs and referee. The report is titled by the
drawn match and prints the record id beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_desk.exports.labels import pair_text
from referee_desk.tournament.repository import Tournament


@dataclass(frozen=True, slots=True)
class DrawnMatch:
    match_id: str
    round: str
    table: str
    referee: str
    pair_a: str
    pair_b: str
    record_id: str
    start: str = ""


def drawn_match(t: Tournament, match_id: str) -> DrawnMatch:
    """The drawn match ``match_id`` (a drawn id) with its pairs as the draw has them."""
    m = t.draw_table.match(match_id)
    state = t.state().match(match_id)
    pairs = t.pair_map()
    a = pair_text(pairs.get(state.pair_a)) if state.pair_a else m.slot_a.describe()
    b = pair_text(pairs.get(state.pair_b)) if state.pair_b else m.slot_b.describe()
    return DrawnMatch(
        match_id=match_id,
        round=t.round_name(m),
        table=m.table,
        referee=m.referee,
        pair_a=a,
        pair_b=b,
        record_id=t.record_id(match_id),
    )


def drawn_id_of(t: Tournament, record_or_match: str) -> str | None:
    """The drawn match id for a drawn id or a record id (None when neither is drawn)."""
    ids = {m.match_id for m in t.draw_table.matches()}
    if record_or_match in ids:
        return record_or_match
    for mid in ids:
        if t.record_id(mid) == record_or_match:
            return mid
    return None
