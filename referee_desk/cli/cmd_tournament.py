"""``referee-desk tournament ACTION FILE …``: run a tournament without the desk's window.

FILE is a tournament file, or the organizer's ``postgresql://`` address of a tournament
server holding the tournament: every action works the same on either.

Actions: ``create``, ``add-pair``, ``import-pairs``, ``pairs``, ``draw``, ``assign``,
``import-records``, ``link``, ``lots``, ``matches``, ``standings``, ``opening``, ``copy``,
``simulate``.
Every action prints one readable result; a refusal is one line on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee_desk.store.opener import is_server_address, shown


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    p = sub.add_parser("create", help="create a tournament file")
    p.add_argument("file")
    p.add_argument("--name", required=True, help="tournament name (printed on every page)")
    p.add_argument("--start", default="", help="first day, YYYY-MM-DD")
    p.add_argument("--end", default="", help="last day, YYYY-MM-DD")
    p.add_argument("--venue", default="")
    p.add_argument("--organizer", default="")
    p.add_argument("--tables", default="", help="table names, comma-separated (1号桌,2号桌,…)")
    p.add_argument("--referees", default="", help="referee names, comma-separated")
    p.add_argument("--format", choices=("single", "groups"), default="single")
    p.add_argument("--groups", type=int, default=0, help="number of groups (--format groups)")
    p.add_argument("--advance", type=int, default=2, help="pairs advancing from each group")
    p.add_argument("--third-place", action="store_true", help="play a third-place match")
    p.add_argument(
        "--tie-breaks",
        default="wins,level_diff,head_to_head,lots",
        help="group standings order (wins, level_diff, head_to_head, lots)",
    )
    p.add_argument(
        "--ruleset",
        default="guilin-2009",
        help="preset: guilin-2009 (default), qq-four-deck or three-deck (RULES 12); "
        "frozen at the draw",
    )
    p.add_argument(
        "--param", action="append", default=[], metavar="NAME=VALUE", help="ruleset parameter"
    )

    p = sub.add_parser("add-pair", help="register a pair (before the draw)")
    p.add_argument("file")
    p.add_argument("player1")
    p.add_argument("player2")
    p.add_argument("--club", default="")
    p.add_argument("--seed", type=int)

    p = sub.add_parser("import-pairs", help="register pairs from a CSV or xlsx list")
    p.add_argument("file")
    p.add_argument("list", help="CSV/xlsx with columns player1, player2, club, seed (or 选手1 …)")

    p = sub.add_parser("pairs", help="list the registered pairs")
    p.add_argument("file")

    p = sub.add_parser("draw", help="make the draw (freezes ruleset and settings)")
    p.add_argument("file")
    p.add_argument("--seed", type=int, help="draw seed (recorded; repeats the same lot)")

    p = sub.add_parser("assign", help="put a match on a table and/or give it a referee")
    p.add_argument("file")
    p.add_argument("match")
    p.add_argument("--table")
    p.add_argument("--referee")

    p = sub.add_parser(
        "import-records",
        help="import match records (.jsonl or desk .sqlite); a record under a desk's own id "
        "is linked to the drawn match of its two pairs when that match is certain",
    )
    p.add_argument("file")
    p.add_argument(
        "sources",
        nargs="*",
        help="record files; none: link the records already there (desks pushed them)",
    )
    p.add_argument(
        "--as",
        dest="person",
        metavar="NAME",
        help="sign in as the organizer NAME (needed in a file with PINs; the PIN is asked "
        "for, or read from REFEREE_DESK_PIN)",
    )

    p = sub.add_parser("link", help="count a record kept under a desk's own id for a match")
    p.add_argument("file")
    p.add_argument("record", help="the match id the desk recorded under")
    p.add_argument("match", help="the drawn match it decides")
    p.add_argument("--by", default="", help="who made the link")

    p = sub.add_parser("lots", help="record a drawing of lots for tied pairs of a group")
    p.add_argument("file")
    p.add_argument("group")
    p.add_argument("lots", nargs="+", metavar="PAIR=LOT", help="lower lot ranks higher")
    p.add_argument("--by", default="", help="who drew the lots")

    p = sub.add_parser("matches", help="list every match with its state")
    p.add_argument("file")
    _follow_arguments(p)

    p = sub.add_parser("standings", help="group standings and final places")
    p.add_argument("file")
    _follow_arguments(p)

    p = sub.add_parser(
        "copy",
        help="copy the whole tournament into a new file or onto a server (and back, to archive)",
    )
    p.add_argument("file", help="the tournament to copy (file or organizer's address)")
    p.add_argument("destination", help="a new file, or a server without a tournament")

    p = sub.add_parser("opening", help="print the match_opened payload for a table's desk")
    p.add_argument("file")
    p.add_argument("match")

    p = sub.add_parser(
        "simulate", help="write plausible records for every ready match (demo, training)"
    )
    p.add_argument("file")
    p.add_argument("-o", "--out-dir", required=True, help="folder for one .jsonl per match")
    p.add_argument("--rounds", type=int, default=99, help="play at most this many waves")


def _follow_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--follow",
        action="store_true",
        help="print again whenever a record changes (live on a server; Ctrl+C stops)",
    )
    p.add_argument("--count", type=int, help="with --follow: stop after this many reprints")


def _maybe_follow(args: argparse.Namespace, show) -> int:
    if not args.follow:
        show()
        return 0
    from referee_desk.cli.follow import follow

    return follow(args.file, show, count=args.count)


def run(args: argparse.Namespace) -> int:
    action = ACTIONS[args.action]
    try:
        return action(args)
    except ValueError as error:
        print(f"tournament {args.action} refused: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except OSError as error:
        print(f"tournament {args.action} failed: {error}", file=sys.stderr)
        return 1
    except (RecursionError, OverflowError, LookupError) as error:  # never a traceback
        print(f"tournament {args.action} failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


def _split(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.replace("，", ",").split(",") if x.strip())


def _create(args: argparse.Namespace) -> int:
    from referee_desk.rules.ruleset import get_ruleset
    from referee_desk.tournament.model import Format, Settings, TournamentInfo, parse_tie_breaks
    from referee_desk.tournament.repository import Tournament

    params = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--param {item!r}: use NAME=VALUE")
        params[key.strip()] = _value(value.strip())
    ruleset = get_ruleset(args.ruleset, params)
    settings = Settings(
        format=Format.GROUPS_KNOCKOUT if args.format == "groups" else Format.SINGLE_ELIMINATION,
        third_place=args.third_place,
        group_count=args.groups,
        advance_per_group=args.advance,
        tie_breaks=parse_tie_breaks(args.tie_breaks),
    )
    if settings.format is Format.GROUPS_KNOCKOUT and settings.group_count < 1:
        raise ValueError("--format groups needs --groups N (N ≥ 1)")
    # Kept: what a new tournament starts from differs. A file must be new (a server's
    # database is made by ``server init``, and ``create`` refuses one that holds a
    # tournament); on a server the tables default to its desks, asked before creating.
    on_server = is_server_address(args.file)
    if not on_server and Path(args.file).exists():
        raise ValueError(f"{args.file}: already exists")
    tables = _split(args.tables) or (_server_tables(args.file) if on_server else ())
    info = TournamentInfo(
        args.name,
        args.start,
        args.end or args.start,
        args.venue,
        args.organizer,
        tables,
        _split(args.referees),
    )
    with Tournament.create(args.file, info, settings, ruleset):
        pass
    print(
        f"created {_shown(args.file)}: {args.name} ({settings.format.value}, "
        f"ruleset {ruleset.name})"
    )
    if on_server and tables and not _split(args.tables):
        print(f"tables (the server's desks): {', '.join(tables)}")
    return 0


def _server_tables(url: str) -> tuple[str, ...]:
    """The server's table labels, in table order (a tournament made on it plays there)."""
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(url) as server:
        return tuple(d.table_label for d in server.desks())


