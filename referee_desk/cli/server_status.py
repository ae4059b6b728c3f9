"""``server status`` and ``watch``: what the server holds and each table's laptops, and
every event as it lands.

Actions of ``referee-desk server`` (``cmd_server`` parses and dispatches). ``status``
exits 1 only while a conflict is open.
"""

from __future__ import annotations

import argparse

from referee_desk.cli.terminal import printable, warn_if_password_in


def status(args: argparse.Namespace) -> int:
    """What the server holds, each table's laptops, open and settled conflicts apart.

    Exit 1 only while a conflict is open.
    """
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.tournament.table_board import OFFLINE_MINUTES, table_board

    with TournamentServer.open(args.url) as server:
        heads = server.heads()
        print(f"{server.shown}: {server.count()} events in {len(heads)} matches")
        for match_id, (seq, head) in sorted(heads.items()):
            print(f"  {printable(match_id)}: {seq} events, head {head}")
        if server.is_desk:
            return 0
        board = table_board(server, args.offline_minutes or OFFLINE_MINUTES)
    print("tables:")
    for row in board.rows:
        state = "OFFLINE" if row.offline else ("playing" if row.playing else "idle")
        print(f"  {row.table} ({row.desk_role}): {state}" + (
            f", {len(row.laptops)} laptops on one address" if row.shared else ""
        ))  # fmt: skip
        if not row.laptops:
            print("    never heard")
        for lap in row.laptops:
            extra = "".join(
                [
                    f", behind the server in {printable(', '.join(lap.behind))}"
                    if lap.behind
                    else "",
                    f", restored from a backup: {printable(', '.join(lap.restored))}"
                    if lap.restored
                    else "",
                ]
            )
            print(
                f"    desk key {printable(lap.desk_key or '(none)')} ({printable(lap.client)}): "
                f"last heard "
                f"{lap.last_heard} ({lap.seconds_ago:.0f} s ago), {lap.waiting} events "
                f"not yet on the server{extra}"
            )
    for title, found in (("open", board.open_conflicts), ("settled", board.settled_conflicts)):
        if found:
            print(f"{title} conflicts:")
        for conflict in found:
            word = "CONFLICT" if title == "open" else "settled"
            print(
                f"  {word} {conflict.kind} match {printable(conflict.match_id)}, event "
                f"{conflict.seq}, from {conflict.reported_by} at {conflict.reported_at}: "
                f"{printable(conflict.detail)}"
            )
    return 1 if board.open_conflicts else 0


def watch(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.listener import EventListener

    warn_if_password_in(args.url, "server watch")
    seen = 0
    with EventListener(args.url) as listener:
        while not args.count or seen < args.count:
            for landed in listener.wait(timeout=1.0):
                print(
                    f"{printable(landed.match_id)} event {landed.seq} from {landed.desk}",
                    flush=True,
                )
                seen += 1
                if seen == args.count:
                    break
    return 0
