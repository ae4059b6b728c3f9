"""``referee-desk sync FILE URL``: push a desk's new events to the tournament server.

Exit 0 when the server holds every event of the file, 1 when a match is in conflict
(a fork or a match another desk holds: each named with its event; never merged),
2 when the server cannot be reached or refuses the login. With ``--follow`` it keeps
pushing as the file grows (retrying with backoff while the server is down).
"""

from __future__ import annotations

import argparse
import sys
import time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the desk's tournament file (.sqlite)")
    parser.add_argument("url", help="postgresql://desk:password@host:port/database")
    parser.add_argument(
        "--open",
        dest="open_match",
        metavar="MATCH",
        help="first record the server's drawn opening of MATCH in the file (pull)",
    )
    parser.add_argument("--referee", help="with --open: who enters it (default: the draw's)")
    parser.add_argument(
        "--follow", action="store_true", help="keep pushing as the file grows (Ctrl+C stops)"
    )


def run(args: argparse.Namespace) -> int:
    if args.open_match:
        status = _open(args)
        if status:
            return status
    if args.follow:
        return _follow(args)
    from referee_desk.store import StoreError, StoreWriteError
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.sync import sync_file

    try:
        report = sync_file(args.file, args.url)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 2
    except (StoreError, StoreWriteError) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 1
    for match_id, count in report.pushed.items():
        print(f"  {match_id}: {count} events sent")
    if report.seals:
        print(f"  {report.seals} seals sent (checked by the server)")
    for conflict in report.conflicts:
        print(f"sync: CONFLICT {conflict}", file=sys.stderr)
    print(
        f"sync {args.file}: {report.total_pushed} events sent, "
        f"{len(report.unchanged)} matches already on the server, "
        f"{len(report.conflicts)} in conflict"
    )
    return 1 if report.conflicts else 0


def _open(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError, StoreWriteError, TournamentFile
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import open_or_pull

    try:
        with TournamentServer.open(args.url) as server, TournamentFile.open(args.file) as tf:
            event = open_or_pull(tf, server, args.open_match, referee=args.referee)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 2
    except (StoreError, StoreWriteError) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 1
    if isinstance(event, int):  # begun already: the server's record goes on here
        print(f"  {args.open_match}: the server's record taken ({event} events)")
        return 0
    print(f"  {event.match_id}: opened from the server's draw ({event.payload.get('table', '')})")
    return 0


def _follow(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.pusher import BackgroundPusher

    shown = ""
    with BackgroundPusher(args.file, args.url, interval=1.0) as pusher:
        try:
            while True:
                time.sleep(0.25)
                state = pusher.state
                line = f"{state.status} ({state.waiting} waiting)" + (
                    f"; {pusher.last_error}" if pusher.last_error else ""
                )
                if line != shown:
                    print(f"sync: {line}", flush=True)
                    shown = line
        except KeyboardInterrupt:
            return 0
