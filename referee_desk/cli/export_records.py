"""``referee-desk export jsonl FILE -o OUT [--match ID]``: records as JSON Lines.

FILE is a tournament file; a ``.jsonl`` FILE is re-exported (filtered by match)
after the same checks ``verify`` applies.
"""

from __future__ import annotations

import argparse
import sys


def export_jsonl(args: argparse.Namespace) -> int:
    from referee_desk.store.opener import is_server_address

    # Kept: a file is exported without the opening checks (``check=False``, so a record
    # the checks would refuse can still be taken out and examined), which ``open_store``
    # does not offer; a server's records are read through its own connection.
    if is_server_address(args.file):
        from referee_desk.cli import server_records

        return server_records.export_jsonl(args)
    from referee_desk.store import StoreError, StoreWriteError
    from referee_desk.store.interchange import export_events, is_sqlite, verify_path
    from referee_desk.store.jsonl import read_jsonl, write_jsonl

    match_id = getattr(args, "match_id", None)
    try:
        if is_sqlite(args.file):
            count = export_events(args.file, args.output, match_id)
        else:
            problem = verify_path(args.file)
            if problem is not None:
                print(f"export refused: {problem}", file=sys.stderr)
                return 1
            events = [i.event for i in read_jsonl(args.file)]
            if match_id is not None:
                events = [e for e in events if e.match_id == match_id]
                if not events:
                    print(f"export refused: {args.file}: no match {match_id!r}", file=sys.stderr)
                    return 1
            count = write_jsonl(events, args.output)
    except (StoreError, StoreWriteError, OSError) as error:
        print(f"export refused: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # never a traceback on the command line
        print(f"export failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    print(f"exported {count} events to {args.output}")
    return 0
