"""``referee-desk sync FILE URL``: push a desk's new events to the tournament server.

Exit 0 when the server holds every event of the file, 1 when a match is in conflict
(a fork or a match another desk holds: each named with its event; never merged),
2 when the server cannot be reached or refuses the login. With ``--follow`` it keeps
pushing as the file grows (retrying with backoff while the server is down).
"""

from __future__ import annotations

import argparse
import sys
import time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the desk's tournament file (.sqlite)")
    parser.add_argument("url", help="postgresql://desk:password@host:port/database")
    parser.add_argument(
        "--open",
        dest="open_match",
        metavar="MATCH",
        help="first record the server's drawn opening of MATCH in the file (pull)",
    )
    parser.add_argument("--referee", help="with --open: who enters it (default: the draw's)")
    parser.add_argument(
        "--follow", action="store_true", help="keep pushing as the file grows (Ctrl+C stops)"
    )
    parser.add_argument(
        "--take-server",
        metavar="MATCH",
        help="after the organizer kept the server's record of MATCH: take it into the file "
        "(the old file kept whole beside it)",
    )
    parser.add_argument(
        "--lang",
        choices=("zh_CN", "en"),
        help="language of the desk's lines (default: $REFEREE_DESK_LANG, else Chinese)",
    )


def run(args: argparse.Namespace) -> int:
    if args.take_server:
        return _take(args)
    if args.open_match:
        status = _open(args)
        if status:
            return status
    if args.follow:
        return _follow(args)
    from referee_desk.store import StoreError, StoreWriteError
    from referee_desk.store.postgres.address import redact
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.sync import sync_file
    from referee_desk.store.postgres.wording import conflict_words, language, trouble_words

    lang = language(args.lang)
    try:
        report = sync_file(args.file, args.url)
    except (ServerUnreachable, ServerLoginRefused) as error:
        # The desk's words, never libpq's text ("consuming input failed: …").
        print(f"sync: {trouble_words(str(error), lang, redact(args.url))}", file=sys.stderr)
        return 2
    except (StoreError, StoreWriteError) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 1
    for match_id, count in report.pushed.items():
        print(f"  {match_id}: {count} events sent")
    if report.seals:
        print(f"  {report.seals} seals sent (checked by the server)")
    for conflict in report.conflicts:
        print(f"sync: {conflict_words(conflict, lang)}", file=sys.stderr)
        print(f"sync: CONFLICT {conflict}", file=sys.stderr)  # the detail, for the organizer
    print(
        f"sync {args.file}: {report.total_pushed} events sent, "
        f"{len(report.unchanged)} matches already on the server, "
        f"{len(report.conflicts)} in conflict"
    )
    return 1 if report.conflicts else 0


def _take(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError, StoreWriteError
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.take_server import take_server_record
    from referee_desk.store.postgres.wording import language

    try:
        with TournamentServer.open(args.url) as server:
            report = take_server_record(args.file, server, args.take_server)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 2
    except (StoreError, StoreWriteError) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 1
    if language(args.lang) == "zh_CN":
        print(
            f"比赛 {report.match_id}：已取回服务器上的记录（{report.server_events} 条），"
            f"本机原来的文件完整保留为 {report.kept_as}；其他比赛的 {report.other_events} "
            "条记录照旧。"
        )
    else:
        print(
            f"match {report.match_id}: the server's record taken ({report.server_events} "
            f"events); this desk's old file is kept whole as {report.kept_as}; the other "
            f"matches' {report.other_events} events are as they were"
        )
    return 0


def _open(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError, StoreWriteError, TournamentFile
    from referee_desk.store.postgres.errors import ServerLoginRefused, ServerUnreachable
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.postgres.sync import open_or_pull

    try:
        with TournamentServer.open(args.url) as server, TournamentFile.open(args.file) as tf:
            event = open_or_pull(tf, server, args.open_match, referee=args.referee)
    except (ServerUnreachable, ServerLoginRefused) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 2
    except (StoreError, StoreWriteError) as error:
        print(f"sync: {error}", file=sys.stderr)
        return 1
    if isinstance(event, int):  # begun already: the server's record goes on here
        print(f"  {args.open_match}: the server's record taken ({event} events)")
        return 0
    print(f"  {event.match_id}: opened from the server's draw ({event.payload.get('table', '')})")
    return 0


def _follow(args: argparse.Namespace) -> int:
    from referee_desk.cli.terminal import warn_if_password_in
    from referee_desk.store.postgres.address import redact
    from referee_desk.store.postgres.pusher import BackgroundPusher
    from referee_desk.store.postgres.wording import language

    warn_if_password_in(args.url, "sync --follow")
    lang = language(args.lang)
    shown = ""
    with BackgroundPusher(args.file, args.url, interval=1.0, client="sync --follow") as pusher:
        try:
            while True:
                time.sleep(0.25)
                line = follow_line(pusher.state, pusher.last_error, lang, redact(args.url))
                if line != shown:
                    print(line, flush=True)
                    shown = line
        except KeyboardInterrupt:
            return 0


def follow_line(state, last_error: str | None, lang: str, server: str) -> str:
    """The state in the desk's words: each conflict named (match, event, why), the
    events waiting, and why the server is not reached (never libpq's raw text)."""
    from referee_desk.store.postgres.wording import conflict_words, say, trouble_words

    if state.status == "conflict":
        parts = [conflict_words(c, lang) for c in state.conflicts]
        if state.waiting:
            parts.append(say("also_waiting", lang, n=state.waiting))
    elif state.status == "synced":
        parts = [say("synced", lang)]
    else:
        parts = [say(state.status, lang, n=state.waiting)]
    if last_error:
        parts.append(trouble_words(last_error, lang, server))
    return "sync: " + ("；" if lang == "zh_CN" else "; ").join(parts)
