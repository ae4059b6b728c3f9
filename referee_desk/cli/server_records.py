"""``verify URL`` and ``export jsonl URL``: the same commands on the tournament server.

``verify URL [--against FILE] [--heads]`` checks every match on the server (exit 0 intact,
1 first problem, 2 cannot reach or log in); ``export jsonl URL -o OUT [--match ID]``
writes the server's records as JSON Lines, byte for byte as the desks recorded them.
"""

from __future__ import annotations

import argparse
import sys


def verify(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError
    from referee_desk.store.postgres.address import redact
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.records import server_heads, verify_server

    shown = redact(args.file)
    try:
        problem = verify_server(args.file, against=args.against)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"verify: {error}", file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"verify: {error}", file=sys.stderr)
        return 2
    if problem is not None:
        print(f"BROKEN {problem}", file=sys.stderr)  # problem.file is the redacted address
        return 1
    suffix = f" (agrees with {args.against})" if args.against else ""
    print(f"OK {shown}: hash chains intact, every event acceptable{suffix}")
    from referee_desk.store.postgres.records import seal_lines  # locks checked by the server

    for line in seal_lines(args.file):
        print(line)
    if args.heads:
        for match_id, count, head in server_heads(args.file):
            print(f"  {match_id}: {count} events, head {head}")
    return 0


def export_jsonl(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.records import export_server_events

    try:
        count = export_server_events(args.file, args.output, getattr(args, "match_id", None))
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"export refused: {error}", file=sys.stderr)
        return 2
    except (StoreError, ValueError, OSError) as error:
        print(f"export refused: {error}", file=sys.stderr)
        return 1
    print(f"exported {count} events to {args.output}")
    return 0
