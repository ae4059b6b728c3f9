"""Reading match records back from the server: ``verify`` and ``export jsonl`` on a URL.

The server keeps each event's canonical text and hash as the desk wrote them, so the
store's own checks (chain, stored canonical text, replay) run on the server's records
unchanged, and an exported JSON Lines file is byte for byte what the desk would export.
"""

from __future__ import annotations

import os

from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.server import TournamentServer, event_from_stored
from referee_desk.store.verify import Problem, match_problem


def verify_server(url: str, *, replay: bool = True) -> Problem | None:
    """The first problem of any match on the server (chain, canonical text, replay), or None."""
    with TournamentServer.open(url) as server:
        for match_id in server.match_ids():
            rows = server.connection.execute(
                "SELECT seq, hash, canonical FROM referee_desk.events WHERE match_id = %s "
                "ORDER BY seq",
                (match_id,),
            ).fetchall()
            try:
                events = [event_from_stored(text, hash_) for _, hash_, text in rows]
            except (ValueError, KeyError, TypeError) as error:
                return Problem(f"unreadable event on the server ({error})", match_id)
            found = match_problem(
                match_id, events, stored_canonical=[r[2] for r in rows], replay=replay
            )
            if found is not None:
                return Problem(found.reason, found.match_id, found.seq, file=server.shown)
    return None


def server_heads(url: str) -> list[tuple[str, int, str]]:
    """(match_id, events, head hash) of every match on the server."""
    with TournamentServer.open(url) as server:
        return [(m, s, h) for m, (s, h) in sorted(server.heads().items())]


def export_server_events(url: str, out: str | os.PathLike[str], match_id: str | None = None) -> int:
    """Write the server's records (one match, or all) as JSON Lines; returns the count."""
    with TournamentServer.open(url) as server:
        if match_id is not None:
            events = server.events(match_id)
            if not events:
                raise ValueError(f"{server.shown}: no match {match_id!r} on the server")
        else:
            events = server.all_events()
    return write_jsonl(events, out)
