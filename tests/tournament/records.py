"""Real match records for a tournament's matches, written through the store."""

from __future__ import annotations

from pathlib import Path

from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from referee_desk.tournament.state import Status


def record_for(t: Tournament, match_id: str, winner_pair: int, way: str = "passed_a", **kw):
    """Events of a match in which ``winner_pair`` wins (pair A sits N–S)."""
    st = t.state().match(match_id)
    side = "NS" if winner_pair == st.pair_a else "EW"
    return simulate_match(match_id, t.opening_payload(match_id), side, way, **kw)


def play_out(t: Tournament, folder: Path, way=lambda m: "passed_a") -> list[Path]:
    """Play every match (better seed = lower pair id wins), one JSONL per match, imported."""
    from referee_desk.tournament.importing import import_records

    files: list[Path] = []
    while True:
        ready = [s for s in t.state().matches if s.status is Status.READY]
        if not ready:
            return files
        batch = []
        for s in ready:
            events = record_for(t, s.match.match_id, min(s.pair_a, s.pair_b), way(s.match))
            path = folder / f"{s.match.match_id}.jsonl"
            write_jsonl(events, path)
            batch.append(path)
        result = import_records(t, batch)
        assert result.ok, result.lines()
        files += batch
