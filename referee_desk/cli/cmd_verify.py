"""``referee-desk verify FILE [--against TOURNAMENT] [--key FINGERPRINT]``: intact?

Exit 0 and ``OK …`` when every match's hash chain holds and every event is
acceptable; exit 1 with one line naming the first problem (file, line, match,
event, reason) otherwise; exit 2 when the file cannot be read at all.
"""

from __future__ import annotations

import argparse
import sys

from referee_desk.cli.terminal import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="tournament file (.sqlite) or match record (.jsonl)")
    parser.add_argument(
        "--heads",
        action="store_true",
        help="also print each match's event count and head hash (as on the match report)",
    )
    parser.add_argument(
        "--key",
        metavar="FINGERPRINT",
        help="the tournament file's key must be this one (as printed on the match report)",
    )
    parser.add_argument(
        "--against",
        metavar="TOURNAMENT",
        help="tournament file whose locked matches the record must agree with",
    )


def run(args: argparse.Namespace) -> int:
    from referee_desk.store.opener import is_server_address

    # A branch that differs in behaviour, not only in how the store is opened: a file is
    # opened read-only without the opening checks and reports each problem itself
    # (SQLite's integrity, the witness, the guard, its key), where ``open_store`` would
    # refuse at the first, and a JSON Lines record is no store at all; a server is asked
    # to check its own records and seals through its connection.
    if is_server_address(args.file):
        from referee_desk.cli.server_records import verify

        return verify(args)
    try:
        from referee_desk.store.verify import verify_report

        report = verify_report(args.file, against=args.against, key=args.key)  # one open
    except Exception as error:  # never a traceback on the command line
        print(printable(f"verify: {args.file}: {type(error).__name__}: {error}"), file=sys.stderr)
        return 2
    problem = report.problem
    if problem is None:
        suffix = f" (agrees with {args.against})" if args.against else ""
        print(printable(f"OK {args.file}: hash chains intact, every event acceptable{suffix}"))
        for line in report.signing:
            print(f"  {printable(line)}")
        if args.heads:
            for match_id, count, head, locked in report.heads:
                line = f"{match_id}: {count} events, head {head}{' (locked)' if locked else ''}"
                print(f"  {printable(line)}")
        return 0
    text = str(problem)
    if problem.file is None:
        text = f"{args.file}: {text}"
    print(f"BROKEN {printable(text)}", file=sys.stderr)
    return 1
