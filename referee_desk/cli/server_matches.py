"""``server publish``, ``assign``, ``accept``, ``collect`` and ``resolve``: the drawn
matches given to the tables' desks, and their records on the server.

Actions of ``referee-desk server`` (``cmd_server`` parses and dispatches): publishing the
draw's openings, giving one match to a desk, letting an unlocked record count, bringing
what counts on the server into the tournament file (once or as events land) and
settling a fork by showing both branches side by side.
"""

from __future__ import annotations

import argparse
import sys


def publish(args: argparse.Namespace) -> int:
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
            server.reserve([m.match_id for m in t.draw_table.matches()])
            server.set_claims(True)
    for match_id, table in report.no_desk:
        print(f"  {match_id}: table {table} has no desk on the server")
    waiting = len(report.waiting)
    print(
        f"published {len(report.published)} matches with their openings"
        + (f"; {waiting} assigned whose pairs are not known yet" if waiting else "")
    )
    return 0


def accept(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(args.url) as server:
        seq, head = server.accept(args.match)
    print(f"accepted match {args.match} up to event {seq} ({head[:12]}…): it counts")
    return 0


def assign(args: argparse.Namespace) -> int:
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(args.url) as server:
        server.assign(args.match, args.desk, None)
        holder = server.assignment(args.match)
    print(f"{args.match} now belongs to {holder.desk_role if holder else args.desk}")
    return 0


def collect(args: argparse.Namespace) -> int:
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


def resolve(args: argparse.Namespace) -> int:
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
