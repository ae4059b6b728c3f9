"""``referee-desk import JSONL... --into FILE``: add match records to a tournament file.

All or nothing: a bad line, a broken chain, an unacceptable event or a match
recorded differently refuses the whole import with one line naming file, line
and reason; the tournament file is then unchanged. Importing again is a no-op.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="JSONL", help="match records (.jsonl)")
    parser.add_argument(
        "--into", required=True, metavar="FILE", help="tournament file (created if missing)"
    )
    parser.add_argument(
        "--as",
        dest="person",
        metavar="NAME",
        help="sign in as NAME (needed in a file with PINs; the PIN is asked for, or read "
        "from REFEREE_DESK_PIN)",
    )


def read_pin() -> str:
    """The PIN for ``--as``: ``$REFEREE_DESK_PIN``, else asked at the terminal."""
    import getpass
    import os

    given = os.environ.get("REFEREE_DESK_PIN")
    if given is not None:
        return given
    if not sys.stdin.isatty():
        raise ValueError("no terminal to ask for the PIN: set REFEREE_DESK_PIN")
    return getpass.getpass("PIN: ")


def run(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError, StoreWriteError
    from referee_desk.store.interchange import import_jsonl
    from referee_desk.store.opener import is_server_address, open_store, shown

    name = shown(args.into)  # a server's address never with its password
    # Kept for the clean-up only: a file this import creates is removed when the import
    # is refused; a server is never created here, so nothing of it is removed.
    on_server = is_server_address(args.into)
    target = Path(args.into)
    created = not on_server and not target.exists()
    try:
        with open_store(args.into, create=True) as store:
            if store.on_server:  # the organizer's address: the server checks its own
                report = store.records.import_jsonl(args.files)
            else:
                tf = store.records
                by = tf.people.login(args.person, read_pin()) if args.person else None
                report = import_jsonl(tf, args.files, by=by)
    except Exception as error:  # never a traceback on the command line
        if created:  # refused: leave no empty tournament file behind
            for suffix in ("", "-wal", "-shm", ".heads"):
                Path(f"{target}{suffix}").unlink(missing_ok=True)
        if isinstance(error, StoreError | StoreWriteError):
            print(f"import refused: {error}", file=sys.stderr)
            return 1
        print(f"import failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    parts = [f"{n} events of {m}" for m, n in report.added.items()]
    if report.unchanged:
        parts.append(f"{len(report.unchanged)} match(es) already present")
    print(f"imported into {name}: {'; '.join(parts) or 'nothing new'}")
    return 0
