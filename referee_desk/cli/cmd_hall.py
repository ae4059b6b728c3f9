"""``referee-desk hall serve ADDRESS``: the players' live page on the organizer's laptop.

ADDRESS is a tournament file (a one-laptop club) or the organizer's ``postgresql://``
address. The page is read-only; put ``http://<laptop's address>:PORT/`` on the wall.
"""

from __future__ import annotations

import argparse
import sys

from referee_desk.store.postgres.address import is_server_url, redact


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="hall_command", required=True)
    serve = sub.add_parser(
        "serve",
        help="serve the live page for players (standings, matches, find your table)",
        description="serve the live page for players (standings, matches, find your table)",
    )
    serve.add_argument("address", help="tournament file or the organizer's postgresql:// address")
    serve.add_argument(
        "--host", default="0.0.0.0", help="address to listen on (default: every interface)"
    )
    serve.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    serve.add_argument("--lang", choices=("zh", "en"), default="zh", help="default language")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from referee_desk.hall.app import create_app
    from referee_desk.hall.board import Board, read_view

    shown = redact(args.address) if is_server_url(args.address) else args.address
    try:
        read_view(args.address)  # a wrong address fails here, in one line, before serving
    except (ValueError, OSError) as error:  # no tournament there, or not readable
        print(f"hall: cannot read the tournament at {shown}: {error}", file=sys.stderr)
        return 1
    app = create_app(Board(args.address), args.lang)
    print(f"hall: serving {shown} on http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(
        app, host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=2
    )
    return 0