def _shown(address: str) -> str:
    """A file name as given; a server address without its password."""
    return shown(address)


def _value(text: str):
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _open(args: argparse.Namespace):
    from referee_desk.tournament.repository import Tournament

    return Tournament.open(args.file)


def _add_pair(args: argparse.Namespace) -> int:
    from referee_desk.tournament.pairs_io import validate_name

    names = [validate_name(n or "", "add-pair") for n in (args.player1, args.player2, args.club)]
    with _open(args) as t:
        pair = t.add_pair(*names, args.seed)
    print(f"pair {pair.pair_id}: {pair.name}")
    return 0


def _import_pairs(args: argparse.Namespace) -> int:
    from referee_desk.tournament.pairs_io import read_pairs

    rows = read_pairs(args.list)
    with _open(args) as t:
        added = t.add_pairs(rows)
    print(f"registered {len(added)} pairs from {args.list}")
    return 0


def _pairs(args: argparse.Namespace) -> int:
    with _open(args) as t:
        for p in t.pairs.all():
            seed = f"[{p.seed}]" if p.seed else ""
            print(f"{p.pair_id:>4} {seed:>5} {p.name}  {p.club}")
    return 0


def _draw(args: argparse.Namespace) -> int:
    with _open(args) as t:
        matches = t.draw(draw_seed=args.seed)
        print(f"drawn: {len(matches)} matches (draw seed {t.draw_seed})")
    return 0


