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
"""

from __future__ import annotations

import argparse
import sys

from referee_desk.cli.terminal import ask, can_ask, printable, warn_if_password_in


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
        "init": _init,
        "password": _password,
        "publish": _publish,
        "assign": _assign,
        "collect": _collect,
        "status": _status,
        "resolve": _resolve,
        "watch": _watch,
        "keys": _keys,
        "upgrade": _upgrade,
        "remember": _remember,
        "accept": _accept,
    }
    try:
        return action[args.action](args)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"server {args.action}: {error}", file=sys.stderr)
        return 2
    except (StoreError, OSError) as error:
        print(f"server {args.action}: {error}", file=sys.stderr)
        return 1


def _init(args: argparse.Namespace) -> int:
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


def _password(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.init import new_password

    login = new_password(args.url, args.who)
    print(f"  {login.table_label or 'organizer'}  {login.url(args.url, args.host)}")
    return 0


def _publish(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.tournament.publishing import publish
    from referee_desk.tournament.repository import Tournament

    source = args.tournament or args.url
    with (
        TournamentServer.open(args.url) as server,
        Tournament.open(source, read_only=True) as t,
    ):
        report = publish(t, server)
        if args.tournament and t.drawn:
            # A file's draw: its matches kept for their tables, claims open for other ids
            # (closed from server init, issue 18 item 10).
            server.reserve([m.match_id for m in t.matches()])
            server.set_claims(True)
    for match_id, table in report.no_desk:
        print(f"  {match_id}: table {table} has no desk on the server")
    waiting = len(report.waiting)
    print(
        f"published {len(report.published)} matches with their openings"
        + (f"; {waiting} assigned whose pairs are not known yet" if waiting else "")
    )
    return 0


def _accept(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(args.url) as server:
        seq, head = server.accept(args.match)
    print(f"accepted match {args.match} up to event {seq} ({head[:12]}…): it counts")
    return 0


def _assign(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(args.url) as server:
        server.assign(args.match, args.desk, None)
        holder = server.assignment(args.match)
    print(f"{args.match} now belongs to {holder.desk_role if holder else args.desk}")
    return 0


def _collect(args: argparse.Namespace) -> int:
    """Import the server's records into the tournament file, once or as they land."""
    import time

    from referee_desk.store.postgres.listener import EventListener

    status = _collect_once(args, None)
    if not args.follow:
        return status
    try:
        with EventListener(args.url) as listener:
            _collect_once(args, None, quiet=True)  # what landed before LISTEN
            while True:
                changed = {landed.match_id for landed in listener.wait(timeout=1.0)}
                if changed:
                    time.sleep(0.5)  # a desk's batch lands in one go
                    changed |= {landed.match_id for landed in listener.wait(timeout=0.01)}
                    _collect_once(args, sorted(changed))
    except KeyboardInterrupt:
        return 0


def _collect_once(
    args: argparse.Namespace, match_ids: list[str] | None, *, quiet: bool = False
) -> int:
    import tempfile
    from pathlib import Path

    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.tournament_records import ServerRecords
    from referee_desk.tournament.deciding import copyable
    from referee_desk.tournament.importing import import_records
    from referee_desk.tournament.outcomes import replay_events
    from referee_desk.tournament.repository import Tournament

    events = []
    held_back: list[str] = []
    with TournamentServer.open(args.url) as server:
        # Only what counts on the server comes into the file, which vouches for all it
        # holds (issue 18 item 12): an end no registered desk key locked stays there.
        records = ServerRecords(server)
        records.heads()
        for match_id in server.match_ids() if match_ids is None else match_ids:
            taken, why = copyable(records, match_id, replay_events)
            events += taken
            if why is not None:
                held_back.append(f"HELD BACK on the server: match {match_id}: {why}")
    with tempfile.TemporaryDirectory(prefix="referee-desk-collect-") as folder:
        copy = Path(folder) / "server.jsonl"
        if not write_jsonl(events, copy):
            if not quiet and not held_back:
                print("collect: the server holds no events yet", flush=True)
            for line in held_back:
                print(line, flush=True)
            return 0 if not held_back else 1
        with Tournament.open(args.tournament) as t:
            result = import_records(t, [copy])
    for line in result.lines() + held_back:
        print(line, flush=True)
    return 0 if result.ok and not held_back else 1


