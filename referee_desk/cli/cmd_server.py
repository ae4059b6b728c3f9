"""``referee-desk server ACTION URL …``: the organizer's PostgreSQL tournament server.

Actions: ``init`` (schema, organizer role, one role per table), ``password`` (a new
password for a lost address), ``publish`` (give the drawn matches and their openings to
the tables' desks), ``assign`` (one match to one desk), ``collect`` (the server's
records into the tournament file, for standings and documents), ``status`` (what the
server holds, conflicts desks reported), ``watch`` (print every event as it lands),
``keys`` (register the signing keys whose seals the server takes), ``accept`` (let a
record no registered desk key locked count), ``upgrade`` (bring an older server schema to
this version).
A refusal is one line on stderr: exit 1 (refused) or 2 (cannot reach or log in).

This module parses the actions and words a server's refusals; the actions live by what
they are about: ``server_setup`` (init, password, remember, upgrade),
``server_matches`` (publish, assign, accept, collect, resolve), ``server_status``
(status, watch) and ``server_keys`` (keys).
"""

from __future__ import annotations

import argparse
import sys

from referee_desk.cli import server_keys, server_matches, server_setup, server_status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("init", help="set up an empty database as a tournament server")
    p.add_argument("url", help="postgresql://admin:password@host:port/database (a superuser)")
    p.add_argument("--tables", default="", help="table names, comma-separated (1号桌,2号桌,…)")
    p.add_argument("--from", dest="tournament", help="take the tables from this tournament file")
    p.add_argument("--host", help="host name or address the desks reach the server at")
    p = sub.add_parser("password", help="a new password (and address) for a desk or the organizer")
    p.add_argument("url", help="the superuser's address, as for init")
    p.add_argument("who", help="table name (1号桌), desk role, or 'organizer'")
    p.add_argument("--host", help="host name or address the desks reach the server at")
    p = sub.add_parser("publish", help="give drawn matches and their openings to the desks")
    p.add_argument("url", help="the organizer's address")
    p.add_argument(
        "tournament",
        nargs="?",
        help="tournament file (.sqlite) with the draw; omitted: the server's own tournament",
    )
    p = sub.add_parser("assign", help="give one match to a desk (e.g. after a claim conflict)")
    p.add_argument("url", help="the organizer's address")
    p.add_argument("match", help="match id")
    p.add_argument("desk", help="table name (1号桌) or desk role")
    p = sub.add_parser(
        "collect", help="bring the server's records into the tournament file (standings)"
    )
    p.add_argument("url", help="the organizer's address")
    p.add_argument("tournament", help="tournament file (.sqlite) with the draw")
    p.add_argument(
        "--follow", action="store_true", help="keep collecting as events land (Ctrl+C stops)"
    )
    p = sub.add_parser("status", help="what the server holds, the tables' desks, conflicts")
    p.add_argument("url")
    p.add_argument(
        "--offline-minutes",
        type=float,
        default=None,
        help="a playing table unheard this long is offline (default 3)",
    )
    p = sub.add_parser("resolve", help="settle a match's fork: keep the server's or desk's record")
    p.add_argument("url", help="the organizer's address")
    p.add_argument("match", help="match id")
    p.add_argument("--keep", choices=("server", "desk"), help="which record stands (else asked)")
    p.add_argument("--desk", help="the desk whose fork (table name or role; when several)")
    p = sub.add_parser(
        "keys", help="register the keys a tournament file trusts, so their seals are taken"
    )
    p.add_argument("url", help="the organizer's address")
    p.add_argument("files", nargs="*", help="tournament or desk files whose trusted keys to add")
    p.add_argument("--key", action="append", default=[], help="a public key (64 hex digits)")
    p.add_argument("--label", default="desk", help="the label of a --key (e.g. desk 3号桌)")
    p.add_argument(
        "--approve",
        action="append",
        default=[],
        metavar="FINGERPRINT",
        help="register the key a desk offered with this fingerprint (compare it with the "
        "desk's keys show); 'all': go through every offered key, shown with its table, and "
        "answer for each (on a terminal only)",
    )
    p = sub.add_parser(
        "remember", help="keep an address's password in the pass file (~/.pgpass, 0600)"
    )
    p.add_argument(
        "url",
        help="the address without its password (postgresql://cup_t01@192.168.1.10:5432/cup); "
        "the password is asked for, or read from stdin's first line",
    )
    p = sub.add_parser(
        "accept", help="let a record no registered desk key locked count, up to its head now"
    )
    p.add_argument("url", help="the organizer's address")
    p.add_argument("match", help="match id (a drawn one, or a record under a desk's own id)")
    p = sub.add_parser("upgrade", help="bring a server of an older schema to this version")
    p.add_argument("url", help="the superuser's address, as for init")
    p = sub.add_parser("watch", help="print each event as it lands (LISTEN/NOTIFY)")
    p.add_argument("url")
    p.add_argument("--count", type=int, default=0, help="stop after this many events")


def run(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError
    from referee_desk.store.postgres.errors import (
        ServerLoginRefused,
        ServerUnreachable,
    )

    action = {
        "init": server_setup.init,
        "password": server_setup.password,
        "publish": server_matches.publish,
        "assign": server_matches.assign,
        "collect": server_matches.collect,
        "status": server_status.status,
        "resolve": server_matches.resolve,
        "watch": server_status.watch,
        "keys": server_keys.keys,
        "upgrade": server_setup.upgrade,
        "remember": server_setup.remember,
        "accept": server_matches.accept,
    }
    try:
        return action[args.action](args)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"server {args.action}: {error}", file=sys.stderr)
        return 2
    except (StoreError, OSError) as error:
        print(f"server {args.action}: {error}", file=sys.stderr)
        return 1