def _assign(args: argparse.Namespace) -> int:
    with _open(args) as t:
        t.draw_table.assign(args.match, table=args.table, referee=args.referee)
        m = t.draw_table.match(args.match)
    print(f"{m.match_id}: table {m.table or '-'}, referee {m.referee or '-'}")
    return 0


def _import_records(args: argparse.Namespace) -> int:
    from referee_desk.cli.cmd_import import read_pin
    from referee_desk.tournament.importing import import_records, link_waiting

    with _open(args) as t:
        by = (
            t.file.people.login(args.person, read_pin())
            if args.person and not t.on_server
            else None
        )
        result = import_records(t, args.sources, by) if args.sources else link_waiting(t)
    for line in result.lines():
        print(line)
    if result.not_in_draw:
        # Records under a desk's own id are linked on import when their pairs name one
        # waiting drawn match; the others wait for the organizer.
        print(
            f"to count one for a drawn match: referee-desk tournament link {_shown(args.file)} "
            "RECORD_ID MATCH_ID"
        )
    return 0 if result.ok else 1


def _link(args: argparse.Namespace) -> int:
    with _open(args) as t:
        t.link(args.record, args.match, by=args.by)
        state = t.state().match(args.match)
        problem = t.outcome_problems.get(args.match)
    print(
        f"record {args.record} now counts for {args.match}: "
        f"{state.status.label_zh} {state.status.value}"
    )
    if problem:
        print(f"problem: {problem}", file=sys.stderr)
        return 1
    return 0


def _lots(args: argparse.Namespace) -> int:
    lots = {}
    for item in args.lots:
        pid, sep, lot = item.partition("=")
        if not sep or not pid.strip().isdigit() or not lot.strip().isdigit():
            raise ValueError(f"{item!r}: use PAIR=LOT (two numbers), e.g. 3=1")
        lots[int(pid)] = int(lot)
    with _open(args) as t:
        t.draw_table.record_lots(args.group, lots, by=args.by)
    print(f"lots recorded for group {args.group}: {lots}")
    return 0


def _matches(args: argparse.Namespace) -> int:
    return _maybe_follow(args, lambda: _print_matches(args))


def _print_matches(args: argparse.Namespace) -> None:
    from referee_desk.exports.labels import decision_text
    from referee_desk.exports.snapshot import take_snapshot

    with _open(args) as t:
        snap = take_snapshot(t)
    for s in snap.state.matches:
        a = snap.pair(s.pair_a)
        b = snap.pair(s.pair_b)
        name_a = a.name if a else s.match.slot_a.describe()
        name_b = b.name if b else s.match.slot_b.describe()
        names = f"{name_a} vs {name_b}"
        won = f" → #{s.winner} {decision_text(s.decided_by)}" if s.winner else ""
        print(
            f"{s.match.match_id:<14} {snap.round_name(s.match):<18} {s.match.table:<6} "
            f"{s.status.value:<8} {names}{won}"
        )
    for p in snap.problems:
        print(f"problem: {p}", flush=True)


