"""The genuine desk's way since issue 18 item 12: a desk's record counts on the server
once it is locked with the desk's key and the organizer registered that key."""

from __future__ import annotations

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.seals import register_file_signers
from referee_desk.store.postgres.server import TournamentServer


def lock_for_the_server(tf: TournamentFile, organizer_url: str, *match_ids: str) -> None:
    """Lock the matches in the desk's file and register its key on the server."""
    for match_id in match_ids:
        tf.seals.lock(match_id, by="王磊")
    with TournamentServer.open(organizer_url) as organizer:
        register_file_signers(organizer, tf)