def _status(args: argparse.Namespace) -> int:
    """What the server holds, each table's laptops, open and settled conflicts apart.

    Exit 1 only while a conflict is open.
    """
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.tournament.table_board import OFFLINE_MINUTES, table_board

    with TournamentServer.open(args.url) as server:
        heads = server.heads()
        print(f"{server.shown}: {server.count()} events in {len(heads)} matches")
        for match_id, (seq, head) in sorted(heads.items()):
            print(f"  {printable(match_id)}: {seq} events, head {head}")
        if server.is_desk:
            return 0
        board = table_board(server, args.offline_minutes or OFFLINE_MINUTES)
    print("tables:")
    for row in board.rows:
        state = "OFFLINE" if row.offline else ("playing" if row.playing else "idle")
        print(f"  {row.table} ({row.desk_role}): {state}" + (
            f", {len(row.laptops)} laptops on one address" if row.shared else ""
        ))  # fmt: skip
        if not row.laptops:
            print("    never heard")
        for lap in row.laptops:
            extra = "".join(
                [
                    f", behind the server in {printable(', '.join(lap.behind))}"
                    if lap.behind
                    else "",
                    f", restored from a backup: {printable(', '.join(lap.restored))}"
                    if lap.restored
                    else "",
                ]
            )
            print(
                f"    desk key {printable(lap.desk_key or '(none)')} ({printable(lap.client)}): "
                f"last heard "
                f"{lap.last_heard} ({lap.seconds_ago:.0f} s ago), {lap.waiting} events "
                f"not yet on the server{extra}"
            )
    for title, found in (("open", board.open_conflicts), ("settled", board.settled_conflicts)):
        if found:
            print(f"{title} conflicts:")
        for conflict in found:
            word = "CONFLICT" if title == "open" else "settled"
            print(
                f"  {word} {conflict.kind} match {printable(conflict.match_id)}, event "
                f"{conflict.seq}, from {conflict.reported_by} at {conflict.reported_at}: "
                f"{printable(conflict.detail)}"
            )
    return 1 if board.open_conflicts else 0


def _resolve(args: argparse.Namespace) -> int:
    """Both branches side by side from the fork; keep one, the other archived."""
    from referee_desk.cli.fork_view import side_by_side
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(args.url) as server:
        branches = server.fork_branches(args.match)
        if args.desk:
            role = server._desk_role(args.desk)
            branches = [b for b in branches if b.desk_role == role]
        if not branches:
            print(f"server resolve: no desk reported a fork of match {args.match}", file=sys.stderr)
            return 1
        if len(branches) > 1:
            names = ", ".join(b.desk_role for b in branches)
            print(
                f"server resolve: match {args.match} was forked by several desks ({names}); "
                "name one with --desk",
                file=sys.stderr,
            )
            return 1
        branch = branches[0]
        ours = server.events(args.match, after_seq=branch.fork_seq - 1)
        print(
            f"match {args.match}: fork at event {branch.fork_seq}; the server's record "
            f"({len(ours)} events from there) and desk {branch.desk_role}'s "
            f"({len(branch.events)} events, reported {branch.reported_at}):"
        )
        for line in side_by_side(ours, list(branch.events), f"desk {branch.desk_role}"):
            print(line)
        keep = args.keep or _ask_keep()
        if keep is None:
            print("server resolve: nothing settled", file=sys.stderr)
            return 1
        settled = server.settle_fork(args.match, keep, branch.desk_role)
    other = "desk " + branch.desk_role if keep == "server" else "server"
    print(
        f"settled match {args.match}: the {keep}'s record stands"
        + (f" (desk {branch.desk_role}'s)" if keep == "desk" else "")
        + f"; {settled.archived} events of the {other}'s branch from event "
        f"{settled.fork_seq} archived on the server (settlement {settled.id})"
    )
    return 0


def _ask_keep() -> str | None:
    if not sys.stdin.isatty():
        print("server resolve: say which stands: --keep server or --keep desk", file=sys.stderr)
        return None
    answer = input("keep which record? [server/desk] ").strip().lower()
    return answer if answer in ("server", "desk") else None