def _standings(args: argparse.Namespace) -> int:
    return _maybe_follow(args, lambda: _print_standings(args))


def _print_standings(args: argparse.Namespace) -> None:
    from referee_desk.exports.labels import tie_break_text
    from referee_desk.exports.snapshot import take_snapshot
    from referee_desk.tournament.final_places import final_places

    with _open(args) as t:
        snap = take_snapshot(t)
    if snap.groups:
        print(f"tie-breaks: {tie_break_text(snap.settings.tie_breaks)}")
    for st in snap.state.standings:
        print(f"group {st.group}{'' if st.complete else ' (not finished)'}")
        for r in st.rows:
            p = snap.pair(r.pair_id)
            print(
                f"  {r.rank:>2}{'=' if r.tied else ' '} #{r.pair_id:<4} {p.name if p else '':<24} "
                f"W {r.wins} L {r.losses} Lv {r.level_diff:+d}"
            )
        for tied in st.lots_due:
            print(f"  lots needed: pairs {list(tied)}")
    print("places:")
    for pl in final_places(snap.state, snap.settings):
        p = snap.pair(pl.pair_id)
        label = f"{pl.first}" if pl.first == pl.last else f"{pl.first}–{pl.last}"
        note = f"  ({pl.note})" if pl.note else ""
        print(f"  {label:>8} #{pl.pair_id} {p.name if p else ''}{note}")
    for p in snap.problems:
        print(f"problem: {p}")
    print(end="", flush=True)


def _copy(args: argparse.Namespace) -> int:
    from referee_desk.tournament.copying import copy_tournament

    # A destination file must be new; a server exists already (``copy_tournament``
    # refuses one that holds a tournament).
    if not is_server_address(args.destination) and Path(args.destination).exists():
        raise ValueError(f"{args.destination}: already exists")
    with _open(args) as t:
        report = copy_tournament(t, args.destination)
    print(f"{_shown(args.file)} → {_shown(args.destination)}")
    for line in report.lines():
        print(line)
    return 1 if report.refused else 0


def _opening(args: argparse.Namespace) -> int:
    with _open(args) as t:
        print(json.dumps(t.opening_payload(args.match), ensure_ascii=False, indent=2))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    """Play the ready matches with invented results, wave after wave, importing each wave."""
    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.tournament.importing import import_records
    from referee_desk.tournament.simulate import simulate_match
    from referee_desk.tournament.state import Status

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    with _open(args) as t:
        for _wave in range(args.rounds):
            ready = [s for s in t.state().matches if s.status is Status.READY]
            if not ready:
                break
            files = []
            for k, s in enumerate(ready):
                mid = s.match.match_id
                # Deterministic variety: mostly pass A, some time-outs, a forfeit now and then.
                way = ("passed_a", "time_out", "passed_a", "forfeit", "passed_a")[k % 5]
                if way == "time_out" and t.ruleset.match_minutes is None:
                    way = "passed_a"  # no time limit in this ruleset (12.8)
                # Pair A sits N–S; the better seed (lower id) usually wins, with an upset
                # every seventh match.
                better_a = (s.pair_a or 0) < (s.pair_b or 0)
                winner = "NS" if better_a != (k % 7 == 3) else "EW"
                events = simulate_match(mid, t.opening_payload(mid), winner, way, loser_gains=k % 3)
                path = out / f"{mid}.jsonl"
                write_jsonl(events, path)
                files.append(path)
            result = import_records(t, files)
            written += len(files)
            if not result.ok:
                for line in result.lines():
                    print(line)
                return 1
    print(f"simulated and imported {written} matches; records in {out}")
    return 0


ACTIONS = {
    "create": _create,
    "add-pair": _add_pair,
    "import-pairs": _import_pairs,
    "pairs": _pairs,
    "draw": _draw,
    "assign": _assign,
    "import-records": _import_records,
    "link": _link,
    "lots": _lots,
    "matches": _matches,
    "standings": _standings,
    "opening": _opening,
    "copy": _copy,
    "simulate": _simulate,
}
