"""Reading match records back from the server: ``verify`` and ``export jsonl`` on a URL.

The server keeps each event's canonical text and hash as the desk wrote them, so the
store's own checks (chain, replay, seals) run on the server's records unchanged, and an
exported JSON Lines file is byte for byte what the desk would export.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from referee_desk.store import Problem
from referee_desk.store.interchange import verify_path
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.postgres.seals import ServerSeal, seals
from referee_desk.store.postgres.server import TournamentServer


def verify_server(url: str, *, against: str | None = None) -> Problem | None:
    """The first problem of any match on the server, or None.

    The store's own ``verify_path`` runs on the server's records written out as JSON
    Lines (chain, every event replayed; with ``against`` the seals of that tournament
    file), so a record is judged exactly as a desk's export would be.
    """
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "server.jsonl"
        with TournamentServer.open(url) as server:
            shown = server.shown
            write_jsonl(server.all_events(), copy)
            seal_problem = _seal_problem(server)
        found = verify_path(copy, against=against)
    if found is None:
        return seal_problem
    return Problem(found.reason, found.match_id, found.seq, file=shown)


def _seal_problem(server: TournamentServer) -> Problem | None:
    """A seal on the server that does not verify here or no longer matches the record.

    (The server checked each on insert; this is the same check, made again by the store.)
    """
    for seal in seals(server):
        if not seal.valid:
            return Problem(
                f"the seal at event {seal.head_seq} (key {seal.key_fingerprint}) does not "
                "verify against the server's registered key",
                seal.match_id,
                seal.head_seq,
                file=server.shown,
            )
        if server.hash_at(seal.match_id, seal.head_seq) != seal.head_hash:
            return Problem(
                f"the seal at event {seal.head_seq} locks another record than the server's",
                seal.match_id,
                seal.head_seq,
                file=server.shown,
            )
    return None


def server_seals(url: str) -> list[ServerSeal]:
    """Every lock on the server, with its signer and whether it verifies (``verify URL``)."""
    with TournamentServer.open(url) as server:
        return seals(server)


def seal_lines(url: str) -> list[str]:
    """One line per lock on the server, as ``verify URL`` prints them."""
    lines = []
    for seal in server_seals(url):
        verdict = "valid" if seal.valid else "DOES NOT VERIFY"
        lines.append(
            f"  seal {seal.match_id}: event {seal.head_seq} signed by key {seal.key_fingerprint} "
            f"({seal.signer_label}) at {seal.sealed_at}, locked by {seal.sealed_by or '?'}: "
            f"{verdict}"
        )
    return lines


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


def export_server_matches(
    url: str, out: str | os.PathLike[str], match_ids: list[str] | None = None
) -> int:
    """Write the records of ``match_ids`` (None: every match) as JSON Lines; the count."""
    with TournamentServer.open(url) as server:
        wanted = server.match_ids() if match_ids is None else match_ids
        events = [e for m in wanted for e in server.events(m)]
    return write_jsonl(events, out)