def _keys(args: argparse.Namespace) -> int:
    """Register keys (from files, --key, offers named or answered for), then list them all."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.seals import (
        approve_offers,
        key_offers,
        register_file_signers,
        register_signer,
        signers,
    )
    from referee_desk.store.postgres.server import TournamentServer

    named = [f for f in args.approve if f.lower() != "all"]
    asking = len(named) < len(args.approve)
    if asking and not can_ask():
        print(
            "server keys: --approve all asks about each offered key at a terminal; here name "
            "each key you compared with its desk's `referee-desk keys show`: "
            "--approve FINGERPRINT (nothing registered)",
            file=sys.stderr,
        )
        return 1
    with TournamentServer.open(args.url) as server:
        for path in args.files:
            with TournamentFile.open(path, create=False, read_only=True) as tf:
                for added in register_file_signers(server, tf):
                    print(f"registered key {added.fingerprint} ({added.label}) from {path}")
        for public_key in args.key:
            if register_signer(server, public_key, args.label, "desk"):
                print(f"registered key {public_key[:16]}… ({args.label})")
        offers = [] if server.is_desk else key_offers(server)
        if asking:
            named += _answered(offers)
        for offer in approve_offers(server, named) if named else []:
            print(f"registered key {offer.fingerprint} offered by {_offered_by(offer)}")
        known = signers(server)
        print(f"{server.shown}: {len(known)} signing keys registered")
        for key in known:
            print(f"  key {key.fingerprint} ({printable(key.label)}, {key.role})")
        if server.is_desk:
            return 0
        _list_offers(key_offers(server))
    return 0


def _offered_by(offer) -> str:
    """``1号桌 (cup_t01), labelled 'desk …', at …``: who offered a key, safe to print."""
    who = f"{printable(offer.table)} ({offer.offered_by})" if offer.table else offer.offered_by
    return f"{who}, labelled {printable(offer.label, 60)!r}, at {offer.offered_at}"


def _per_table(offers) -> dict[str, list]:
    tables: dict[str, list] = {}
    for offer in offers:
        tables.setdefault(offer.offered_by, []).append(offer)
    return tables


#: Offers listed per table; the rest are counted (a table may have been made to offer many).
LISTED_PER_TABLE = 10


def _list_offers(offers) -> None:
    for role, theirs in _per_table(offers).items():
        table = printable(theirs[0].table) or role
        many = (
            f"; {len(theirs)} keys from one table: one desk has one key, so all but the "
            "laptops you saw there are forged"
            if len(theirs) > 1
            else ""
        )
        print(f"  offered by {table} ({role}), not registered: {len(theirs)}{many}")
        for offer in theirs[:LISTED_PER_TABLE]:
            print(f"    key {offer.fingerprint} ({_offered_by(offer)})")
        if len(theirs) > LISTED_PER_TABLE:
            print(f"    … and {len(theirs) - LISTED_PER_TABLE} more from {table}")
    if offers:
        print(
            "  compare a fingerprint with the desk's `referee-desk keys show`, then "
            "--approve FINGERPRINT (or --approve all to be asked about each)"
        )


def _answered(offers) -> list[str]:
    """The fingerprints the organizer says yes to, asked key by key with its table."""
    chosen: list[str] = []
    for role, theirs in _per_table(offers).items():
        table = printable(theirs[0].table) or role
        print(f"{table} ({role}) offered {len(theirs)} key(s):", file=sys.stderr)
        for offer in theirs:
            print(f"  key {offer.fingerprint} ({_offered_by(offer)})", file=sys.stderr)
            answer = ask(
                "  the same fingerprint as `referee-desk keys show` on that desk? "
                "register it? [y/n/q]",
                ("y", "n", "q", "yes", "no", "quit"),
            )
            if answer in (None, "q", "quit"):
                return chosen
            if answer in ("y", "yes"):
                chosen.append(offer.fingerprint)
    return chosen


def _remember(args: argparse.Namespace) -> int:
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


def _upgrade(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.init import upgrade_server
    from referee_desk.store.postgres.schema import SERVER_SCHEMA_VERSION

    before = upgrade_server(args.url)
    if before == SERVER_SCHEMA_VERSION:
        print(f"server schema already at version {before}; nothing to do")
    else:
        print(f"server schema upgraded from version {before} to {SERVER_SCHEMA_VERSION}")
    return 0


def _watch(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.listener import EventListener

    warn_if_password_in(args.url, "server watch")
    seen = 0
    with EventListener(args.url) as listener:
        while not args.count or seen < args.count:
            for landed in listener.wait(timeout=1.0):
                print(
                    f"{printable(landed.match_id)} event {landed.seq} from {landed.desk}",
                    flush=True,
                )
                seen += 1
                if seen == args.count:
                    break
    return 0
