"""``server init``, ``password``, ``remember`` and ``upgrade``: setting a server up and
the addresses (with their passwords) the desks and the organizer are given.

Actions of ``referee-desk server`` (``cmd_server`` parses and dispatches); each returns
an exit status and leaves a server's refusals to ``cmd_server`` to word.
"""

from __future__ import annotations

import argparse
import sys

from referee_desk.cli.terminal import can_ask


def init(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.init import init_server

    tables = [t for t in args.tables.split(",") if t.strip()]
    if args.tournament:
        from referee_desk.tournament.repository import Tournament

        with Tournament.open(args.tournament, read_only=True) as t:
            tables = list(t.info.tables)
    if not tables:
        print("server init: name the tables (--tables 1号桌,2号桌 or --from FILE)", file=sys.stderr)
        return 1
    report = init_server(args.url, tables)
    if report.already and not report.desks:
        print(
            f"server init: database {report.database} is already a Referee Desk server "
            "with these tables; nothing changed"
        )
        return 0
    if report.already:
        print(f"server init: database {report.database}: {len(report.desks)} tables added")
        rows = []
    else:
        print(f"server init: database {report.database}: schema ready, {len(report.desks)} desks")
        rows = [("organizer", report.organizer.url(args.url, args.host))]
    print("Give each table its address (the passwords are shown only now):")
    rows += [(d.table_label, d.url(args.url, args.host)) for d in report.desks]
    width = max(_width(label) for label, _ in rows)
    for label, url in rows:
        print(f"  {label}{' ' * (width - _width(label))}  {url}")
    print(
        "Keep each password off command lines (anyone on the computer can read them): "
        "referee-desk server remember ADDRESS-WITHOUT-PASSWORD asks for it once"
    )
    return 0


def _width(text: str) -> int:
    """Columns on a terminal: CJK characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def password(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.init import new_password

    login = new_password(args.url, args.who)
    print(f"  {login.table_label or 'organizer'}  {login.url(args.url, args.host)}")
    return 0


def remember(args: argparse.Namespace) -> int:
    """The password of an address into the pass file, so no command line shows it."""
    from referee_desk.store.opener import is_server_address
    from referee_desk.store.postgres.address import redact
    from referee_desk.store.postgres.password import has_password, remember

    if not is_server_address(args.url):
        print(
            "server remember: not a server address (postgresql://user@host:port/db)",
            file=sys.stderr,
        )
        return 1
    if has_password(args.url):
        print(
            f"server remember: write the address without its password "
            f"({redact(args.url)}); the password is asked for",
            file=sys.stderr,
        )
        return 1
    if can_ask():
        import getpass

        secret = getpass.getpass(f"password for {args.url}: ")
    else:
        secret = sys.stdin.readline().rstrip("\r\n")
    if not secret:
        print("server remember: no password given; nothing kept", file=sys.stderr)
        return 1
    path = remember(args.url, secret)
    print(f"kept the password of {args.url} in {path} (readable by you only)")
    return 0


def upgrade(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.init import upgrade_server
    from referee_desk.store.postgres.schema import SERVER_SCHEMA_VERSION

    before = upgrade_server(args.url)
    if before == SERVER_SCHEMA_VERSION:
        print(f"server schema already at version {before}; nothing to do")
    else:
        print(f"server schema upgraded from version {before} to {SERVER_SCHEMA_VERSION}")
    return 0
