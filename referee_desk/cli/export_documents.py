"""``referee-desk export bracket|results|match|scoresheet FILE -o OUT``: the printed documents.

FILE is a tournament file (.sqlite); ``match`` also reads a JSON Lines record and
``scoresheet`` accepts ``-`` for a blank sheet. Each function returns an exit
status: 0 written, 1 refused (the reason on stderr), 2 unexpected failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


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


def _font_warning(font_path: str | None) -> None:
    from referee_desk.exports.fonts import choose_font

    choice = choose_font(font_path)
    if choice.warning:
        print(choice.warning, file=sys.stderr)


def _open(path: str):
    from referee_desk.tournament.repository import Tournament

    return Tournament.open(path, read_only=False)


def export_bracket(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.snapshot import take_snapshot
        from referee_desk.exports.xlsx_bracket import export_bracket_xlsx

        with _open(args.file) as t:
            snap = take_snapshot(t)
        export_bracket_xlsx(snap, args.output, template=getattr(args, "template", None))
        return f"bracket sheet written: {args.output}" + _problems(snap)

    return _guard(work)


def export_results(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_results import export_results_pdf
        from referee_desk.exports.snapshot import take_snapshot

        _font_warning(args.font)
        with _open(args.file) as t:
            snap = take_snapshot(t)
        export_results_pdf(snap, args.output, font_path=args.font)
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
        events, seal_hash, name = _match_events(args.file, args.match_id)
        export_match_report_pdf(
            events, args.output, font_path=args.font, seal_hash=seal_hash, tournament_name=name
        )
        return f"match report of {events[0].match_id} written: {args.output}"

    return _guard(work)


def _match_events(path: str, match_id: str | None):
    """(events, sealed head hash or None, tournament name) from a .jsonl or a tournament file."""
    from referee_desk.store.interchange import is_sqlite
    from referee_desk.store.jsonl import read_jsonl
    from referee_desk.store.tournament_file import TournamentFile

    if is_sqlite(path):
        with TournamentFile.open(path, create=False, read_only=True) as tf:
            ids = tf.match_ids()
            linked = _links(tf.connection)
            mid = _pick(linked.get(match_id, match_id) if match_id else None, ids, path)
            seal = tf.seal(mid)
            events = tf.events(mid)
            name = _tournament_name(tf.connection)
        return events, seal.head_hash if seal else None, name
    if not Path(path).exists():
        raise ValueError(f"{path}: no such file")
    items = read_jsonl(path)
    ids = list(dict.fromkeys(i.event.match_id for i in items))
    mid = _pick(match_id, ids, path)
    return [i.event for i in items if i.event.match_id == mid], None, ""


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


def _links(conn) -> dict[str, str]:
    """Drawn match id -> record id for records kept under a desk's own id."""
    row = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tournament_links'"
    ).fetchone()
    if not row:
        return {}
    return dict(conn.execute("SELECT match_id, record_id FROM tournament_links").fetchall())


def _tournament_name(conn) -> str:
    row = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tournament_info'"
    ).fetchone()
    if not row:
        return ""
    found = conn.execute("SELECT name FROM tournament_info WHERE id = 1").fetchone()
    return found[0] if found else ""


def export_scoresheet(args: argparse.Namespace) -> int:
    def work() -> str:
        from referee_desk.exports.pdf_scoresheet import export_scoresheet_pdf

        _font_warning(args.font)
        header: dict[str, str] = {}
        ruleset = None
        if args.file != "-":
            with _open(args.file) as t:
                ruleset = t.ruleset
                header = {"tournament": t.info.name, "date": t.info.start_date}
                if args.match_id:
                    header.update(_match_header(t, args.match_id))
        kwargs = {} if ruleset is None else {"ruleset": ruleset}
        export_scoresheet_pdf(args.output, font_path=args.font, header=header, **kwargs)
        return f"scoresheet written: {args.output}"

    return _guard(work)


def _match_header(t, match_id: str) -> dict[str, str]:
    m = t.match(match_id)
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
