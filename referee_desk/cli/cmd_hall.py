"""``referee-desk hall serve ADDRESS``: the live hall page for players' phones and a projector.

ADDRESS is the organizer's ``postgresql://`` address (the page reads as the server's
read-only hall role; ``/board`` asks for the organizer's password) or a tournament file
(read-only, watched for changes). Prints the page's address to put on the wall.
"""

from __future__ import annotations

import argparse
import socket
import sys

from referee_desk.store.postgres.errors import ServerError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("serve", help="serve the live hall page (read-only)")
    p.add_argument("address", help="the organizer's postgresql:// address or a tournament file")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="page language")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from referee_desk.hall.app import create_app
    from referee_desk.hall.live import Hub
    from referee_desk.hall.source import HallSource, hall_connection

    try:
        source = HallSource(args.address)
        if source.on_server:
            hall_connection(args.address).close()  # says now when the role is missing
    except (ServerError, FileNotFoundError) as error:
        print(f"hall serve: {error}", file=sys.stderr)
        return 2
    hub = Hub(source)
    where = _wall_address(args.host)
    print(
        f"hall page: http://{where}:{args.port}/   (find your table: /find, projector: /projector)"
    )
    if source.on_server:
        print(f"table board: http://{where}:{args.port}/board (the organizer's password)")
    sys.stdout.flush()
    uvicorn.run(
        create_app(hub, lang=args.lang),
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    return 0


def _wall_address(host: str) -> str:
    """The address phones on the hall network type (the laptop's, for an all-address bind)."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: picks the outgoing interface
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
