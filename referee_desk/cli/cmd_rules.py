"""``referee-desk rules``: the rules service on stdin/stdout (JSON Lines).

One answer line per query line, in order, flushed per line; exit 0 at EOF. The
protocol is described in :mod:`referee_desk.rules.service`. Never imports Qt.
"""

from __future__ import annotations

import argparse
import os
import sys

from referee_desk.rules.service import serve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        'Example: echo \'{"op":"unit","level":"5","trump":"H","cards":"H6 H6 H7 H7"}\' '
        "| referee-desk rules"
    )


def run(args: argparse.Namespace) -> int:
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:
        # The reader went away: stop quietly, and keep Python's exit flush quiet too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
