"""``referee-desk rules``: the rules service on stdin/stdout (JSON Lines).

One answer line per query line, in order, flushed per line; exit 0 at EOF. The
protocol is described in :mod:`referee_desk.rules.service`. Never imports Qt.

Hostile input is answered, never obeyed: a line longer than ``MAX_LINE_BYTES`` is read
in bounded chunks and discarded (memory stays small), and every query goes through
``strict_json`` (no duplicate keys, at most 64 levels deep, no lone surrogates).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO

from referee_desk.rules.service import Answer, RulesService, encode
from referee_desk.store import strict_json

#: The longest query line answered (1 MiB); longer ones get an error answer.
MAX_LINE_BYTES = strict_json.MAX_LINE_BYTES

_CHUNK = 64 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        'Example: echo \'{"op":"unit","level":"5","trump":"H","cards":"H6 H6 H7 H7"}\' '
        f"| referee-desk rules   (lines of at most {MAX_LINE_BYTES:,} bytes)"
    )


def bounded_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | int]:
    """Each line (bytes), or its length (int) when it is longer than ``limit``."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or (line.endswith(b"\n") and len(line) == limit + 1):
            yield line
            continue
        size = len(line)
        while not line.endswith(b"\n"):  # skip the rest of the over-long line
            line = stream.readline(_CHUNK)
            if not line:
                break
            size += len(line)
        yield size


def serve(instream: BinaryIO, outstream: BinaryIO) -> int:
    service = RulesService()
    for item in bounded_lines(instream):
        if isinstance(item, int):
            answer: Answer = {"error": f"line of {item:,} bytes is longer than {MAX_LINE_BYTES:,}"}
        else:
            try:
                text = item.decode("utf-8").strip().lstrip("\ufeff")
            except UnicodeDecodeError:
                text = ""  # the service words the encoding error
            if not text:
                answer = service.answer_line(item)
            else:
                try:
                    answer = service.answer(strict_json.loads(text))
                except strict_json.StrictJSONError as error:
                    answer = {"error": f"bad JSON: {error}"}
        outstream.write(encode(answer))
        outstream.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:
        # The reader went away: stop quietly, and keep Python's exit flush quiet too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
