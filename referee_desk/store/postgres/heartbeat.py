"""A desk's heartbeat: the server learns which laptop is at a table and what it holds back.

Sent after each push (``sync --follow`` and the desk's background pusher): the desk's key
fingerprint (two laptops on one table's address are two rows), the events the server
still lacks, the matches where the server holds more than the file (``behind``) and
those where the file holds less than this desk itself pushed before (``restored`` from a
backup). The organizer's table board reads them (``tournament.table_board``).
"""

from __future__ import annotations

import contextlib
import socket

import psycopg

from referee_desk.store import TournamentFile
from referee_desk.store.postgres import marks
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import PushReport, sync_state


def restored_matches(tf: TournamentFile, server_id: str) -> list[str]:
    """Matches whose file holds fewer events than this desk pushed before (a backup)."""
    return sorted(
        match_id
        for match_id, (seq, _) in marks.pushed_heads(tf, server_id).items()
        if tf.head(match_id)[0] < seq
    )


def send_heartbeat(
    tf: TournamentFile, server: TournamentServer, report: PushReport | None, client: str
) -> bool:
    """Report this desk's state to the server; False when the server does not take it.

    A server role that is not a table's desk (the organizer pushing a file) sends none.
    """
    if not server.is_desk:
        return False
    found = report.conflicts if report else ()
    behind = sorted({c.match_id for c in found if c.kind == "behind"})
    waiting = sync_state(tf).waiting
    name = f"{socket.gethostname()[:60]} {client}".strip()
    with contextlib.suppress(psycopg.errors.UndefinedFunction, psycopg.errors.RaiseException):
        server.heartbeat(
            tf.key_fingerprint or "",
            waiting,
            behind,
            restored_matches(tf, server.server_id),
            name,
        )
        return True
    return False
