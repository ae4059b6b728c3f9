"""``referee-desk export bracket|results|match|scoresheet|round-pack|players FILE -o OUT``.

FILE is a tournament file (.sqlite) or the organizer's ``postgresql://`` address of the
tournament server; ``match`` also reads a JSON Lines record and
``scoresheet`` accepts ``-`` for a blank sheet. ``--tz`` (the venue's zone, default
+08:00), ``--paper A4|A3`` and ``--fixed-time`` (byte-stable output with that
printed-at time) apply to every PDF. Each function returns an exit status: 0
written, 1 refused (the reason on stderr), 2 unexpected failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee_desk.store.postgres.server import TournamentServer


def _guard(work: Callable[[], str]) -> int:
    """Run ``work`` (returns what was written); errors become one line, never a traceback."""
    try:
        message = work()
    except ValueError as error:  # every typed error of the layers is a ValueError
        print(f"export refused: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except OSError as error:
        print(f"export failed: {error}", file=sys.stderr)
        return 1
    except Exception as error:
        print(f"export failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    print(message)
    return 0


def _options(args: argparse.Namespace):
    """The print options of the command line (zone, paper, fixed time)."""
    from datetime import datetime

    from referee_desk.exports.print_options import OptionError, PrintOptions, parse_tz

    tz = parse_tz(getattr(args, "tz", None))
    paper = getattr(args, "paper", None) or "A4"
    fixed = getattr(args, "fixed_time", None)
    if fixed:
        try:
            when = datetime.fromisoformat(fixed.replace("Z", "+00:00"))
        except ValueError:
            raise OptionError(
                f"--fixed-time {fixed!r}: use an ISO time such as 2026-11-28T09:00+08:00"
            ) from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=tz)
        return PrintOptions(printed_at=when, tz=tz, reproducible=True, paper=paper)
    return PrintOptions(tz=tz, paper=paper)


def _print_notices(notices: list[str]) -> None:
    for notice in notices:
        print(notice, file=sys.stderr)


def _font_warning(font_path: str | None) -> None:
    from referee_desk.exports.fonts import choose_font

    choice = choose_font(font_path)
    if choice.warning:
        print(choice.warning, file=sys.stderr)


def _open(path: str):
    from referee_desk.tournament.repository import Tournament

    return Tournament.open(path, read_only=False)


def _snapshot_pdf(args: argparse.Namespace, export: Callable[..., None], *extra: Any, **named: Any):
    """Write the tournament file's snapshot as a PDF with ``export``; return the snapshot.

    What every PDF of the whole tournament does alike: warn about the font, read the
    print options, take the snapshot, and print the notices the export leaves.
    """
    from referee_desk.exports.snapshot import take_snapshot

    _font_warning(args.font)
    options = _options(args)
    with _open(args.file) as t:
        snap = take_snapshot(t)
    notices: list[str] = []
    export(
        snap, args.output, *extra, **named, font_path=args.font, options=options, notices=notices
    )
    _print_notices(notices)
    return snap


def export_bracket(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.snapshot import take_snapshot
        from referee_desk.exports.xlsx_bracket import export_bracket_xlsx

        options = _options(args)
        with _open(args.file) as t:
            snap = take_snapshot(t)
        export_bracket_xlsx(
            snap, args.output, template=getattr(args, "template", None), options=options
        )
        return f"bracket sheet written: {args.output}" + _problems(snap)

    return _guard(work)


def export_results(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_results import export_results_pdf

        snap = _snapshot_pdf(args, export_results_pdf)
        return f"results written: {args.output}" + _problems(snap)

    return _guard(work)


def _problems(snap) -> str:
    if not snap.problems:
        return ""
    return "\n" + "\n".join(f"note: {p}" for p in snap.problems)


def export_match(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_match_report import export_match_report_pdf

        _font_warning(args.font)
        options = _options(args)
        events, seal, name, drawn, fingerprint, settled = _match_events(args.file, args.match_id)
        notices: list[str] = []
        export_match_report_pdf(
            events, args.output, font_path=args.font, tournament_name=name, drawn=drawn,
            seal=seal, options=options, notices=notices, key_fingerprint=fingerprint,
            settled=settled,
        )  # fmt: skip
        _print_notices(notices)
        what = drawn.match_id if drawn else events[0].match_id
        if drawn and drawn.record_id != drawn.match_id:
            what += f" (record {drawn.record_id})"
        return f"match report of {what} written: {args.output}"

    return _guard(work)


def _settled_lines(server: TournamentServer | None, record_id: str) -> list[str]:
    """A server's settled forks of the record, each naming the branch archived (a file
    settles no forks: none). ``server`` is the open tournament's own connection."""
    if server is None:
        return []
    found = [s for s in server.settlements() if s.match_id == record_id]
    lines = []
    for s in found:
        if s.kept == "server":
            kept = "保留服务器记录 the server's record stands"
            lost = f"{s.desk_role} 的分支 desk {s.desk_role}'s branch"
        else:
            kept = f"保留 {s.desk_role} 的记录 desk {s.desk_role}'s record stands"
            lost = "服务器原记录 the server's former branch"
        lines.append(
            f"分叉已裁定 Fork settled #{s.id} ({s.settled_at}, {s.settled_by}): {kept}; "
            f"存档 archived on the server: {lost}, {s.archived} 条 events from #{s.fork_seq}"
        )
    return lines


def _match_events(path: str, match_id: str | None):
    """(events, seal status or None, tournament name, drawn match or None, key fingerprint,
    settled forks' lines).

    From a .jsonl record, or a tournament file or server where ``match_id`` may be a
    drawn id (``GE-R1-M01``) or the desk's record id (``GL2026-R1-T1``).
    """
    from referee_desk.store.interchange import is_sqlite
    from referee_desk.store.jsonl import read_jsonl
    from referee_desk.store.opener import is_server_address

    # Which kind of input, not which backend: a JSON Lines record is no store (the opener
    # cannot read it) and a desk's file without a tournament is read as a bare record;
    # a tournament, on a file or a server, is opened once by the one opener below.
    if is_server_address(path) or (is_sqlite(path) and _has_tournament(path)):
        return _tournament_match(path, match_id)
    if is_sqlite(path):
        return _desk_file_match(path, match_id)
    if not Path(path).exists():
        raise ValueError(f"{path}: no such file")
    items = read_jsonl(path)
    ids = list(dict.fromkeys(i.event.match_id for i in items))
    mid = _pick(match_id, ids, path)
    return [i.event for i in items if i.event.match_id == mid], None, "", None, "", []


def _tournament_match(path: str, match_id: str | None):
    """A match of a tournament (file or server), titled by its drawn match when it has one."""
    from referee_desk.exports.drawn_match import drawn_id_of, drawn_match
    from referee_desk.exports.seal_status import file_fingerprint, seal_status

    with _open(path) as t:
        drawn_id = drawn_id_of(t, match_id) if match_id else None
        drawn = drawn_match(t, drawn_id) if drawn_id is not None else None
        records = t.file
        mid = _pick(
            t.record_links.all().get(match_id, match_id) if match_id else None,
            records.match_ids(),
            t.path,
        )
        return (
            records.events(mid),
            seal_status(records, mid),
            t.info.name,
            drawn,
            file_fingerprint(records),
            _settled_lines(t.server, drawn.record_id if drawn else mid),
        )


def _desk_file_match(path: str, match_id: str | None):
    """A match of a desk's file that holds no tournament."""
    from referee_desk.exports.seal_status import file_fingerprint, seal_status
    from referee_desk.store.tournament_file import TournamentFile

    with TournamentFile.open(path, create=False, read_only=True) as tf:
        mid = _pick(match_id, tf.match_ids(), path)
        return tf.events(mid), seal_status(tf, mid), "", None, file_fingerprint(tf), []


def _has_tournament(path: str) -> bool:
    import sqlite3

    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tournament_matches'"
        ).fetchone()
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return row is not None


def _pick(match_id: str | None, ids: list[str], path: str) -> str:
    if match_id is None:
        if len(ids) == 1:
            return ids[0]
        raise ValueError(
            f"{path} holds {len(ids)} matches; choose one with --match "
            f"({', '.join(ids[:8])}{' …' if len(ids) > 8 else ''})"
        )
    if match_id not in ids:
        raise ValueError(f"{path}: no record of match {match_id!r}")
    return match_id


def export_scoresheet(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf

        _font_warning(args.font)
        options = _options(args)
        header: dict[str, str] = {}
        ruleset = None
        if args.file != "-":
            with _open(args.file) as t:
                ruleset = t.ruleset
                header = {"tournament": t.info.name, "date": t.info.start_date}
                if args.match_id:
                    header.update(_match_header(t, args.match_id))
        if ruleset is None and getattr(args, "ruleset", None):
            from referee_desk.rules.ruleset import get_ruleset

            ruleset = get_ruleset(args.ruleset)
        kwargs = {} if ruleset is None else {"ruleset": ruleset}
        export_scoresheet_pdf(
            args.output, font_path=args.font, header=header, options=options, **kwargs
        )
        return f"scoresheet written: {args.output}"

    return _guard(work)


def _match_header(t, match_id: str) -> dict[str, str]:
    m = t.draw_table.match(match_id)
    header = {
        "match_id": match_id,
        "round": t.round_name(m),
        "table": m.table,
        "referee": m.referee,
    }
    try:
        payload = t.opening_payload(match_id)
    except ValueError:
        return header  # pairs not known yet: the referee fills them in
    header.update({"pair_ns": payload["pairs"]["NS"], "pair_ew": payload["pairs"]["EW"]})
    header.update(payload["seats"])
    return header


def export_round_pack(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_round_pack import export_round_pack_pdf

        if args.round is None:
            raise ValueError("round-pack needs --round N (1 = the first round played)")
        _snapshot_pdf(args, export_round_pack_pdf, args.round, start=args.start or "")
        return f"round pack of round {args.round} written: {args.output}"

    return _guard(work)


def export_players(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_player_index import export_player_index_pdf

        _snapshot_pdf(args, export_player_index_pdf)
        return f"player index written: {args.output}"

    return _guard(work)
